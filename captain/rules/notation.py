"""Position notation: one short, URL-safe, human-readable line for a :class:`Situation`.

Grammar (every character is URL-safe: letters, digits, ``-``, ``.``, ``_``, ``~``)::

    position := seats "_" board ( "_" section )*
    seats    := 2-4 colour letters (r b g w) in clockwise order; the start player
                in upper case                              e.g. "Rbg", "rBgw"
    board    := row ( "-" row )*                           rows top to bottom
    row      := square ( "." square )*                     left to right
    square   := ( faces | "x" ) [ occupant ]               "x" = no treasure card
    faces    := digit digit, 1-6, smaller first            "35", "44"
    occupant := colour value                               attack card: "b1"
              | COLOUR                                     dice: "B"
    section  := "r" flag+                                  rules, flags in this order:
                    "v1" reversed speed (VAR-1)   "v2" no scouts (VAR-2)
                    "v3" all-dice bell (VAR-3)    "v4" first-edition bell (VAR-4)
                    "s"  strategy mode            "p"  place after re-roll (STRAT-4)
                    "i"  simultaneous collection (INT-1 other reading)
              | "d" number                                 cards left in the deck
              | "w" won ( "." won )*                       cards won earlier:
                    won := colour faces*                   "wr1166.b22"

Sections appear at most once each, in the order r, d, w.

Examples:

>>> s = parse("Rbg_11.13r3.22.14-15.16b1.23.24r2-26.33.34g1.35-36g0.44.45.46")
>>> s.seating.start_player, s.board.at((1, 1)).occupant.token
(Colour.RED, 'b1')
>>> s.to_notation() == "Rbg_11.13r3.22.14-15.16b1.23.24r2-26.33.34g1.35-36g0.44.45.46"
True
>>> parse("rB_11R.12.x-15.16B.22_rv1s_d12_wr11.b1234")
notation.parse('rB_11R.12.x-15.16B.22_rv1s_d12_wr11.b1234')
>>> parse("Rbg_11.1")
Traceback (most recent call last):
...
captain.rules.notation.NotationError: expected a second die face (1-6) at character 8: 'Rbg_11.1' ends there

:func:`parse` also validates the position against the rules
(:meth:`Situation.validate`); :func:`parse_unchecked` only reads it. The writer is
:meth:`Situation.to_notation` (a situation's ``repr`` is the call that reads it back).
"""

from __future__ import annotations

from .errors import InvalidInput
from .model import MAX_COLUMNS, MAX_ROWS, AttackCard, AttackKind, Board, Colour, Dice, Square, Treasure
from .situation import BellRule, Collection, Mode, RuleSet, Seating, Situation, SpeedOrder

#: Longest notation accepted (characters); longer input is refused before any work.
MAX_LENGTH = 2000

_LETTERS = {c.letter: c for c in Colour}


class NotationError(InvalidInput):
    """A notation that cannot be read. ``offset`` is the 0-based character position."""

    code = "bad-notation"

    def __init__(self, expected: str, text: str, offset: int) -> None:
        shown = repr(text[offset]) if offset < len(text) else f"{text!r} ends there"
        found = f"found {shown}" if offset < len(text) else shown
        super().__init__(f"expected {expected} at character {offset}: {found}",
                         code="bad-notation", offset=offset, expected=expected)
        self.offset = offset
        self.expected = expected

    def __str__(self) -> str:
        return self.message


class _Reader:
    def __init__(self, text: str) -> None:
        self.text = text
        self.i = 0

    def peek(self) -> str:
        return self.text[self.i] if self.i < len(self.text) else ""

    def take(self) -> str:
        ch = self.peek()
        self.i += 1
        return ch

    def fail(self, expected: str, at: int | None = None) -> NotationError:
        return NotationError(expected, self.text, self.i if at is None else at)

    def digit(self, what: str, low: int = 0, high: int = 9) -> int:
        ch = self.peek()
        if not (ch.isascii() and ch.isdigit()) or not low <= int(ch) <= high:
            raise self.fail(what)
        self.i += 1
        return int(ch)

    def number(self, what: str) -> int:
        start = self.i
        while self.peek().isascii() and self.peek().isdigit():
            self.i += 1
        if start == self.i or self.i - start > 3:
            raise self.fail(what, start)
        return int(self.text[start:self.i])


def parse_unchecked(text: str) -> Situation:
    """Read a notation without checking it against the rules. Raises :class:`NotationError`."""
    if not isinstance(text, str):
        raise InvalidInput("notation must be text", code="bad-notation")
    if len(text) > MAX_LENGTH:
        raise NotationError(f"at most {MAX_LENGTH} characters", text, MAX_LENGTH)
    r = _Reader(text)
    seats: list[Colour] = []
    start: Colour | None = None
    while r.peek() and r.peek() != "_":
        ch = r.peek()
        colour = _LETTERS.get(ch.lower())
        if colour is None:
            raise r.fail("a colour letter r, b, g or w (start player in upper case)")
        if colour in seats:
            raise r.fail("a colour not yet seated")
        if ch.isupper():
            if start is not None:
                raise r.fail("only one start player (upper case)")
            start = colour
        seats.append(colour)
        r.take()
    if not 2 <= len(seats) <= 4:
        raise r.fail("2 to 4 colour letters before '_'")
    if start is None:
        raise r.fail("the start player's letter in upper case", 0)
    if r.take() != "_":
        raise r.fail("'_' after the seats", r.i - 1)
    rows: list[tuple[Square, ...]] = []
    row: list[Square] = []
    while True:
        at = r.i
        row.append(_square(r))
        if len(row) > MAX_COLUMNS:
            raise r.fail(f"at most {MAX_COLUMNS} positions in a row", at)
        ch = r.peek()
        if ch == ".":
            r.take()
            continue
        rows.append(tuple(row))
        row = []
        if ch == "-":
            if len(rows) == MAX_ROWS:
                raise r.fail(f"at most {MAX_ROWS} rows")
            r.take()
            continue
        break
    rules = RuleSet()
    deck: int | None = None
    won: dict[Colour, tuple[Treasure, ...]] = {}
    seen = ""
    while r.peek() == "_":
        r.take()
        key = r.peek()
        if key not in "rdw" or not key or (seen and "rdw".index(key) <= "rdw".index(seen[-1])):
            raise r.fail("a section 'r' (rules), 'd' (deck) or 'w' (won), once each, in that order")
        seen += key
        r.take()
        if key == "r":
            rules = _rules(r)
        elif key == "d":
            deck = r.number("the number of cards in the deck")
        else:
            won = _won(r, seats)
    if r.peek():
        raise r.fail("'.', '-', '_' or the end")
    return Situation(Board(tuple(rows)), Seating(tuple(seats), start), rules, deck, won)


def parse(text: str) -> Situation:
    """Read a notation and validate it against the rules.

    Raises :class:`NotationError` (unreadable, with the character offset) or
    :class:`~captain.rules.errors.InvalidPosition` (readable but against the rules).
    """
    return parse_unchecked(text).validate()


def _square(r: _Reader) -> Square:
    if r.peek() == "x":
        r.take()
        treasure = None
    else:
        at = r.i
        low = r.digit("a die face (1-6) or 'x' for no treasure card", 1, 6)
        high = r.digit("a second die face (1-6)", 1, 6)
        if low > high:
            raise r.fail(f"the smaller face first ({high}{low})", at)
        treasure = Treasure(low, high)
    ch = r.peek()
    occupant = None
    if ch and ch.lower() in _LETTERS and ch not in "x":
        at = r.i
        r.take()
        colour = _LETTERS[ch.lower()]
        if ch.isupper():
            occupant = Dice(colour)
        else:
            occupant = AttackCard(colour, AttackKind(r.digit("an attack value 0-5", 0, 5)))
        if treasure is None:
            raise r.fail("a treasure card under the occupant (not 'x')", at)
    return Square(treasure, occupant)


_FLAGS = ("v1", "v2", "v3", "v4", "s", "p", "i")


def _rules(r: _Reader) -> RuleSet:
    flags: list[str] = []
    offsets: dict[str, int] = {}  # where each flag starts: errors point at the flag at fault
    while r.peek() and r.peek() in "vspi":
        at = r.i
        flag = r.take()
        if flag == "v":
            flag += str(r.digit("a variant number 1-4", 1, 4))
        if flag in flags or (flags and _FLAGS.index(flag) < _FLAGS.index(flags[-1])):
            raise r.fail("rule flags once each, in the order v1 v2 v3 v4 s p i", at)
        flags.append(flag)
        offsets[flag] = at
    if not flags:
        raise r.fail("a rule flag (v1-v4, s, p, i)")
    if "v3" in flags and "v4" in flags:
        raise r.fail("only one bell variant (v3 or v4)", offsets["v4"])
    if "p" in flags and "s" not in flags:
        raise r.fail("'p' only together with 's' (strategy mode)", offsets["p"])
    return RuleSet(
        speed_order=SpeedOrder.REVERSED if "v1" in flags else SpeedOrder.ASCENDING,
        collection=Collection.SIMULTANEOUS if "i" in flags else Collection.SEQUENTIAL,
        mode=Mode.STRATEGY if "s" in flags else Mode.ACTION,
        no_scouts="v2" in flags,
        bell=BellRule.ALL_DICE if "v3" in flags else BellRule.FIRST_EDITION if "v4" in flags
        else BellRule.LINE,
        place_after_reroll="p" in flags,
    )


def _won(r: _Reader, seats: list[Colour]) -> dict[Colour, tuple[Treasure, ...]]:
    won: dict[Colour, tuple[Treasure, ...]] = {}
    while True:
        at = r.i
        colour = _LETTERS.get(r.peek())
        if colour is None:
            raise r.fail("a colour letter r, b, g or w")
        if colour not in seats:
            raise r.fail("a seated colour", at)
        if colour in won:
            raise r.fail("each colour once", at)
        r.take()
        cards: list[Treasure] = []
        while r.peek().isascii() and r.peek().isdigit():
            at = r.i
            low = r.digit("a die face (1-6)", 1, 6)
            high = r.digit("a second die face (1-6)", 1, 6)
            if low > high:
                raise r.fail(f"the smaller face first ({high}{low})", at)
            cards.append(Treasure(low, high))
        won[colour] = tuple(cards)
        if r.peek() != ".":
            return won
        r.take()
