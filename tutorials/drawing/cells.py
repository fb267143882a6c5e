"""The view of one cell of a board: what lies there, how it is drawn and described,
and what clicking it does (:class:`BoardAction`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

from django.utils.translation import get_language
from django.utils.translation import gettext as _

from captain.rules import AttackCard, Board, Colour, Dice, Position, Treasure
from tutorials.wording.glossary import COLOUR_NAMES, position_label
from tutorials.wording.phrases import card_phrase


@dataclass(frozen=True)
class BoardAction:
    """What a control of a board does: action ``do`` with argument ``at``.

    On a page whose boards only change its address, the control is a link, ``href``
    (``str()`` of the action, so ``{{ url }}`` in a template writes it). Where a move
    changes a stored table or game (a presenter's boards, a practice game), the board posts
    a form with ``do`` and ``at`` to its own address instead, and ``href`` is empty.
    """

    do: str
    at: str = ""
    href: str = ""

    def __str__(self) -> str:
        return self.href


# --- view model of one position --------------------------------------------------------------
PIPS = {
    1: ((2, 2),),
    2: ((1, 3), (3, 1)),
    3: ((1, 3), (2, 2), (3, 1)),
    4: ((1, 1), (1, 3), (3, 1), (3, 3)),
    5: ((1, 1), (1, 3), (2, 2), (3, 1), (3, 3)),
    6: ((1, 1), (1, 3), (2, 1), (2, 3), (3, 1), (3, 3)),
}


def pips(face: int) -> list[tuple[int, int]]:
    """Pip centres of a die face on a 0-40 SVG box (x, y)."""
    return [(x * 10, y * 10) for x, y in PIPS[face]]


@dataclass
class CellView:
    """What one position looks like, and what clicking it does."""

    pos: Position
    treasure: Treasure | None
    card: AttackCard | None = None
    dice: Dice | None = None
    face_down: bool = False
    ghost: AttackCard | None = None
    won_by: Colour | None = None
    classes: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    #: what choosing the cell does: a link (the analyzer's edits), a board's action, or
    #: nothing (``None``: the cell is drawn as a plain box)
    href: BoardAction | str | None = None
    #: a symbol drawn on the cell (an answered check's ✓, ✗ or ○): a mark never rests on
    #: colour alone; its words are among the notes
    mark: str = ""
    #: a guided game points at choosing this cell (``tutorials.play.guide``)
    guide: bool = False

    @property
    def label(self) -> str:
        return position_label(self.pos)

    @property
    def faces(self) -> list[list[tuple[int, int]]]:
        return [pips(f) for f in self.treasure.faces] if self.treasure else []

    @property
    def description(self) -> str:
        """Screen-reader text: where, which card, what lies on it, what happened."""
        return _description(self.pos, self.treasure, self.card, self.face_down, self.dice,
                            self.won_by, tuple(str(n) for n in self.notes), get_language(),
                            "faces-hidden" in self.classes)

    @property
    def css(self) -> str:
        """The classes the page's style sheet draws the cell by: ``cell``, the highlights
        the page marked, and what lies there."""
        css = ["cell", *self.classes]
        if self.treasure is None:
            css.append("no-treasure")
        if self.dice:
            css.append(f"has-dice colour-{self.dice.colour.value}")
        if self.card or self.ghost:
            css.append("occupied")
        return " ".join(css)


@lru_cache(maxsize=4096)
def _description(pos: Position, treasure: Treasure | None, card: AttackCard | None, face_down: bool,
                 dice: Dice | None, won_by: Colour | None, notes: tuple[str, ...],
                 language: str | None, faces_hidden: bool = False) -> str:  # language: cache key
    parts = [position_label(pos)]
    if treasure is None:
        parts.append(_("no treasure card"))
    elif faces_hidden:  # a real table's card whose faces were not entered
        parts.append(_("a treasure card"))
    else:
        parts.append(_("treasure card %(low)s and %(high)s") % {"low": treasure.low, "high": treasure.high})
    if card and face_down:
        parts.append(_("%(colour)s attack card, face down") % {"colour": COLOUR_NAMES[card.colour]})
    elif card:
        parts.append(card_phrase(card.token))
    if dice:
        parts.append(_("%(colour)s dice") % {"colour": COLOUR_NAMES[dice.colour]})
    if won_by:
        parts.append(_("won by %(colour)s") % {"colour": COLOUR_NAMES[won_by]})
    parts.extend(notes)
    return "; ".join(str(p) for p in parts)


def board_cells(board: Board) -> list[list[CellView]]:
    """Every cell of ``board``, row by row, as drawn before a page marks any of them."""
    return [[CellView(Position(r, c), cell.treasure, cell.card, cell.dice)
             for c, cell in enumerate(row)] for r, row in enumerate(board.rows)]

