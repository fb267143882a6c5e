"""A guest at a café table steps back through "resolve our table" on a phone while the
presenter steps on: the phone stays on the guest's own step through the polls, the table
never moves, and "Back to live" brings the phone back to the presenter's step."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser.site_pages import start_table

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

FOLLOW = 15_000  # generous: a phone hears of a move at once; bin/bench-teach measures the delay

#: The table after Setting Time (seats red, blue, green, white; blue rang the bell):
#: red [1] A1 and blue [1] B2 tie, green [4] D1 and green [0] D4 sandwich D2 and D3, white
#: [2] A3; the presenter has not stepped yet.
ROUND = "b-0|0-0r1.1-1b1.0-3g4.3-3g0.2-0w2"


def _phone(browser, lang: str):
    ctx = browser.new_context(viewport={"width": 390, "height": 844}, locale=lang,
                              extra_http_headers={"Accept-Language": lang})
    return ctx, ctx.new_page()


def _presenter_step(presenter) -> str:
    """The presenter's Next step; the table's new step."""
    version = presenter.locator("#present-section").get_attribute("data-version")
    presenter.locator("#board-round").get_by_test_id("next-step").click()
    expect(presenter.locator("#present-section")).not_to_have_attribute("data-version", version)
    return presenter.locator("#board-round").get_attribute("data-step")


def _on_screen(page) -> None:
    """The board's current step is on the phone's screen: its heading, under the pinned board."""
    expect(page.locator("#board-round .current-step-title")).to_be_in_viewport()
    title = page.locator("#board-round .current-step-title").bounding_box()
    board = page.locator("#board-round [data-walk-board]").bounding_box()
    below_board = title["y"] >= board["y"] + board["height"] - 2
    assert below_board and title["y"] + title["height"] <= 844, (title, board)


def test_a_guest_steps_back_on_their_phone_and_comes_back_to_live(site, browser):
    presenter_ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    presenter = presenter_ctx.new_page()
    table = start_table(presenter, site, at="round-resolve", board_states={"round": ROUND})
    code = table.code
    for _ in range(3):
        live = _presenter_step(presenter)
    assert live == "3"

    guest_ctx, guest = _phone(browser, "de")
    polls: list[str] = []
    guest.on("response", lambda r: polls.append(r.url) if "/poll/" in r.url else None)
    guest.goto(f"{site}/t/{code}/")
    expect(guest).to_have_url(re.compile(rf"/de/t/{code}/$"))
    expect(guest.locator(".guest")).to_have_attribute("data-ready", "1")
    board = guest.locator("#board-round")
    expect(board).to_have_attribute("data-step", "3")
    expect(guest.get_by_test_id("own-step")).to_have_count(0)

    # two steps back on the phone, in German: the phone's own step, the table's unchanged
    table.refresh_from_db()
    version = table.version
    for step in ("2", "1"):
        board.get_by_role("link", name="Schritt zurück", exact=True).click()
        expect(board).to_have_attribute("data-step", step)
        expect(board).to_have_attribute("data-live-step", "3")
        _on_screen(guest)
    expect(board.locator(".step-count")).to_have_text(re.compile(r"^Schritt 2 von \d+$"))
    expect(guest.get_by_test_id("back-to-live")).to_be_visible()
    expect(guest.get_by_test_id("back-to-live")).to_contain_text("4")  # the table's step 3, counted from 1

    # the presenter steps on: the phone hears of it (its stream, then its request for the
    # section) and stays on its own step, request after request
    seen = len(polls)
    for _ in range(2):
        live = _presenter_step(presenter)
    assert live == "5"
    expect(board).to_have_attribute("data-live-step", "5", timeout=FOLLOW)
    expect(guest.get_by_test_id("back-to-live")).to_contain_text("6")
    assert len(polls) > seen, "the phone never asked for the table again"
    expect(board).to_have_attribute("data-step", "1")
    assert all("step=1" in url for url in polls[seen:]), polls[seen:]
    _on_screen(guest)
    # the arrow keys move the phone's own steps too
    guest.keyboard.press("ArrowRight")
    expect(board).to_have_attribute("data-step", "2")
    guest.keyboard.press("ArrowLeft")
    expect(board).to_have_attribute("data-step", "1")
    table.refresh_from_db()
    assert table.version == version + 2 and table.board_states["round"].startswith("b-5|")

    # back to live: the presenter's step, followed again
    guest.get_by_test_id("back-to-live").click()
    expect(board).to_have_attribute("data-step", "5")
    expect(guest.get_by_test_id("own-step")).to_have_count(0)
    _on_screen(guest)
    live = _presenter_step(presenter)
    expect(board).to_have_attribute("data-step", live, timeout=FOLLOW)
    # the presenter's screen never showed the guest's steps
    expect(presenter.locator("#board-round")).to_have_attribute("data-step", live)
    expect(presenter.get_by_test_id("own-step")).to_have_count(0)
    for ctx in (presenter_ctx, guest_ctx):
        ctx.close()
