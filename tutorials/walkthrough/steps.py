"""Step-by-step answers for any situation: what every surface that steps through a round
shows (the analyzer, the practice game and its replay, the tutorial's worked examples, a
teaching table's own round).

:class:`Walkthrough` runs the engine once (:func:`captain.rules.resolve.solve`) and cuts the
answer into steps: reveal, one step per attack card's turn (cards without an attack whose
turns follow one another share one), the end of Battle Time,
one step per player collecting treasure, and the end of the round. For each step it
draws the board (cells with highlight classes and screen-reader notes) and lists the
explanations so far, each citing its clause.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext, pgettext_lazy

from captain.rules import CardTurn, Outcome, Position, Situation, Solution, solve
from captain.rules.situation import Mode
from tutorials.drawing.cells import CellView, board_cells
from tutorials.wording.events import Explanation, explain
from tutorials.wording.glossary import COLOUR_LETTERS, COLOUR_NAMES, position_label
from tutorials.wording.phrases import card_at

STEP_TITLES = {
    "reveal": gettext_lazy("All cards revealed"),
    "battle": pgettext_lazy("phase", "Battle Time"),
    "battle-done": gettext_lazy("After Battle Time"),
    "treasure": pgettext_lazy("phase", "Treasure Time"),
    "end": gettext_lazy("End of the round"),
    "bell": gettext_lazy("May the bell ring?"),
    # strategy mode has no bell (STRAT-1): the same step asks whether Dice Time has ended
    "dice-end": gettext_lazy("Is Dice Time over?"),
}


@dataclass(frozen=True)
class Step:
    """One step of a walkthrough: ``kind`` (see STEP_TITLES) and its index into the
    battle steps or the collection order."""

    kind: str
    index: int = 0
    #: the key of the title when it is not the kind's own (``dice-end``)
    title_key: str = ""
    #: battle steps: how many turns from ``index`` on it shows (cards without an attack,
    #: [0] and [5], whose turns come one after another, share a step: none changes the board)
    count: int = 1

    @property
    def turns(self) -> range:
        """The battle turns this step shows."""
        return range(self.index, self.index + self.count)

    @property
    def title(self) -> str:
        return str(STEP_TITLES[self.title_key or self.kind])


class Walkthrough:
    """The answer for ``situation``, step by step.

    Attributes:
        solution: the engine's full answer.
        steps: the steps in order; ``steps[0]`` is the starting point.
    """

    def __init__(self, situation: Situation) -> None:
        self.situation = situation
        self.solution: Solution = solve(situation)
        steps: list[Step] = []
        if self.solution.bell is not None:
            strategy = situation.rules.mode is Mode.STRATEGY
            steps.append(Step("bell", title_key="dice-end" if strategy else ""))
        if self.solution.battle is not None:
            steps.append(Step("reveal"))
            steps += _battle_steps(self.solution.battle.turns)
            steps.append(Step("battle-done"))
            assert self.solution.treasure is not None
            steps += [Step("treasure", i) for i in range(len(self.solution.treasure.order))]
        if self.solution.round_end is not None or self.solution.treasure is not None:
            steps.append(Step("end"))
        self.steps = tuple(steps)

    # --- navigation ------------------------------------------------------------------------
    def clamp(self, k: int) -> int:
        return max(0, min(k, len(self.steps) - 1)) if self.steps else 0

    def index(self, kind: str, i: int = 0) -> int:
        """The number of the ``i``-th step of ``kind`` (``ValueError`` when there is none):
        where a surface that shows only part of the answer starts or ends."""
        found = [n for n, s in enumerate(self.steps) if s.kind == kind]
        if i >= len(found):
            raise ValueError(f"no step {kind!r} #{i}")
        return found[i]

    # --- drawing ---------------------------------------------------------------------------
    def cells(self, k: int, *, ghost_collected: bool = True):
        """The board at step ``k``: rows of :class:`~tutorials.drawing.cells.CellView`.

        ``ghost_collected=False`` keeps collected players' attack cards drawn in full
        (printed diagrams read better that way).
        """

        grid = board_cells(self.situation.board)
        cells = {c.pos: c for row in grid for c in row}
        if not self.steps:
            return grid
        step = self.steps[self.clamp(k)]
        if step.kind == "bell":
            self._mark_bell(cells)
        elif self.solution.battle is not None:
            current = self._mark_battle(cells, step)
            if current is None and step.kind in ("treasure", "end"):
                self._mark_treasure(cells, step, ghost_collected)
        return grid

    def _mark_bell(self, cells: dict[Position, CellView]) -> None:
        """The line that lets the bell ring (DICE-5) and the cards holding dice."""
        bell = self.solution.bell
        assert bell is not None
        if bell.may_ring and bell.line:
            note = (_("part of the full line that ends Dice Time") if bell.clause == "STRAT-3"
                    else _("part of the line that lets the bell ring"))
            for p in bell.line:
                cells[p].classes.append("bell-line")
                cells[p].notes.append(note)
        for p in bell.held:
            cells[p].classes.append("held")

    def _mark_battle(self, cells: dict[Position, CellView], step: Step):
        """Cards removed so far drawn as ghosts; at a card's turn (BAT-3) the acting card,
        its range, what it removes now and what is immune. Returns that turn, if any."""
        battle_steps = self.solution.battle.turns  # type: ignore[union-attr]
        done = {"reveal": 0, "battle": step.index + step.count}.get(step.kind, len(battle_steps))
        current = battle_steps[step.index] if step.kind == "battle" else None
        if current is not None and step.count > 1:  # cards without an attack: each takes its turn
            for i in step.turns:
                cells[battle_steps[i].position].classes.append("acting")
        removed_by: dict[Position, Position] = {}
        for s in battle_steps[:done]:
            for p in s.removed:
                removed_by[p] = s.position
        for pos, by in removed_by.items():
            if current is not None and pos in current.removed:
                continue
            cell = cells[pos]
            cell.ghost, cell.card = cell.card, None
            cell.classes.append("gone")
            cell.notes.append(_("removed to the discard by the card at %(pos)s") % {
                "pos": position_label(by)})
        if current is None:
            return None
        cells[current.position].classes.append("acting")
        for p in current.range:
            cells[p].classes.append("in-range")
        for p in current.removed:
            cells[p].classes.append("hit")
            cells[p].notes.append(_("removed now"))
        for p in current.immune:
            cells[p].classes.append("immune")
        if current.outcome is Outcome.REMOVED_BEFORE:
            cells[current.position].classes.append("skipped")
            cells[current.position].notes.append(_("removed before its turn: does not act"))
        return current

    def _mark_treasure(self, cells: dict[Position, CellView], step: Step,
                       ghost_collected: bool) -> None:
        """Treasure won by the players collected so far (TRE-1); for the one collecting
        now, the ends of each sandwich, what lies between and what blocks it."""
        treasure = self.solution.treasure
        assert treasure is not None
        collected = treasure.order[: step.index + 1] if step.kind == "treasure" else treasure.order
        for colour in collected:
            for pos in treasure.winnings[colour]:
                cells[pos].won_by = colour
                cells[pos].classes.append(f"won won-{colour.value}")
            for cell in cells.values():
                if ghost_collected and cell.card is not None and cell.card.colour == colour:
                    cell.ghost, cell.card = cell.card, None
        if step.kind != "treasure":
            return
        for s in treasure.sandwiches:
            if s.colour != collected[-1]:
                continue
            for p in s.ends:
                cells[p].classes.append("sandwich-end")
            for p in s.between:
                cells[p].classes.append("blocked-between" if s.blocked_by else "sandwiched")
            for p in s.blocked_by:
                cells[p].classes.append("blocker")

    def step_title(self, i: int) -> str:
        """A short title for step ``i``: the phase, plus the acting card or collecting player."""
        step = self.steps[i]
        if step.kind == "battle" and self.solution.battle is not None and step.count > 1:
            return ngettext("%(phase)s: %(n)s card without an attack",
                            "%(phase)s: %(n)s cards without an attack",
                            step.count) % {"phase": step.title, "n": step.count}
        if step.kind == "battle" and self.solution.battle is not None:
            s = self.solution.battle.turns[step.index]
            return _("%(phase)s: %(card)s") % {"phase": step.title,
                                                "card": card_at(s.card.token, s.position)}
        if step.kind == "treasure" and self.solution.treasure is not None:
            colour = self.solution.treasure.order[step.index]
            return _("%(phase)s: %(colour)s collects") % {"phase": step.title,
                                                           "colour": COLOUR_NAMES[colour]}
        return step.title

    def current(self, k: int) -> list[Explanation]:
        """Explanations of step ``k`` alone (shown right under the board and step buttons)."""
        board = self.situation.board
        return [explain(e, board) for e in self.events_of(self.steps[self.clamp(k)])] if self.steps else []

    def explanations(self, k: int, first: int = 0) -> list[Explanation]:
        """Explanations of steps ``first..k``, in order (none when ``k < first``)."""
        out: list[Explanation] = []
        for step in self.steps[first: self.clamp(k) + 1] if k >= first else ():
            out += [explain(e, self.situation.board) for e in self.events_of(step)]
        return out

    def events_of(self, step: Step):
        sol = self.solution
        if step.kind == "bell":
            return [sol.bell.event] if sol.bell else []
        if step.kind == "reveal":
            return [sol.battle.events[0]] if sol.battle else []
        if step.kind == "battle":
            return [sol.battle.turns[i].event for i in step.turns] if sol.battle else []
        if step.kind == "battle-done":
            return [sol.battle.events[-1]] if sol.battle else []
        if step.kind == "treasure":
            assert sol.treasure is not None
            colour = sol.treasure.order[step.index].value
            return [e for e in sol.treasure.events if e.params.get("colour") == colour]
        if step.kind == "end":
            events = []
            if sol.treasure:
                events += [e for e in sol.treasure.events
                           if e.code in ("treasure.reading_matters", "treasure.gap_matters",
                                         "treasure.discard")]
            if sol.round_end:
                events += list(sol.round_end.events)
            return events
        return []

    def order(self, k: int) -> list[dict]:
        """Battle order strip at step ``k`` (empty before reveal or without cards)."""
        sol = self.solution
        if sol.battle is None or not self.steps:
            return []
        step = self.steps[self.clamp(k)]
        if step.kind == "bell":
            return []
        done = {"reveal": 0, "battle": step.index + step.count}.get(step.kind, len(sol.battle.turns))

        removed_now = {p for s in sol.battle.turns[:done] for p in s.removed}
        out = []
        for i, s in enumerate(sol.battle.turns):
            status = ("current" if step.kind == "battle" and i in step.turns
                      else "done" if i < done else "pending")
            if s.outcome is Outcome.REMOVED_BEFORE and i < done:
                status += " skipped"
            elif s.position in removed_now:  # after its own turn, or before a turn still to come
                status += " removed after-acting" if i < done else " removed"
            # the colour and speed in words too: the chip alone is hidden from screen readers,
            # and "B1" beside a position would read as a position
            out.append({"card": s.card, "label": position_label(s.position),
                        "name": card_at(s.card.token, s.position), "status": status})
        return out

    def winnings(self, k: int) -> list[dict]:
        """Treasure won per player, once their collection is shown."""
        sol = self.solution
        if sol.treasure is None or not self.steps:
            return []
        step = self.steps[self.clamp(k)]
        shown = (sol.treasure.order[: step.index + 1] if step.kind == "treasure"
                 else sol.treasure.order if step.kind == "end" else ())
        return [{"colour": c, "name": COLOUR_NAMES[c], "letter": COLOUR_LETTERS[c],
                 "cards": [position_label(p) for p in sol.treasure.winnings[c]],
                 "done": c in shown} for c in sol.treasure.order]


def _battle_steps(turns: tuple[CardTurn, ...]) -> list[Step]:
    """One step per card's turn, but one for each run of turns that cannot change the board
    ([0] and [5] have no attack, BAT-4): a learner steps through what matters."""
    steps: list[Step] = []
    i = 0
    while i < len(turns):
        n = 1
        if turns[i].outcome is Outcome.NO_EFFECT:
            while i + n < len(turns) and turns[i + n].outcome is Outcome.NO_EFFECT:
                n += 1
        steps.append(Step("battle", i, count=n))
        i += n
    return steps
