"""The practice game's action mode as deployed: gunicorn with the production settings and
three workers, the database of ``DATABASE_URL`` (PostgreSQL in bin/test's second run).

In Dice Time the page asks the server for the game area whenever a captain's action is due;
the captains' moves due by now are played and stored by whichever request comes first
(``games.catch_up``). Here several tabs of one learner ask at once, and faster than the
page would, so requests on different workers race to store the same moves: each must answer
the game area (the game moved on) or the next timed request alone (nothing new), never an
error, and no tab may ever see the game go back to an older version. A move chosen on a
page the game has left behind gets 409 with the game as it stands: a claim that loses a
race is refused with the reason.
"""

from __future__ import annotations

import re
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pytest

from harness import Browser, serve

# action mode, three players, the captains at the "fast" pace (2.5 actions a second: the
# fastest pace may end Dice Time before the tabs' first request)
START = {"players": "3", "colour": "red", "start": "me", "strength": "greedy",
         "collection": "sequential", "mode": "action", "pace": "quick"}
HX = {"HX-Request": "true"}
TABS = 6
ASK_SECONDS = 10  # the captains make dozens of moves in that time, or Dice Time ends


@pytest.fixture(scope="module")
def server(bare_release):
    with serve(bare_release, workers=3, name="play") as running:
        yield running


def _version(html: bytes) -> int:
    found = re.search(rb'data-version="(\d+)"', html)
    assert found, html[:2000]
    return int(found[1])


def _act(browser: Browser, game: str, html: bytes, **fields) -> bytes:
    """One move through the page's form without JavaScript: 303 to the board on the game
    page, then that page."""
    status, headers, body = browser.request("POST", game + "act/", {"version": str(_version(html)), **fields})
    assert status == 303, body[-2000:]
    assert headers["Location"] == game + "#play-area", headers["Location"]
    status, _headers, body = browser.request("GET", game)
    assert status == 200, body[-2000:]
    return body


def _start_dice_time(browser: Browser) -> tuple[str, bytes]:
    """Deal an action-mode game and ring the bell: (the game's path, its page)."""
    status, _headers, body = browser.request("GET", "/en/play/")
    assert status == 200 and browser.token, body[:1000]
    status, headers, body = browser.request("POST", "/en/play/", START)
    assert status == 302, body[-3000:]
    game = headers["Location"]
    status, _headers, html = browser.request("GET", game)
    assert status == 200, html[-2000:]
    html = _act(browser, game, html, do="continue")
    assert b'data-testid="play-begin"' in html
    html = _act(browser, game, html, do="begin")
    assert b'data-testid="play-live"' in html, html[-3000:]
    return game, html


def test_tabs_asking_on_several_workers_see_one_game_moving_forward(server):
    browser = Browser(server, "203.0.113.77")
    game, html = _start_dice_time(browser)
    started_at = _version(html)
    log_offset = server.log_size()
    over = threading.Event()

    def tab(_i: int) -> list[tuple[str, int | None]]:
        """Ask like the page does (htmx, the version it shows in the address), every 50 ms,
        until Dice Time is over or for :data:`ASK_SECONDS`: [(what came, version shown or
        None)], what came being ``area``, ``timer`` (the next timed request alone) or the
        status."""
        seen, answers = started_at, []
        deadline = time.monotonic() + ASK_SECONDS
        while not over.is_set() and time.monotonic() < deadline:
            status, headers, body = browser.request("GET", f"{game}?version={seen}", **HX)
            came = str(status)
            if status == 200 and headers.get("HX-Retarget") == "#play-poll":
                came = "timer"
                assert body.strip().startswith(b'<div id="play-poll"') or not body.strip(), body[:500]
            elif status == 200:
                came, seen = "area", _version(body)
                if b'data-testid="play-live"' not in body:
                    over.set()
            answers.append((came, seen if came == "area" else None))
            over.wait(0.05)
        return answers

    with ThreadPoolExecutor(TABS) as pool:
        tabs = list(pool.map(tab, range(TABS)))

    came = sorted({what for answers in tabs for what, _ in answers})
    assert came == ["area", "timer"], f"the tabs got {came}:\n{server.log_since(log_offset)[-4000:]}"
    for answers in tabs:
        versions = [v for what, v in answers if what == "area"]
        assert versions == sorted(versions), f"a tab saw the game go back: {versions}"
        assert versions and versions[-1] > started_at
    log = server.log_since(log_offset)
    assert "Traceback" not in log and "[ERROR]" not in log, log[-4000:]

    # the workers, asked one after another, never show an older game than before ...
    latest = max(v for answers in tabs for _, v in answers if v is not None)
    after = [_version(browser.request("GET", game)[2]) for _ in range(6)]
    assert after == sorted(after) and after[0] >= latest, (latest, after)
    # ... and a move chosen on a page from before the captains moved is refused with the
    # game as it stands
    status, _headers, body = browser.request(
        "POST", game + "act/", {"version": str(started_at), "do": "continue"}, **HX)
    assert status == 409, body[-2000:]
    assert _version(body) >= after[-1]
    assert b'data-testid="play-stale"' in body, body[-3000:]
