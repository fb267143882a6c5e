"""Browser tests in headless Debian chromium (Playwright), against a live server."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_step_through_ex_battle_by_clicking(site, page: Page):
    page.goto(f"{site}/en/tutorial/battle-time/")
    board = page.locator("#board-battle")
    expect(board.locator(".card.face-down")).to_have_count(5)
    board.get_by_role("link", name="Reveal all cards").click()
    expect(board.locator(".order-item")).to_have_count(5)
    expect(page).to_have_url(re.compile(r"battle=1"))
    for done in range(2, 8):  # each card's turn, then the end of Battle Time
        board.get_by_role("link", name="Next step").click()
        # wait for this step's swap before clicking again: a click on the board being
        # replaced would ask for the same step twice
        expect(page).to_have_url(re.compile(rf"battle={done}\b"))
    result = board.get_by_test_id("battle-result")
    expect(result).to_be_visible()
    survivors = sorted(result.locator(".survivor").evaluate_all("els => els.map(e => e.dataset.card)"))
    assert survivors == ["g0", "r2"]
    # the URL holds the state: reloading shows the same result
    page.reload()
    expect(page.get_by_test_id("battle-result")).to_be_visible()
    # the language switch keeps the step and the board state
    page.get_by_role("link", name="Deutsch").click()
    expect(page).to_have_url(re.compile(r"/de/tutorial/battle-time/\?battle=7"))
    expect(page.locator("html")).to_have_attribute("lang", "de")
    expect(page.get_by_test_id("battle-result")).to_be_visible()


def test_dice_board_roll_and_claim_then_a_false_bell(site, page: Page):
    page.goto(f"{site}/ja/tutorial/dice-time/")
    board = page.locator("#board-dice")
    board.locator(".actions a").first.click()  # roll all dice
    expect(board.locator(".hand-die")).to_have_count(6)
    # the rolled dice are drawn readable: light die, dark pips; buttons in a row
    die = board.locator(".hand-die .die").first
    assert die.evaluate("e => getComputedStyle(e).fill") != "rgb(0, 0, 0)"
    assert board.locator(".actions").evaluate("e => getComputedStyle(e).display") == "flex"
    # the bell waits for its own lesson: this board has no bell to ring
    expect(board.locator(".actions a.bell-button")).to_have_count(0)
    # there, ringing too early is a false bell, and the page says so with DICE-6
    page.goto(f"{site}/ja/tutorial/ending-dice-time/")
    board = page.locator("#board-bell")
    board.locator(".actions a.bell-button").click()
    expect(board.locator(".note-false-bell")).to_be_visible()
    expect(board.locator("a.clause", has_text="DICE-6")).to_be_visible()


def test_treasure_board_collects_player_by_player(site, page: Page):
    page.goto(f"{site}/en/tutorial/treasure-time/")
    board = page.locator("#board-sandwich")
    board.get_by_role("link", name="Show the result").click()
    row = board.locator('tr[data-colour="blue"] td')
    expect(row).to_contain_text("4 (A1, B1, C1, D1)")


def test_boards_work_without_javascript(site, browser):
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    page.goto(f"{site}/en/tutorial/battle-time/")
    page.locator("#board-battle").get_by_role("link", name="Reveal all cards").click()
    expect(page).to_have_url(re.compile(r"/en/tutorial/battle-time/\?battle=1#board-battle"))
    expect(page.locator("#board-battle .order-item")).to_have_count(5)
    context.close()
