"""Guests who catch up: a late joiner at a café table reads the sections covered before
they came and comes back to the table; a guest reading further down stays where they read
when the table moves on; a phone that loses the table says so where it can be seen."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser.site_pages import start_table

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

FOLLOW = 15_000  # generous: guests poll once a second


def _phone(browser, lang: str = "en"):
    ctx = browser.new_context(viewport={"width": 390, "height": 844}, locale=lang,
                              extra_http_headers={"Accept-Language": lang})
    return ctx, ctx.new_page()


def _next(presenter) -> None:
    """The presenter's Next, waiting for the table to move."""
    version = presenter.locator("#present-section").get_attribute("data-version")
    presenter.locator('#present-section [data-nav="next"]').click()
    expect(presenter.locator("#present-section")).not_to_have_attribute("data-version", version)


def _titles(table, lang: str = "en") -> list[str]:
    from django.utils import translation

    from tutorials.tutorial.teaching import sections

    with translation.override(lang):
        return [str(s.title) for s in sections(table.options)]


def test_a_late_joiner_reads_earlier_sections_and_comes_back_to_the_table(site, browser):
    presenter = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    table = start_table(presenter, site, at="treasure-time")
    titles = _titles(table)
    live = table.section
    assert live >= 3

    ctx, guest = _phone(browser)
    guest.goto(f"{site}/en/t/{table.code}/")
    expect(guest.locator(".guest")).to_have_attribute("data-ready", "1")
    digest = guest.get_by_test_id("digest")
    expect(digest).to_be_visible()
    expect(digest.get_by_role("link")).to_have_text(titles[:live])

    # back to the second section: the phone shows it, the table stays where it is
    digest.get_by_role("link", name=titles[1], exact=True).click()
    expect(guest.get_by_test_id("guest-title")).to_have_text(titles[1])
    expect(guest.get_by_test_id("own-section")).to_contain_text(titles[live])
    expect(guest.get_by_test_id("back-to-table")).to_be_in_viewport()
    guest.get_by_test_id("guest-next").click()
    expect(guest.get_by_test_id("guest-title")).to_have_text(titles[2])

    # the presenter moves on twice: the phone hears of it and stays on its own section
    for _ in range(2):
        _next(presenter)
    expect(guest.get_by_test_id("own-section")).to_contain_text(titles[live + 2], timeout=FOLLOW)
    expect(guest.get_by_test_id("guest-title")).to_have_text(titles[2])
    table.refresh_from_db()
    assert table.section == live + 2

    # back to the table: the phone follows again, and the next move takes it along
    guest.get_by_test_id("back-to-table").click()
    expect(guest.get_by_test_id("guest-title")).to_have_text(titles[live + 2])
    expect(guest.get_by_test_id("own-section")).to_have_count(0)
    _next(presenter)
    expect(guest.get_by_test_id("guest-title")).to_have_text(titles[live + 3], timeout=FOLLOW)
    ctx.close()


def test_a_guest_reading_further_down_is_not_pulled_away_and_sees_a_lost_connection(site, browser):
    presenter = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    table = start_table(presenter, site, at="dice-time")
    titles = _titles(table, "de")
    here = table.section

    ctx, guest = _phone(browser, "de")
    guest.goto(f"{site}/de/t/{table.code}/")
    expect(guest.locator(".guest")).to_have_attribute("data-ready", "1")
    guest.locator("#guest-section .board-panel").first.scroll_into_view_if_needed()
    expect(guest.get_by_test_id("guest-title")).not_to_be_in_viewport()
    scrolled = guest.evaluate("window.scrollY")

    _next(presenter)
    expect(guest.get_by_test_id("own-section")).to_be_visible(timeout=FOLLOW)
    expect(guest.get_by_test_id("guest-title")).to_have_text(titles[here])
    assert abs(guest.evaluate("window.scrollY") - scrolled) < 5  # not scrolled away
    expect(guest.get_by_test_id("back-to-table")).to_be_in_viewport()

    # the phone loses the table while far down the page: the bar says so, on the screen, once
    # the page finds out (the browser's offline mode keeps the open stream, which tells of the
    # table's next move; the page's request for it fails)
    guest.mouse.wheel(0, 3000)
    ctx.set_offline(True)
    _next(presenter)
    expect(guest.get_by_test_id("sync-state")).to_have_attribute("data-state", "lost", timeout=FOLLOW)
    expect(guest.get_by_test_id("sync-state")).to_be_in_viewport()
    expect(guest.get_by_test_id("sync-state")).to_have_text(re.compile(r"\S"))
    ctx.set_offline(False)
    expect(guest.get_by_test_id("sync-state")).to_have_attribute("data-state", "ok", timeout=FOLLOW)
    guest.get_by_test_id("back-to-table").click()
    expect(guest.get_by_test_id("guest-title")).to_have_text(titles[here + 2])
    ctx.close()
