"""No htmx request fails in silence: the notice at the bottom of the screen says what
happened and what to do, in the page's language; polls that keep failing slow down.

A presenter whose browser lost the presenter's cookie (or the page's CSRF cookie) presses
"Next"; a guest loses the network for a while.
"""

from __future__ import annotations

import re
import time
from itertools import pairwise

import pytest
from playwright.sync_api import expect

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _start_table(page, site: str, lang: str) -> str:
    page.goto(f"{site}/{lang}/teach/")
    page.locator("form.teach-form button[type=submit]").click()
    expect(page).to_have_url(re.compile(rf"/{lang}/teach/\w+/$"))
    expect(page.locator(".presenter")).to_have_attribute("data-ready", "1")
    return page.get_by_test_id("table-code").inner_text()


def test_a_presenter_without_the_cookie_is_told_and_the_polls_slow_down(site, browser):
    context = browser.new_context(locale="de-DE", viewport={"width": 320, "height": 640})
    page = context.new_page()
    # a page that polls (its live stream cannot be had): polls that fail come further apart
    page.route(re.compile(r"/live/"), lambda route: route.abort())
    code = _start_table(page, site, "de")
    polls: list[tuple[float, int]] = []
    page.on("response", lambda r: "/poll/" in r.url and polls.append((time.monotonic(), r.status)))
    notice = page.get_by_test_id("request-notice")
    expect(notice).to_be_hidden()

    context.clear_cookies(name=f"teach_{code}")  # the presenter's cookie is gone
    page.locator('#present-section [data-nav="next"]').click()
    expect(notice).to_be_visible()
    expect(notice).to_have_attribute("data-code", "not-presenter")
    said = notice.get_by_role("alert")
    expect(said).to_contain_text("nicht mehr die erklärende Person")
    expect(said).to_contain_text("als Gast zu folgen")
    expect(page.locator("#present-section")).to_have_attribute("data-index", "0")  # it did not move
    box = notice.bounding_box()
    assert box and box["x"] >= 0 and box["x"] + box["width"] <= 320  # whole on a 320 px phone
    assert box["y"] + box["height"] <= 640  # on the screen, wherever the page is scrolled
    # above the pinned Back and Next, which stay within reach (a click would reach them)
    nav = page.locator(".present-nav").bounding_box()
    assert nav and box["y"] + box["height"] <= nav["y"] + 1, (box, nav)
    page.locator('#present-section [data-nav="next"]').click(trial=True, timeout=2000)
    expect(notice.get_by_role("button", name="Seite neu laden")).to_be_visible()

    # the polls failed too (403) and now come further apart: 2 s, then 4 s, 8 s, ...
    expect(page.locator("html")).to_have_attribute("data-poll-failures", re.compile(r"^[3-9]"),
                                                   timeout=30_000)
    failing = [at for at, status in polls if status == 403]
    gaps = [later - earlier for earlier, later in pairwise(failing)]
    assert len(gaps) >= 2 and gaps[-1] >= 7 and gaps[-2] >= 3.5, gaps

    # reloading, as the notice says: the browser follows the table as a guest
    notice.get_by_role("button", name="Seite neu laden").click()
    expect(page).to_have_url(re.compile(rf"/de/t/{code}/$"))
    expect(page.get_by_test_id("request-notice")).to_be_hidden()
    context.close()


def test_a_form_without_its_security_cookie_is_told_not_silenced_by_polls(site, browser):
    context = browser.new_context(locale="en-GB")
    page = context.new_page()
    _start_table(page, site, "en")
    context.clear_cookies(name="csrftoken")
    page.locator('#present-section [data-nav="next"]').click()
    notice = page.get_by_test_id("request-notice")
    expect(notice).to_have_attribute("data-code", "csrf")
    expect(notice.get_by_role("alert")).to_contain_text("security check has run out")
    # the presenter's polls (GET, no token needed) go on working and leave the notice alone
    with page.expect_response(lambda r: "/poll/" in r.url and r.status == 204, timeout=10_000):
        pass
    expect(notice).to_be_visible()
    notice.get_by_role("button", name="Close").click()
    expect(notice).to_be_hidden()
    context.close()


def test_a_guest_offline_for_a_while_is_told_and_the_notice_goes_when_it_is_back(site, browser):
    presenter = browser.new_context()
    code = _start_table(presenter.new_page(), site, "en")
    context = browser.new_context(locale="ja-JP")
    page = context.new_page()
    # a page that polls (its live stream cannot be had): each poll that fails is told
    page.route(re.compile(r"/live/"), lambda route: route.abort())
    page.goto(f"{site}/ja/t/{code}/")
    expect(page.locator(".guest")).to_have_attribute("data-ready", "1")
    notice = page.get_by_test_id("request-notice")

    page.route(re.compile(r"/poll/"), lambda route: route.fulfill(status=500, body="boom"))
    expect(notice).to_have_attribute("data-code", "server-error", timeout=10_000)
    expect(notice.get_by_role("status")).to_contain_text("サーバーのエラー")
    page.unroute(re.compile(r"/poll/"))
    page.route(re.compile(r"/poll/"), lambda route: route.abort("internetdisconnected"))
    expect(notice).to_have_attribute("data-code", "network", timeout=20_000)
    expect(notice.get_by_role("status")).to_contain_text("接続を確認")
    page.unroute(re.compile(r"/poll/"))
    expect(notice).to_be_hidden(timeout=70_000)  # the next poll that works takes it away
    presenter.close()
    context.close()
