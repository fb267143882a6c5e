"""May the bell end Dice Time now? (DICE-4, DICE-5, STRAT-3, VAR-3, VAR-4, INT-3)

>>> from captain.rules.model import Board, Colour
>>> from captain.rules.situation import Seating
>>> seats = Seating((Colour.RED, Colour.BLUE, Colour.GREEN, Colour.WHITE), Colour.RED)
>>> b = Board.parse(["11 12:R 13 14", "15 16 22:B 23", "24 25 26 33:R", "34 35 36 44"])
>>> status = bell_status(b, seats)
>>> status.may_ring, status.clause, status.line
(True, 'DICE-4', (Position(row=0, col=1), Position(row=1, col=2), Position(row=2, col=3)))
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from .events import Event
from .model import Board, Position
from .situation import BellRule, Mode, RuleSet, Seating


@dataclass(frozen=True)
class BellStatus:
    """The answer to "may the bell ring now?".

    Attributes:
        may_ring: True when the condition in force holds.
        clause: the clause deciding (DICE-4, DICE-5, STRAT-3, VAR-3 or VAR-4).
        line: the qualifying line's positions (or the closest line when not yet), if
            the condition is about lines; ``None`` otherwise.
        held: positions holding dice that count towards the condition.
        needed: how many more cards must hold dice (0 when ``may_ring``).
        event: the explanation.
    """

    may_ring: bool
    clause: str
    line: tuple[Position, ...] | None
    held: tuple[Position, ...]
    needed: int
    event: Event


def bell_lines(board: Board) -> list[tuple[Position, ...]]:
    """Lines that count for the bell (INT-3): rows, columns and diagonals holding at
    least 3 treasure cards; positions without a treasure card are left out."""
    key = ("bell_lines",)
    cached = board.cache.get(key)
    if cached is None:
        layout = (tuple(len(r) for r in board.rows),
                  frozenset(p for p, sq in board if sq.treasure is None))
        cached = board.cache[key] = _bell_lines_for(layout, board)
    return list(cached)  # type: ignore[call-overload]


_LAYOUT_CACHE: dict[object, tuple[tuple[Position, ...], ...]] = {}


def _bell_lines_for(layout: tuple[tuple[int, ...], frozenset[Position]], board: Board
                    ) -> tuple[tuple[Position, ...], ...]:
    """Bell lines depend only on where treasure cards lie: memoised by that layout."""
    found = _LAYOUT_CACHE.get(layout)
    if found is None:
        gaps = layout[1]
        found = tuple(cards for line in board.lines()
                      if len(cards := tuple(p for p in line if p not in gaps)) >= 3)
        if len(_LAYOUT_CACHE) > 4096:
            _LAYOUT_CACHE.clear()
        _LAYOUT_CACHE[layout] = found
    return found


def may_ring(board: Board, seating: Seating, rules: RuleSet = RuleSet()) -> bool:
    """Just the yes/no of :func:`bell_status`, from bit masks (no explanation built).

    Used on every listing of legal actions, so it works on the board's occupancy masks
    and the bell lines memoised per shape and treasure layout.
    """
    treasure, dice_mask, _cards, dice_of = board.occupancy()
    if rules.mode is Mode.STRATEGY:  # STRAT-3: a whole line holds dice
        for m in _line_masks(board, treasure):
            if m & dice_mask == m:
                return True
        return False
    if rules.bell is BellRule.ALL_DICE:  # VAR-3: one player's six dice are all placed
        return any(dice_of.get(c, 0).bit_count() >= 3 for c in seating.players)
    if dice_mask.bit_count() < 3:
        return False
    if len(seating.players) == 2 or rules.bell is BellRule.FIRST_EDITION:  # DICE-5, VAR-4
        return True
    for m in _line_masks(board, treasure):  # DICE-4: three cards of one line hold dice
        if (m & dice_mask).bit_count() >= 3:
            return True
    return False


def _line_masks(board: Board, treasure: int) -> tuple[int, ...]:
    """Masks of the bell lines (INT-3) for this shape and these treasure positions
    (memoised with the shape's geometry)."""
    g = board.geometry
    key = ("bell", treasure)
    found = g.memo.get(key)
    if found is None:
        found = tuple(g.mask(line) for line in bell_lines(board))
        if len(g.memo) > 65536:
            g.memo.clear()
        g.memo[key] = found
    return found  # type: ignore[return-value]


def _is_short_diagonal(board: Board, line: tuple[Position, ...]) -> bool:
    if len(line) < 2:
        return False
    a, b = line[0], line[1]
    diagonal = a.row != b.row and a.col != b.col
    return diagonal and len(line) < min(board.shape)


def bell_status(board: Board, seating: Seating, rules: RuleSet = RuleSet()) -> BellStatus:
    """Decide whether the end-of-Dice-Time bell may ring on ``board``.

    Action mode: 2 players DICE-5 (three cards anywhere hold dice); 3-4 players DICE-4
    (three cards of one bell line hold dice), or VAR-4 / VAR-3 when the rule set says so.
    Strategy mode: STRAT-3 (every card of one bell line holds dice). Lines follow INT-3.
    """
    key = ("bell_status", len(seating.players), seating.order(), rules)
    cached = board.cache.get(key)
    if cached is None:
        cached = board.cache[key] = _bell_status(board, seating, rules)
    return cached  # type: ignore[return-value]


def _bell_status(board: Board, seating: Seating, rules: RuleSet) -> BellStatus:
    dice = board.dice()
    held_all = tuple(sorted(dice))
    n = len(seating.players)
    if rules.mode is Mode.STRATEGY:
        return _line_rule(board, dice, full=True, clause="STRAT-3")
    if rules.bell is BellRule.ALL_DICE:
        per = Counter(d.colour for d in dice.values())
        done = [c for c in seating.order() if per[c] >= 3]
        if done:
            colour = done[0]
            held = tuple(p for p in held_all if dice[p].colour == colour)
            return BellStatus(True, "VAR-3", None, held, 0, Event(
                "bell.all_dice", "VAR-3", {"colour": colour.value, "held": [list(p) for p in held]}))
        best = max(seating.order(), key=lambda c: per[c])
        held = tuple(p for p in held_all if dice[p].colour == best)
        return BellStatus(False, "VAR-3", None, held, 3 - per[best], Event(
            "bell.not_yet", "VAR-3", {"colour": best.value, "held": [list(p) for p in held],
                                      "needed": 3 - per[best]}))
    if n == 2 or rules.bell is BellRule.FIRST_EDITION:
        clause = "DICE-5" if n == 2 else "VAR-4"
        needed = max(0, 3 - len(held_all))
        code = "bell.count" if needed == 0 else "bell.not_yet"
        return BellStatus(needed == 0, clause, None, held_all, needed, Event(
            code, clause, {"held": [list(p) for p in held_all], "needed": needed}))
    return _line_rule(board, dice, full=False, clause="DICE-4")


def _line_rule(board: Board, dice: dict[Position, object], *, full: bool, clause: str) -> BellStatus:
    g = board.geometry
    dice_mask = g.mask(dice)
    best: tuple[int, tuple[Position, ...]] | None = None
    for line in bell_lines(board):
        line_mask = _line_mask(g, line)
        held_count = (line_mask & dice_mask).bit_count()
        needed = max(0, (len(line) if full else 3) - held_count)
        if best is None or needed < best[0]:
            best = (needed, line)
        if needed == 0:
            held = tuple(p for p in line if p in dice)
            interpretation = "INT-3" if _is_short_diagonal(board, line) else None
            if interpretation is None and any(board.get(p) is None or board.at(p).treasure is None
                                              for p in _span(line)):
                interpretation = "INT-3"
            return BellStatus(True, clause, line, held, 0, Event("bell.line", clause, {
                "line": [list(p) for p in line], "held": [list(p) for p in held]},
                interpretation=interpretation))
    if best is None:
        return BellStatus(False, clause, None, (), 3, Event(
            "bell.not_yet", clause, {"line": None, "held": [], "needed": 3}, interpretation="INT-3"))
    needed, line = best
    held = tuple(p for p in line if p in dice)
    return BellStatus(False, clause, line, held, needed, Event("bell.not_yet", clause, {
        "line": [list(p) for p in line], "held": [list(p) for p in held], "needed": needed}))


_MASKS: dict[tuple[int, tuple[Position, ...]], int] = {}


def _line_mask(g, line: tuple[Position, ...]) -> int:
    key = (id(g), line)
    m = _MASKS.get(key)
    if m is None:
        if len(_MASKS) > 8192:
            _MASKS.clear()
        m = _MASKS[key] = g.mask(line)
    return m


def _span(line: tuple[Position, ...]) -> list[Position]:
    """All lattice positions from the first to the last position of ``line``."""
    a, b = line[0], line[-1]
    steps = max(abs(b.row - a.row), abs(b.col - a.col))
    if steps == 0:
        return [a]
    sr, sc = (b.row - a.row) // steps, (b.col - a.col) // steps
    return [Position(a.row + sr * i, a.col + sc * i) for i in range(steps + 1)]
