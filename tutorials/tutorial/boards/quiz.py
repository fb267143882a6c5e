"""The predict-the-outcome checks: one card changed, tap the positions you expect."""

from __future__ import annotations

import random
import re

from django.utils.translation import gettext as _

from captain.rules import Position, Situation
from tutorials.drawing.cells import CellView, board_cells
from tutorials.http.positions import position_arg, read_position
from tutorials.walkthrough import Walkthrough
from tutorials.tutorial.quiz import for_examples
from tutorials.wording.events import Explanation, explain
from tutorials.wording.phrases import card_phrase
from tutorials.wording.glossary import COLOUR_NAMES, position_label
from tutorials.tutorial.boards.example import ExampleBoard

#: the state: question, picks (written ``0-1.1-2``, or before ``0112``), checked or not
_STATE = re.compile(r"[0-9]{1,3}_(?:[0-9]-[0-9](?:\.[0-9]-[0-9]){0,19}|(?:[0-9][0-9]){0,20})_c?")
#: the worked examples each check's questions change, by board id
QUIZ_EXAMPLES = {"quiz-battle": ("battle",), "quiz-treasure": ("sandwich", "block", "priority")}


class QuizBoard(ExampleBoard):
    """A predict-the-outcome check: tap the positions you expect, then check.

    State: ``<question>_<selected positions>_<c if checked>``, the positions as every link
    writes them, joined by dots (``3_0-1.1-2_c``); states written before, with two digits
    each and no dots (``3_0112_c``), are read too.
    """

    template = "tutorials/boards/quiz.html"
    LINKS = (("check", "check", ""), ("another", "another", ""), ("clear", "clear", ""))

    def __init__(self, lesson: str, board_id: str, index: int = 0,
                 selected: frozenset[Position] = frozenset(), checked: bool = False) -> None:
        super().__init__(lesson)

        self.board_id = board_id
        self.pool = for_examples(QUIZ_EXAMPLES[board_id])
        self.index = index % len(self.pool)
        self.question = self.pool[self.index]
        self.selected = frozenset(p for p in selected if p in self.question.situation.board)
        self.checked = checked

    def state(self) -> str:
        sel = ".".join(position_arg(p) for p in sorted(self.selected))
        return f"{self.index}_{sel}_{'c' if self.checked else ''}"

    @classmethod
    def from_state(cls, lesson: str, board_id: str, state: str) -> QuizBoard:
        if not state:
            return cls(lesson, board_id)
        try:
            if not _STATE.fullmatch(state):
                raise ValueError(state)
            index_s, sel_s, flag = state.split("_")
            picks = (sel_s.split(".") if "-" in sel_s
                     else [sel_s[i:i + 2] for i in range(0, len(sel_s), 2)])  # written before: 0112
            selected = frozenset(read_position(p) for p in picks if p)
            return cls(lesson, board_id, int(index_s), selected, flag == "c")
        except (ValueError, IndexError):
            board = cls(lesson, board_id)
            board.note = "reset"
            return board

    def situation(self) -> Situation:
        return self.question.situation

    def apply(self, action: str, arg: str, rng: random.Random) -> QuizBoard:
        if action == "toggle" and not self.checked:
            pos = read_position(arg)
            if pos is None:
                return self
            return QuizBoard(self.lesson, self.board_id, self.index, self.selected ^ {pos})
        if action == "check":
            return QuizBoard(self.lesson, self.board_id, self.index, self.selected, True)
        if action == "clear":
            return QuizBoard(self.lesson, self.board_id, self.index)
        if action == "another":
            return QuizBoard(self.lesson, self.board_id, self.index + 1 + rng.randrange(len(self.pool) - 1))
        return self

    # view -------------------------------------------------------------------------------
    @property
    def correct(self) -> bool:
        return self.selected == self.question.answer

    def prompt(self) -> str:
        q = self.question
        if q.kind == "survivors":
            return _("Which cards survive Battle Time now? Tap them, then check.")
        # the board shows the cards as placed: the changed card may change the battle too
        return _("These are the cards as placed, before Battle Time. Play Battle Time first, then "
                 "Treasure Time: which treasure cards does %(colour)s win now? Tap them, then "
                 "check.") % {"colour": COLOUR_NAMES[q.colour]}

    def change_text(self) -> str:
        c = self.question.change
        if c.start_player is not None:
            return _("The change: %(colour)s is the start player now.") % {
                "colour": COLOUR_NAMES[c.start_player]}
        # Translators: %(new)s is a card phrase as the subject, %(old)s one after a preposition.
        return _("The change: at %(pos)s, %(old)s became %(new)s.") % {
            "pos": position_label(c.position), "old": card_phrase(c.old.token, "after preposition"),
            "new": card_phrase(c.new.token, "subject")}

    def rows(self) -> list[list[CellView]]:
        if self.checked:
            walk = Walkthrough(self.question.situation)
            kind = "battle-done" if self.question.kind == "survivors" else "end"
            index = max(i for i, s in enumerate(walk.steps) if s.kind == kind)
            grid = walk.cells(index, ghost_collected=False)
        else:
            grid = board_cells(self.question.situation.board)
        for row in grid:
            for cell in row:
                if cell.pos == self.question.change.position:
                    cell.classes.append("acting")
                    cell.notes.append(_("this card was changed"))
                if self.checked:
                    right = cell.pos in self.question.answer
                    picked = cell.pos in self.selected
                    if right and picked:
                        cell.classes.append("right")
                        cell.notes.append(_("your pick, and right"))
                    elif right:
                        cell.classes.append("missed")
                        cell.notes.append(_("you missed this one"))
                    elif picked:
                        cell.classes.append("wrong")
                        cell.notes.append(_("not part of the answer"))
                else:  # a picked card is taken back the same way it was picked
                    if cell.pos in self.selected:
                        cell.classes.append("picked")
                        cell.notes.append(_("your pick"))
                    cell.href = self.action_url("toggle", position_arg(cell.pos))
        return grid

    def explanations(self) -> list[Explanation]:
        if not self.checked:
            return []
        walk = Walkthrough(self.question.situation)
        items = walk.explanations(len(walk.steps) - 1)
        if self.question.kind == "survivors":
            return [e for e in items if e.code.startswith("battle.") and e.code != "battle.reveal"]
        # the battle steps that removed something explain why a treasure card was lost
        acted = [walk.solution.battle.turns[i].event for i in range(len(walk.solution.battle.turns))
                 if walk.solution.battle.turns[i].removed] if walk.solution.battle else []

        return [explain(e) for e in acted] + [
            e for e in items if e.code.startswith("treasure.") and e.code != "treasure.discard"]

    def answer_labels(self) -> list[str]:
        return [position_label(p) for p in sorted(self.question.answer)]
