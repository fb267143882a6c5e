"""The forms of teaching a table: the start form, the join form (a table code), the
presenter's moves between sections and the presenter's board actions."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from captain.rules.typed import normalize_typed
from tutorials.forms import (
    COLOUR_VALUES,
    TICKED,
    DefaultChoiceField,
    RuleChoicesForm,
    StrictForm,
    TextField,
    mode_field,
    players_field,
    sentence_of,
)
from tutorials.tutorial.teaching import SCRIPTS


class TeachStartForm(RuleChoicesForm):
    """What a table will be taught: the script, players, seats, mode and rule choices.

    Missing choices take the form's defaults (the quick start, four players in action mode,
    no variants; seats red, blue, green, white). :meth:`options` is the table's options as
    :class:`~tutorials.models.Table` stores them.
    """

    script = DefaultChoiceField(choices=[(s, s) for s in SCRIPTS], default="quick",
                                invalid=_("Choose the quick start or the full script."))
    players = players_field("4")
    seats = forms.MultipleChoiceField(
        choices=[(c, c) for c in COLOUR_VALUES], required=False,
        error_messages={"invalid_choice": _("Choose a colour for every seat: red, blue, green or white.")})
    mode = mode_field("action")

    def clean_together(self, cleaned: dict) -> None:
        players = int(cleaned["players"])
        seats = (cleaned.get("seats") or list(COLOUR_VALUES))[:players]
        if len(seats) < players:
            self.add_error("seats", forms.ValidationError(
                _("Choose a colour for every seat: red, blue, green or white."), code="bad-seats"))
        elif len(set(seats)) < players:
            self.add_error("seats", forms.ValidationError(_("Each seat needs its own colour."),
                                                          code="duplicate-colour"))
        cleaned["seats"] = seats
        super().clean_together(cleaned)

    def options(self) -> dict[str, object]:
        """``{"players", "mode", "script", "variants", "first_edition", "seats"}`` of a valid form."""
        c = self.cleaned_data
        return {"players": int(c["players"]), "mode": c["mode"], "script": c["script"],
                "variants": sorted(c["variants"]), "first_edition": c["first_edition"],
                "seats": list(c["seats"])}

    def chosen(self) -> dict[str, object]:
        """The choices as sent, to show a refused form again as the user left it."""
        return {"players": self.typed("players", "4"), "mode": self.typed("mode", "action"),
                "script": self.typed("script", "quick"), "variants": self.typed_list("variants"),
                "first_edition": self.typed("first_edition").strip().lower() in TICKED,
                "seats": self.typed_list("seats")}


class JoinForm(StrictForm):
    """The table code a guest types to follow a table (any way: full-width, upper case,
    spaces; :func:`~tutorials.models.normalize_code` reads it)."""

    code = TextField(strip=True)

    def code_typed(self) -> str:
        """The code as typed, to show it again: without what draws nothing
        (:func:`~captain.rules.typed.normalize_typed`), in the characters it was typed in."""
        return normalize_typed(self.typed("code"), fold_width=False, where="code")[:16]


def _whole_number(name: str) -> forms.RegexField:
    return forms.RegexField(regex=r"^-?[0-9]{1,9}$", strip=False,
                            error_messages={"invalid": name, "required": name})


class GoForm(StrictForm):
    """The presenter moves the table to section ``to``, from the table's version ``v``."""

    to = _whole_number("to")
    v = _whole_number("v")


class BoardActionForm(StrictForm):
    """A board action on the presenter's screen: ``do`` (the action), ``at`` (its
    argument: a position, a colour letter) and ``v``, the table's version the screen showed
    (the board's forms send it in their address: bind with ``from_address=("v",)``). The
    board judges the action itself; the table, whether it is still at ``v``."""

    do = TextField(max_length=32, required=True)
    at = TextField(max_length=32)
    v = forms.RegexField(regex=r"^[0-9]{1,9}$", strip=False, error_messages={
        "invalid": sentence_of("teach-no-version"), "required": sentence_of("teach-no-version")})

    FIELD_CODES = {"v": "teach-no-version"}

    @property
    def version_seen(self) -> int:
        return int(self.cleaned_data["v"])


class SeatForm(StrictForm):
    """A guest takes the seat of colour ``at`` (``do=take``) or stands up to watch
    (``do=leave``)."""

    do = forms.ChoiceField(choices=[("take", "take"), ("leave", "leave")])
    at = forms.ChoiceField(choices=[(c, c) for c in COLOUR_VALUES], required=False)


class HandForm(StrictForm):
    """A seated guest's card: ``lay`` card ``card`` (a speed) at position ``at``, ``take``
    the card at ``at`` back, or say all cards are down (``ready``) or not yet (``unready``)."""

    do = forms.ChoiceField(choices=[(d, d) for d in ("lay", "take", "ready", "unready")])
    at = TextField(max_length=8)
    card = forms.TypedChoiceField(choices=[(str(v), str(v)) for v in range(6)], coerce=int, required=False,
                                  empty_value=None)


class SeatsForm(StrictForm):
    """The presenter's seat controls: ``free`` the seat of colour ``at``, ``reveal`` the
    cards, reveal when every seated player is done (``auto``, ``at`` = ``on``/``off``), or
    start the ``next-round``; ``v`` is the table's version the screen showed."""

    do = forms.ChoiceField(choices=[(d, d) for d in ("free", "reveal", "auto", "next-round")])
    at = TextField(max_length=8)
    v = _whole_number("v")


class HandoverKeyForm(StrictForm):
    """The key of a presenter handover link, from the link's address: what
    ``secrets.token_urlsafe(24)`` makes (32 URL-safe characters). Anything else opens no
    table and is judged as a wrong key, without telling how it was wrong."""

    key = forms.RegexField(regex=r"^[A-Za-z0-9_-]{32}$", strip=False)

    @classmethod
    def of_address(cls, key: str) -> HandoverKeyForm:
        return cls({"key": key})

    @property
    def key_given(self) -> str | None:
        """The key of a valid form, else ``None`` (which no table's hash opens)."""
        return self.cleaned_data["key"] if self.is_valid() else None
