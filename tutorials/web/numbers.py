"""Numbers in addresses (``?step=``, ``?round=``): read the way a person typed them."""

from __future__ import annotations

import re

from captain.rules.typed import normalize_typed

#: more digits than any step or round count; longer numbers are "very large", not parsed
_MAX_DIGITS = 6
_HUGE = 10 ** _MAX_DIGITS


def query_number(raw: str | None, default: int) -> int:
    """``raw`` as a whole number ≥ 0 for the caller to clamp: full-width and other Unicode
    digits count (``２`` is 2: :func:`~captain.rules.typed.normalize_typed`); a number too
    long to be a step (``99999999999``) is :data:`_HUGE`, so a clamp takes the last one,
    never the first; a minus sign gives 0.
    Anything else (empty, letters, ``²``) gives ``default``."""
    text = normalize_typed(raw or "", where="number")
    if re.fullmatch(r"-[0-9]+", text):
        return 0
    if not re.fullmatch(r"[0-9]+", text):
        return default
    digits = text.lstrip("0") or "0"
    return _HUGE if len(digits) > _MAX_DIGITS else int(digits)
