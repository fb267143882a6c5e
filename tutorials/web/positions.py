"""A grid position in an address or a form: ``r-c``, the zero-based row and column
joined by a hyphen (``1-2`` is row 2, column 3: the board's ``C2``).

Every link and form that names one position writes it this way (the analyzer's ``put``,
the tutorial boards' and the teaching table's ``at``, the practice game's ``claim`` and
``place``), and so do the boards' state strings that hold positions; it is the JSON API's
``[row, col]`` pair as text. Links and states written before it used two digits (``12``):
they are still read, so old links, bookmarks and stored tables keep working.
"""

from __future__ import annotations

import re

from captain.rules import Position

#: the written form, for form fields that check it with a pattern
PATTERN = r"[0-9]{1,2}-[0-9]{1,2}"
_WRITTEN = re.compile(r"([0-9]{1,2})-([0-9]{1,2})")
#: two digits without a hyphen: the tutorial boards' and the teaching table's links until
#: the hyphen form became the only one written (rows and columns 0-9 only)
_TWO_DIGITS = re.compile(r"([0-9])([0-9])")
#: either form, for the state grammars that hold positions among other things
READ_PATTERN = r"(?:[0-9]{1,2}-[0-9]{1,2}|[0-9]{2})"


def position_arg(pos: Position | tuple[int, int]) -> str:
    """``"1-2"`` for row 1, column 2 (zero-based)."""
    return f"{pos[0]}-{pos[1]}"


def read_position(text: str) -> Position | None:
    """The position ``text`` names (``"1-2"``, or the older ``"12"``), or ``None`` when it
    names none: the caller decides what an unreadable position means."""
    match = _WRITTEN.fullmatch(text) or _TWO_DIGITS.fullmatch(text)
    return Position(int(match[1]), int(match[2])) if match else None
