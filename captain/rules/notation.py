r"""Position notation: one short, URL-safe, human-readable line for a :class:`Situation`.

Grammar (every character is URL-safe: letters, digits, ``-``, ``.``, ``_``, ``~``)::

    position := seats "_" board ( "_" section )*
    seats    := 2-4 colour letters (r b g w) in clockwise order; the start player
                in upper case                              e.g. "Rbg", "rBgw"
    board    := row ( "-" row )*                           rows top to bottom
    row      := cell ( "." cell )*                     left to right
    cell   := ( faces | "x" ) [ occupant ]               "x" = no treasure card
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

Both readers first read the text as the site reads every typed text
(:func:`~captain.rules.typed.normalize_typed`): white space of every kind around it and
invisible format characters anywhere, which a copy and paste brings along (a trailing
newline, a no-break space, a Japanese full-width space, a byte order mark, a zero-width
space), are dropped, and a notation typed in full width is folded:

>>> parse("\ufeff Rb_11r1.12b2\u3000\n").to_notation()
'Rb_11r1.12b2'
>>> parse("Ｒｂ＿１１ｒ１．１２ｂ\u200b２").to_notation()
'Rb_11r1.12b2'
"""

from __future__ import annotations

from typing import Any

from .errors import InvalidInput
from .model import MAX_COLUMNS, MAX_ROWS, AttackCard, AttackKind, Board, Cell, Colour, Dice, Treasure
from .situation import RULE_FLAGS, RuleSet, Seating, Situation
from .typed import normalize_mapped

#: Longest notation accepted (characters, what is dropped around it included); longer
#: input is refused before any work.
MAX_LENGTH = 2000

_LETTERS = {c.letter: c for c in Colour}


#: What the reader expected where it stopped: stable code → English (for logs and the
#: command line; the site words the codes in each language). ``{limit}``, ``{low}`` and
#: ``{high}`` come from the error's params.
EXPECTED = {
    "seat-letter": "a colour letter r, b, g or w (start player in upper case)",
    "new-colour": "a colour not yet seated",
    "one-start-player": "only one start player (upper case)",
    "seat-count": "2 to 4 colour letters before '_'",
    "start-player-letter": "the start player's letter in upper case",
    "seats-end": "'_' after the seats",
    "row-length": "at most {limit} positions in a row",
    "row-count": "at most {limit} rows",
    "section": "a section 'r' (rules), 'd' (deck) or 'w' (won), once each, in that order",
    "separator": "'.', '-', '_' or the end",
    "face-or-x": "a die face (1-6) or 'x' for no treasure card",
    "second-face": "a second die face (1-6)",
    "smaller-face-first": "the smaller face first ({high}{low})",
    "attack-value": "an attack value 0-5",
    "treasure-under-occupant": "a treasure card under the occupant (not 'x')",
    "variant-number": "a variant number 1-4",
    "flag-order": "rule flags once each, in the order v1 v2 v3 v4 s p i",
    "rule-flag": "a rule flag (v1-v4, s, p, i)",
    "one-bell-variant": "only one bell variant (v3 or v4)",
    "p-needs-s": "'p' only together with 's' (strategy mode)",
    "colour-letter": "a colour letter r, b, g or w",
    "seated-colour": "a seated colour",
    "colour-once": "each colour once",
    "face": "a die face (1-6)",
    "deck-number": "the number of cards in the deck",
    "won-faces-or-dot": "two die faces, or '.' before the next colour",
    "length": "at most {limit} characters",
}


#: A treasure card's two faces, smaller first, as a regular expression (unanchored).
FACES_PATTERN = "(?:" + "|".join(f"{low}[{low}-6]" if low < 6 else "66" for low in range(1, 7)) + ")"


def _pattern() -> str:
    """The grammar above as a regular expression (no anchors), built from the reader's own
    letters, faces, values and flags: every notation :func:`parse_unchecked` reads matches
    it. It leaves out what only counting can say (row length, row count, :data:`MAX_LENGTH`,
    the flags' order and the sections' checks against the seats): the reader says those,
    with the character offset."""
    letters = "".join(_LETTERS)
    faces = FACES_PATTERN
    values = f"[{min(AttackKind):d}-{max(AttackKind):d}]"
    cell = f"(?:{faces}(?:[{letters}]{values}|[{letters.upper()}])?|x)"
    row = rf"{cell}(?:\.{cell})*"
    flags = "|".join(sorted(RULE_FLAGS, key=len, reverse=True))
    won = rf"[{letters}]{faces}*(?:\.[{letters}]{faces}*)*"
    return (rf"[{letters}{letters.upper()}]{{2,4}}_{row}(?:-{row})*(?:_r(?:{flags})+)?"
            rf"(?:_d[0-9]{{1,3}})?(?:_w{won})?")


#: The notation's shape as a regular expression (unanchored), for schemas and forms that
#: describe it to clients; the reader stays the judge (:func:`_pattern`).
PATTERN = _pattern()


class NotationError(InvalidInput):
    """A notation that cannot be read.

    Attributes:
        offset: the 0-based character position where reading stopped.
        expected_code: what was expected there: a key of :data:`EXPECTED` (stable; what
            programs read).
        expected: the same in English (for logs and the command line).
        params: ``offset``, ``expected_code`` and the numbers the expectation names
            (``limit``, ``low``, ``high``).
    """

    code = "bad-notation"

    def __init__(self, expected_code: str, text: str, offset: int, **params: Any) -> None:
        shown = repr(text[offset]) if offset < len(text) else f"{text!r} ends there"
        found = f"found {shown}" if offset < len(text) else shown
        wanted = EXPECTED[expected_code].format(**params)
        super().__init__(f"expected {wanted} at character {offset}: {found}", code="bad-notation",
                         offset=offset, expected_code=expected_code, **params)
        self.offset = offset
        self.expected_code = expected_code
        self.expected = wanted

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

    def fail(self, expected: str, at: int | None = None, **params: int) -> NotationError:
        return NotationError(expected, self.text, self.i if at is None else at, **params)

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
    """Read a notation without checking it against the rules. Raises :class:`NotationError`.

    The text is first read as every typed text of the site is
    (:func:`~captain.rules.typed.normalize_typed`: white space around it and invisible
    characters in it dropped, a full-width notation folded); an error's offset still
    counts in ``text`` as given, so it points at the same character for whoever sent it.
    A lone surrogate is refused there (``bad-text``).
    """
    if not isinstance(text, str):
        raise InvalidInput("notation must be text", code="bad-notation")
    if len(text) > MAX_LENGTH:
        raise NotationError("length", text, MAX_LENGTH, limit=MAX_LENGTH)
    clean, origin = normalize_mapped(text, where="notation")
    if clean == text:
        return _read(text)
    try:
        return _read(clean)
    except NotationError as exc:
        params = {key: value for key, value in exc.params.items() if key not in ("offset", "expected_code")}
        # the text as sent, up to the last character read: one that stopped early "ends there"
        end = origin[-1] + 1 if origin else 0
        at = origin[exc.offset] if exc.offset < len(origin) else end
        raise NotationError(exc.expected_code, text[:end], at, **params) from None


def _read(text: str) -> Situation:
    r = _Reader(text)
    seats, start = _seats(r)
    rows = _rows(r)
    rules = RuleSet()
    deck: int | None = None
    won: dict[Colour, tuple[Treasure, ...]] = {}
    seen = ""
    while r.peek() == "_":
        r.take()
        key = r.peek()
        if key not in "rdw" or not key or (seen and "rdw".index(key) <= "rdw".index(seen[-1])):
            raise r.fail("section")
        seen += key
        r.take()
        if key == "r":
            rules = _rules(r)
        elif key == "d":
            deck = r.number("deck-number")
        else:
            won = _won(r, seats)
    if r.peek():
        raise r.fail("separator")
    return Situation(Board(tuple(rows)), Seating(tuple(seats), start), rules, deck, won)


def _seats(r: _Reader) -> tuple[list[Colour], Colour]:
    """``rBgw_``: the seated colours clockwise, the capital one the start player."""
    seats: list[Colour] = []
    start: Colour | None = None
    while r.peek() and r.peek() != "_":
        ch = r.peek()
        colour = _LETTERS.get(ch.lower())
        if colour is None:
            raise r.fail("seat-letter")
        if colour in seats:
            raise r.fail("new-colour")
        if ch.isupper():
            if start is not None:
                raise r.fail("one-start-player")
            start = colour
        seats.append(colour)
        r.take()
    if not 2 <= len(seats) <= 4:
        raise r.fail("seat-count")
    if start is None:
        raise r.fail("start-player-letter", 0)
    if r.take() != "_":
        raise r.fail("seats-end", r.i - 1)
    return seats, start


def _rows(r: _Reader) -> list[tuple[Cell, ...]]:
    """Cells separated by ``.``, rows by ``-``."""
    rows: list[tuple[Cell, ...]] = []
    row: list[Cell] = []
    while True:
        at = r.i
        row.append(_cell(r))
        if len(row) > MAX_COLUMNS:
            raise r.fail("row-length", at, limit=MAX_COLUMNS)
        ch = r.peek()
        if ch == ".":
            r.take()
            continue
        rows.append(tuple(row))
        row = []
        if ch == "-":
            if len(rows) == MAX_ROWS:
                raise r.fail("row-count", limit=MAX_ROWS)
            r.take()
            continue
        return rows


def parse(text: str) -> Situation:
    """Read a notation and validate it against the rules.

    Raises :class:`NotationError` (unreadable, with the character offset) or
    :class:`~captain.rules.errors.InvalidSituation` (readable but against the rules).
    """
    return parse_unchecked(text).validate()


def _cell(r: _Reader) -> Cell:
    if r.peek() == "x":
        r.take()
        treasure = None
    else:
        at = r.i
        low = r.digit("face-or-x", 1, 6)
        high = r.digit("second-face", 1, 6)
        if low > high:
            raise r.fail("smaller-face-first", at, low=low, high=high)
        treasure = Treasure(low, high)
    ch = r.peek()
    occupant: Dice | AttackCard | None = None
    if ch and ch.lower() in _LETTERS and ch not in "x":
        at = r.i
        r.take()
        colour = _LETTERS[ch.lower()]
        if ch.isupper():
            occupant = Dice(colour)
        else:
            occupant = AttackCard(colour, AttackKind(r.digit("attack-value", 0, 5)))
        if treasure is None:
            raise r.fail("treasure-under-occupant", at)
    return Cell(treasure, occupant)


_FLAGS = RULE_FLAGS


def _rules(r: _Reader) -> RuleSet:
    flags: list[str] = []
    offsets: dict[str, int] = {}  # where each flag starts: errors point at the flag at fault
    while r.peek() and r.peek() in "vspi":
        at = r.i
        flag = r.take()
        if flag == "v":
            flag += str(r.digit("variant-number", 1, 4))
        if flag in flags or (flags and _FLAGS.index(flag) < _FLAGS.index(flags[-1])):
            raise r.fail("flag-order", at)
        flags.append(flag)
        offsets[flag] = at
    if not flags:
        raise r.fail("rule-flag")
    if "v3" in flags and "v4" in flags:
        raise r.fail("one-bell-variant", offsets["v4"])
    if "p" in flags and "s" not in flags:
        raise r.fail("p-needs-s", offsets["p"])
    return RuleSet.from_flags(flags)


def parse_won(text: str, seats: tuple[Colour, ...]) -> dict[Colour, tuple[Treasure, ...]]:
    """Read the cards won earlier, as the ``w`` section writes them (``r1166.b22``), for
    the ``seats`` at the table. Raises :class:`NotationError` with the offset in ``text``
    (expected ``won-faces-or-dot`` where a colour's faces stop early)."""
    if not isinstance(text, str):
        raise InvalidInput("won cards must be text", code="bad-notation")
    if len(text) > MAX_LENGTH:
        raise NotationError("length", text, MAX_LENGTH, limit=MAX_LENGTH)
    r = _Reader(text)
    won = _won(r, list(seats))
    if r.peek():
        raise r.fail("won-faces-or-dot")
    return won


def _won(r: _Reader, seats: list[Colour]) -> dict[Colour, tuple[Treasure, ...]]:
    won: dict[Colour, tuple[Treasure, ...]] = {}
    while True:
        at = r.i
        colour = _LETTERS.get(r.peek())
        if colour is None:
            raise r.fail("colour-letter")
        if colour not in seats:
            raise r.fail("seated-colour", at)
        if colour in won:
            raise r.fail("colour-once", at)
        r.take()
        cards: list[Treasure] = []
        while r.peek().isascii() and r.peek().isdigit():
            at = r.i
            low = r.digit("face", 1, 6)
            high = r.digit("second-face", 1, 6)
            if low > high:
                raise r.fail("smaller-face-first", at, low=low, high=high)
            cards.append(Treasure(low, high))
        won[colour] = tuple(cards)
        if r.peek() != ".":
            return won
        r.take()
