"""Addresses that more than one capability writes: the analyzer holding a position."""

from __future__ import annotations

from urllib.parse import urlencode

from django.urls import reverse

from captain.rules import Situation


def analyzer_url(situation: Situation | str, **query: object) -> str:
    """The analyzer showing ``situation`` (or a notation as it stands, readable or not):
    ``/<lang>/analyze/?pos=…`` followed by ``query`` in its order; a ``None`` value is
    left out. Every "Open in analyzer" link, the page's own links and the short links'
    redirect are written here."""
    code = situation if isinstance(situation, str) else situation.to_notation()
    params = {"pos": code} | {key: str(value) for key, value in query.items() if value is not None}
    return f"{reverse('tutorials:analyze')}?{urlencode(params)}"
