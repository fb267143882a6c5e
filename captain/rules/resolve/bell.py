"""May the bell end Dice Time now? (DICE-4, DICE-5, STRAT-3, VAR-3, VAR-4, INT-3)

:func:`may_ring` is the one implementation of the bell condition. Given a
:class:`BellTrace` it also records what decided it (the qualifying or closest line, the
cards that count, how many more are needed); :func:`bell_status` turns that record into
the explanation.

>>> from captain.rules.model import Board, Colour
>>> from captain.rules.situation import Seating
>>> seats = Seating((Colour.RED, Colour.BLUE, Colour.GREEN, Colour.WHITE), Colour.RED)
>>> b = Board.parse(["11 12:R 13 14", "15 16 22:B 23", "24 25 26 33:R", "34 35 36 44"])
>>> may_ring(b, seats)
True
>>> status = bell_status(b, seats)
>>> status.may_ring, status.clause, status.line
(True, 'DICE-4', (Position(row=0, col=1), Position(row=1, col=2), Position(row=2, col=3)))
"""

from __future__ import annotations

from dataclasses import dataclass

from ..caches import BELL_LINES
from ..clauses import implements
from ..events import Event
from ..geometry import geometry, shape_of
from ..model import Board, Colour, Position
from ..situation import BELL_CARDS, DICE_PER_PLAYER, BellRule, Mode, RuleSet, Seating


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


class BellTrace:
    """What :func:`may_ring` found, recorded only when a trace is passed to it.

    Attributes:
        clause: the clause that decided.
        line: bit mask of the qualifying line, or of the closest line when the bell may not
            ring yet (``None`` when the condition is not about lines, or no line exists).
        held: bit mask of the dice-holding cards that count.
        needed: how many more cards must hold dice (0 when the bell may ring).
        colour: VAR-3 only: the player who placed all dice, or who is closest to it.
    """

    __slots__ = ("clause", "line", "held", "needed", "colour")

    def __init__(self) -> None:
        self.clause = ""
        self.line: int | None = None
        self.held = 0
        self.needed = BELL_CARDS
        self.colour: Colour | None = None


def bell_lines(board: Board) -> list[tuple[Position, ...]]:
    """Lines that count for the bell (INT-3): rows, columns and diagonals holding at
    least 3 treasure cards; positions without a treasure card are left out."""
    g = board.geometry
    return [g.to_positions(mask) for mask in _line_masks(g.key, board.occupancy().treasure)]


def _line_masks(shape: str, treasure: int, full_only: bool = False) -> tuple[int, ...]:
    key = (shape, treasure, full_only)
    found = BELL_LINES.table.get(key)
    return found if found is not None else BELL_LINES.fill(key)


@BELL_LINES.computes
@implements("INT-3")
def _bell_line_masks(key: tuple[str, int, bool]) -> tuple[int, ...]:
    """INT-3: the lines for DICE-4 and STRAT-3 are the rows, columns and diagonals of
    the shape that hold at least 3 treasure cards, counting only positions with a
    treasure card — on 4×4 the 3-card diagonals too. ``key`` is ``(shape key, treasure
    mask, full_only)``; ``full_only`` keeps only the lines that span the whole grid, the
    other reading, for explanations."""
    shape, treasure, full_only = key
    g = geometry(shape_of(shape))
    found = []
    for line, full in zip(g.lines, g.full_lines, strict=True):
        if full_only and not full:
            continue
        mask = g.mask(line) & treasure
        if mask.bit_count() >= BELL_CARDS:
            found.append(mask)
    return tuple(found)


@implements("DICE-4", "DICE-5", "STRAT-3", "VAR-3", "VAR-4")
def may_ring(board: Board, seating: Seating, rules: RuleSet = RuleSet(),
             trace: BellTrace | None = None, *, full_lines_only: bool = False) -> bool:
    """True when the bell condition in force holds on ``board``.

    * Strategy mode, STRAT-3: every card of one bell line (INT-3) holds dice.
    * VAR-3: some seated player has dice on three cards (all six dice placed).
    * 2 players, DICE-5, or the first edition, VAR-4: three cards anywhere hold dice.
    * Otherwise DICE-4: three cards of one bell line (INT-3) hold dice.

    With a ``trace``, also records what decided (see :class:`BellTrace`); without one it
    stops at the first qualifying line. ``full_lines_only`` is the other reading of
    INT-3 (only lines spanning the whole grid count), for explanations.
    """
    treasure, dice, _cards, dice_of = board.occupancy()
    if rules.mode is Mode.STRATEGY:
        return _line_condition(board.geometry.key, treasure, dice, True, "STRAT-3", trace,
                               full_lines_only)
    if rules.bell is BellRule.ALL_DICE:
        best = None
        for colour in seating.order():
            count = dice_of.get(colour, 0).bit_count()
            if count >= DICE_PER_PLAYER // 2:  # every die placed
                if trace is not None:
                    _record(trace, "VAR-3", None, dice_of[colour], 0, colour)
                return True
            if best is None or count > dice_of.get(best, 0).bit_count():
                best = colour
        if trace is not None:
            # best is None only at a table without seats, where nobody holds dice
            held = dice_of.get(best, 0)  # type: ignore[arg-type]
            _record(trace, "VAR-3", None, held, DICE_PER_PLAYER // 2 - held.bit_count(), best)
        return False
    if len(seating.players) == 2 or rules.bell is BellRule.FIRST_EDITION:
        needed = max(0, BELL_CARDS - dice.bit_count())
        if trace is not None:
            _record(trace, "DICE-5" if len(seating.players) == 2 else "VAR-4", None, dice, needed)
        return needed == 0
    if trace is None and dice.bit_count() < BELL_CARDS:
        return False  # no line can hold enough yet
    return _line_condition(board.geometry.key, treasure, dice, False, "DICE-4", trace,
                           full_lines_only)


def _line_condition(shape: str, treasure: int, dice: int, full: bool,
                    clause: str, trace: BellTrace | None, full_lines_only: bool) -> bool:
    """A bell line with 3 dice-holding cards (``full``: all of its cards) — and, for the
    trace, the closest line otherwise: the first of least need, of those the one holding
    most dice (lines of unequal length may need as many: the one with dice is closer)."""
    best_need, best_held, best_line = 4 << 20, -1, None
    threshold = BELL_CARDS
    for line in _line_masks(shape, treasure, full_lines_only):
        held = line & dice
        need = (line.bit_count() if full else threshold) - held.bit_count()
        if need <= 0:
            if trace is not None:
                _record(trace, clause, line, held, 0)
            return True
        if trace is not None and (need < best_need or need == best_need
                                  and held.bit_count() > best_held):
            best_need, best_held, best_line = need, held.bit_count(), line
    if trace is not None:
        if best_line is None:
            _record(trace, clause, None, 0, BELL_CARDS)
        else:
            _record(trace, clause, best_line, best_line & dice, best_need)
    return False


def _record(trace: BellTrace, clause: str, line: int | None, held: int, needed: int,
            colour: Colour | None = None) -> None:
    trace.clause, trace.line, trace.held, trace.needed, trace.colour = (
        clause, line, held, needed, colour)


def bell_status(board: Board, seating: Seating, rules: RuleSet = RuleSet()) -> BellStatus:
    """Decide whether the end-of-Dice-Time bell may ring on ``board``, with the
    explanation: :func:`may_ring` with a trace, put into words as an :class:`Event`.

    Memoised per board (boards never change) and per seating and rule set.
    """
    key = ("bell_status", seating, rules)
    cached = board.cache.get(key)
    if cached is None:
        cached = board.cache[key] = _status(board, seating, rules)
    return cached


def _status(board: Board, seating: Seating, rules: RuleSet) -> BellStatus:
    trace = BellTrace()
    ok = may_ring(board, seating, rules, trace)
    g = board.geometry
    held = g.to_positions(trace.held)
    line = g.to_positions(trace.line) if trace.line is not None else None
    clause = trace.clause
    if clause == "VAR-3":
        colour = trace.colour.value if trace.colour is not None else None
        if ok:
            event = Event("bell.all_dice", "VAR-3", {"colour": colour, "held": [list(p) for p in held]})
        else:
            event = Event("bell.not_yet", "VAR-3", {"colour": colour, "held": [list(p) for p in held],
                                                    "needed": trace.needed})
    elif clause in ("DICE-5", "VAR-4"):
        event = Event("bell.count" if ok else "bell.not_yet", clause,
                      {"held": [list(p) for p in held], "needed": trace.needed})
    else:
        # INT-3 decided the answer when reading only full-length lines would change it
        int3 = "INT-3" if may_ring(board, seating, rules, full_lines_only=True) != ok else None
        if ok:
            assert line is not None
            event = Event("bell.line", clause, {"line": [list(p) for p in line],
                                                "held": [list(p) for p in held]},
                          interpretation=int3)
        elif line is None:
            event = Event("bell.not_yet", clause, {"line": None, "held": [], "needed": 3},
                          interpretation=int3)
        else:
            # the closest line may hold no dice while a longer one does: "no line has dice"
            # is true only when no line that counts holds any
            on_lines = any(board.at(p).dice is not None for ln in bell_lines(board) for p in ln)
            event = Event("bell.not_yet", clause, {"line": [list(p) for p in line],
                                                   "held": [list(p) for p in held],
                                                   "needed": trace.needed, "lines_held": on_lines},
                          interpretation=int3)
    return BellStatus(ok, clause, line, held, trace.needed, event)
