"""Grid coordinates: a :class:`Position` names one place on the grid of treasure cards.

>>> Position(1, 2)
Position(row=1, col=2)
>>> Position(1, 2).to_json()
[1, 2]
"""

from __future__ import annotations

from typing import NamedTuple


class Position(NamedTuple):
    """A position on the grid: zero-based ``row`` (0 = top) and ``col`` (0 = left)."""

    row: int
    col: int

    def to_json(self) -> list[int]:
        """``[row, col]`` as in the case format."""
        return [self.row, self.col]

    def __str__(self) -> str:
        return f"[{self.row}, {self.col}]"


#: The four line directions: row →, column ↓, diagonal ↘, anti-diagonal ↙.
DIRECTIONS: tuple[tuple[int, int], ...] = ((0, 1), (1, 0), (1, 1), (1, -1))
