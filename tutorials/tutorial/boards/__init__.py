"""Interactive example boards of the tutorial, driven by the rules engine.

A board's whole state fits in a short string kept in the page URL
(``?dice=4r_123_s.c0-1``), so every state can be linked, reloaded and reached
without JavaScript: each action is a plain link to
``/<lang>/tutorial/<lesson>/board/<id>/?state=…&do=…``, which htmx swaps in place.
A state string that cannot be read starts the board afresh with a note saying so.

One board per idea: :mod:`.example` (what every board shares), :mod:`.dice`,
:mod:`.stepping` (the worked examples of Battle and Treasure Time), :mod:`.quiz`; the
teaching table's own board is :class:`tutorials.teach.round.RoundBoard`.
"""

from __future__ import annotations

from tutorials.tutorial.boards.dice import DiceBoard
from tutorials.tutorial.boards.example import NOTES, TITLES, ExampleBoard
from tutorials.tutorial.boards.quiz import QUIZ_EXAMPLES, QuizBoard
from tutorials.tutorial.boards.stepping import BattleBoard, TreasureBoard
from tutorials.tutorial.boards.turns import TurnsBoard
from tutorials.tutorial.examples import TREASURE_EXAMPLES, TREASURE_SETS

__all__ = ["NOTES", "QUIZ_EXAMPLES", "TITLES", "BattleBoard", "DiceBoard", "ExampleBoard", "QuizBoard",
           "TreasureBoard", "TurnsBoard", "load", "table_state"]


def table_state(board_id: str, *, players: int, variants=()) -> str:
    """The first state of board ``board_id`` for a table of ``players`` playing ``variants``
    ("" where the board's own first state fits every table): two players get the 3 × 3
    grid and two colours (Dice Time, the battle and the treasure examples), VAR-2 tables
    examples without [5] cards, and under VAR-1 the battle resolves in reversed speed order.
    """
    if board_id in ("dice", "bell") and players == 2:
        return DiceBoard("", board_id, players=2).state()
    if board_id in ("turns", "line") and players == 2:
        return TurnsBoard.preset("", board_id, players=2).state()
    if board_id == "battle" and (players == 2 or "v1" in variants):
        return BattleBoard("", reversed_speed="v1" in variants, two_players=players == 2).state()
    if board_id in TREASURE_SETS[""] and (players == 2 or "v2" in variants):
        return TreasureBoard("", board_id, example_set="t" if players == 2 else "n").state()
    return ""


def load(board_id: str, state: str, *, lesson: str) -> ExampleBoard:
    """The board ``board_id`` of tutorial lesson ``lesson`` in ``state`` ("" = initial).

    Raises ``KeyError`` for an unknown board id. Unreadable states restart the board.
    """
    if board_id in ("dice", "bell"):
        return DiceBoard.from_state(lesson, board_id, state)
    if board_id in ("turns", "line"):
        return TurnsBoard.from_state(lesson, board_id, state)
    if board_id == "battle":
        return BattleBoard.from_state(lesson, state)
    if board_id in TREASURE_EXAMPLES:
        return TreasureBoard.from_state(lesson, board_id, state)
    if board_id in QUIZ_EXAMPLES:
        return QuizBoard.from_state(lesson, board_id, state)
    raise KeyError(board_id)
