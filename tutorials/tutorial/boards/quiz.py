"""The scored checks: one per phase, each answered by tapping positions or a choice.

The questions and their answers come from the engine (:mod:`tutorials.tutorial.checks`;
Battle and Treasure Time change one card of a worked example, :mod:`tutorials.tutorial.quiz`).
"""

from __future__ import annotations

import random
import re

from django.utils.translation import gettext as _

from captain.rules import Colour, Situation
from tutorials.drawing.cells import CellView, board_cells
from tutorials.tutorial.boards.check_words import MARKS, choice_label, prompt, rule_notes
from tutorials.tutorial.boards.example import ExampleBoard
from tutorials.tutorial.checks import CHECK_KINDS, order, pool
from tutorials.walkthrough import Walkthrough
from tutorials.web.positions import position_arg, read_position
from tutorials.wording.events import Explanation, explain
from tutorials.wording.glossary import COLOUR_NAMES, position_label
from tutorials.wording.phrases import card_phrase

_PICKS = r"(?:[0-9]-[0-9](?:\.[0-9]-[0-9]){0,19}|(?:[0-9][0-9]){0,20}|[a-f])"
#: the state: place in the order, picks, a flag, then the score (right, asked). States
#: written before the score existed (``3_0-1.1-2_c``) name a question of the pool instead
_STATE = re.compile(rf"[0-9]{{1,3}}_{_PICKS}_[ct]?(?:_[0-9]{{1,4}}_[0-9]{{1,4}})?")
#: the checks, by board id (the Battle and Treasure Time ones first existed alone)
QUIZ_EXAMPLES = CHECK_KINDS
_CHOICE_LETTERS = "abcdef"


class QuizBoard(ExampleBoard):
    """A scored check: answer the question shown, check, and go on to the next one.

    "Another question" walks the check's questions in a fixed order (:func:`order`), so
    each comes once before any comes back. The score of the questions answered so far
    travels in the state, so it needs no JavaScript and no cookie.

    State: ``<place>_<picks>_<flag>_<right>_<asked>``: the place in the order; the picked
    positions as every link writes them, joined by dots (``0-1.1-2``), or the letter of
    the choice taken; the flag ``c`` once checked, ``t`` when tried again after a check
    (so a second check does not count twice). States without the score read their first
    number as the question, the way they were written.
    """

    template = "tutorials/boards/quiz.html"
    LINKS = (("check", "check", ""), ("another", "another", ""), ("clear", "clear", ""))

    def __init__(self, lesson: str, board_id: str, position: int = 0,
                 selected: frozenset = frozenset(), checked: bool = False, *,
                 right: int = 0, asked: int = 0, scored: bool = False) -> None:
        super().__init__(lesson)

        self.board_id = board_id
        self.pool = pool(board_id)
        self.order = order(board_id)
        self.position = position % len(self.pool)
        self.index = self.order[self.position]
        self.question = self.pool[self.index]
        allowed = set(self.question.choices) or set(self.question.situation.board.positions())
        self.selected = frozenset(p for p in selected if p in allowed)
        self.checked = checked
        self.right, self.asked = min(right, asked), asked
        #: this question's answer is in the score already (checked, then tried again)
        self.scored = scored or checked

    def _next(self, **changes) -> QuizBoard:
        args = {"position": self.position, "selected": self.selected, "checked": False,
                "right": self.right, "asked": self.asked, "scored": self.scored, **changes}
        return QuizBoard(self.lesson, self.board_id, args.pop("position"), args.pop("selected"),
                         args.pop("checked"), **args)

    def state(self) -> str:
        if self.choices:
            sel = "".join(_CHOICE_LETTERS[self.choices.index(k)] for k in self.selected)
        else:
            sel = ".".join(position_arg(p) for p in sorted(self.selected))
        flag = "c" if self.checked else "t" if self.scored else ""
        return f"{self.position}_{sel}_{flag}_{self.right}_{self.asked}"

    @classmethod
    def from_state(cls, lesson: str, board_id: str, state: str) -> QuizBoard:
        if not state:
            return cls(lesson, board_id)
        try:
            if not _STATE.fullmatch(state):
                raise ValueError(state)
            parts = state.split("_")
            first, sel_s, flag = parts[:3]
            right, asked = (int(parts[3]), int(parts[4])) if len(parts) == 5 else (0, 0)
            n = len(pool(board_id))
            # written before the order existed: the number names a question of the pool
            position = int(first) if len(parts) == 5 else order(board_id).index(int(first) % n)
            choices = pool(board_id)[order(board_id)[position % n]].choices
            if choices:
                selected = frozenset(choices[_CHOICE_LETTERS.index(c)] for c in sel_s
                                     if _CHOICE_LETTERS.index(c) < len(choices))
            else:
                picks = (sel_s.split(".") if "-" in sel_s
                         else [sel_s[i:i + 2] for i in range(0, len(sel_s), 2)])  # written before: 0112
                selected = frozenset(p for p in map(read_position, picks) if p is not None)
            return cls(lesson, board_id, position, selected, flag == "c", right=right, asked=asked,
                       scored=flag == "t")
        except (ValueError, IndexError):
            board = cls(lesson, board_id)
            board.note = "reset"
            return board

    def situation(self) -> Situation:
        return self.question.situation

    def apply(self, action: str, arg: str, rng: random.Random) -> QuizBoard:
        if action == "toggle" and not self.checked and not self.choices:
            pos = read_position(arg)
            if pos is None:
                return self
            return self._next(selected=self.selected ^ {pos})
        if action == "choose" and not self.checked and arg in _CHOICE_LETTERS[:len(self.choices)]:
            return self._next(selected=frozenset({self.choices[_CHOICE_LETTERS.index(arg)]}))._checked()
        if action == "check" and not self.checked:
            return self._checked()
        if action == "clear":
            return self._next(selected=frozenset())
        if action == "another":  # the next question in the order: all come before any repeats
            return self._next(position=self.position + 1, selected=frozenset(), scored=False)
        return self

    def _checked(self) -> QuizBoard:
        """This answer checked; the first check of a question counts in the score."""
        if self.scored:
            return self._next(checked=True)
        return self._next(checked=True, right=self.right + self.correct, asked=self.asked + 1, scored=True)

    # view -------------------------------------------------------------------------------
    @property
    def choices(self) -> tuple[str, ...]:
        return self.question.choices

    @property
    def number(self) -> int:
        """This question's number in the walk through all of them (from 1)."""
        return self.position + 1

    @property
    def total(self) -> int:
        return len(self.pool)

    @property
    def correct(self) -> bool:
        return self.selected == self.question.answer

    def prompt(self) -> str:
        q = self.question
        if q.kind == "survivors":
            return _("Which cards survive Battle Time now? Choose them, then check.")
        if q.kind == "winnings":
            # the board shows the cards as placed: the changed card may change the battle too
            return _("These are the cards as placed, before Battle Time. Play Battle Time first, then "
                     "Treasure Time: which treasure cards does %(colour)s win now? Choose them, then "
                     "check.") % {"colour": COLOUR_NAMES[q.colour]}
        return prompt(q)

    def change_text(self) -> str:
        c = self.question.change
        if c is None:
            return ""
        if c.start_player is not None:
            return _("The change: %(colour)s is the start player now.") % {
                "colour": COLOUR_NAMES[c.start_player]}
        # Translators: %(new)s is a card phrase as the subject, %(old)s one after a preposition.
        return _("The change: at %(pos)s, %(old)s became %(new)s.") % {
            "pos": position_label(c.position), "old": card_phrase(c.old.token, "after preposition"),
            "new": card_phrase(c.new.token, "subject")}

    def _mark(self, picked: bool, right: bool) -> str:
        """``right``, ``wrong``, ``missed`` or "" for an answered cell or choice."""
        return "right" if picked and right else "wrong" if picked else "missed" if right else ""

    def choice_items(self) -> list[dict]:
        """The choices to take (links), or once checked, each with its mark."""
        items = []
        for letter, key in zip(_CHOICE_LETTERS, self.choices, strict=False):
            mark = self._mark(key in self.selected, key in self.question.answer) if self.checked else ""
            symbol, words = MARKS.get(mark, ("", ""))
            url = None if self.checked else self.action_url("choose", letter)
            items.append({"label": choice_label(self.question, key), "mark": mark, "symbol": symbol,
                          "words": str(words), "url": url})
        return items

    def legend(self) -> list[tuple[str, str, str]]:
        return [(name, symbol, str(words)) for name, (symbol, words) in MARKS.items()]

    def rows(self) -> list[list[CellView]]:
        q = self.question
        if self.checked and q.kind in ("survivors", "winnings"):
            walk = Walkthrough(q.situation)
            kind = "battle-done" if q.kind == "survivors" else "end"
            index = max(i for i, s in enumerate(walk.steps) if s.kind == kind)
            grid = walk.cells(index, ghost_collected=False)
        else:
            grid = board_cells(q.situation.board)
        changed = q.change.position if q.change else q.marked
        # in Setting Time the others' cards lie face down: red sees only its own
        hidden = q.kind in CHECK_KINDS["quiz-setting"]
        for row in grid:
            for cell in row:
                if hidden and cell.card is not None and cell.card.colour is not Colour.RED:
                    cell.face_down = True
                if cell.pos == changed:
                    cell.classes.append("acting")
                    cell.notes.append(_("this card was changed") if q.change else _("the marked card"))
                if self.choices:
                    continue
                if self.checked:
                    mark = self._mark(cell.pos in self.selected, cell.pos in q.answer)
                    if mark:
                        cell.classes.append(mark)
                        cell.mark, words = MARKS[mark]
                        cell.notes.append(str(words))
                else:  # a picked card is taken back the same way it was picked
                    if cell.pos in self.selected:
                        cell.classes.append("picked")
                        cell.notes.append(_("your pick"))
                    cell.href = self.action_url("toggle", position_arg(cell.pos))
        return grid

    def explanations(self) -> list[Explanation]:
        if not self.checked:
            return []
        q = self.question
        if q.kind not in ("survivors", "winnings"):
            return [explain(e, q.situation.board) for e in q.events] + rule_notes(q)
        walk = Walkthrough(q.situation)
        items = walk.explanations(len(walk.steps) - 1)
        if q.kind == "survivors":
            return [e for e in items if e.code.startswith("battle.") and e.code != "battle.reveal"]
        # the battle steps that removed something explain why a treasure card was lost
        acted = [walk.solution.battle.turns[i].event for i in range(len(walk.solution.battle.turns))
                 if walk.solution.battle.turns[i].removed] if walk.solution.battle else []

        return [explain(e) for e in acted] + [
            e for e in items if e.code.startswith("treasure.") and e.code != "treasure.discard"]

    def answer_labels(self) -> list[str]:
        if self.choices:
            return [choice_label(self.question, k) for k in self.choices if k in self.question.answer]
        return [position_label(p) for p in sorted(self.question.answer)]
