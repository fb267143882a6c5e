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
from tutorials.tutorial.examples import TREASURE_EXAMPLES

__all__ = ["NOTES", "QUIZ_EXAMPLES", "TITLES", "BattleBoard", "DiceBoard", "ExampleBoard", "QuizBoard",
           "TreasureBoard", "load"]


def load(board_id: str, state: str, *, lesson: str) -> ExampleBoard:
    """The board ``board_id`` of tutorial lesson ``lesson`` in ``state`` ("" = initial).

    Raises ``KeyError`` for an unknown board id. Unreadable states restart the board.
    """
    if board_id in ("dice", "bell"):
        return DiceBoard.from_state(lesson, board_id, state)
    if board_id == "battle":
        return BattleBoard.from_state(lesson, state)
    if board_id in TREASURE_EXAMPLES:
        return TreasureBoard.from_state(lesson, board_id, state)
    if board_id in QUIZ_EXAMPLES:
        return QuizBoard.from_state(lesson, board_id, state)
    raise KeyError(board_id)
