"""A browser set to Japanese picks Deutsch once; the entry points without a language prefix
(``/``, a ``/p/<code>/`` link, a ``/t/<code>/`` link) then open in German."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from teach_options import teach_options
from tutorials.models import SavedPosition, Table

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_chosen_language_is_remembered(site, browser):
    saved = SavedPosition(notation="Rb_11r1.12b2", title="t")
    saved.save()
    table, _key = Table.start(teach_options({}))
    ctx = browser.new_context(locale="ja-JP")
    page = ctx.new_page()
    page.goto(f"{site}/")
    expect(page).to_have_url(re.compile(r"/ja/tutorial/$"))
    expect(page.locator("html")).to_have_attribute("lang", "ja")

    page.locator("#lang-switch").get_by_role("link", name="Deutsch").click()
    expect(page).to_have_url(re.compile(r"/de/tutorial/$"))  # the clean address
    expect(page.locator("html")).to_have_attribute("lang", "de")

    for entry, lands_on in (("/", r"/de/tutorial/$"), (f"/p/{saved.code}/", r"/de/analyze/\?pos="),
                            (f"/t/{table.code}/", rf"/de/t/{table.code}/$")):
        page.goto(f"{site}{entry}")
        expect(page).to_have_url(re.compile(lands_on))
        expect(page.locator("html")).to_have_attribute("lang", "de")

    # a page in another language opened from a shared link does not change the choice
    page.goto(f"{site}/en/rules/")
    expect(page.locator("html")).to_have_attribute("lang", "en")
    page.goto(f"{site}/")
    expect(page).to_have_url(re.compile(r"/de/tutorial/$"))
    ctx.close()
