"""The geometry of a board shape as bit masks: lines, what lies between, attack ranges.

A shape is given by its row lengths (rows may be short). Bit ``i`` of a mask stands
for ``positions[i]``, row by row. Everything here is derived from one walk along the
lattice lines of the shape's bounding rectangle (:func:`lattice_lines`): the lines used
by the bell and by sandwiches, the positions strictly between two positions of a line,
and the ranges of the attack cards. Boards of the same shape share one
:class:`Geometry` (memo :data:`~captain.rules.caches.GEOMETRY`).

>>> g = geometry((4, 4, 4, 4))
>>> bin(g.reach[1][g.index[(1, 1)]]).count("1")   # [1] at B2 reaches 8 positions
8
>>> g.to_positions(g.between[(0, 3)])   # between A1 and D1
(Position(row=0, col=1), Position(row=0, col=2))
>>> len(g.lines)   # 4 rows, 4 columns, 7 + 7 diagonals
22
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass

from .caches import BITS, GEOMETRY, POSITIONS
from .clauses import implements
from .coords import DIRECTIONS, Position


@dataclass(frozen=True, eq=False)
class Geometry:
    """Masks for one board shape (its row lengths). Read-only; shared by boards.

    Attributes:
        row_lengths: the shape.
        key: the shape as text (``"4,4,4,4"``): a memo key whose hash Python keeps.
        positions: bit index → position, row by row.
        index: ``(row, col)`` → bit index (a read-only mapping).
        lines: every maximal row, column and diagonal, as the positions that exist on it,
            in :data:`~captain.rules.coords.DIRECTIONS` order (rows, columns, ↘, ↙).
        full_lines: for each of ``lines``, True when it spans the whole grid: a row as wide
            as the grid, a column as tall, a diagonal as long as the grid's shorter side.
        reach: ``reach[value][i]`` = mask of the positions a card of that value at bit
            ``i`` reaches when it acts (0 for [0] and [5]) (BAT-4, BAT-5).
        between: ``between[(i, j)]`` (``i < j``) = mask of the positions strictly between
            two positions of one line; pairs on no common line are absent.
        lattice_gap: pairs ``(i, j)`` whose line crosses a place that is not on the grid
            (a short row): a gap in the sense of INT-2.
        between_rows: the same as ``between`` as a matrix, ``between_rows[i][j]``, with
            ``-1`` for pairs on no common line (for the inner loop of Treasure Time).
    """

    row_lengths: tuple[int, ...]
    key: str
    positions: tuple[Position, ...]
    index: Mapping[tuple[int, int], int]
    lines: tuple[tuple[Position, ...], ...]
    full_lines: tuple[bool, ...]
    reach: tuple[tuple[int, ...], ...]
    between: Mapping[tuple[int, int], int]
    lattice_gap: frozenset[tuple[int, int]]
    between_rows: tuple[tuple[int, ...], ...]

    @staticmethod
    def bits(mask: int) -> tuple[int, ...]:
        """Bit indexes set in ``mask``, ascending."""
        found = BITS.table.get(mask)
        return found if found is not None else BITS.fill(mask)

    def mask(self, positions: Iterable[tuple[int, int]]) -> int:
        """Mask of the given positions (which must be on the grid)."""
        index = self.index
        m = 0
        for p in positions:
            m |= 1 << index[p]
        return m

    def to_positions(self, mask: int) -> tuple[Position, ...]:
        """Positions of ``mask``, in board order."""
        key = (self.key, mask)
        found = POSITIONS.table.get(key)
        return found if found is not None else POSITIONS.fill(key)

    def __repr__(self) -> str:
        return f"geometry({self.row_lengths!r})"


def geometry(row_lengths: tuple[int, ...]) -> Geometry:
    """The :class:`Geometry` of a board whose rows have these lengths (memoised)."""
    found = GEOMETRY.table.get(row_lengths)
    return found if found is not None else GEOMETRY.fill(row_lengths)


def lattice_lines(row_lengths: tuple[int, ...]
                  ) -> Iterator[tuple[int, tuple[tuple[int, int], ...]]]:
    """Every maximal lattice line of the shape's bounding rectangle: ``(direction,
    cells)`` with the direction's number in :data:`~captain.rules.coords.DIRECTIONS`
    (0 row, 1 column, 2 ↘, 3 ↙) and its ``(row, col)`` cells in walking order, whether or
    not a cell is on the grid. Walking order always goes to higher bit indexes."""
    n_rows, n_cols = len(row_lengths), max(row_lengths, default=0)
    for direction, (dr, dc) in enumerate(DIRECTIONS):
        for r in range(n_rows):
            for c in range(n_cols):
                pr, pc = r - dr, c - dc
                if 0 <= pr < n_rows and 0 <= pc < n_cols:
                    continue  # not the first cell of its line
                cells = []
                rr, cc = r, c
                while 0 <= rr < n_rows and 0 <= cc < n_cols:
                    cells.append((rr, cc))
                    rr, cc = rr + dr, cc + dc
                yield direction, tuple(cells)


@implements("BAT-5")
def attack_reach(value: int, at: tuple[int, int], lines_through: Mapping[int, tuple[int, ...]],
                 index: Mapping[tuple[int, int], int]) -> int:
    """The mask of positions a card of ``value`` at ``at`` reaches when it acts: the
    ranges BAT-4 lists, as positions of the grid (BAT-5).

    [0] and [5]: nothing. [1]: the up to 8 surrounding positions, diagonals included.
    [2]: its whole row. [3]: its whole column. [4]: both of its diagonals to the edges.
    ``lines_through`` maps a direction number (0 row, 1 column, 2 ↘, 3 ↙) to the bit
    indexes of the line through ``at``. Ranges are positions of the grid, whether or not
    a treasure card lies there (BAT-5); they never include ``at`` itself.
    """
    mask = 0
    if value == 1:
        row, col = at
        for dr in (-1, 0, 1):
            for dc in (-1, 0, 1):
                i = index.get((row + dr, col + dc))
                if i is not None:
                    mask |= 1 << i
    elif value in (2, 3, 4):
        for direction in {2: (0,), 3: (1,), 4: (2, 3)}[value]:
            for i in lines_through.get(direction, ()):
                mask |= 1 << i
    return mask & ~(1 << index[at])


@GEOMETRY.computes
def _build(row_lengths: tuple[int, ...]) -> Geometry:
    positions = tuple(Position(r, c) for r, n in enumerate(row_lengths) for c in range(n))
    index: dict[tuple[int, int], int] = {p: i for i, p in enumerate(positions)}
    lines: list[tuple[Position, ...]] = []
    full: list[bool] = []
    n_rows, n_cols = len(row_lengths), max(row_lengths, default=0)
    spans = (n_cols, n_rows, min(n_rows, n_cols), min(n_rows, n_cols))
    through: list[dict[int, tuple[int, ...]]] = [{} for _ in positions]
    between: dict[tuple[int, int], int] = {}
    lattice_gap: set[tuple[int, int]] = set()
    for direction, cells in lattice_lines(row_lengths):
        on_grid = [(k, index[cell]) for k, cell in enumerate(cells) if cell in index]
        if not on_grid:
            continue
        lines.append(tuple(positions[i] for _k, i in on_grid))
        full.append(len(cells) == spans[direction])
        bits = tuple(i for _k, i in on_grid)
        for _k, i in on_grid:
            through[i][direction] = bits
        for x, (ka, a) in enumerate(on_grid):
            mask = 0
            for kb, b in on_grid[x + 1:]:
                between[(a, b)] = mask
                if kb - ka - 1 > (mask.bit_count()):
                    lattice_gap.add((a, b))
                mask |= 1 << b
    reach = tuple(tuple(attack_reach(value, p, through[i], index) for i, p in enumerate(positions))
                  for value in range(6))
    n = len(positions)
    matrix = [[-1] * n for _ in range(n)]
    for (a, b), mask in between.items():
        matrix[a][b] = matrix[b][a] = mask
    return Geometry(row_lengths, shape_key(row_lengths), positions, index, tuple(lines), tuple(full), reach,
                    between, frozenset(lattice_gap), tuple(tuple(row) for row in matrix))


@BITS.computes
def _bits(mask: int) -> tuple[int, ...]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return tuple(out)


def shape_key(row_lengths: tuple[int, ...]) -> str:
    """``"4,4,4,4"`` for ``(4, 4, 4, 4)``; :func:`shape_of` reads it back."""
    return ",".join(map(str, row_lengths))


def shape_of(key: str) -> tuple[int, ...]:
    """The row lengths of a :func:`shape_key`."""
    return tuple(int(n) for n in key.split(",")) if key else ()


@POSITIONS.computes
def _positions(key: tuple[str, int]) -> tuple[Position, ...]:
    shape, mask = key
    positions = geometry(shape_of(shape)).positions
    return tuple([positions[i] for i in _bits(mask)])
