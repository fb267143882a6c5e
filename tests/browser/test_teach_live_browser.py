"""A guest's phone follows the table by its live stream: each move the presenter makes is on
the phone at once (the delay to the applied update is printed), with no poll in between; with
the stream blocked the phone polls, says so, and keeps up all the same."""

from __future__ import annotations

import statistics
import time

import pytest
from django.test import Client
from playwright.sync_api import expect

from tutorials.live import streams
from tutorials.models import Table

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 3, "is_mobile": True,
         "has_touch": True}

#: every update the phone applies: its version and when (the page's clock, in ms)
RECORD = """() => {
  window.__applied = {};
  window.__polls = 0;
  document.addEventListener("htmx:afterSettle", (e) => {
    const s = document.getElementById("guest-section");
    if (s && !(s.dataset.version in window.__applied)) window.__applied[s.dataset.version] = Date.now();
  });
  // the section's own requests (a guest's seat part is asked for by each new section)
  document.addEventListener("htmx:beforeRequest", (e) => {
    const why = e.detail.requestConfig && e.detail.requestConfig.triggeringEvent;
    const own = e.detail.elt && e.detail.elt.matches && e.detail.elt.matches("[data-live-target]");
    if (own && (!why || why.type !== "live")) window.__polls += 1;
  });
}"""


def _table() -> tuple[Client, Table]:
    presenter = Client()
    response = presenter.post("/en/teach/", {"players": "4", "mode": "action", "script": "full"})
    assert response.status_code == 302
    return presenter, Table.objects.get(code=response["Location"].rstrip("/").split("/")[-1])


def _move(presenter: Client, table: Table, to: int) -> float:
    """Move the table to section ``to``; returns when the move was sent (epoch seconds)."""
    table.refresh_from_db()
    sent = time.time()
    moved = presenter.post(f"/en/teach/{table.code}/go/", {"to": str(to), "v": str(table.version)})
    assert moved.status_code == 302
    return sent


def _applied(page, version: int) -> float:
    page.wait_for_function(f"() => '{version}' in window.__applied", timeout=5000)
    return page.evaluate(f"() => window.__applied['{version}']") / 1000


def test_each_move_is_on_a_guests_phone_at_once(site, browser):
    presenter, table = _table()
    context = browser.new_context(**PHONE)
    page = context.new_page()
    page.goto(f"{site}/ja/t/{table.code}/")
    expect(page.locator("html")).to_have_attribute("data-live", "on")
    page.evaluate(RECORD)
    delays = []
    for to in range(1, 21):
        sent = _move(presenter, table, to % 8 + 1 if to % 8 else 1)
        table.refresh_from_db()
        delays.append(_applied(page, table.version) - sent)
        expect(page.locator("#guest-section")).to_have_attribute("data-version", str(table.version))
        time.sleep(0.15)
    delays.sort()
    p95 = delays[int(0.95 * (len(delays) - 1))]
    print(f"\nmove -> applied on a 390 px phone ({len(delays)} moves): "
          f"median {statistics.median(delays) * 1000:.0f} ms, p95 {p95 * 1000:.0f} ms, "
          f"max {delays[-1] * 1000:.0f} ms")
    # pushed, not polled: every move arrived well inside one poll interval (1 s), and the
    # page's own timer asked the server no more than its keep-alive allows
    assert delays[-1] < 1.0, delays
    assert page.evaluate("window.__polls") <= 2
    expect(page.get_by_test_id("live-state")).to_be_hidden()
    context.close()


def test_with_the_stream_blocked_the_phone_polls_says_so_and_keeps_up(site, browser):
    presenter, table = _table()
    context = browser.new_context(**PHONE)
    context.route("**/live/**", lambda route: route.abort())
    page = context.new_page()
    page.goto(f"{site}/de/t/{table.code}/")
    state = page.get_by_test_id("live-state")
    expect(state).to_be_visible()
    expect(state).to_contain_text("Live")
    expect(page.locator("html")).to_have_attribute("data-live", "off")
    for to in (1, 2, 3):
        _move(presenter, table, to)
        table.refresh_from_db()
        expect(page.locator("#guest-section")).to_have_attribute("data-version", str(table.version),
                                                                 timeout=4000)
    # the stream comes back: the page goes live again and says nothing any more
    context.unroute("**/live/**")
    expect(page.locator("html")).to_have_attribute("data-live", "on", timeout=10000)
    expect(state).to_be_hidden()
    _move(presenter, table, 4)
    table.refresh_from_db()
    expect(page.locator("#guest-section")).to_have_attribute("data-version", str(table.version), timeout=1000)
    context.close()


def test_a_phone_back_from_the_background_catches_up_at_once(site, browser):
    presenter, table = _table()
    context = browser.new_context(**PHONE)
    page = context.new_page()
    page.goto(f"{site}/en/t/{table.code}/")
    expect(page.locator("html")).to_have_attribute("data-live", "on")
    # in a pocket: the phone's network gone, and the table moves meanwhile
    context.set_offline(True)
    page.evaluate("() => Object.defineProperty(document, 'visibilityState', "
                  "{value: 'hidden', configurable: true})")
    _move(presenter, table, 1)
    table.refresh_from_db()
    page.wait_for_timeout(300)
    context.set_offline(False)
    page.evaluate("""() => {
      Object.defineProperty(document, 'visibilityState', {value: 'visible', configurable: true});
      document.dispatchEvent(new Event('visibilitychange'));
    }""")
    # at once: the polls that failed offline wait seconds before they ask again
    expect(page.locator("#guest-section")).to_have_attribute("data-version", str(table.version), timeout=700)
    context.close()


def test_a_guest_page_asks_for_nothing_while_its_stream_is_open_and_nothing_is_new(site, browser,
                                                                                   monkeypatch):
    # the page's minute passes at once, its stream's in real time: beats far apart, so that
    # the page does not take the stream for cut off meanwhile (the next test)
    monkeypatch.setattr(streams, "HEARTBEAT_SECONDS", 120)
    presenter, table = _table()
    context = browser.new_context(**PHONE)
    asked = []
    # every request of the page's own but its stream and its static files
    context.on("request", lambda request: asked.append(request.url)
               if "/live/" not in request.url and "/static/" not in request.url else None)
    page = context.new_page()
    page.clock.install()  # the page's timers run when the test says, a minute at a time
    page.goto(f"{site}/en/t/{table.code}/")
    expect(page.locator("html")).to_have_attribute("data-live", "on")
    drawn = len(asked)
    page.clock.run_for(60_000)
    # the page drawn, its stream opened, a minute of nothing new: no request
    assert asked[drawn:] == []
    page.evaluate(RECORD)
    _move(presenter, table, 1)
    table.refresh_from_db()
    page.clock.run_for(1_000)
    _applied(page, table.version)
    # the move: the section, for the mark the stream announced; the seat part stays as it was
    assert len(asked) == drawn + 1, asked[drawn:]
    assert f"v={table.version - 1}&" in asked[-1] and f"m={table.version}.{table.seating}." in asked[-1]
    context.close()


def test_a_stream_gone_silent_is_opened_anew(site, browser, monkeypatch):
    # a phone whose network went away hears nothing more, not even the heartbeats (a beat a
    # second here): its page opens the stream anew, and polls meanwhile
    monkeypatch.setattr(streams, "HEARTBEAT_SECONDS", 1)
    _presenter, table = _table()
    context = browser.new_context(**PHONE)
    opened = []
    context.on("request", lambda request: opened.append(request.url) if "/live/" in request.url else None)
    page = context.new_page()
    page.goto(f"{site}/en/t/{table.code}/")
    expect(page.locator("html")).to_have_attribute("data-live", "on")
    assert len(opened) == 1
    monkeypatch.setattr(streams, "HEARTBEAT", "")  # the open stream says nothing more
    deadline = time.monotonic() + 10
    while len(opened) < 2 and time.monotonic() < deadline:
        page.wait_for_timeout(100)
    assert len(opened) >= 2, "the silent stream was not opened anew"
    context.close()
