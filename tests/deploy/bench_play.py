"""Action mode's latency as deployed: ``bin/bench-play`` (prints figures; nothing is timed in
the tests).

nginx in front, gunicorn (three workers), the ASGI stream process (two workers),
Redis. For each pace, pairs of action-mode games (three players) run side by side through
Dice Time: one learner's page follows its game's live stream (an event, then it asks for the
game area, as static/js/live.js does), the other polls twice a second as a page without
the stream does. Both learners play alike, apart from their pages: they re-roll when they
have nothing to claim, and claim a card their dice show 250 ms after their page showed it
(a quick human), on the board as it was shown then.

Printed per pace and way: the delay from each captain move (its moment on the game's clock)
to the page showing it (median, p95), and the share of the learner's claims refused because
a captain had taken the card first while the page still showed it free.

Then the site's own page, in chromium on a 390 px phone through nginx (HTTPS, HTTP/2),
watching one game per pace: the delay from each captain move to the game area showing it in
the page's document (the page's and the game's clocks are this host's).
"""

from __future__ import annotations

import json
import os
import random
import re
import sqlite3
import statistics
import sys
import threading
import time
from datetime import datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "captain.settings")

import django  # noqa: E402

django.setup()  # the harness reads the settings

from harness import Browser, bench_release, serve_behind_nginx  # noqa: E402
from game_pages import begin_dice_time  # noqa: E402
from live_clients import Follower  # noqa: E402
from playwright.sync_api import sync_playwright  # noqa: E402

PACES = ("first-game", "table", "quick", "fastest")
GAMES = 5             # pairs of games per pace
SECONDS = 14          # of Dice Time per game, at most
REACTION = 0.25       # the learner's reaction time
POLL = 0.5            # the page's poll without the stream (tutorials/play/action.py POLL_MS)
START = {"players": "3", "colour": "red", "start": "me", "strength": "greedy",
         "collection": "sequential", "mode": "action"}
HX = {"HX-Request": "true"}
CLAIM = re.compile(rb'name="do" value="claim"><input type="hidden" name="at" value="([\d-]+)"')


class Learner:
    """One learner's page of one game, following it by ``way`` ("push" or "poll")."""

    def __init__(self, proxy, n: int, pace: str, way: str) -> None:
        self.proxy, self.way = proxy, way
        self.browser = Browser(proxy, f"127.50.{n}.1", lang="en")
        self.browser.request("GET", "/en/play/")
        status, headers, body = self.browser.request("POST", "/en/play/", {**START, "pace": pace})
        assert status == 302, body[-1000:]
        self.url = headers["Location"]
        self.code = self.url.rstrip("/").rsplit("/", 1)[1]
        self.shown: dict[int, float] = {}   # version -> when the page first showed it (epoch)
        self.claims = self.refused = 0
        self.version = 0
        self.html = b""
        self.done = False
        self.lock = threading.Lock()
        self.rng = random.Random(n)

    def act(self, **fields) -> bytes:
        form = {"version": str(self.version), **fields}
        status, _h, body = self.browser.request("POST", self.url + "act/", form, **HX)
        assert status in (200, 409, 422), (status, body[-500:])
        self._show(body)
        return body

    def ask(self) -> None:
        status, _h, body = self.browser.request("GET", f"{self.url}?version={self.version}", **HX)
        if status == 200:
            self._show(body)

    def _show(self, body: bytes) -> None:
        found = re.search(rb'id="play-area"[^>]*data-version="(\d+)"', body)
        with self.lock:
            if found and int(found[1]) >= self.version:
                self.version = int(found[1])
                self.shown.setdefault(self.version, time.time())
                self.html = body

    def begin(self) -> None:
        status, _h, body = self.browser.request("GET", self.url)
        self._show(body)
        self.act(do="continue")
        self.act(do="begin")

    def play(self, until: float) -> None:
        """The page follows the game on one thread; the learner plays on another, until
        ``until`` or the end of Dice Time."""
        page = threading.Thread(target=self._follow, args=(until,))
        page.start()
        acted_on = -1
        while time.monotonic() < until and b'data-testid="play-live"' in self.html:
            if self.version == acted_on:
                time.sleep(0.005)
                continue
            acted_on, seen = self.version, self.html
            self._move(seen)
        self.done = True
        page.join()

    def _follow(self, until: float) -> None:
        follower = None
        if self.way == "push":
            cookie = {"Cookie": "; ".join(f"{k}={v}" for k, v in self.browser.cookies.items())}
            follower = Follower(self.proxy, self.code, "127.50.200.1", path=f"/live/game/{self.code}/",
                                headers=cookie).start()
        seen_events = 0
        next_poll = time.monotonic()
        try:
            while time.monotonic() < until and not self.done:
                if follower is not None and len(follower.events) > seen_events:
                    seen_events = len(follower.events)
                    self.ask()
                elif follower is None and time.monotonic() >= next_poll:
                    next_poll += POLL
                    self.ask()
                else:
                    time.sleep(0.002)
        finally:
            if follower is not None:
                follower.stop()

    def _move(self, seen: bytes) -> None:
        """What the learner does about the board ``seen``, after their reaction time."""
        claims = CLAIM.findall(seen)
        threading.Event().wait(REACTION)
        if claims:
            self.claims += 1
            body = self.act(do="claim", at=self.rng.choice(claims).decode())
            if b'data-code="occupied"' in body:  # DICE-2: a captain's dice got there first
                self.refused += 1
        elif b'data-testid="roll-all"' in seen:
            faces = re.findall(rb'name="dice" value="(\d)"', seen.split(b'id="play-roll"')[0][-2000:])
            self.act(do="roll", dice=[f.decode() for f in faces])


def captain_delays(env: dict[str, str], learner: Learner) -> list[float]:
    """For each captain move of the game: the page's first showing of it minus its moment."""
    import dj_database_url

    config = dj_database_url.parse(env["DATABASE_URL"])
    with sqlite3.connect(config["NAME"]) as conn:
        log, marks, started = conn.execute("SELECT log, marks, started_at FROM tutorials_practicegame "
                                           "WHERE code = ?", (learner.code,)).fetchone()
    log, marks = json.loads(log), json.loads(marks)
    start = datetime.fromisoformat(started).timestamp()
    delays = []
    for index, entry in enumerate(log):
        if entry[2]:
            continue  # the learner's own
        # the first version whose log holds this entry, and when the page showed it (or a later one)
        versions = [v for v, count in enumerate(marks) if count > index]
        shown = [learner.shown[v] for v in learner.shown if versions and v >= versions[0]]
        if shown:
            delays.append(min(shown) - (start + entry[0]))
    return delays


#: records when each version of the game area first stood in the document (epoch ms)
RECORD = """() => {
  window.__shown = {};
  const note = () => {
    const area = document.getElementById("play-area");
    if (area && !(area.dataset.version in window.__shown)) window.__shown[area.dataset.version] = Date.now();
  };
  note();
  new MutationObserver(note).observe(document.body, {childList: true, subtree: true, attributes: true,
                                                     attributeFilter: ["data-version"]});
}"""


class Watched:
    """A game the phone's page watched: its code, and when the page showed each version."""

    def __init__(self, code: str, shown: dict[str, float]) -> None:
        self.code = code
        self.shown = {int(v): t / 1000 for v, t in shown.items()}


def phone(proxy, pace: str) -> Watched:
    """The site's game page in chromium watches a game of ``pace`` through Dice Time."""
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path="/usr/bin/chromium",
                                             args=["--no-sandbox", "--disable-gpu"])
        context = browser.new_context(ignore_https_errors=True, viewport={"width": 390, "height": 844},
                                      device_scale_factor=3, is_mobile=True, has_touch=True, locale="en")
        page = context.new_page()
        code = begin_dice_time(page, f"https://127.0.0.1:{proxy.port}", "en", {**START, "pace": pace})
        page.evaluate(RECORD)
        until = time.monotonic() + SECONDS
        while time.monotonic() < until and page.get_by_test_id("play-live").count():
            page.wait_for_timeout(200)
        watched = Watched(code, page.evaluate("() => window.__shown"))
        browser.close()
    return watched


def main() -> None:
    with bench_release() as release, serve_behind_nginx(release, workers=3, streams=2) as proxy:
        print(f"nginx, gunicorn 3 workers, stream process 2 workers, Redis; "
              f"{os.cpu_count()} CPUs; 3 players, learner reacts in {REACTION * 1000:.0f} ms; "
              f"up to {SECONDS} s of Dice Time")
        for n, pace in enumerate(PACES):
            played = {"push": [], "poll": []}
            for g in range(GAMES):
                pair = [Learner(proxy, 8 * n + 2 * g + i, pace, way)
                        for i, way in enumerate(("push", "poll"))]
                for learner in pair:
                    learner.begin()
                until = time.monotonic() + SECONDS
                threads = [threading.Thread(target=learner.play, args=(until,)) for learner in pair]
                for t in threads:
                    t.start()
                for t in threads:
                    t.join()
                for learner in pair:
                    played[learner.way].append(learner)
            for way, learners in played.items():
                delays = sorted(d for lr in learners for d in captain_delays(proxy.server.env, lr))
                p95 = delays[round(0.95 * (len(delays) - 1))] if delays else float("nan")
                median = statistics.median(delays) if delays else float("nan")
                claims = sum(lr.claims for lr in learners)
                refused = sum(lr.refused for lr in learners)
                share = refused / claims if claims else 0.0
                print(f"{pace:>10} {way}: captain move -> page: median {median * 1000:.0f} ms, "
                      f"p95 {p95 * 1000:.0f} ms ({len(delays)} moves, {GAMES} games); "
                      f"claims refused, card already taken: {refused}/{claims} ({share:.0%})")
        for pace in PACES:
            delays = sorted(captain_delays(proxy.server.env, phone(proxy, pace)))
            p95 = delays[round(0.95 * (len(delays) - 1))] if delays else float("nan")
            median = statistics.median(delays) if delays else float("nan")
            print(f"{pace:>10} the site's page, chromium, 390 px phone: captain move -> page: "
                  f"median {median * 1000:.0f} ms, p95 {p95 * 1000:.0f} ms ({len(delays)} moves)")


if __name__ == "__main__":
    main()
