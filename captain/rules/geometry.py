"""Precomputed geometry of a board shape, as bit masks (one bit per position).

Boards of the same shape share one :class:`Geometry`: attack ranges (BAT-4, BAT-5)
and the positions strictly between two positions on a common line (TRE-2, INT-2)
are computed once per shape, so Battle and Treasure Time reduce to a few integer
operations per card.

>>> g = geometry((4, 4, 4, 4))
>>> bin(g.reach[1][g.index[(1, 1)]]).count("1")   # [1] at B2 reaches 8 positions
8
>>> [g.positions[i] for i in g.bits(g.between[(0, 3)])]   # between A1 and D1
[Position(row=0, col=1), Position(row=0, col=2)]
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

from .model import Position

_KINDS = range(6)


@dataclass(frozen=True)
class Geometry:
    """Masks for one board shape (its row lengths).

    Attributes:
        positions: bit index → position, row by row.
        index: position → bit index.
        reach: ``reach[value][i]`` = mask of positions a card of that value at ``i``
            reaches (0 for [0] and [5]).
        between: ``between[(i, j)]`` (``i < j``) = mask strictly between two positions
            on a common row, column or diagonal; pairs on no common line are absent.
        lattice_gap: pairs ``(i, j)`` whose line crosses a position that does not exist
            (a short row): a gap in the sense of INT-2.
        memo: values derived from this shape on demand: :meth:`to_positions` by mask,
            bell line masks by treasure layout (cleared when it grows past 65,536 entries).
    """

    positions: tuple[Position, ...]
    index: dict[tuple[int, int], int]
    reach: tuple[tuple[int, ...], ...]
    between: dict[tuple[int, int], int]
    lattice_gap: frozenset[tuple[int, int]]
    memo: dict[object, tuple] = field(default_factory=dict, compare=False, repr=False)

    @staticmethod
    def bits(mask: int) -> tuple[int, ...]:
        """Bit indexes set in ``mask``, ascending (memoised: masks repeat a lot)."""
        return _bits(mask)

    def mask(self, positions) -> int:
        """Mask of the given positions."""
        m = 0
        for p in positions:
            m |= 1 << self.index[p]
        return m

    def to_positions(self, mask: int) -> tuple[Position, ...]:
        """Positions of ``mask``, in board order."""
        found = self.memo.get(mask)
        if found is None:
            if len(self.memo) > 65536:
                self.memo.clear()
            positions = self.positions
            found = self.memo[mask] = tuple([positions[i] for i in _bits(mask)])
        return found


@lru_cache(maxsize=1 << 16)
def _bits(mask: int) -> tuple[int, ...]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return tuple(out)


@lru_cache(maxsize=256)
def geometry(row_lengths: tuple[int, ...]) -> Geometry:
    """The :class:`Geometry` of a board whose rows have these lengths."""
    positions = tuple(Position(r, c) for r, n in enumerate(row_lengths) for c in range(n))
    index = {p: i for i, p in enumerate(positions)}
    n_rows, n_cols = len(row_lengths), max(row_lengths, default=0)

    def inside(r: int, c: int) -> bool:
        return 0 <= r < n_rows and 0 <= c < n_cols

    reach = []
    for value in _KINDS:
        masks = []
        for p in positions:
            cells: set[tuple[int, int]] = set()
            if value == 1:
                cells = {(p.row + dr, p.col + dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1)}
            elif value == 2:
                cells = {(p.row, c) for c in range(n_cols)}
            elif value == 3:
                cells = {(r, p.col) for r in range(n_rows)}
            elif value == 4:
                for dr, dc in ((1, 1), (1, -1), (-1, 1), (-1, -1)):
                    r, c = p.row + dr, p.col + dc
                    while inside(r, c):
                        cells.add((r, c))
                        r, c = r + dr, c + dc
            cells.discard((p.row, p.col))
            m = 0
            for cell in cells:
                if cell in index:
                    m |= 1 << index[cell]
            masks.append(m)
        reach.append(tuple(masks))
    between: dict[tuple[int, int], int] = {}
    lattice_gap = set()
    for i, a in enumerate(positions):
        for j in range(i + 1, len(positions)):
            b = positions[j]
            dr, dc = b.row - a.row, b.col - a.col
            if not (dr == 0 or dc == 0 or abs(dr) == abs(dc)):
                continue
            steps = max(abs(dr), abs(dc))
            sr, sc = dr // steps, dc // steps
            m = 0
            for k in range(1, steps):
                cell = (a.row + sr * k, a.col + sc * k)
                if cell in index:
                    m |= 1 << index[cell]
                else:
                    lattice_gap.add((i, j))
            between[(i, j)] = m
    return Geometry(positions, index, tuple(reach), between, frozenset(lattice_gap))
