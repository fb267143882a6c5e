"""The practice game's server clock as deployed: nginx, gunicorn (three workers), the ASGI
stream process (two workers), Redis. While the learner's streams are open the
captains play though no request comes; when the stream worker holding the game's clock is
killed mid-Dice Time, another takes the clock over, the game goes on, and no captain acts
twice."""

from __future__ import annotations

import json
import os
import re
import signal
import sqlite3
import subprocess
import time
from collections import Counter

import dj_database_url
import pytest
import redis
from game_pages import begin_dice_time
from harness import Browser, serve_behind_nginx
from live_clients import Follower

# action mode, three players, the captains at the slow pace (one move every 3 s at most, after
# 5 s): Dice Time outlasts the test, so the game never waits for the learner meanwhile
START = {"players": "3", "colour": "red", "start": "me", "strength": "greedy",
         "collection": "sequential", "mode": "action", "pace": "first-game"}


def _grows(env: dict[str, str], code: str, than: int, seconds: float) -> bool:
    """Whether the game's log grows past ``than`` entries within ``seconds``."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if len(_log(env, code)) > than:
            return True
        time.sleep(0.2)
    return False


@pytest.fixture(scope="module")
def proxy(bare_release):
    with serve_behind_nginx(bare_release, workers=3, streams=2) as running:
        yield running


def _act(learner: Browser, game: str, **fields) -> None:
    status, _h, html = learner.request("GET", game)
    version = re.search(rb'data-version="(\d+)"', html)[1].decode()
    status, _h, body = learner.request("POST", game + "act/", {"version": version, **fields})
    assert status == 303, body[-2000:]


def _log(env: dict[str, str], code: str) -> list:
    """The game's stored log, read from the release's database."""
    config = dj_database_url.parse(env["DATABASE_URL"])
    query = "SELECT log FROM tutorials_practicegame WHERE code = %s"
    if config["ENGINE"].endswith("sqlite3"):
        with sqlite3.connect(config["NAME"]) as conn:
            (raw,) = conn.execute(query.replace("%s", "?"), (code,)).fetchone()
    else:
        import psycopg

        with psycopg.connect(env["DATABASE_URL"]) as conn:
            (raw,) = conn.execute(query, (code,)).fetchone()
    return json.loads(raw) if isinstance(raw, str) else raw


def _stream_workers(streams) -> Counter:
    held = subprocess.run(["ss", "-Htnp", "state", "established", f"( sport = :{streams.port} )"],
                          capture_output=True, text=True, check=True).stdout
    return Counter(int(pid) for pid in re.findall(r"pid=(\d+)", held))


def test_a_killed_clock_holder_hands_the_game_on_and_no_captain_acts_twice(proxy):
    learner = Browser(proxy, "127.0.10.1")
    learner.request("GET", "/en/play/")
    status, headers, body = learner.request("POST", "/en/play/", START)
    assert status == 302, body[-2000:]
    game = headers["Location"]
    code = game.rstrip("/").rsplit("/", 1)[1]
    _act(learner, game, do="continue")
    _act(learner, game, do="begin")
    cookie = {"Cookie": "; ".join(f"{k}={v}" for k, v in learner.cookies.items())}
    # the learner's page, in several tabs: enough streams that both stream workers hold some
    followers = []
    for i in range(12):
        followers.append(Follower(proxy, code, f"127.0.10.{10 + i}", path=f"/live/game/{code}/",
                                  headers=cookie).start())
    try:
        deadline = time.monotonic() + 10
        while len(set(_stream_workers(proxy.streams)) & set(proxy.streams.workers())) < 2:
            assert time.monotonic() < deadline, "the streams all went to one worker"
            followers.append(Follower(proxy, code, f"127.0.11.{len(followers)}", path=f"/live/game/{code}/",
                                      headers=cookie).start())
            time.sleep(0.2)
        lease = redis.Redis.from_url(proxy.server.env["REDIS_URL"])
        key = f"captain:live:lease:game:{code}"
        deadline = time.monotonic() + 10
        while lease.get(key) is None:
            assert time.monotonic() < deadline, "no clock took the game's lease"
            time.sleep(0.05)
        holder = int(lease.get(key).decode().split("-")[0])
        assert holder in proxy.streams.workers()
        # the captains play with no request of anyone's
        before = len(_log(proxy.server.env, code))
        assert _grows(proxy.server.env, code, before, 12), "no captain moved while the stream was open"

        os.kill(holder, signal.SIGKILL)
        killed_at = time.monotonic()
        # another worker takes the clock over once the lease runs out, and the game goes on
        deadline = killed_at + 15
        while True:
            taken = lease.get(key)
            if taken is not None and int(taken.decode().split("-")[0]) != holder:
                break
            assert time.monotonic() < deadline, "no other worker took the clock over"
            time.sleep(0.1)
        after_kill = len(_log(proxy.server.env, code))
        assert _grows(proxy.server.env, code, after_kill, 12), "the game stopped with its clock holder"
        log = _log(proxy.server.env, code)
        moves = [(entry[0], json.dumps(entry[1], sort_keys=True)) for entry in log]
        assert len(moves) == len(set(moves)), "a captain acted twice"
        assert [entry[0] for entry in log] == sorted(entry[0] for entry in log)
        # the streams on the killed worker came back, and every stream saw the game go on (the
        # move that grew the log may still be on its way to them)
        for f in followers:
            assert f.wait_since(killed_at, timeout=5) is not None, (f.statuses, len(f.events))
    finally:
        for f in followers:
            f.stop()


def test_the_learners_phone_follows_the_game_by_its_stream_not_by_asking(proxy, browser):
    # the site's own page, in German on a 390 px phone, over HTTPS and HTTP/2 through nginx:
    # it holds the game's stream, the captains' moves arrive by themselves, and the page asks
    # for the game area once per move (and every 2 s in case an answer was lost), not twice a
    # second as it does without the stream
    site = f"https://127.0.0.1:{proxy.port}"
    context = browser.new_context(ignore_https_errors=True, viewport={"width": 390, "height": 844},
                                  is_mobile=True, has_touch=True, locale="de",
                                  extra_http_headers={"Accept-Language": "de"})
    page = context.new_page()
    failed, asked = [], []
    page.on("response", lambda r: r.status >= 400 and failed.append(f"{r.status} {r.url}"))
    page.on("console", lambda m: m.type == "error" and failed.append(f"console: {m.text}"))
    page.on("request", lambda r: "?version=" in r.url and asked.append(time.monotonic()))
    begin_dice_time(page, site, "de", START)
    start = int(page.locator("#play-area").get_attribute("data-version"))
    since = time.monotonic()
    asked.clear()
    seconds = 12  # the slow captains: the first after 5 s, then one every 3 s at most
    page.wait_for_timeout(seconds * 1000)
    shown = int(page.locator("#play-area").get_attribute("data-version"))
    moves = shown - start
    assert moves >= 2, f"the captains' moves did not reach the page ({start} -> {shown})"
    assert page.get_by_test_id("live-state").is_hidden()  # it does not say live updates are paused
    polling = seconds * 2
    assert len(asked) <= moves + seconds / 2 + 2 < polling, (len(asked), moves, time.monotonic() - since)
    assert failed == [], failed
    context.close()
