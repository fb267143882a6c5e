"""The analyzer's rendered fragments come from the shared cache byte for byte as they would be
rendered, never another position's, language's or page state's; its GET answers carry an
``ETag`` that changes with every input and answer 304 to a browser that has them."""

from __future__ import annotations

import re

import pytest
from django.core.cache import cache as real_cache
from django.core.cache.backends.dummy import DummyCache

from tutorials.web import fragments as caching

HTMX = {"HTTP_HX_REQUEST": "true"}
LANGUAGES = ("en", "de", "ja")
POSITIONS = (
    "Rbg_11.13r3.22.14-15.16b1.23.24r2-26.33.34g1.35-36g0.44.45.46",
    "Rbgw_11r1.12g2.13g5.14w4-15w1.16b0.22w2.23b4-24r0.25g4.26r5.33w5-34b1.35b2.36g1.44r2",
    "rBgw_11.13.55B.66-26.33.26.34R-35.13.22.66-12.23B.56W.14",
    "rB_46B.26R.23-34.46.66-33.35.44",
)
#: what each reader's answer holds of their own: the CSRF token, masked afresh each time
_TOKEN = re.compile(r'(csrfmiddlewaretoken" value="|"X-CSRFToken": ")[^"]+')


def _asked(position: str, lang: str) -> list[tuple[str, dict, dict]]:
    """Every analyzer answer of ``position`` in ``lang``: the page, its htmx fragment, the
    explain view, the what-if panel (htmx and whole) and the same refused edit with two
    different things typed."""
    return [(f"/{lang}/analyze/", {"pos": position}, {}),
            (f"/{lang}/analyze/", {"pos": position}, HTMX),
            (f"/{lang}/analyze/", {"pos": position, "view": "explain", "step": "1"}, {}),
            (f"/{lang}/analyze/what-if/", {"pos": position}, HTMX),
            (f"/{lang}/analyze/what-if/", {"pos": position}, {}),
            (f"/{lang}/analyze/edit/", {"pos": position, "tool": "r5", "op": "deck", "deck": "43"}, {}),
            (f"/{lang}/analyze/edit/", {"pos": position, "tool": "r5", "op": "deck", "deck": "44"}, {})]


def _answer(client, path: str, query: dict, headers: dict) -> tuple[int, str]:
    response = client.get(path, query, **headers)
    return response.status_code, _TOKEN.sub(r"\1…", response.content.decode())


class _Spy:
    """The cache, counting the fragments it served."""

    def __init__(self) -> None:
        self.served = 0
        self.stored: list[str] = []

    def get(self, key, default=None):
        found = real_cache.get(key, default)
        self.served += found is not None
        return found

    def set(self, key, value, *args, **kwargs):
        self.stored.append(value)
        return real_cache.set(key, value, *args, **kwargs)


@pytest.mark.django_db
def test_cached_answers_are_the_uncached_ones_and_never_anothers(client, monkeypatch):
    """All positions and languages share one cache, filled before any is compared: an entry
    served for the wrong position, language, view or refusal differs from the answer."""
    asked = [item for position in POSITIONS for lang in LANGUAGES for item in _asked(position, lang)]
    with monkeypatch.context() as uncached:
        uncached.setattr(caching, "cache", DummyCache("none", {}))
        expected = [_answer(client, *item) for item in asked]
    spy = _Spy()
    monkeypatch.setattr(caching, "cache", spy)
    for item in asked:  # fills the cache
        _answer(client, *item)
    filled = spy.served
    for item, answer in zip(asked, expected, strict=True):
        assert _answer(client, *item) == answer, item
    assert spy.served - filled >= len(asked)  # every answer above came (partly) from the cache
    assert {status for status, _ in expected} == {200, 422}
    # what is shared between readers holds no reader's own: no CSRF token, no form posting one
    assert spy.stored and not any("csrf" in html.lower() or 'method="post"' in html for html in spy.stored)


@pytest.mark.django_db
def test_an_unreachable_cache_renders_the_answer_as_usual(client, monkeypatch):
    from tutorials.web import shared_cache

    def down(*_args, **_kwargs):
        raise shared_cache.Unavailable()

    expected = _answer(client, "/de/analyze/what-if/", {"pos": POSITIONS[0]}, HTMX)
    real_cache.clear()
    monkeypatch.setattr(caching.shared_cache, "call", down)
    assert _answer(client, "/de/analyze/what-if/", {"pos": POSITIONS[0]}, HTMX) == expected


@pytest.mark.django_db
def test_the_etag_changes_with_language_position_view_and_htmx(client):
    client.get("/en/analyze/")  # the CSRF cookie, which the ETag covers too, is set from here on
    tags = set()
    for position in POSITIONS[:2]:
        for lang in LANGUAGES:
            for path, query, headers in _asked(position, lang)[:4]:
                tags.add(client.get(path, query, **headers)["ETag"])
    assert len(tags) == 2 * len(LANGUAGES) * 4


@pytest.mark.django_db
@pytest.mark.parametrize("path,headers", [("/en/analyze/", {}), ("/ja/analyze/what-if/", HTMX)])
def test_a_browser_with_the_answer_gets_304_until_an_input_changes(client, path, headers):
    client.get("/en/analyze/")  # the CSRF cookie, which the ETag covers too, is set from here on
    first = client.get(path, {"pos": POSITIONS[0]}, **headers)
    assert first.status_code == 200
    tag = first["ETag"]
    again = client.get(path, {"pos": POSITIONS[0]}, HTTP_IF_NONE_MATCH=tag, **headers)
    assert again.status_code == 304 and again.content == b"" and again["ETag"] == tag
    other = client.get(path, {"pos": POSITIONS[1]}, HTTP_IF_NONE_MATCH=tag, **headers)
    assert other.status_code == 200 and other["ETag"] != tag
    # a new CSRF cookie: the page's form must carry a token made from it
    client.cookies["csrftoken"] = "x" * 32
    renewed = client.get(path, {"pos": POSITIONS[0]}, HTTP_IF_NONE_MATCH=tag, **headers)
    assert renewed.status_code == 200 and renewed["ETag"] != tag
