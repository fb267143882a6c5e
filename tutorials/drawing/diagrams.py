"""Small range diagrams of the six attack cards, computed by the engine (BAT-4).

The web pages and the printed sheets draw them from the same data, so they never
disagree with the engine.
"""

from __future__ import annotations

from dataclasses import dataclass

from captain.rules import AttackKind, Board, Position, Cell, Treasure
from captain.rules.situation import RuleSet

from tutorials.wording.glossary import CARD_EFFECTS, CARD_NAMES


@dataclass(frozen=True)
class RangeDiagram:
    """A ``size``×``size`` grid with the card in the centre.

    ``cells[r][c]`` is ``"self"``, ``"hit"`` or ``""``.
    """

    kind: AttackKind
    cells: tuple[tuple[str, ...], ...]

    @property
    def name(self) -> str:
        return str(CARD_NAMES[self.kind])

    @property
    def effect(self) -> str:
        return str(CARD_EFFECTS[self.kind])

    @property
    def value(self) -> int:
        return int(self.kind)

    @property
    def copies(self) -> int:
        return RuleSet().copies(self.kind, 4)


def range_diagram(kind: AttackKind, size: int = 5) -> RangeDiagram:
    """The range of ``kind`` drawn on an empty ``size``×``size`` grid (BAT-4, BAT-5)."""
    filler = Treasure(1, 1)
    board = Board.from_cells({Position(r, c): Cell(filler) for r in range(size)
                                for c in range(size)}, (size, size))
    centre = Position(size // 2, size // 2)
    reach = board.range_of(kind, centre)
    cells = tuple(tuple("self" if Position(r, c) == centre else "hit" if Position(r, c) in reach
                        else "" for c in range(size)) for r in range(size))
    return RangeDiagram(kind, cells)


def all_diagrams() -> list[RangeDiagram]:
    """The six cards in speed order."""
    return [range_diagram(kind) for kind in AttackKind]
