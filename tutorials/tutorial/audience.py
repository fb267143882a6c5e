"""The audience a text is shaped for: two players or three to four, action or strategy mode.

The tutorial's lessons, the teaching sheets and their previews are each given for one
:class:`Audience`; :class:`AudienceForm` reads it from a query string (``?players=2&mode=strategy``)
the one way all of them do. Three and four players share one grid, one bell rule and one
script, so the choice is 2 or 3-4.
"""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import urlencode

from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from captain.rules.typed import normalize_typed
from tutorials.forms import DefaultChoiceField, StrictForm


@dataclass(frozen=True)
class Audience:
    """``players`` as the script counts them (2, or 4 for three or four players) and the Dice
    Time ``mode``. Its ``players_param`` and ``mode`` are the query values."""

    players: int = 4
    mode: str = "action"

    @property
    def players_param(self) -> str:
        return "2" if self.players == 2 else "3-4"

    @property
    def slug(self) -> str:
        """The audience's part of a cached file's name."""
        return f"{'2' if self.players == 2 else '34'}-{self.mode}"

    @property
    def subtitle(self) -> str:
        return str(AUDIENCE_NAMES[(self.players, self.mode)])

    @property
    def strategy(self) -> bool:
        return self.mode == "strategy"

    @property
    def two(self) -> bool:
        return self.players == 2

    def query(self) -> dict[str, str]:
        """The query values that choose this audience; none for the default one."""
        out = {}
        if self.players != DEFAULT_AUDIENCE.players:
            out["players"] = self.players_param
        if self.mode != DEFAULT_AUDIENCE.mode:
            out["mode"] = self.mode
        return out

    def with_query(self, url: str) -> str:
        """``url`` with this audience's query values added (before any ``#fragment``)."""
        query = self.query()
        if not query:
            return url
        base, hash_, fragment = url.partition("#")
        joined = f"{base}{'&' if '?' in base else '?'}{urlencode(query)}"
        return f"{joined}{hash_}{fragment}"

    def options(self) -> dict[str, object]:
        """The audience as the teaching scripts read their options (``stored_options``)."""
        return {"players": self.players, "mode": self.mode, "script": "full"}


#: The audiences a text is given for, by the URL's ``players`` value.
AUDIENCE_PLAYERS = {"2": 2, "3-4": 4}
AUDIENCE_MODES = ("action", "strategy")
DEFAULT_AUDIENCE = Audience()
AUDIENCES = tuple(Audience(p, m) for p in AUDIENCE_PLAYERS.values() for m in AUDIENCE_MODES)
AUDIENCE_NAMES = {
    (2, "action"): _("For 2 players in action mode."),
    (2, "strategy"): _("For 2 players in strategy mode."),
    (4, "action"): _("For 3 or 4 players in action mode."),
    (4, "strategy"): _("For 3 or 4 players in strategy mode."),
}


class _Loose(DefaultChoiceField):
    """A choice read as typed into an address bar, as every typed text
    (:func:`~captain.rules.typed.normalize_typed`: spaces around it, full width and
    invisible characters do not matter), capitals neither; not sent, it is the default, but
    sent empty (``?players=``) it is no choice."""

    def to_python(self, value: object) -> str | None:
        return None if value is None else normalize_typed(super().to_python(value), where="choice").lower()

    def clean(self, value: object) -> str:
        if value is not None and not normalize_typed(str(value), where="choice"):
            raise ValidationError(self.error_messages["invalid_choice"], code="invalid_choice")
        return super().clean(value)


class AudienceForm(StrictForm):
    """``players`` (2 or 3-4) and ``mode`` (action or strategy), each defaulting to the
    default audience when not sent; :meth:`audience` is what was chosen."""

    players = _Loose(choices=[(p, p) for p in AUDIENCE_PLAYERS], default=DEFAULT_AUDIENCE.players_param,
                     invalid=_("Players must be 2 or 3-4, for example ?players=2."))
    mode = _Loose(choices=[(m, m) for m in AUDIENCE_MODES], default=DEFAULT_AUDIENCE.mode,
                  invalid=_("Mode must be action or strategy, for example ?mode=strategy."))

    def audience(self) -> Audience:
        """The audience chosen; only call after :meth:`is_valid` said yes."""
        return Audience(AUDIENCE_PLAYERS[self.cleaned_data["players"]], self.cleaned_data["mode"])

    def first_error(self) -> str:
        refusal = self.refusal_of("players") or self.refusal_of("mode") or self.refusal_of(None)
        return str(refusal or "")


def read_audience(request) -> tuple[Audience, str]:
    """The audience a request asks for, and "" — or the default one and the sentence that
    says what could not be read."""
    form = AudienceForm(request.GET, raw=request.META.get("QUERY_STRING", ""))
    if form.is_valid():
        return form.audience(), ""
    return DEFAULT_AUDIENCE, form.first_error()
