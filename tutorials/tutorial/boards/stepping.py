"""The worked examples stepped through: Battle Time (EX-BATTLE) and Treasure Time
(EX-SANDWICH, EX-BLOCK, EX-PRIORITY), each the walkthrough's steps of its part of the round."""

from __future__ import annotations

import random
import re
from functools import cached_property

from captain.rules import Board, Colour, RuleSet, Seating, Situation, SpeedOrder
from captain.rules.resolve.battle import BattleResult
from captain.rules.situation import Collection
from tutorials.drawing.cells import CellView
from tutorials.tutorial.boards.example import ExampleBoard
from tutorials.tutorial.examples import (
    EX_BATTLE,
    EX_BATTLE_2P,
    EX_BATTLE_2P_SEATS,
    EX_BATTLE_SEATS,
    TREASURE_SETS,
)
from tutorials.walkthrough import StepNav, Walkthrough
from tutorials.wording.clauses import reading_label
from tutorials.wording.events import Explanation
from tutorials.wording.glossary import COLOUR_NAMES


def _step_arg(arg: str, current: int) -> int:
    """A step number posted or linked by a board's moves; anything else stays put."""
    return int(arg) if re.fullmatch(r"[0-9]{1,2}", arg) else current


class BattleBoard(ExampleBoard):
    """EX-BATTLE step by step: the cards face down, then the walkthrough's steps from the
    reveal to the end of Battle Time. State: ``0`` face down, ``k`` the walkthrough's step
    ``k - 1``; an ``r`` in front when the table plays VAR-1 (reversed speed order), a ``t``
    when it has two players (the two-player example on the 3 × 3 grid, :data:`EX_BATTLE_2P`)."""

    board_id = "battle"
    template = "tutorials/boards/battle.html"
    LINKS = (("reveal", "step", "1"),)

    def __init__(self, lesson: str, k: int = 0, *, reversed_speed: bool = False,
                 two_players: bool = False) -> None:
        super().__init__(lesson)
        seats, rows = (EX_BATTLE_2P_SEATS, EX_BATTLE_2P) if two_players else (EX_BATTLE_SEATS, EX_BATTLE)
        self.seating = Seating(seats, seats[0])
        self.board = Board.parse(rows)
        self.reversed_speed = reversed_speed
        self.two_players = two_players
        self.rules = RuleSet(speed_order=SpeedOrder.REVERSED) if reversed_speed else RuleSet()
        self.walk = Walkthrough(self.situation())
        self.result: BattleResult = self.walk.solution.battle  # type: ignore[assignment]
        #: the last state: the walkthrough's "after Battle Time"
        self.last = self.walk.index("battle-done") + 1
        self.k = max(0, min(k, self.last))

    def situation(self) -> Situation:
        return Situation(self.board, self.seating, self.rules)

    def state(self) -> str:
        return f"{'r' if self.reversed_speed else ''}{'t' if self.two_players else ''}{self.k}"

    @classmethod
    def from_state(cls, lesson: str, state: str) -> BattleBoard:
        if not state:
            return cls(lesson)
        match = re.fullmatch(r"(r?)(t?)([0-9]{1,2})", state)
        if not match:
            board = cls(lesson)
            board.note = "reset"
            return board
        return cls(lesson, int(match[3]), reversed_speed=bool(match[1]), two_players=bool(match[2]))

    def apply(self, action: str, arg: str, rng: random.Random) -> BattleBoard:
        k = _step_arg(arg, self.k) if action == "step" else self.k
        return BattleBoard(self.lesson, k, reversed_speed=self.reversed_speed, two_players=self.two_players)

    @property
    def revealed(self) -> bool:
        return self.k >= 1

    @property
    def finished(self) -> bool:
        return self.k == self.last

    @cached_property
    def nav(self) -> StepNav | None:
        """Once the cards are revealed: the steps from the reveal to the end of Battle Time."""
        if not self.revealed:
            return None
        return StepNav(self.walk, self.k - 1, lambda j: self.action_url("step", str(j + 1)),
                       anchor=self.anchor, last=self.last - 1, post_url=self.post_url,
                       readonly=self.readonly, push=False)

    def rows(self) -> list[list[CellView]]:
        """The board at this step, drawn by the walkthrough; face down before the reveal."""
        grid = self.walk.cells(max(0, self.k - 1))
        if not self.revealed:
            for row in grid:
                for cell in row:
                    cell.face_down = cell.card is not None
        return grid

    def turns(self) -> list[Explanation]:
        """What each card's turn does, in order (the teaching script tells them)."""
        return self.walk.explanations(self.last - 2, first=1)


# --- Treasure Time ------------------------------------------------------------------------
class TreasureBoard(ExampleBoard):
    """EX-SANDWICH / EX-BLOCK / EX-PRIORITY: collect player by player (INT-1), the
    walkthrough's steps from the end of Battle Time to the end of the round.

    State: ``[set]<k><start letter>``: the example set (none: the official examples; ``n``
    without [5] cards for VAR-2 tables; ``t`` two players on the 3 × 3 grid, see
    :data:`TREASURE_SETS`), ``k`` steps shown after Battle Time (``k`` players have
    collected; one more is the end of the round), the start player (EX-BLOCK lets the
    visitor switch it to see INT-1 at work).
    """

    template = "tutorials/boards/treasure.html"

    def __init__(self, lesson: str, board_id: str, k: int = 0, start: Colour | None = None,
                 example_set: str = "") -> None:
        super().__init__(lesson)
        self.board_id = board_id
        self.example_set = example_set if example_set in TREASURE_SETS else ""
        rows, players, default_start = TREASURE_SETS[self.example_set][board_id]
        self.start = start if start in players else default_start
        self.seating = Seating(players, self.start)
        self.board = Board.parse(rows)
        self.walk = Walkthrough(self.situation())
        self.first = self.walk.index("battle-done")
        self.k = max(0, min(k, len(self.walk.steps) - 1 - self.first))

    def state(self) -> str:
        return f"{self.example_set}{self.k}{self.start.letter}"

    def situation(self) -> Situation:
        return Situation(self.board, self.seating)

    @classmethod
    def from_state(cls, lesson: str, board_id: str, state: str) -> TreasureBoard:
        if not state:
            return cls(lesson, board_id)
        match = re.fullmatch(r"([nt]?)([0-5])([rbgw])", state)
        if not match:
            board = cls(lesson, board_id)
            board.note = "reset"
            return board
        return cls(lesson, board_id, int(match[2]), Colour.from_letter(match[3]), match[1])

    def apply(self, action: str, arg: str, rng: random.Random) -> TreasureBoard:
        if action == "start":
            chosen = next((c for c in self.seating.players if c.letter == arg), None)
            return TreasureBoard(self.lesson, self.board_id, 0, chosen or self.start, self.example_set)
        k = _step_arg(arg, self.first + self.k) - self.first if action == "step" else self.k
        return TreasureBoard(self.lesson, self.board_id, k, self.start, self.example_set)

    @property
    def finished(self) -> bool:
        return self.nav.at_end

    @cached_property
    def nav(self) -> StepNav:
        return StepNav(self.walk, self.first + self.k, lambda j: self.action_url("step", str(j)),
                       anchor=self.anchor, first=self.first, post_url=self.post_url,
                       readonly=self.readonly, push=False)

    def rows(self) -> list[list[CellView]]:
        """The board at this step, drawn by the walkthrough."""
        return self.walk.cells(self.nav.k)

    @property
    def collection_label(self) -> str:
        """How this board collects (INT-1), labelled as this site's reading or the other one."""
        return reading_label("INT-1", other=self.situation().rules.collection is Collection.SIMULTANEOUS)

    def start_choices(self) -> list[dict]:
        if self.board_id != "block":
            return []
        return [{"colour": c, "name": COLOUR_NAMES[c], "active": c == self.start,
                 "href": self.action_url("start", c.letter)} for c in self.seating.players]
