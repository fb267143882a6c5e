"""Small range diagrams of the six attack cards, computed by the engine (BAT-4).

The web pages and the printed sheets draw them from the same data, so they never
disagree with the engine.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext as _

from captain.rules import AttackKind, Board, Cell, Position, Treasure
from captain.rules.situation import RuleSet
from tutorials.wording.glossary import CARD_EFFECTS, CARD_NAMES, card_label
from tutorials.wording.phrases import list_join


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

    @property
    def description(self) -> str:
        """The diagram in words, in the active language, for its SVG ``<title>``: the card,
        the grid and what the card reaches, read from ``cells`` (what is drawn)."""
        return _("Range of %(card)s, drawn on a %(size)s×%(size)s grid with the card in the middle: "
                 "%(reach)s") % {"card": card_label(self.kind), "size": len(self.cells),
                                 "reach": self._reach()}

    def _reach(self) -> str:
        centre = next((r, c) for r, row in enumerate(self.cells) for c, kind in enumerate(row)
                      if kind == "self")
        hits = [(r - centre[0], c - centre[1]) for r, row in enumerate(self.cells)
                for c, kind in enumerate(row) if kind == "hit"]
        if not hits:  # [0] is drawn with a ring: it can never be removed
            return _("it hits no position and can never be removed.") if self.value == 0 \
                else _("it hits no position.")
        if all(max(abs(dr), abs(dc)) == 1 for dr, dc in hits):
            return _("it hits the %(count)s positions around it.") % {"count": len(hits)}
        lines = [text for found, text in (
            (any(dr == 0 for dr, _dc in hits), _("its whole row")),
            (any(dc == 0 for _dr, dc in hits), _("its whole column")),
            (any(abs(dr) == abs(dc) for dr, dc in hits), _("both of its diagonals, end to end")))
            if found]
        return _("it hits %(count)s positions: %(lines)s.") % {"count": len(hits), "lines": list_join(lines)}


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
