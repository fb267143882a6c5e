"""The projector view: every screen of every section fits a 1920 × 1080 projector without
scrolling, in each of the site's languages, and the projector follows the presenter."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from tests.browser.site_pages import start_table
from tutorials.models import Table
from tutorials.teach.screen import screens
from tutorials.tutorial.teaching import sections

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PROJECTOR = {"width": 1920, "height": 1080}


@pytest.mark.parametrize("lang", ["ja", "en", "de"])
def test_every_screen_fits_the_projector(site, browser, lang):
    context = browser.new_context(viewport=PROJECTOR)
    page = context.new_page()
    overflowing = []
    for full in (False, True):
        table = start_table(page, site, lang, full=full)
        for index in range(len(sections(table.options))):
            for shown in range(len(screens(table.options, index))):
                # one page for every screen: the table is set in the database, then the page reloaded
                Table.objects.filter(pk=table.pk).update(section=index, screen=shown)
                page.goto(f"{site}/{lang}/teach/{table.code}/screen/")
                shows = f'#projector-screen[data-screen="{shown + 1}"]'
                page.wait_for_selector(f'.projector[data-ready="1"] {shows}')
                size = page.evaluate("() => [document.documentElement.scrollHeight, innerHeight, "
                                     "document.documentElement.scrollWidth, innerWidth]")
                if size[0] > size[1] or size[2] > size[3]:
                    overflowing.append(("full" if full else "quick", index, shown, size))
    context.close()
    assert not overflowing, overflowing


def test_the_projector_follows_the_presenter(site, browser):
    context = browser.new_context(viewport=PROJECTOR)
    presenter = context.new_page()
    table = start_table(presenter, site, "de", full=True, at="setting-time")
    count = len(screens(table.options, table.section))
    with presenter.expect_popup() as opened:
        presenter.get_by_test_id("projector-link").click()
    projector = opened.value
    projector.wait_for_selector('.projector[data-ready="1"]')
    expect(projector.locator("html")).to_have_attribute("lang", "de")
    expect(projector.locator(".site-nav")).to_have_count(0)
    expect(projector.locator("#projector-screen")).to_have_attribute("data-screen", "1")
    # the presenter's page hears at once that a projector opened; Next then steps its screens
    expect(presenter.get_by_test_id("projector-state")).to_be_visible(timeout=5000)
    presenter.locator('#present-section [data-nav="next"]').click()
    expect(projector.locator("#projector-screen")).to_have_attribute("data-screen", "2", timeout=3000)
    expect(presenter.get_by_test_id("projector-state")).to_have_attribute("data-screen", "2")
    assert count > 2
    presenter.keyboard.press("ArrowLeft")
    expect(projector.locator("#projector-screen")).to_have_attribute("data-screen", "1", timeout=3000)
    expect(presenter.locator("#present-section")).to_have_attribute("data-index", str(table.section))
    # an ended table: the projector says so, in its language, and stops asking
    Table.objects.filter(pk=table.pk).update(expires_at=timezone.now() - timedelta(minutes=1))
    # (at the projector's next poll: seconds apart while its stream is open)
    expect(projector.get_by_test_id("table-gone")).to_contain_text("beendet", timeout=8000)
    context.close()
