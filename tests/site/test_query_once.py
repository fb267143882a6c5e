"""A field sent twice (``?pos=A&pos=A``) is refused alike on every address that reads it:
each reads its query through the form layer (tutorials.forms.Query, StrictForm), never
request.GET on its own. The addresses are taken from the URL configuration, so a new one
that reads ``pos`` is held to the same answer."""

from __future__ import annotations

from urllib.parse import quote

import pytest
from django.urls import URLResolver, get_resolver
from django.utils import translation

pytestmark = pytest.mark.django_db

POSITION = "Rbg_11.13r3.22.14-15.16b1.23.24r2-26.33.34g1.35-36g0.44.45.46"
UNREADABLE = "Rbg_11.1"
#: what else an address of the analyzer needs to answer a readable position without a
#: refusal of its own (an edit that chooses a tool)
OTHER_FIELDS = "op=tool&arg=r1"


def _addresses(patterns=None, prefix: str = ""):
    """Every address of the URL configuration that takes no argument in its path (in English)."""
    for pattern in get_resolver().url_patterns if patterns is None else patterns:
        route = str(pattern.pattern)
        if isinstance(pattern, URLResolver):
            if getattr(pattern.pattern, "converters", None):
                continue
            yield from _addresses(pattern.url_patterns, prefix + route)
        elif not pattern.pattern.converters:
            yield "/" + prefix + route.lstrip("^").rstrip("$")


def _ask(client, address: str, *positions: str) -> int:
    """The status of ``address`` with ``pos`` sent once per item of ``positions``: HEAD
    (the answer's headers, no PDF rendered), or POST with a form body where the address
    takes no HEAD."""
    query = "&".join(f"pos={quote(p, safe='')}" for p in positions) + "&" + OTHER_FIELDS
    status = client.head(f"{address}?{query}").status_code
    if status == 405:
        status = client.post(address, query, content_type="application/x-www-form-urlencoded").status_code
    return status


def test_pos_sent_twice_gets_one_answer_on_every_address_that_reads_it(client):
    with translation.override("en"):  # the language prefix the walk writes
        addresses = sorted(set(_addresses()))
    assert "/en/analyze/" in addresses  # the walk found the language-prefixed addresses
    readers = {address for address in addresses
               if _ask(client, address, POSITION) != _ask(client, address, UNREADABLE)}
    assert {"/en/analyze/", "/en/analyze/edit/", "/en/analyze/what-if/", "/en/analyze/position.pdf",
            "/en/analyze/save/"} <= readers, readers
    twice = {address: _ask(client, address, POSITION, POSITION) for address in sorted(readers)}
    assert set(twice.values()) == {422}, twice
