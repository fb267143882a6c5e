"""Immutable values of the game: colours, positions, treasure and attack cards, dice, boards.

Everything here is a frozen value: operations return new objects. Nothing imports
Django.

>>> b = Board.parse(["11:r5 12 13", "14 15:b1 --"])
>>> b.shape
(2, 3)
>>> b.at(Position(0, 0)).occupant
AttackCard.parse('r5')
>>> b.at(Position(1, 2)).treasure is None
True
>>> [str(p) for p in sorted(b.attack_range(Position(1, 1)))]   # a [1] at B2
['[0, 0]', '[0, 1]', '[0, 2]', '[1, 0]', '[1, 2]']
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, NamedTuple

from .caches import CELLS
from .clauses import implements
from .coords import DIRECTIONS, Position
from .errors import InvalidInput, InvalidSituation
from .geometry import Geometry, geometry

__all__ = ["AttackCard", "AttackKind", "Board", "COLOURS", "COLOUR_SLOT", "Census", "Colour",
           "DICE_SLOT", "DIRECTIONS", "Dice", "FULL_DECK", "MAX_COLUMNS", "MAX_ROWS", "Occupancy",
           "Position", "Cell", "Treasure", "cell_of", "treasure_deck"]


class Colour(enum.Enum):
    """A player's colour (SETUP-1). ``letter`` is the one-letter code of the case format."""

    RED = "red"
    BLUE = "blue"
    GREEN = "green"
    WHITE = "white"

    # Members are singletons compared by identity: hash them by identity too, in C
    # (Enum's own __hash__ is Python code, and colours are dict keys everywhere).
    __hash__ = object.__hash__

    def __repr__(self) -> str:
        return f"Colour.{self.name}"

    @property
    def letter(self) -> str:
        """``"r"``, ``"b"``, ``"g"`` or ``"w"``."""
        return self.value[0]

    @classmethod
    def from_name(cls, name: object, *, where: str = "colour", field: str | None = None) -> Colour:
        """Parse ``"red"`` etc. Raises :class:`InvalidInput` naming ``where`` (and the input
        ``field``)."""
        for colour in cls:
            if colour.value == name:
                return colour
        raise InvalidInput(f"unknown colour {name!r}; expected one of red, blue, green, white",
                           where=where, field=field, code="unknown-colour", value=str(name))

    @classmethod
    def from_letter(cls, letter: str, *, where: str = "token", field: str | None = None,
                    position: tuple[int, int] | None = None) -> Colour:
        """Parse ``"r"``/``"R"`` etc. Raises :class:`InvalidInput` (naming ``where``, the
        input ``field`` and board ``position`` when given)."""
        for colour in cls:
            if colour.letter == letter.lower():
                return colour
        at: dict[str, Any] = {"position": list(position)} if position is not None else {}
        raise InvalidInput(f"unknown colour letter {letter!r}; expected r, b, g or w",
                           where=where, field=field, code="unknown-colour", value=letter, **at)


#: Largest board the engine accepts from outside: rows, and positions in a row
#: (columns are labelled A-L).
MAX_ROWS = 12
MAX_COLUMNS = 12

#: Seating order the colours are listed in when no other order is given.
COLOURS: tuple[Colour, ...] = tuple(Colour)


class AttackKind(enum.IntEnum):
    """The six attack cards; the value is the speed printed on the card (BAT-1)."""

    HOSTAGE_GAMBIT = 0
    BOARDING_MELEE = 1
    BROADSIDE = 2
    CANNON = 3
    KRAKENS_WRATH = 4
    SCOUT_SHIP = 5

    __hash__ = int.__hash__  # equal to its int, so hash like one (fast, in C)

    def __repr__(self) -> str:
        return f"AttackKind.{self.name}"

    @property
    def copies(self) -> int:
        """Copies of this card in one colour's full set of nine (SETUP-1)."""
        return 4 if self is AttackKind.SCOUT_SHIP else 1

    @property
    def slug(self) -> str:
        """Stable lower-case identifier, e.g. ``"boarding-melee"`` (used by templates)."""
        return self.name.lower().replace("_", "-")


@dataclass(frozen=True, order=True, slots=True)
class Treasure:
    """A treasure card showing two die faces ``low <= high`` (SETUP-2).

    >>> Treasure.parse("35")
    Treasure(low=3, high=5)
    >>> Treasure.parse("44").is_double
    True
    """

    low: int
    high: int

    def __post_init__(self) -> None:
        if not (1 <= self.low <= 6 and 1 <= self.high <= 6):
            raise InvalidSituation(f"die faces must be 1-6, got {self.low} and {self.high}",
                                  clause="SETUP-2", code="bad-faces")
        if self.low > self.high:
            raise InvalidInput(f"write the smaller face first ({self.high}{self.low}, "
                               f"not {self.low}{self.high})", code="faces-order")

    @classmethod
    def parse(cls, text: str, *, where: str = "treasure card", field: str | None = None,
              position: tuple[int, int] | None = None) -> Treasure:
        """Parse two digits, smaller first (``"35"``). Raises InvalidInput / InvalidSituation
        naming ``where``, the input ``field`` and the board ``position`` when given."""
        at: dict[str, Any] = {"position": list(position)} if position is not None else {}
        if len(text) != 2 or not text.isascii() or not text.isdigit():
            raise InvalidInput(f"a treasure card is two die faces like '35', got {text!r}",
                               where=where, field=field, code="bad-treasure", value=text, **at)
        low, high = int(text[0]), int(text[1])
        if not (1 <= low <= 6 and 1 <= high <= 6):
            raise InvalidSituation(f"die faces must be 1-6, got {text!r}", where=where, field=field,
                                  clause="SETUP-2", code="bad-faces", value=text, **at)
        if low > high:
            raise InvalidInput(f"write the smaller face first: {text[1]}{text[0]}, not {text}",
                               where=where, field=field, code="faces-order", value=text, **at)
        return cls(low, high)

    @property
    def is_double(self) -> bool:
        """True for a double (ゾロ目), e.g. {4,4}; doubles break ties (END-3)."""
        return self.low == self.high

    @property
    def faces(self) -> tuple[int, int]:
        """``(low, high)``."""
        return (self.low, self.high)

    def __str__(self) -> str:
        return f"{self.low}{self.high}"


@implements("SETUP-2")
def treasure_deck() -> tuple[Treasure, ...]:
    """Every treasure card of the game: each of the 21 unordered pairs of die faces
    ``{a, b}``, ``1 <= a <= b <= 6``, twice — 42 cards, 12 of them doubles (SETUP-2)."""
    return tuple(Treasure(a, b) for a in range(1, 7) for b in range(a, 7) for _copy in range(2))


#: Every treasure card of the full deck (:func:`treasure_deck`).
FULL_DECK: tuple[Treasure, ...] = treasure_deck()


@dataclass(frozen=True, slots=True)
class AttackCard:
    """One attack card of a colour, e.g. blue Boarding Melee (``b1`` in the case format)."""

    colour: Colour
    kind: AttackKind

    @classmethod
    def parse(cls, token: str) -> AttackCard:
        """Read a case-format token: colour letter + value, e.g. ``"b1"``.

        Raises :class:`InvalidInput` for anything else.
        """
        if (not isinstance(token, str) or len(token) != 2 or token[0] not in "rbgw"
                or token[1] not in "012345"):
            raise InvalidInput(f"an attack card is a colour letter and a value 0-5 like 'b1', "
                               f"got {token!r}", code="bad-occupant", value=str(token))
        return cls(Colour.from_letter(token[0]), AttackKind(int(token[1])))

    def __repr__(self) -> str:
        return f"AttackCard.parse({self.token!r})"

    @property
    def speed(self) -> int:
        """The number on the card (BAT-1)."""
        return int(self.kind)

    @property
    def token(self) -> str:
        """Case-format token: colour letter + value, e.g. ``"b1"``."""
        return f"{self.colour.letter}{int(self.kind)}"

    def __str__(self) -> str:
        return self.token


@dataclass(frozen=True, slots=True)
class Dice:
    """Two dice of one colour sitting on a treasure card during Dice Time (DICE-2)."""

    colour: Colour

    def __repr__(self) -> str:
        return f"Dice(Colour.{self.colour.name})"

    @property
    def token(self) -> str:
        """Case-format token: upper-case colour letter, e.g. ``"R"``."""
        return self.colour.letter.upper()

    def __str__(self) -> str:
        return self.token


Occupant = AttackCard | Dice


@dataclass(frozen=True, slots=True)
class Cell:
    """What lies at one position: a treasure card or none, and at most one occupant."""

    treasure: Treasure | None = None
    occupant: Occupant | None = None

    @property
    def card(self) -> AttackCard | None:
        """The attack card here, if any."""
        return self.occupant if isinstance(self.occupant, AttackCard) else None

    @property
    def dice(self) -> Dice | None:
        """The dice here, if any."""
        return self.occupant if isinstance(self.occupant, Dice) else None

    @property
    def token(self) -> str:
        """Case-format token, e.g. ``"35:b1"`` or ``"--"``."""
        base = str(self.treasure) if self.treasure else "--"
        return f"{base}:{self.occupant.token}" if self.occupant else base


def cell_of(treasure: Treasure, colour: Colour | None = None,
            kind: AttackKind | None = None) -> Cell:
    """The shared :class:`Cell` holding ``treasure`` and, if ``colour`` is given, that
    colour's attack card of ``kind`` or (``kind`` None) that colour's dice. Cells are
    immutable values, so one instance per value does."""
    key = (treasure.low * 8 + treasure.high, colour, kind)  # cheap to hash
    found = CELLS.table.get(key)
    return found if found is not None else CELLS.fill(key)


@CELLS.computes
def _cell(key: tuple[int, Colour | None, AttackKind | None]) -> Cell:
    faces, colour, kind = key
    treasure = Treasure(faces // 8, faces % 8)
    if colour is None:
        return Cell(treasure)
    return Cell(treasure, Dice(colour) if kind is None else AttackCard(colour, kind))


class Occupancy(NamedTuple):
    """Bit masks of what lies where on one board (bit ``i`` = ``geometry.positions[i]``).

    Attributes:
        treasure: positions holding a treasure card.
        dice: positions holding dice (DICE-2).
        cards: positions holding an attack card (SET-1).
        dice_of: colour → positions holding that colour's dice (colours without dice
            absent); a read-only mapping, shared with the boards made from this one.
    """

    treasure: int
    dice: int
    cards: int
    dice_of: Mapping[Colour, int]


#: ``COLOUR_SLOT[colour] + value`` indexes :attr:`Census.held`: eight places per colour,
#: values 0-5 for its attack cards and :data:`DICE_SLOT` for its dice.
COLOUR_SLOT: Mapping[Colour, int] = MappingProxyType({c: 8 * i for i, c in enumerate(Colour)})
DICE_SLOT = 6
_SLOT = dict(COLOUR_SLOT)  # a plain dict: the census looks it up for every occupant


_VALUE = {kind: int(kind) for kind in AttackKind}


class Census(NamedTuple):
    """What one pass over a board's cells tells (:meth:`Board.census`): what the rules'
    checks count and what Battle Time starts from, so that checking a situation and
    resolving it read each cell once between them.

    Attributes:
        occupancy: the board's :class:`Occupancy`.
        cards: ``(bit index, card, colour, value)`` of every attack card, in board order.
        own: colour → mask of its attack cards (colours without cards absent).
        hostage: mask of the [0] cards.
        faces: ``faces[low * 8 + high]`` = copies of that treasure card on the board.
        held: ``held[COLOUR_SLOT[colour] + value]`` = that colour's attack cards of that
            value on the board; ``+ DICE_SLOT``: cards holding its dice.
    """

    occupancy: Occupancy
    cards: tuple[tuple[int, AttackCard, Colour, int], ...]
    own: Mapping[Colour, int]
    hostage: int
    faces: tuple[int, ...]
    held: tuple[int, ...]


@dataclass(frozen=True)
class Board:
    """The grid of positions, rows top to bottom; rows may differ in length.

    ``rows[r][c]`` is the :class:`Cell` at ``Position(r, c)``. A short row simply
    has fewer positions; a position without a treasure card is ``Cell(None)``.
    """

    rows: tuple[tuple[Cell, ...], ...]
    _cache: dict[object, Any] = field(init=False, repr=False, compare=False, hash=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_cache", {})

    def __reduce__(self) -> tuple[type[Board], tuple[tuple[tuple[Cell, ...], ...]]]:
        """Pickle and copy the cells only; derived values are worked out again."""
        return (Board, (self.rows,))

    def __repr__(self) -> str:
        return f"Board.parse({self.to_rows()!r})"

    # --- construction ----------------------------------------------------------
    @classmethod
    def parse(cls, rows: Iterable[str]) -> Board:
        """Build a board from case-format rows (``["11:R 12", "-- 13:b1"]``).

        Raises :class:`InvalidInput` for malformed tokens and :class:`InvalidSituation`
        for an occupant on a position without a treasure card, naming the position.
        """
        parsed: list[tuple[Cell, ...]] = []
        for r, line in enumerate(rows):
            if not isinstance(line, str):
                raise InvalidInput(f"each board row must be a string, got {type(line).__name__}",
                                   where=f"board row {r}", field=f"board[{r}]", code="bad-row")
            tokens = line.split()
            if not tokens:
                raise InvalidInput("empty board row", where=f"board row {r}", field=f"board[{r}]",
                                   code="empty-row")
            parsed.append(tuple(_parse_token(tok, Position(r, c)) for c, tok in enumerate(tokens)))
        if not parsed:
            raise InvalidInput("the board has no rows", where="board", field="board",
                               code="empty-board")
        return cls(tuple(parsed))

    @classmethod
    def from_cells(cls, cells: dict[Position, Cell], shape: tuple[int, int]) -> Board:
        """A rectangular ``shape = (rows, cols)`` board; missing positions hold no treasure."""
        n_rows, n_cols = shape
        return cls(tuple(tuple(cells.get(Position(r, c), Cell()) for c in range(n_cols))
                         for r in range(n_rows)))

    def to_rows(self) -> list[str]:
        """Case-format rows; inverse of :meth:`parse`."""
        return [" ".join(cell.token for cell in row) for row in self.rows]

    # --- geometry ----------------------------------------------------------------
    @property
    def shape(self) -> tuple[int, int]:
        """``(number of rows, length of the longest row)``."""
        return (len(self.rows), max((len(r) for r in self.rows), default=0))

    def __contains__(self, pos: object) -> bool:
        return pos in self.geometry.index

    def __iter__(self) -> Iterator[tuple[Position, Cell]]:
        """Positions and cells, row by row, left to right."""
        return zip(self.geometry.positions, (cell for row in self.rows for cell in row), strict=True)

    def positions(self) -> list[Position]:
        """Every position, row by row."""
        return list(self.geometry.positions)

    def at(self, pos: Position) -> Cell:
        """The cell at ``pos``. Raises :class:`InvalidInput` when off the grid."""
        if pos not in self.geometry.index:
            raise InvalidInput(f"position {Position(*pos)} is not on the board", code="off-board",
                               position=list(pos))
        return self.rows[pos[0]][pos[1]]

    def get(self, pos: Position) -> Cell | None:
        """The cell at ``pos`` or ``None`` when off the grid."""
        if pos not in self.geometry.index:
            return None
        return self.rows[pos[0]][pos[1]]

    def cards(self) -> dict[Position, AttackCard]:
        """Attack cards on the board by position."""
        return {p: cell.occupant for p, cell in self if cell.occupant.__class__ is AttackCard}

    def dice(self) -> dict[Position, Dice]:
        """Dice on the board by position (memoised: boards never change)."""
        found = self._cache.get("dice")
        if found is None:
            found = self._cache["dice"] = {p: cell.occupant for p, cell in self
                                           if cell.occupant.__class__ is Dice}
        return dict(found)

    def occupancy(self) -> Occupancy:
        """Bit masks of treasure cards, dice and attack cards (memoised per board)."""
        found = self._cache.get("occupancy")
        if found is None:
            treasure = dice = cards = 0
            dice_of: dict[Colour, int] = {}
            bit = 1
            for row in self.rows:
                for cell in row:
                    if cell.treasure is not None:
                        treasure |= bit
                    occupant = cell.occupant
                    if occupant is not None:
                        if occupant.__class__ is Dice:
                            dice |= bit
                            dice_of[occupant.colour] = dice_of.get(occupant.colour, 0) | bit
                        else:
                            cards |= bit
                    bit <<= 1
            found = self._cache["occupancy"] = Occupancy(treasure, dice, cards,
                                                         MappingProxyType(dice_of))
        return found

    def census(self) -> Census:
        """One pass over the cells: counts and masks (:class:`Census`), memoised per board.
        Also memoises :meth:`occupancy`, which it holds."""
        found = self._cache.get("census")
        if found is not None:
            return found
        treasure = dice = cards = hostage = 0
        faces = [0] * 64
        held = [0] * 32
        dice_of = dict.fromkeys(COLOURS, 0)
        own = dict.fromkeys(COLOURS, 0)
        listed = []
        slot = _SLOT
        value_of = _VALUE
        at = 0
        bit = 1
        for row in self.rows:
            for cell in row:
                t = cell.treasure
                if t is not None:
                    treasure |= bit
                    faces[t.low * 8 + t.high] += 1
                occupant = cell.occupant
                if occupant is not None:
                    colour = occupant.colour
                    if occupant.__class__ is Dice:
                        dice |= bit
                        dice_of[colour] |= bit
                        held[slot[colour] + DICE_SLOT] += 1
                    else:
                        value = value_of[occupant.kind]  # type: ignore[union-attr]
                        own[colour] |= bit
                        held[slot[colour] + value] += 1
                        listed.append((at, occupant, colour, value))
                        if not value:
                            hostage |= bit
                at += 1
                bit <<= 1
        dice_of = {c: m for c, m in dice_of.items() if m} if dice else {}
        own = {c: m for c, m in own.items() if m}
        for mask in own.values():
            cards |= mask
        occupancy = self._cache.get("occupancy")
        if occupancy is None:
            occupancy = self._cache["occupancy"] = _tuple_new(
                Occupancy, (treasure, dice, cards, MappingProxyType(dice_of)))
        found = self._cache["census"] = _tuple_new(Census, (
            occupancy, tuple(listed), MappingProxyType(own),
            hostage, tuple(faces), tuple(held)))
        return found

    def free_faces(self) -> Mapping[Position, tuple[int, int]]:
        """Treasure cards without dice or an attack card, where a pair of dice may still
        go (DICE-2): position → ``(low, high)``, in board order. Read-only, memoised."""
        found = self._cache.get("free_faces")
        if found is None:
            found = self._cache["free_faces"] = MappingProxyType({
                p: (cell.treasure.low, cell.treasure.high) for p, cell in self
                if cell.treasure is not None and cell.occupant is None})
        return found

    def treasure_count(self) -> int:
        """Treasure cards on the board."""
        return sum(1 for row in self.rows for cell in row if cell.treasure is not None)

    def lines(self) -> list[tuple[Position, ...]]:
        """Every maximal row, column and diagonal as positions on the grid, in order.

        A line runs across the bounding rectangle and keeps only positions that exist
        (:attr:`Geometry.lines`). Used for the bell (INT-3) and sandwiches (TRE-2).
        """
        return list(self.geometry.lines)

    @property
    def geometry(self) -> Geometry:
        """Bit-mask geometry of this board's shape (:mod:`captain.rules.geometry`)."""
        found = self._cache.get("geometry")  # no exception for a board just read
        if found is None:
            found = self._cache["geometry"] = geometry(tuple(map(len, self.rows)))
        return found

    @property
    def cache(self) -> dict[object, Any]:
        """Per-board memo for values derived from this immutable board (bell status…)."""
        return self._cache

    def between(self, a: Position, b: Position) -> list[Position] | None:
        """Positions strictly between ``a`` and ``b`` on a common row, column or diagonal,
        in order from ``a`` to ``b``.

        Returns ``None`` when ``a`` and ``b`` share no line; places that are not on the
        grid (a short row) are skipped: they never break a line (INT-2).
        """
        g = self.geometry
        i, j = g.index.get(a), g.index.get(b)
        if i is None or j is None or i == j:
            return None
        mask = g.between.get((i, j) if i < j else (j, i))
        if mask is None:
            return None
        found = list(g.to_positions(mask))
        return found if i < j else found[::-1]

    def attack_range(self, pos: Position) -> frozenset[Position]:
        """Positions an attack card at ``pos`` reaches when it acts (BAT-4, BAT-5).

        [0] and [5]: nothing. [1]: the up to 8 surrounding positions. [2]: its row.
        [3]: its column. [4]: both diagonals to the edge of the grid. Ranges are positions
        on the grid, whether or not a treasure card lies there; they never include ``pos``.
        """
        card = self.at(pos).card
        if card is None:
            return frozenset()
        return self.range_of(card.kind, pos)

    def range_of(self, kind: AttackKind, pos: Position) -> frozenset[Position]:
        """Like :meth:`attack_range` for a card of ``kind`` imagined at ``pos``
        (:func:`~captain.rules.geometry.attack_reach`)."""
        g = self.geometry
        i = g.index.get(pos)
        if i is None:
            self.at(pos)  # raises the off-board error
            raise AssertionError(pos)
        return frozenset(g.to_positions(g.reach[int(kind)][i]))

    # --- changes (return new boards) ------------------------------------------------
    def with_cell(self, pos: Position, cell: Cell) -> Board:
        """A copy with ``cell`` at ``pos`` (which must exist).

        Values derived from this board that one cell changes cheaply (its geometry,
        :meth:`occupancy`, :meth:`free_faces`) are carried over to the copy, so a game
        that places one occupant at a time never rescans the grid.
        """
        geometry = self.geometry
        i = geometry.index.get(pos)
        if i is None:
            self.at(pos)  # raises the off-board error
            raise AssertionError(pos)
        if cell.treasure is None and cell.occupant is not None:
            raise InvalidSituation("an attack card or dice must lie on a treasure card, but this "
                                  "position has none", where=f"position {Position(*pos)}",
                                  clause="DICE-2", code="occupant-without-treasure",
                                  position=list(pos))
        r, c = pos
        row = self.rows[r]
        old = row[c]
        rows = self.rows[:r] + (row[:c] + (cell,) + row[c + 1:],) + self.rows[r + 1:]
        new = object.__new__(Board)  # a frozen dataclass: fill its fields directly
        cache: dict[object, Any] = {"geometry": geometry}
        new.__dict__.update(rows=rows, _cache=cache)
        occupancy = self._cache.get("occupancy")
        if occupancy is not None:
            cache["occupancy"] = _moved(occupancy, 1 << i, old, cell)
        free = self._cache.get("free_faces")
        if free is not None and (cell.treasure is old.treasure or cell.treasure == old.treasure):
            if cell.occupant is not None and old.occupant is None:
                left = free.copy()
                del left[pos]  # a free card (the treasure check above refused gaps)
                cache["free_faces"] = MappingProxyType(left)
            elif (cell.occupant is None) == (old.occupant is None):
                cache["free_faces"] = free
        return new

    def with_occupant(self, pos: Position, occupant: Occupant | None) -> Board:
        """A copy with the occupant at ``pos`` replaced (``None`` clears it)."""
        return self.with_cell(pos, Cell(self.at(pos).treasure, occupant))

    def without(self, positions: Iterable[Position], *, treasure: bool = False) -> Board:
        """A copy with the occupants at ``positions`` taken off (and their treasure if asked)."""
        drop = set(positions)
        return Board(tuple(
            tuple((Cell(None if treasure else cell.treasure, None) if Position(r, c) in drop else cell)
                  for c, cell in enumerate(row))
            for r, row in enumerate(self.rows)))


def _moved(occupancy: Occupancy, bit: int, old: Cell, new: Cell) -> Occupancy:
    """``occupancy`` after the cell at ``bit`` changed from ``old`` to ``new``."""
    treasure, dice, cards, dice_of = occupancy
    if (old.treasure is None) is not (new.treasure is None):
        treasure ^= bit
    occupant = old.occupant
    if occupant is not None:
        if occupant.__class__ is Dice:
            dice &= ~bit
            changed = dice_of.copy()  # type: ignore[attr-defined]
            mask = changed.pop(occupant.colour) & ~bit
            if mask:
                changed[occupant.colour] = mask
            dice_of = MappingProxyType(changed)
        else:
            cards &= ~bit
    occupant = new.occupant
    if occupant is not None:
        if occupant.__class__ is Dice:
            dice |= bit
            changed = dice_of.copy()  # type: ignore[attr-defined]
            changed[occupant.colour] = changed.get(occupant.colour, 0) | bit
            dice_of = MappingProxyType(changed)
        else:
            cards |= bit
    return _tuple_new(Occupancy, (treasure, dice, cards, dice_of))


_tuple_new = tuple.__new__


def _parse_token(token: str, pos: Position) -> Cell:
    where = f"position {pos} (token {token!r})"
    face, sep, occ = token.partition(":")
    treasure = None if face == "--" else Treasure.parse(face, where=where, field="board",
                                                        position=pos)
    if not sep:
        return Cell(treasure)
    if ":" in occ:
        raise InvalidSituation("two occupants on one card; a card holds one attack card or one "
                              "player's dice", where=where, clause="DICE-2",
                              code="two-occupants", position=list(pos))
    if len(occ) == 1 and occ in "RBGW":
        occupant: Occupant = Dice(Colour.from_letter(occ, where=where, field="board", position=pos))
    elif len(occ) == 2 and occ[0] in "rbgw":
        if not occ[1].isdigit() or not occ[1].isascii():
            raise InvalidInput(f"attack value must be a digit 0-5, got {occ[1]!r}", where=where,
                               code="bad-attack-value", position=list(pos))
        value = int(occ[1])
        if value > 5:
            raise InvalidSituation(f"attack values run 0-5, got {value}", where=where,
                                  clause="SETUP-1", code="bad-attack-value", position=list(pos))
        occupant = AttackCard(Colour.from_letter(occ[0], where=where, field="board", position=pos),
                              AttackKind(value))
    elif len(occ) > 2 and occ[0] in "rbgw" and occ[1:].isdigit():
        raise InvalidSituation(f"attack values run 0-5, got {occ[1:]}", where=where,
                              clause="SETUP-1", code="bad-attack-value", position=list(pos))
    else:
        raise InvalidInput(f"unknown occupant {occ!r}: expected an attack card like 'b1' or "
                           "dice like 'B'", where=where, code="bad-occupant", position=list(pos))
    if treasure is None:
        raise InvalidSituation("an attack card or dice must lie on a treasure card, but this "
                              "position has none", where=where, clause="DICE-2",
                              code="occupant-without-treasure", position=list(pos))
    return Cell(treasure, occupant)

