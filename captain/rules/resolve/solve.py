"""Answer "what happens here?" for a :class:`~captain.rules.situation.Situation`.

:func:`solve` runs every question that applies: the bell when dice lie on the board,
Battle and Treasure Time when attack cards do, and the end of the round when the
deck size is known. :meth:`Solution.outcome` gives the case-format answer keys.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..events import Event
from ..model import Colour, Position, Treasure
from ..situation import Situation
from .battle import BattleResult
from .bell import BellStatus, bell_status
from .round_end import RoundEnd, end_round
from .treasure import TreasureResult, resolve_round


@dataclass(frozen=True)
class Solution:
    """All answers for one situation; parts that do not apply are ``None``."""

    situation: Situation
    bell: BellStatus | None
    battle: BattleResult | None
    treasure: TreasureResult | None
    round_end: RoundEnd | None

    @property
    def events(self) -> tuple[Event, ...]:
        """Every explanation event in order: bell, battle, treasure, end of round."""
        out: list[Event] = []
        if self.bell:
            out.append(self.bell.event)
        if self.battle:
            out.extend(self.battle.events)
        if self.treasure:
            out.extend(self.treasure.events)
        if self.round_end:
            out.extend(self.round_end.events)
        return tuple(out)

    def won_treasures(self) -> dict[Colour, tuple[Treasure, ...]]:
        """Treasure cards each colour wins this round (faces, for scoring)."""
        if not self.treasure:
            return {c: () for c in self.situation.players}
        board = self.situation.board
        return {c: tuple(board.at(p).treasure for p in ps)  # type: ignore[misc]
                for c, ps in self.treasure.winnings.items()}

    def outcome(self) -> dict[str, object]:
        """The outcome keys of the case format (see tests/cases/README.md)."""
        out: dict[str, object] = {}
        if self.bell:
            out["bell"] = self.bell.may_ring
        if self.battle and self.treasure:
            out["removals"] = [{"by": by.to_json(), "removed": [p.to_json() for p in removed]}
                               for by, removed in self.battle.removals]
            out["survivors"] = [[p.to_json(), c.token]
                                for p, c in sorted(self.battle.survivors.items())]
            out["treasure"] = {c.value: [p.to_json() for p in self.treasure.winnings[c]]
                               for c in self.situation.players}
        if self.round_end:
            out["board_after"] = self.round_end.board_after
            out["game_over"] = self.round_end.game_over
            if self.round_end.game_over:
                out["standings"] = [s.to_json() for s in self.round_end.standings]
                out["winner"] = self.round_end.winner.value if self.round_end.winner else None
        return out


def solve(situation: Situation) -> Solution:
    """Validate ``situation`` and resolve everything that applies to it.

    Raises :class:`~captain.rules.errors.InvalidSituation` (via ``validate``) for
    positions the rules do not allow.
    """
    situation.validate()
    board, seating, rules = situation.board, situation.seating, situation.rules
    occupancy = board.occupancy()  # the census validate took holds it
    bell = bell_status(board, seating, rules) if occupancy.dice else None
    battle = treasure = None
    if occupancy.cards:
        battle, treasure = resolve_round(board, seating, rules)
    round_end = None
    if situation.deck is not None:
        if treasure is not None:
            left = treasure.board.treasure_count()
            # a position won holds a treasure card
            won_now: dict[Colour, tuple[Treasure, ...]] = {
                c: tuple(board.at(p).treasure for p in ps)  # type: ignore[misc]
                for c, ps in treasure.winnings.items()}
        else:
            left = board.treasure_count()
            won_now = {}
        round_end = end_round(cards_left=left, deck=situation.deck, seating=seating,
                              won_before=situation.won, won_now=won_now)
    return Solution(situation, bell, battle, treasure, round_end)


__all__ = ["Solution", "solve", "Position"]
