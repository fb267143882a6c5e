"""Action mode of the practice game: real time, DICE-1..7.

The learner rolls, claims and rings with the same POST forms as in strategy mode; the
captains act at their pace (:mod:`captain.rules.captains.pace`) on the game's clock, played
by whichever request comes after their moment (:func:`tutorials.practice.games.catch_up`).
The game page has one way to stay current, in either mode: a timed request. Each game area
says when the captains' next action is due (:attr:`Live.due_ms`, from the engine's
``next_due``) and asks for the game area again then (:attr:`Live.poll_url`); the learner's
own moves answer with the area too. While the learner is to act nothing is due and the
page does not ask: with one viewer, the game changes only by a request. A request that
finds the game still at the page's version (a captain's tick that did nothing) answers
with the next timed request alone (:func:`unchanged`), so neither the page nor the focus
moves. Without JavaScript the page offers a link that shows the game as it stands now.

In real-time Dice Time a move is made against the game as it stands when it arrives, not
the version its page showed (the captains move the game on all the time): a claim on a
card a captain took a moment earlier is refused by the rules (DICE-2, with the clause), not
as a stale page.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from functools import cached_property
from urllib.parse import urlencode

from django.utils.formats import number_format
from django.utils.translation import gettext_lazy

from captain.rules.captains.pace import Pace
from captain.rules.game import Phase
from captain.rules.resolve.bell import bell_status
from captain.rules.situation import Mode
from tutorials.forms import Query
from tutorials.models import Stale
from tutorials.practice import games
from tutorials.wording.clauses import clause_summary

#: the engine's paces (captain.rules.captains.pace.Pace), slowest first, as the form names them;
#: each says in seconds what it means, from the pace's own numbers
PACES = {
    Pace.FIRST_GAME: gettext_lazy("Slow, for a first game: no captain moves in the first %(opening)s s of "
                                  "Dice Time, then one captain move every %(gap)s s at most"),
    Pace.TABLE: gettext_lazy("Brisk, for players who know the game: each captain moves about every "
                             "%(every)s s"),
    Pace.QUICK: gettext_lazy("Fast, for experienced players: each captain moves about every %(every)s s"),
    Pace.FASTEST: gettext_lazy("Fastest: each captain moves about every %(every)s s, as fast as the "
                               "computer can"),
}


def pace_choices() -> list[tuple[str, str]]:
    """``(value, label)`` of every pace, its seconds in the active language's number format."""
    def seconds(value: float) -> str:  # 5, 0.8, 0.05: the digits that matter, no more
        shown = round(value, 1) if value >= 0.1 else round(value, 2)
        decimals = 0 if shown == int(shown) else len(repr(shown).split(".")[1])
        return number_format(shown, decimal_pos=decimals)

    return [(pace.value, str(label) % {"opening": seconds(pace.opening_seconds),
                                       "gap": seconds(pace.gap_seconds),
                                       "every": seconds(1 / pace.actions_per_second)})
            for pace, label in PACES.items()]


#: the page asks this long after the captains' next action is due, so that the answering
#: server's clock has passed that moment (milliseconds)
DUE_MARGIN_MS = 30
#: moves made against the game as it stands (see the module docstring)
_LIVE_MOVES = ("roll", "claim", "ring-bell")


def form_context() -> dict:
    return {"paces": pace_choices(), "first_edition_summary": clause_summary("VAR-4")}


class Live:
    """What the game page shows of action mode (``on`` is False in strategy mode), and when
    it asks for the game area again (in either mode)."""

    def __init__(self, page) -> None:
        self.page = page
        practice = page.practice
        self.state = practice.state
        self.on = self.state.rules.mode is Mode.ACTION

    @property
    def dice_time(self) -> bool:
        """Real-time Dice Time, the round not yet resolved."""
        return self.on and self.state.phase is Phase.DICE and not self.page.showing_round

    @cached_property
    def due_ms(self) -> int | None:
        """Milliseconds until the page asks for the game area again: when the captains'
        next action is due (:func:`~tutorials.practice.games.due_in`: a captain's tick in
        action mode, a captain on turn at once in strategy mode); ``None`` while the learner
        is to act (between rounds too) or the game is over."""
        due = games.due_in(self.page.game, self.page.practice)
        return None if due is None else round(due * 1000) + DUE_MARGIN_MS

    @property
    def poll_url(self) -> str:
        """The game area at a version other than this page's; a hint asked for stays asked
        for, worked out again for the board as it stands."""
        query = {"version": self.page.version}
        if self.page.hint_level:
            query["hint"] = self.page.hint_level
        return f"{self.page.page_url}?{urlencode(query)}"

    @property
    def can_ring(self) -> bool:
        """The bell condition holds now (DICE-4/5, VAR-3/4): a ring ends Dice Time."""
        return any(a["type"] == "ring-bell" for a in self.page.actions)

    @property
    def may_press_bell(self) -> bool:
        """The bell button is there all Dice Time, as the real bell is: spotting the
        condition is part of the game, and ringing before it holds is a false bell
        (DICE-6), refused for the rest of this Dice Time."""
        return self.dice_time and not self.false_bell

    @property
    def false_bell(self) -> bool:
        return self.dice_time and self.page.me.false_bell

    @property
    def bell(self) -> dict:
        """The bell condition in force: its clause and statement (DICE-4/5, VAR-3/4)."""
        state = self.state
        status = bell_status(state.board, state.seating, state.rules)
        return {"clause": status.clause, "text": clause_summary(status.clause)}

    @property
    def roll_faces(self) -> list[int]:
        return list(self.page.me.dice) if any(a["type"] == "roll" for a in self.page.actions) else []


def unchanged(request, game) -> bool:
    """A timed request (htmx, ``version`` in the address) for the version the game is still at."""
    raw = Query(request).get("version", "")
    return bool(request.htmx) and bool(re.fullmatch(r"[0-9]{1,8}", raw)) and int(raw) == game.version


def play_live(game, practice, move: Mapping[str, object], version: int):
    """:func:`games.play` — in real-time Dice Time against the game as it stands now (once
    more if a timed request stored the captains' moves at the same moment)."""
    if practice.state.rules.mode is not Mode.ACTION or move.get("type") not in _LIVE_MOVES:
        return games.play(game, practice, move, version)
    for attempt in range(3):
        try:
            return games.play(game, practice, move, game.version)
        except Stale:
            if attempt == 2:
                raise
            game.refresh_from_db()
            practice = games.practice_of(game)
    raise AssertionError("unreachable")
