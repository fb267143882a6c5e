"""Accessibility of the main pages with axe-core (from npm, installed by bin/setup)."""

from __future__ import annotations

import pytest

from tests.browser.page_checks import run_axe
from tests.browser.site_pages import STATIC_PAGES

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def axe_page(browser, live_server):
    # axe is injected through the DevTools protocol; the site's CSP stays as it is for users
    context = browser.new_context(bypass_csp=True)
    page = context.new_page()
    yield page, live_server.url
    context.close()


@pytest.mark.parametrize("lang", ["ja", "de"])
@pytest.mark.parametrize("path", [a for addresses in STATIC_PAGES.values() for a in addresses])
def test_no_serious_accessibility_problems(axe_page, path, lang):
    """Every page of tests/browser/site_pages.py (the table pages: below)."""
    page, site = axe_page
    page.goto(site + path.format(lang=lang))
    violations = run_axe(page)
    assert not violations, violations


def test_presenter_and_guest_pages(axe_page):
    page, site = axe_page
    page.goto(f"{site}/en/teach/")
    page.locator("form.teach-form button[type=submit]").click()
    # (never "networkidle": the table's live stream stays open)
    page.wait_for_selector('.presenter[data-ready="1"]')
    assert not run_axe(page)
    code = page.get_by_test_id("table-code").inner_text()
    page.goto(f"{site}/ja/teach/{code}/screen/")  # the projector view, in the presenter's browser
    assert not run_axe(page)
    page.goto(f"{site}/de/t/{code}/")
    assert not run_axe(page)


def test_boards_describe_every_position_for_screen_readers(axe_page):
    page, site = axe_page
    page.goto(f"{site}/en/tutorial/battle-time/?battle=3")
    texts = page.locator("#board-battle .cell .visually-hidden").all_inner_texts()
    assert len(texts) == 16
    assert any("removed now" in t for t in texts)
    assert all(t.split(";")[0] in {f"{c}{r}" for c in "ABCD" for r in "1234"} for t in texts)
