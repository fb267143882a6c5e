"""The checks that must hold on every page (focus after a swap, phones) walk the list in
tests/browser/site_pages.py; a page added to the site without being listed there would
escape them."""

from __future__ import annotations

from tests.browser.site_pages import NOT_STATIC, STATIC_PAGES
from tutorials.urls import urlpatterns


def test_every_page_is_listed():
    names = {p.name for p in urlpatterns}
    unlisted = names - set(STATIC_PAGES) - NOT_STATIC
    assert not unlisted, f"add these pages to tests/browser/site_pages.py: {sorted(unlisted)}"
    assert not (set(STATIC_PAGES) - {"not-found"}) - names, "site_pages lists pages that no longer exist"


def test_no_template_syntax_shows_on_any_page(client, db):
    """A comment written ``{# … #}`` over several lines is not a comment in Django: it
    showed as text above the practice game. No page may show template syntax."""
    from tests.browser.site_pages import static_addresses

    for lang in ("ja", "en", "de"):
        game = client.post(f"/{lang}/play/", {"players": "2", "colour": "red", "start": "me",
                                              "strength": "greedy", "collection": "sequential"})
        for address in [*static_addresses(lang), game["Location"]]:
            html = client.get(address).content.decode()
            for mark in ("{#", "#}", "{%", "%}"):
                assert mark not in html, (address, mark)
