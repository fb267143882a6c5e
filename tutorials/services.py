"""What the analyzer's form and the JSON API both do, written once: the title rule for
saved positions, saving a position and finding a saved one.

Views and API endpoints parse the request, call these and render; the tests call them
directly too.
"""

from __future__ import annotations

import re
import unicodedata

from django.urls import reverse

from captain.rules import notation
from captain.rules.errors import InvalidInput, RulesError
from captain.rules.situation import Situation
from captain.rules.typed import normalize_typed
from tutorials.models import CODE_ALPHABET, SavedPosition, normalize_code
from tutorials.web.link_tokens import SHORT_LINK

#: Longest title kept (characters, after trimming white space at both ends).
TITLE_MAX_LENGTH = 120

#: Characters a title may not hold: C0 controls and DEL, C1 controls. Invisible format
#: characters (a byte order mark, direction marks and overrides, tag characters) never
#: reach this rule: :func:`~captain.rules.typed.normalize_typed` has removed them.
REFUSED = "\x00-\x1f\x7f-\x9f"
_REFUSED = re.compile(f"[{REFUSED}]")
#: The same rule as a JSON-schema pattern (for the API's OpenAPI document).
TITLE_PATTERN = f"^[^{REFUSED.encode('unicode_escape').decode()}]*$"


#: Characters that draw nothing and mark no space a reader can see: a title of only these
#: (zero-width spaces, joiners, fillers, marks without a base) reads as no title at all.
_INVISIBLE_CATEGORIES = ("Cf", "Cc", "Zs", "Zl", "Zp", "Mn", "Me")
_BLANK_FILLERS = "\u115f\u1160\u2800\u3164\uffa0"


def _invisible(title: str) -> bool:
    return all(unicodedata.category(ch) in _INVISIBLE_CATEGORIES or ch in _BLANK_FILLERS
               for ch in title)


def clean_title(text: str) -> str:
    """The title to store: ``text`` read as every typed text is
    (:func:`~captain.rules.typed.normalize_typed`, keeping the characters it was written in:
    white space trimmed at both ends, invisible format characters removed, a line
    separator read as a space; a lone surrogate refused with ``bad-text``).

    Raises :class:`~captain.rules.errors.InvalidInput` with code ``bad-title`` when the
    result is longer than :data:`TITLE_MAX_LENGTH` (param ``length``) or holds a refused
    character (params ``char``, e.g. ``"U+202E"``, and ``offset``, 0-based, in the
    trimmed title); with code ``invisible-title`` when it holds characters but none that
    shows (:func:`_invisible`).
    """
    title = normalize_typed(text, fold_width=False, where="title")
    if len(title) > TITLE_MAX_LENGTH:
        raise InvalidInput(f"title of {len(title)} characters", where="title", field="title",
                           code="bad-title", length=len(title))
    found = _REFUSED.search(title)
    if found:
        char = f"U+{ord(found.group()):04X}"
        raise InvalidInput(f"{char} in the title at character {found.start()}", where="title",
                           field="title", code="bad-title", char=char, offset=found.start())
    if title and _invisible(title):
        raise InvalidInput("the title shows nothing", where="title", field="title",
                           code="invisible-title")
    return title


#: A segment of a link that can only be a short code (no ``_``, only code letters).
SHORT_CODE = re.compile(rf"^[{CODE_ALPHABET}]{{1,16}}$")


def save_position(text: str, title: str = "") -> tuple[SavedPosition, Situation]:
    """Check a position with the rules engine and store it for good, in canonical notation.

    ``text`` is a position in the site's notation (``Rb_11r1.12-13b2.14``); ``title`` is
    cleaned by :func:`clean_title`. Returns the new row (its ``code`` is the short code)
    and the situation read. Raises :class:`~captain.rules.errors.RulesError`: ``bad-title``
    (``field`` ``"title"``) before the notation is read, then what the notation reader
    or the position's rules refuse (``field`` ``"notation"`` unless the error names one).
    """
    cleaned = clean_title(title)
    try:
        situation = notation.parse(text)
    except RulesError as exc:
        exc.field = exc.field or "notation"
        raise
    saved = SavedPosition(notation=situation.to_notation(), title=cleaned)
    saved.save()
    return saved, situation


def find_saved(code: str) -> SavedPosition | None:
    """The position saved under short code ``code``, or ``None``.

    Any ASCII letters and digits (up to 16) are looked up, not only today's
    :data:`~tutorials.models.CODE_ALPHABET`: links made under an earlier alphabet stay valid.
    A code as typed is tried first, then as :func:`~tutorials.models.normalize_code` makes
    it (``MB5VJ8U`` or full-width ``ｍｂ５ｖｊ８ｕ`` find ``mb5vj8u``).
    """
    for candidate in dict.fromkeys((code, normalize_code(code))):
        if candidate.isascii() and candidate.isalnum() and len(candidate) <= 16:
            found = SavedPosition.objects.filter(code=candidate).first()
            if found is not None:
                return found
    return None


def short_link(code: str) -> str:
    """The path of a saved position's short link as the site gives it for sharing,
    ``/p/<code>/?k=<token>`` (language-free): its token lets it through the failed-lookup
    limit that the code alone is subject to (:data:`~tutorials.web.link_tokens.SHORT_LINK`)."""
    return SHORT_LINK.url(reverse("short-link", args=[code]), code)
