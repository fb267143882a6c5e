"""The rounds of a practice game as its pages tell them: every round that reached Battle
Time (:class:`PlayedRound`: the position Setting Time left and the public events of its Dice
and Setting Time, with the board after each), replayed from the deal
(:func:`history`); the game page (:mod:`tutorials.play.page`) and the replay
(:mod:`tutorials.play.replay`) read them.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from captain.rules import Situation
from captain.rules.game import apply
from tutorials.web.links import analyzer_url
from tutorials.wording.events import Explanation, explain

#: event codes told in "this round so far" (Battle and Treasure Time have their own steps)
TOLD = ("game.", "dice.", "setting.")
#: the told events that put something on the board: the replay shows the board after each
MOVES = ("dice.claim", "setting.place")


@dataclass(frozen=True)
class PlayedRound:
    """A round that reached Battle Time: its number, the position Setting Time left, and
    the events of its Dice and Setting Time (``told``: public ones only, as "this round so
    far" told them)."""

    number: int
    situation: Situation
    told: tuple = ()
    #: the board after the action that logged each event of ``told`` (same length)
    boards: tuple = ()

    def story(self) -> dict[str, object]:
        """Dice and Setting Time worded: ``ending`` (who rang the bell or filled a line and
        so became start player, DICE-4/5, STRAT-3; or that nobody could act any more),
        ``lines`` every event as ``(explanation, repeated, move)`` (see
        :meth:`GamePage.round_so_far`; ``move`` the number :meth:`move` shows it by, or
        ``None`` for an event that puts nothing on the board)."""
        # the round's grid keeps its shape until Treasure Time: it names the readings its lines need
        told = [explain(e, self.situation.board) for e in self.told]
        ending = next((ex for ex in reversed(told) if ex.code in ("dice.end", "dice.stuck")), None)
        numbers = iter(range(1, len(told) + 1))
        moves = [next(numbers) if e.code in MOVES else None for e in self.told]
        return {"ending": ending, "lines": [(ex, repeated, n) for (ex, repeated), n
                                            in zip(notes_once(told), moves, strict=True)]}

    @cached_property
    def moves(self) -> tuple:
        """The claims (DICE-2) and placements (SET-1) of the round, in order, each as
        ``(event, board after it)``."""
        if len(self.boards) != len(self.told):
            return ()
        return tuple((e, b) for e, b in zip(self.told, self.boards, strict=True) if e.code in MOVES)

    @property
    def analyzer_url(self) -> str:
        return analyzer_url(self.situation)


def history(practice) -> tuple[list[PlayedRound], list]:
    """Every round that reached Battle Time, and the events of the current round's Dice and
    Setting Time (the log replayed from the deal)."""
    state = practice.dealt
    rounds: list[PlayedRound] = []
    current: list = [e for e in state.log if e.code.startswith(TOLD)]
    boards: list = [state.board] * len(current)
    for entry in practice.log:
        before = state
        state = apply(state, entry.action)
        told = [e for e in state.log if e.code.startswith(TOLD)]
        ended = state.last_round is not None and state.last_round is not before.last_round
        current += told
        # the action that ends Setting Time also plays the round: its board is the one it left
        boards += [state.last_round.board if ended else state.board] * len(told)
        if ended:
            won = {p.colour: p.won for p in before.players if p.won}
            rounds.append(PlayedRound(before.round, Situation(
                state.last_round.board, before.seating, before.rules, len(before.deck), won),
                tuple(current), tuple(boards)))
            current, boards = [], []
    return rounds, current


def notes_once(told: list[Explanation]) -> list[tuple[Explanation, bool]]:
    """``(explanation, repeated)``: whether its reading's note was said by a line before."""
    said: set[str] = set()
    out = []
    for ex in told:
        out.append((ex, ex.interpretation in said))
        if ex.interpretation:
            said.add(ex.interpretation)
    return out
