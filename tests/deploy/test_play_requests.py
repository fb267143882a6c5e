"""The practice game's captains as deployed, with no clock of their own: nginx in front,
gunicorn (three workers) with the production settings, no stream process. Nobody pushes a
game: the learner's page asks for the game area when the captains' next action is due (the
answer says when), whichever request comes plays what is due, and when two tabs ask at the
same moment on different workers, the versioned row keeps each move once."""

from __future__ import annotations

import json
import statistics
import threading
import time

import pytest

from game_pages import TimedPage, begin_dice_time, captain_delays, due_of, stored_game, version_of
from harness import Browser, serve_behind_nginx

# action mode, three players, the captains at table pace (each about 1.2 moves a second)
START = {"players": "3", "colour": "red", "start": "me", "strength": "greedy",
         "collection": "sequential", "mode": "action", "pace": "table"}
#: how long the tabs follow the game at most (Dice Time usually ends before)
FOLLOW_SECONDS = 15


@pytest.fixture(scope="module")
def proxy(bare_release):
    with serve_behind_nginx(bare_release, workers=3) as running:
        yield running


def _act(learner: Browser, game: str, **fields) -> bytes:
    status, _h, html = learner.request("GET", game)
    status, _h, body = learner.request("POST", game + "act/", {"version": str(version_of(html)), **fields})
    assert status == 303, body[-2000:]
    status, _h, html = learner.request("GET", game)
    assert status == 200, html[-2000:]
    return html


def test_a_game_nobody_pushes_advances_at_the_captains_pace_by_the_pages_requests(proxy):
    learner = Browser(proxy, "127.0.12.1")
    learner.request("GET", "/en/play/")
    status, headers, body = learner.request("POST", "/en/play/", START)
    assert status == 302, body[-2000:]
    game = headers["Location"]
    code = game.rstrip("/").rsplit("/", 1)[1]
    _act(learner, game, do="continue")
    html = _act(learner, game, do="begin")
    assert b'data-testid="play-live"' in html and due_of(html) is not None, html[-3000:]
    log_offset = proxy.server.log_size()
    # two tabs of the learner's page, the same game: they ask at the same moments, and their
    # requests race to store the same captain moves on different workers
    tabs = []
    for _ in range(2):
        tab = Browser(proxy, learner.client)
        tab.cookies = dict(learner.cookies)
        tabs.append(TimedPage(tab, game, html))
    until = time.monotonic() + FOLLOW_SECONDS
    threads = [threading.Thread(target=tab.follow, args=(until,)) for tab in tabs]
    for t in threads:
        t.start()
    for t in threads:
        t.join()

    server_log = proxy.server.log_since(log_offset)
    for tab in tabs:
        assert set(tab.answers) <= {"area", "timer"}, (tab.answers, server_log[-4000:])
        versions = list(tab.shown)
        assert versions == sorted(versions), f"a tab saw the game go back: {versions}"
    assert "Traceback" not in server_log and "[ERROR]" not in server_log, server_log[-4000:]
    raced = sum(1 for a in tabs[0].asked if any(abs(a - b) < 0.05 for b in tabs[1].asked))
    assert raced >= 3, "the two tabs never asked at the same moment"

    log, marks, _started = stored_game(proxy.server.env, code)
    moves = [(entry[0], json.dumps(entry[1], sort_keys=True)) for entry in log]
    assert len(moves) == len(set(moves)), "a captain acted twice"
    assert [entry[0] for entry in log] == sorted(entry[0] for entry in log)
    assert marks == sorted(marks)
    # each captain move of Dice Time reached a tab soon after its moment on the game's clock:
    # nobody but the tabs' timed requests played it
    shown: dict[int, float] = {}
    for tab in tabs:
        for version, when in tab.shown.items():
            shown[version] = min(when, shown.get(version, when))
    delays = captain_delays(proxy.server.env, code, shown)
    assert len(delays) >= 4, (len(log), tabs[0].answers)
    figures = f"captain move -> a tab: median {statistics.median(delays):.3f} s, max {max(delays):.3f} s"
    assert statistics.median(delays) < 0.5 and max(delays) < 2.5, figures


def test_the_learners_phone_asks_when_the_captains_are_due_and_not_before(proxy, browser):
    # the site's own page, in German on a 390 px phone, over HTTPS and HTTP/2 through nginx
    site = f"https://127.0.0.1:{proxy.port}"
    context = browser.new_context(ignore_https_errors=True, viewport={"width": 390, "height": 844},
                                  is_mobile=True, has_touch=True, locale="de",
                                  extra_http_headers={"Accept-Language": "de"})
    page = context.new_page()
    failed, asked, answered = [], [], []
    page.on("response", lambda r: r.status >= 400 and failed.append(f"{r.status} {r.url}"))
    page.on("console", lambda m: m.type == "error" and failed.append(f"console: {m.text}"))
    page.on("request", lambda r: "?version=" in r.url and asked.append(time.monotonic()))
    page.on("request", lambda r: "/live/" in r.url and failed.append(f"a stream: {r.url}"))
    page.on("requestfinished", lambda r: "?version=" in r.url and answered.append((time.monotonic(), r)))
    begin_dice_time(page, site, "de", {**START, "pace": "first-game"})
    start = int(page.locator("#play-area").get_attribute("data-version"))
    asked.clear()
    answered.clear()
    # the slow captains: the first after 5 s, then one every 3 s at most; nothing tapped
    page.wait_for_function("v => +document.querySelector('#play-area').dataset.version >= v",
                           arg=start + 2, timeout=30_000)
    assert failed == [], failed
    answered = [(when, due_of(request.response().body())) for when, request in answered]
    # one request per answer's due time: each asked no sooner than the answer before said
    assert asked and len(asked) <= len(answered) + 1, (len(asked), len(answered))
    for (when, due), following in zip(answered, asked[1:], strict=False):
        if due is not None:
            assert following - when >= due - 0.05, (due, following - when)
    context.close()
