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
