"""Teaching a table in two browsers: presenter in Japanese, guest in German."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser.site_pages import press_on_presenter
from tutorials.models import Table

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_guest_follows_presenter_in_own_language(site, browser):
    presenter_ctx = browser.new_context(locale="ja-JP", extra_http_headers={"Accept-Language": "ja"})
    presenter = presenter_ctx.new_page()
    presenter.goto(f"{site}/ja/teach/")
    presenter.locator('input[name="players"][value="3"]').check()
    presenter.locator('input[name="script"][value="full"]').check()
    presenter.locator("form.teach-form button[type=submit]").click()
    expect(presenter).to_have_url(re.compile(r"/ja/teach/\w+/$"))
    code = presenter.get_by_test_id("table-code").inner_text()
    expect(presenter.locator(".present-title")).to_have_text("どんなゲーム？")
    expect(presenter.locator(".presenter")).to_have_attribute("data-ready", "1")

    guest_ctx = browser.new_context(locale="de-DE", extra_http_headers={"Accept-Language": "de"})
    guest = guest_ctx.new_page()
    guest.goto(f"{site}/t/{code}/")
    expect(guest).to_have_url(re.compile(rf"/de/t/{code}/$"))
    expect(guest.get_by_test_id("guest-title")).to_have_text("Worum es geht")

    # the link of the QR code (behind the short address under it) keeps its token
    qr_link = presenter.get_by_test_id("guest-link").get_attribute("href")
    scanned = guest_ctx.new_page()
    scanned.goto(qr_link)
    expect(scanned).to_have_url(re.compile(rf"/de/t/{code}/\?k=[\w-]{{16}}$"))
    expect(scanned.get_by_test_id("guest-title")).to_have_text("Worum es geht")
    scanned.close()

    # the presenter moves on with the keyboard; the guest follows within a second or two
    presenter.keyboard.press("ArrowRight")
    expect(presenter.locator("#present-section")).to_have_attribute("data-index", "1")
    expect(guest.get_by_test_id("guest-title")).to_have_text("Aufbau", timeout=5000)
    for _ in range(10):  # a clicker's "next" scrolls a long section first
        press_on_presenter(presenter, "PageDown")
        if presenter.locator("#present-section").get_attribute("data-index") == "2":
            break
    expect(presenter.locator("#present-section")).to_have_attribute("data-index", "2")
    expect(guest.get_by_test_id("guest-title")).not_to_have_text("Aufbau", timeout=5000)
    expect(guest.locator("html")).to_have_attribute("lang", "de")

    # a three-player table is taught its own numbers, with no two-player boxes after the fact
    presenter.keyboard.press("ArrowLeft")
    expect(presenter.locator("#present-section")).to_have_attribute("data-index", "1")
    expect(presenter.locator(".two-players")).to_have_count(0)
    expect(presenter.locator("#present-section")).to_contain_text("16")

    # guests cannot steer: the presenter page sends them to the guest view
    guest.goto(f"{site}/de/teach/{code}/")
    expect(guest).to_have_url(re.compile(rf"/de/t/{code}/$"))
    presenter_ctx.close()
    guest_ctx.close()


def test_keyboard_only_run_through(site, browser):
    ctx = browser.new_context()
    page = ctx.new_page()
    page.goto(f"{site}/en/teach/")
    # reach the start button with the keyboard only
    page.locator('input[name="players"][value="4"]').focus()
    for _ in range(40):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.type") == "submit":
            break
    page.keyboard.press("Enter")
    expect(page).to_have_url(re.compile(r"/en/teach/\w+/$"))
    expect(page.locator(".presenter")).to_have_attribute("data-ready", "1")
    count = int(re.search(r"of (\d+)", page.locator(".progress").inner_text()).group(1))
    # the table's round has a card on it, or "resolve our table" would not let Next go on
    table = Table.objects.get(code=page.get_by_test_id("table-code").inner_text())
    table.change(table.version, board_states={"round": "r-0|0-0r1"})
    page.reload()
    expect(page.locator(".presenter")).to_have_attribute("data-ready", "1")
    for i in range(1, count):
        _press_until(page, "PageDown" if i % 2 else "ArrowRight", i)
    expect(page.locator('[data-nav="next"]')).to_be_disabled()
    for i in reversed(range(count - 1)):
        _press_until(page, "PageUp" if i % 2 else "ArrowLeft", i)
    ctx.close()


def _press_until(page, key: str, index: int) -> None:
    """Press ``key`` until the table is at section ``index``: on the table's own round the
    keys move through its steps first, one step a press, and Page Down and Page Up scroll
    a long section first."""
    section = page.locator("#present-section")
    for _ in range(60):
        press_on_presenter(page, key)
        if section.get_attribute("data-index") == str(index):
            return
    raise AssertionError(f"{key} never reached section {index}")


#: true once the page has not scrolled for three frames in a row, after it scrolled away
#: from ``y`` or left section ``index`` (a key's smooth scroll has ended, or a new section
#: has been brought to the top); without an argument, once it is still
SCROLL_SETTLED_JS = """(after) => {
  const s = window.settling || (window.settling = {last: NaN, same: 0});
  const y = window.scrollY;
  s.same = y === s.last ? s.same + 1 : 0;
  s.last = y;
  const moved = !after || y !== after[0]
    || document.querySelector('#present-section').dataset.index !== after[1];
  if (moved && s.same >= 3) { delete window.settling; return true; }
  return false;
}"""


def _scroll_settles(page, after: tuple[float, str] | None = None) -> None:
    page.evaluate("() => { delete window.settling; }")
    page.wait_for_function(SCROLL_SETTLED_JS, arg=after, polling="raf", timeout=5_000)


def test_space_scrolls_a_long_section_before_moving_on(site, browser):
    """A clicker's Space reaches the boards below a long section first, then moves on;
    a focused control keeps its keys (the "When it comes up" toggle keeps Space)."""
    ctx = browser.new_context(viewport={"width": 1280, "height": 600})
    page = ctx.new_page()
    page.goto(f"{site}/en/teach/")
    page.locator("form.teach-form button[type=submit]").click()
    expect(page.locator(".presenter")).to_have_attribute("data-ready", "1")
    page.keyboard.press("ArrowRight")  # Dice Time: text, a hands-on box and a board
    expect(page.locator("#present-section")).to_have_attribute("data-index", "1")
    _scroll_settles(page)
    scrolled = []
    for _ in range(12):
        before = page.evaluate("window.scrollY")
        page.keyboard.press("Space")
        _scroll_settles(page, after=(before, "1"))
        if page.locator("#present-section").get_attribute("data-index") != "1":
            break
        scrolled.append(page.evaluate("window.scrollY") > before)
    assert scrolled and all(scrolled), scrolled  # it scrolled down first, every time
    expect(page.locator("#present-section")).to_have_attribute("data-index", "2")
    summary = page.locator(".say-later summary")
    summary.focus()
    opened = page.locator(".say-later").evaluate("d => d.open")
    page.keyboard.press("Space")
    expect(page.locator(".say-later")).to_have_js_property("open", not opened)
    expect(page.locator("#present-section")).to_have_attribute("data-index", "2")
    ctx.close()


@pytest.mark.parametrize("javascript", [True, False], ids=["htmx", "no-js"])
def test_presenter_board_actions_are_posted_forms(site, browser, javascript):
    """Board actions post a form with the CSRF token: through htmx (the board is swapped in
    place) and without JavaScript (the page reloads at the board); no request is refused."""
    ctx = browser.new_context(java_script_enabled=javascript)
    page = ctx.new_page()
    refused = []
    page.on("response", lambda r: refused.append((r.status, r.url)) if r.status >= 400 else None)
    page.goto(f"{site}/en/teach/")
    page.locator("form.teach-form button[type=submit]").click()
    expect(page).to_have_url(re.compile(r"/en/teach/\w+/$"))
    code = page.get_by_test_id("table-code").inner_text()
    for index in range(1, 2):  # the quick start: on to Dice Time
        page.locator('[data-nav="next"]').click()
        expect(page.locator("#present-section")).to_have_attribute("data-index", str(index))
    board = page.locator("#board-dice")
    expect(board.locator(".hand-die")).to_have_count(0)
    board.get_by_role("button", name="Roll all dice").click()
    expect(page.locator("#board-dice .hand-die")).to_have_count(6)
    # the table's player count is fixed: no 2/4 switch, and starting again keeps the grid
    expect(page.locator("#board-dice").get_by_role("button", name="2 players (3×3)")).to_have_count(0)
    page.locator("#board-dice").get_by_role("button", name="Start again").click()
    expect(page.locator("#board-dice .grid")).to_have_class(re.compile(r"\bcols-4\b"))
    expect(page.locator("#board-dice .hand-die")).to_have_count(0)
    if javascript:
        expect(page).to_have_url(re.compile(rf"/en/teach/{code}/$"))  # swapped in place
    else:
        expect(page).to_have_url(re.compile(rf"/en/teach/{code}/#board-dice$"))
    assert refused == []
    ctx.close()
