"""The table a text is shaped for: two players or three to four, action or strategy mode.

The tutorial's lessons, the teaching sheets and their previews are each given for one
:class:`Table`; :class:`TableForm` reads it from a query string (``?players=2&mode=strategy``)
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
class Table:
    """``players`` as the script counts them (2, or 4 for a 3-4 player table) and the Dice
    Time ``mode``. Its ``players_param`` and ``mode`` are the query values."""

    players: int = 4
    mode: str = "action"

    @property
    def players_param(self) -> str:
        return "2" if self.players == 2 else "3-4"

    @property
    def slug(self) -> str:
        """The table's part of a cached file's name."""
        return f"{'2' if self.players == 2 else '34'}-{self.mode}"

    @property
    def subtitle(self) -> str:
        return str(TABLE_NAMES[(self.players, self.mode)])

    @property
    def strategy(self) -> bool:
        return self.mode == "strategy"

    @property
    def two(self) -> bool:
        return self.players == 2

    def query(self) -> dict[str, str]:
        """The query values that choose this table; none for the default table."""
        out = {}
        if self.players != DEFAULT_TABLE.players:
            out["players"] = self.players_param
        if self.mode != DEFAULT_TABLE.mode:
            out["mode"] = self.mode
        return out

    def with_query(self, url: str) -> str:
        """``url`` with this table's query values added (before any ``#fragment``)."""
        query = self.query()
        if not query:
            return url
        base, hash_, fragment = url.partition("#")
        joined = f"{base}{'&' if '?' in base else '?'}{urlencode(query)}"
        return f"{joined}{hash_}{fragment}"

    def options(self) -> dict[str, object]:
        """The table as the teaching scripts read their options (``stored_options``)."""
        return {"players": self.players, "mode": self.mode, "script": "full"}


#: The tables a text is given for, by the URL's ``players`` value.
TABLE_PLAYERS = {"2": 2, "3-4": 4}
TABLE_MODES = ("action", "strategy")
DEFAULT_TABLE = Table()
TABLES = tuple(Table(p, m) for p in TABLE_PLAYERS.values() for m in TABLE_MODES)
TABLE_NAMES = {
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


class TableForm(StrictForm):
    """``players`` (2 or 3-4) and ``mode`` (action or strategy), each defaulting to the
    default table when not sent; :meth:`table` is what was chosen."""

    players = _Loose(choices=[(p, p) for p in TABLE_PLAYERS], default=DEFAULT_TABLE.players_param,
                     invalid=_("Players must be 2 or 3-4, for example ?players=2."))
    mode = _Loose(choices=[(m, m) for m in TABLE_MODES], default=DEFAULT_TABLE.mode,
                  invalid=_("Mode must be action or strategy, for example ?mode=strategy."))

    def table(self) -> Table:
        """The table chosen; only call after :meth:`is_valid` said yes."""
        return Table(TABLE_PLAYERS[self.cleaned_data["players"]], self.cleaned_data["mode"])

    def first_error(self) -> str:
        refusal = self.refusal_of("players") or self.refusal_of("mode") or self.refusal_of(None)
        return str(refusal or "")


def read_table(request) -> tuple[Table, str]:
    """The table a request asks for, and "" — or the default table and the sentence that
    says what could not be read."""
    form = TableForm(request.GET, raw=request.META.get("QUERY_STRING", ""))
    if form.is_valid():
        return form.table(), ""
    return DEFAULT_TABLE, form.first_error()
