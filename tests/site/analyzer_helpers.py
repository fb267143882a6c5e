"""Small readers for analyzer responses, shared by the site tests."""

from __future__ import annotations

import re
from urllib.parse import parse_qs, urlsplit


def pos_after(response) -> str:
    """The position notation the analyzer moved to (redirect, pushed or replaced address)."""
    url = (response["Location"] if response.status_code == 302
           else (response.get("HX-Push-Url") or response["HX-Replace-Url"]))
    return parse_qs(urlsplit(url).query)["pos"][0]


def analyzer_error(response) -> str:
    """The refusal message shown by the analyzer, or "" when there is none."""
    m = re.search(r'data-testid="analyzer-error">([^<]*)<', response.content.decode())
    return m.group(1) if m else ""
