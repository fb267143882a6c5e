"""The one rule for titles people give saved positions (the analyzer's form and the API)."""

from __future__ import annotations

import re

from captain.rules.errors import InvalidInput

#: Longest title kept (characters, after trimming white space at both ends).
TITLE_MAX_LENGTH = 120

#: Characters a title may not hold: C0 controls and DEL, C1 controls, and the bidi
#: embeddings and overrides (U+202A–U+202E) and isolates (U+2066–U+2069), which could make
#: a title read backwards or hide part of it. Joiners (ZWJ U+200D, ZWNJ U+200C) stay:
#: emoji sequences and several scripts need them.
REFUSED = "\x00-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069"
_REFUSED = re.compile(f"[{REFUSED}]")
#: The same rule as a JSON-schema pattern (for the API's OpenAPI document).
TITLE_PATTERN = f"^[^{REFUSED.encode('unicode_escape').decode()}]*$"


def clean_title(text: str) -> str:
    """The title to store: ``text`` with white space trimmed at both ends.

    Raises :class:`~captain.rules.errors.InvalidInput` with code ``bad-title`` when the
    result is longer than :data:`TITLE_MAX_LENGTH` (param ``length``) or holds a refused
    character (params ``char``, e.g. ``"U+202E"``, and ``offset``, 0-based, in the
    trimmed title).
    """
    title = text.strip()
    if len(title) > TITLE_MAX_LENGTH:
        raise InvalidInput(f"title of {len(title)} characters", where="title", code="bad-title",
                           length=len(title))
    found = _REFUSED.search(title)
    if found:
        char = f"U+{ord(found.group()):04X}"
        raise InvalidInput(f"{char} in the title at character {found.start()}", where="title",
                           code="bad-title", char=char, offset=found.start())
    return title
