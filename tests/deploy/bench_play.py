"""Action mode's latency as deployed: ``bin/bench-play`` (prints figures; nothing is timed in
the tests).

nginx in front, gunicorn (three workers) with the production settings, Redis; nothing
pushes a game. For each pace, action-mode games (three players) run through Dice Time, each
followed by its learner's page as the site's page does: it asks for the game area when the
last answer says the captains' next action is due (tests/deploy/game_pages.py
``TimedPage``). The learner re-rolls when they have nothing to claim, and claims a card
their dice show 250 ms after their page showed it (a quick human), on the board as it was
shown then.

Printed per pace: the delay from each captain move's due moment (its moment on the game's
clock) to the page showing it (median, p95), the page's requests per captain move, and the
share of the learner's claims refused because a captain had taken the card first while the
page still showed it free; and the gunicorn workers' CPU per request of the learner and their
page (the captains move within those requests), game by game (median and quartiles of the
games), against ``/healthz`` asked between the games (tests/deploy/bench_figures.py). The
load average at the start and the end follows, with a warning when the machine was busy or
the spread wide.

Then the site's own page, in chromium on a 390 px phone through nginx (HTTPS, HTTP/2),
watching one game per pace: the delay from each captain move's due moment to the game area
showing it in the page's document (the page's and the game's clocks are this host's).
"""

from __future__ import annotations

import os
import random
import re
import statistics
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "captain.settings")

import django  # noqa: E402

django.setup()  # the harness reads the settings

from playwright.sync_api import sync_playwright  # noqa: E402

from bench_figures import (  # noqa: E402
    CPU_HOLDS,
    YARDSTICK,
    Workers,
    cpu_lines,
    load,
    load_line,
    spread_of,
    verdict,
)
from game_pages import HX, TimedPage, begin_dice_time, captain_delays  # noqa: E402
from harness import Browser, bench_release, serve_behind_nginx  # noqa: E402

PACES = ("first-game", "table", "quick", "fastest")
GAMES = 5             # games per pace
SECONDS = 14          # of Dice Time per game, at most
REACTION = 0.25       # the learner's reaction time
STILL = 10            # /healthz requests after each game, the yardstick of its worker CPU
START = {"players": "3", "colour": "red", "start": "me", "strength": "greedy",
         "collection": "sequential", "mode": "action"}
CLAIM = re.compile(rb'name="do" value="claim"><input type="hidden" name="at" value="([\d-]+)"')


class Learner:
    """One learner and their game's page."""

    def __init__(self, proxy, n: int, pace: str) -> None:
        self.browser = Browser(proxy, f"127.50.{n}.1", lang="en")
        self.requests = 0
        sent = self.browser.request

        def counted(*args, **kwargs):  # the learner's and their page's requests alike
            self.requests += 1
            return sent(*args, **kwargs)

        self.browser.request = counted
        self.browser.request("GET", "/en/play/")
        status, headers, body = self.browser.request("POST", "/en/play/", {**START, "pace": pace})
        assert status == 302, body[-1000:]
        self.url = headers["Location"]
        self.code = self.url.rstrip("/").rsplit("/", 1)[1]
        self.claims = self.refused = 0
        self.page: TimedPage | None = None
        self.rng = random.Random(n)

    @property
    def shown(self) -> dict[int, float]:
        """When the page first showed each version of the game (epoch)."""
        return self.page.shown

    def act(self, **fields) -> bytes:
        form = {"version": str(self.page.version), **fields}
        status, _h, body = self.browser.request("POST", self.url + "act/", form, **HX)
        assert status in (200, 409, 422), (status, body[-500:])
        self.page.show(body)
        return body

    def begin(self) -> None:
        _status, _h, body = self.browser.request("GET", self.url)
        self.page = TimedPage(self.browser, self.url, body)
        self.act(do="continue")
        self.act(do="begin")

    def play(self, until: float) -> None:
        """The page follows the game on one thread; the learner plays on another, until
        ``until`` or the end of Dice Time."""
        follow = threading.Thread(target=self.page.follow, args=(until,))
        follow.start()
        acted_on = -1
        while time.monotonic() < until and b'data-testid="play-live"' in self.page.html:
            if self.page.version == acted_on:
                time.sleep(0.005)
                continue
            acted_on, seen = self.page.version, self.page.html
            self._move(seen)
        self.page.stop()
        follow.join()

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


def p95(values: list[float]) -> float:
    return sorted(values)[round(0.95 * (len(values) - 1))] if values else float("nan")


def main() -> None:
    cpu: dict[str, list[float]] = {"/healthz (yardstick)": []}
    with bench_release() as release, serve_behind_nginx(release, workers=3) as proxy:
        print(f"nginx, gunicorn 3 workers, Redis, nothing pushed: each page asks when the captains "
              f"are due; {os.cpu_count()} CPUs; 3 players, learner reacts in {REACTION * 1000:.0f} ms; "
              f"up to {SECONDS} s of Dice Time")
        workers = Workers(proxy.server, client="198.18.7.9")
        for _ in range(3 * STILL):  # every worker's first requests done
            workers.measure(YARDSTICK)
        started = load()
        for n, pace in enumerate(PACES):
            learners = []
            cpu[f"{pace}: learner and page"] = []
            for g in range(GAMES):
                before = workers.each()
                learner = Learner(proxy, 8 * n + g, pace)
                learner.begin()
                learner.play(time.monotonic() + SECONDS)
                learners.append(learner)
                cpu[f"{pace}: learner and page"].append(workers.since(before) / learner.requests)
                cpu["/healthz (yardstick)"] += [workers.measure(YARDSTICK).cpu_ms for _ in range(STILL)]
            delays = [d for lr in learners for d in captain_delays(proxy.server.env, lr.code, lr.shown)]
            median = statistics.median(delays) if delays else float("nan")
            asked = sum(len(lr.page.asked) for lr in learners)
            claims = sum(lr.claims for lr in learners)
            refused = sum(lr.refused for lr in learners)
            share = refused / claims if claims else 0.0
            print(f"{pace:>10}: captain move due -> page: median {median * 1000:.0f} ms, "
                  f"p95 {p95(delays) * 1000:.0f} ms ({len(delays)} moves, {GAMES} games); "
                  f"{asked / max(1, len(delays)):.2f} timed requests per move; "
                  f"claims refused, card already taken: {refused}/{claims} ({share:.0%})")
        ended = load()
        units = {name: "games; the mean of each game's requests" for name in cpu if name.endswith("page")}
        print("\n".join(["", *cpu_lines(cpu, "/healthz (yardstick)", units=units),
                          "", load_line(started, ended),
                          *verdict(started, spread_of(cpu), holds="The delays suffer most: every "
                                   "request waits for a CPU. " + CPU_HOLDS), ""]))
        for pace in PACES:
            watched = phone(proxy, pace)
            delays = captain_delays(proxy.server.env, watched.code, watched.shown)
            median = statistics.median(delays) if delays else float("nan")
            print(f"{pace:>10} the site's page, chromium, 390 px phone: captain move due -> page: "
                  f"median {median * 1000:.0f} ms, p95 {p95(delays) * 1000:.0f} ms ({len(delays)} moves)")
        print("\n".join([f"the site's page in chromium: {load_line(ended, load())}",
                          *verdict(ended, None, holds="The delays suffer most: every request and "
                                   "the browser itself wait for a CPU.")]))


if __name__ == "__main__":
    main()
