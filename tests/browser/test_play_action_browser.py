"""Action mode of the practice game in a browser with JavaScript: a whole
2-player game at the captains' fastest pace, played to the end in Japanese and in German
on a 390 px phone by tapping what the page offers — ring the bell once it may ring, else the
first claim, else place an attack card, begin or go on, else re-roll — while the page asks
the server for the game area by itself when the captains' next move is due."""

from __future__ import annotations

import re
import time

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import expect

from tests.browser.page_checks import PHONE, fits, shot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

#: what the learner taps, first found first
TAPS = ("play-ring", "claim", "place-submit", "play-begin", "play-continue", "roll-all")
GAME_SECONDS = 300


def _start(page, site: str, lang: str) -> None:
    page.goto(f"{site}/{lang}/play/")
    page.locator('input[name="players"][value="2"]').check()
    page.locator('input[name="mode"][value="action"]').check()
    page.locator('input[name="pace"][value="fastest"]').check()
    with page.expect_navigation():
        page.get_by_test_id("start-game").click()
    expect(page).to_have_url(re.compile(rf"/{lang}/play/\w+/$"))


def _tap(page) -> str | None:
    """Tap the first control the learner is offered; None when there is none (the
    captains are playing: the page updates by itself)."""
    for test_id in TAPS:
        # the bell is there all Dice Time; this learner rings only once the condition holds
        found = (page.locator('[data-testid="play-ring"][data-bell="ready"]') if test_id == "play-ring"
                 else page.get_by_test_id(test_id))
        if found.count():
            try:
                found.first.click(timeout=1500)
            except PlaywrightError:  # swapped away by the captains' moves: look again
                return "missed"
            return test_id
    return None


def _wait_for_a_move(page, version: str) -> None:
    """Until the game area is past ``version``, or shows the game's end: the captains'
    last move may have arrived between the loop's look for the end and its look at the
    version, and after it nothing moves."""
    page.wait_for_function(
        "v => document.querySelector('#play-area')?.dataset.version !== v"
        " || !!document.querySelector('[data-testid=game-over]')", arg=version, timeout=10_000)


def _play_to_the_end(page, lang: str) -> dict:
    seen: dict[str, int] = {}
    polled = False
    deadline = time.monotonic() + GAME_SECONDS
    while time.monotonic() < deadline:
        if page.get_by_test_id("game-over").count():
            return seen
        if page.get_by_test_id("play-live").count() and "live" not in seen:
            seen["live"] = 1
            fits(page, "action-mode Dice Time")
            shot(page, f"{lang}-390-action-dice")
        if not polled and page.get_by_test_id("play-poll").count():
            # nothing tapped: the captains' moves arrive by themselves
            _wait_for_a_move(page, page.locator("#play-area").get_attribute("data-version"))
            polled = True
            continue
        version = page.locator("#play-area").get_attribute("data-version")
        tapped = _tap(page)
        if tapped:
            seen[tapped] = seen.get(tapped, 0) + 1
            page.wait_for_function("() => document.documentElement.dataset.requests === '0'")
            if tapped == "play-ring" and seen[tapped] == 1:
                fits(page, "after the bell")
                shot(page, f"{lang}-390-action-rang")
        else:  # nothing to tap yet: the captains' next move arrives by itself
            _wait_for_a_move(page, version)
    raise AssertionError(f"the game did not end in {GAME_SECONDS} s: {seen}")


@pytest.mark.parametrize("lang", ["ja", "de"])
def test_a_whole_action_game_at_the_fastest_pace(live_server, browser, lang):
    context = browser.new_context(viewport=PHONE, extra_http_headers={"Accept-Language": lang})
    page = context.new_page()
    refused, streams = [], []
    page.on("response", lambda r: refused.append((r.status, r.url)) if r.status in (403, 500) else None)
    page.on("request", lambda r: "/live/" in r.url and streams.append(r.url))
    _start(page, live_server.url, lang)
    seen = _play_to_the_end(page, lang)
    # at this pace the captain mostly wins the races: the learner may never claim, nor even
    # see a Dice Time before the captain rang (the slower paces: tests/site/test_play_action.py)
    assert seen.get("play-continue"), seen
    expect(page.locator("html")).to_have_attribute("lang", lang)
    expect(page.get_by_test_id("final-standings")).to_have_count(0)  # not ahead of the last round's steps
    page.get_by_test_id("skip-to-result").click()
    standings = page.get_by_test_id("final-standings")
    expect(standings).to_be_visible()
    expect(standings.locator("tbody tr")).to_have_count(2)
    final = {"ja": "最終結果", "de": "Endstand"}[lang]
    expect(standings.locator("h2")).to_have_text(re.compile(final))
    assert not page.get_by_test_id("play-poll").count()  # the game is over: no more asking
    fits(page, "final standings")
    shot(page, f"{lang}-390-action-end")
    assert refused == [], refused
    assert streams == [], streams  # the page's timed requests only: no stream
    context.close()


def test_without_javascript_the_start_form_says_so_and_the_game_page_offers_a_refresh(live_server, browser):
    context = browser.new_context(java_script_enabled=False, viewport={"width": 320, "height": 700},
                                  extra_http_headers={"Accept-Language": "de"})
    page = context.new_page()
    page.goto(f"{live_server.url}/de/play/")
    expect(page.get_by_test_id("action-needs-js")).to_be_visible()
    fits(page, "start form at 320 px")
    page.locator('input[name="mode"][value="action"]').check()
    page.locator('input[name="pace"][value="first-game"]').check()
    page.locator('input[name="start"][value="me"]').check()
    with page.expect_navigation():
        page.get_by_test_id("start-game").click()
    with page.expect_navigation():
        page.get_by_test_id("play-begin").click()  # the start player rings: Dice Time (DICE-1)
    expect(page.get_by_test_id("play-live")).to_be_visible()
    fits(page, "action-mode Dice Time at 320 px")
    shot(page, "de-320-action-nojs")
    with page.expect_navigation():
        page.get_by_test_id("play-refresh").click()
    expect(page.get_by_test_id("play-live")).to_be_visible()
    context.close()
