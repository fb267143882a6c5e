r"""Text as people type or paste it, read one way: the site's table codes, share-link codes,
position notations and titles all pass through :func:`normalize_typed` before anything
judges them, so one input gets one answer wherever it is typed.

What it does, in this order:

* a lone surrogate (``\ud800``, which JSON can carry) is no character: refused with
  ``bad-text``;
* invisible format characters (Unicode category Cf: a byte order mark, a zero-width space,
  a word joiner, direction marks and overrides, tag characters, a soft hyphen) are removed
  wherever they stand: nobody sees them, a copy and paste brings them along, and a
  direction override left in would make a title read backwards. The zero-width joiner and
  non-joiner stay: emoji sequences and several scripts need them;
* a line or paragraph separator (U+2028, U+2029) becomes a space, so words stay apart;
* with ``fold_width`` (codes and notations, where a Japanese keyboard's full-width
  ``Ｒｂ＿１１`` means ``Rb_11``), compatibility forms are folded (NFKC, character by
  character): full-width letters, digits and signs, the no-break and ideographic spaces.
  Titles keep the characters they were written in;
* white space of every kind is stripped at both ends.

>>> normalize_typed("\ufeff\u3000Ｒｂ＿１１\u200b\u2028")
'Rb_11'
>>> normalize_typed("\u202eTitle\U000e0041\u2028one", fold_width=False)
'Title one'
"""

from __future__ import annotations

import unicodedata

from .errors import InvalidInput

#: Format characters that carry meaning in visible text: the zero-width non-joiner and
#: joiner (emoji sequences, Persian, Indic scripts).
KEPT_FORMAT = "\u200c\u200d"

#: Separators of lines and paragraphs, read as a space.
LINE_SEPARATORS = "\u2028\u2029"


def _is_surrogate(ch: str) -> bool:
    return "\ud800" <= ch <= "\udfff"


def normalize_mapped(text: str, *, fold_width: bool = True, where: str = "text") -> tuple[str, list[int]]:
    """:func:`normalize_typed`'s text, and for each of its characters the index in ``text``
    it came from (a reader's error offset can then point at what was sent)."""
    out: list[str] = []
    origin: list[int] = []
    for i, ch in enumerate(text):
        if _is_surrogate(ch):
            raise InvalidInput(f"lone UTF-16 surrogate in {where} at character {i}", where=where,
                               field=where, code="bad-text", path=where, offset=i)
        if ch in LINE_SEPARATORS:
            ch = " "
        elif unicodedata.category(ch) == "Cf" and ch not in KEPT_FORMAT:
            continue
        elif fold_width and not ch.isascii():
            ch = unicodedata.normalize("NFKC", ch)
        out.append(ch)
        origin.extend([i] * len(ch))
    folded = "".join(out)
    start, end = 0, len(folded)
    while start < end and folded[start].isspace():
        start += 1
    while end > start and folded[end - 1].isspace():
        end -= 1
    return folded[start:end], origin[start:end]


def normalize_typed(text: str, *, fold_width: bool = True, where: str = "text") -> str:
    """``text`` as the site reads it (module docstring). Raises
    :class:`~captain.rules.errors.InvalidInput` ``bad-text`` (params ``path``: ``where``,
    and ``offset``) for a lone surrogate."""
    return normalize_mapped(text, fold_width=fold_width, where=where)[0]
