"""Japanese typesetting the print engine does not do by itself.

WeasyPrint sets every Japanese punctuation mark full width and may break a line before
the last one or two characters of a paragraph. A Japanese publisher does neither:
where two marks meet (``。（``, ``）。``, ``」、``) the first is set half width, and a
paragraph never ends on a line of one or two characters. The font has no contextual
half-width feature (``chws``), so the squeeze is marked up here, on the text between
tags only, never inside a tag or an attribute.
"""

from __future__ import annotations

import re

#: A mark whose second half is blank space, followed by another mark: the first is
#: squeezed to half width (JIS X 4051's rule for consecutive punctuation).
_MEETING = re.compile(r"([、。，．）」』】〕］｝])(?=[（「『【〔［｛、。，．）」』】〕］｝・：])")

#: The last few characters of a paragraph, kept on one line so that the paragraph never
#: ends on a line of one or two characters.
_TAIL = re.compile(r"([^\s<>]{4})(\s*)$")

_CLOSERS = ("</p>", "</li>", "</dd>", "</dt>")
_TAG = re.compile(r"(<[^>]*>)")
_CJK = re.compile(r"[\u3000-\u30ff\u3400-\u9fff\uff00-\uffef]")
#: Elements whose text is not laid out as HTML text: markup there would show or break.
_RAW = re.compile(r"<(/?)(title|style|script|svg)\b", re.IGNORECASE)


def typeset_japanese(html: str) -> str:
    """``html`` with consecutive punctuation squeezed and paragraph ends kept together."""
    parts = _TAG.split(html)
    raw = 0
    for i in range(0, len(parts), 2):  # even items are text, odd ones tags
        if i:
            opened = _RAW.match(parts[i - 1])
            if opened:
                raw += -1 if opened.group(1) else 1
        text = parts[i]
        if raw > 0 or not _CJK.search(text):
            continue
        closer = parts[i + 1] if i + 1 < len(parts) else ""
        if closer in _CLOSERS:
            text = _TAIL.sub(r'<span class="keep-end">\1</span>\2', text)
        text = _MEETING.sub(r'<span class="squeeze">\1</span>', text)
        parts[i] = text
    return "".join(parts)
