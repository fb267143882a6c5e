"""The site's own practice-game page in a browser (Playwright): start a game with the given
choices and bring it to Dice Time; and the page's timed request done by a client of the
test's (:class:`TimedPage`). For the deploy tests and ``bin/bench-play``."""

from __future__ import annotations

import json
import re
import sqlite3
import threading
import time
from datetime import datetime

import dj_database_url

#: sets a start-form choice, which may sit in a closed details element
_CHOOSE = "([n, v]) => { document.querySelector(`[name='${n}'][value='${v}']`).checked = true; }"
#: true once the game area shows a version other than ``v``
MOVED = "v => document.querySelector('#play-area')?.dataset.version !== v"


def begin_dice_time(page, site: str, lang: str, choices: dict[str, str]) -> str:
    """Start a game with ``choices`` at ``site`` in ``lang`` and go on until Dice Time has
    begun; the game's code."""
    page.goto(f"{site}/{lang}/play/")
    for name, value in choices.items():
        page.evaluate(_CHOOSE, [name, value])
    page.get_by_test_id("start-game").click()
    page.wait_for_url(re.compile(rf"/{lang}/play/\w+/$"))
    code = page.url.rstrip("/").rsplit("/", 1)[1]
    while not page.get_by_test_id("play-live").count():  # go on to the round, begin Dice Time
        version = page.locator("#play-area").get_attribute("data-version")
        page.locator('[data-testid="play-continue"], [data-testid="play-begin"]').first.click()
        page.wait_for_function(MOVED, arg=version)
    return code


# --- the page's timed request, done by a client of the test's --------------------------------
#: the game area's timed request and its delay (templates/play/game.html)
_DUE = re.compile(rb'id="play-poll"[^>]*hx-trigger="every (\d+)ms"')
HX = {"HX-Request": "true"}


def version_of(html: bytes) -> int:
    found = re.search(rb'id="play-area"[^>]*data-version="(\d+)"', html) or re.search(
        rb'data-version="(\d+)"', html)
    assert found, html[:2000]
    return int(found[1])


def due_of(html: bytes) -> float | None:
    """Seconds until the page asks again, as ``html`` says; ``None``: it does not ask."""
    found = _DUE.search(html)
    return int(found[1]) / 1000 if found else None


class TimedPage:
    """What the game page's one way to stay current does, for a client (a harness.Browser
    with the learner's cookie): ask for the game area with the version shown, when the last
    answer says (again after the same delay if a request failed). An area the learner's own
    move brought is :meth:`show`-n, and the timer starts again from it, as on the page."""

    def __init__(self, browser, game: str, html: bytes) -> None:
        self.browser, self.game = browser, game
        self.version, self.html, self.due = version_of(html), html, due_of(html)
        self.shown: dict[int, float] = {self.version: time.time()}  # version -> first shown (epoch)
        self.asked: list[float] = []    # when each timed request was sent (epoch)
        self.answers: list[str] = []    # "area", "timer" (the next timed request alone) or a status
        self._armed = time.monotonic()
        self._changed = threading.Condition()
        self._stopped = False

    def show(self, body: bytes) -> None:
        """An answer holding the game area: shown if it is no older than the page."""
        with self._changed:
            version = version_of(body)
            if version >= self.version:
                self.version, self.html, self.due = version, body, due_of(body)
                self.shown.setdefault(version, time.time())
                self._armed = time.monotonic()
                self._changed.notify_all()

    def stop(self) -> None:
        with self._changed:
            self._stopped = True
            self._changed.notify_all()

    def follow(self, until: float) -> None:
        """Ask as the page does until ``until`` (monotonic), :meth:`stop`, or nothing is due."""
        with self._changed:
            while not self._stopped and self.due is not None and time.monotonic() < until:
                left = self._armed + self.due - time.monotonic()
                if left > 0:
                    self._changed.wait(min(left, until - time.monotonic()))
                    continue
                self._armed, version = time.monotonic(), self.version
                self._changed.release()
                try:
                    self.asked.append(time.time())
                    status, headers, body = self.browser.request("GET", f"{self.game}?version={version}",
                                                                 **HX)
                finally:
                    self._changed.acquire()
                if status != 200:
                    self.answers.append(str(status))
                elif headers.get("HX-Retarget") == "#play-poll":
                    self.answers.append("timer")
                    if version == self.version:
                        self.due = due_of(body)
                else:
                    self.answers.append("area")
                    self.show(body)  # (the condition's lock is re-entrant)


def stored_game(env: dict[str, str], code: str) -> tuple[list, list, float]:
    """Game ``code``'s stored log, its marks and its start (epoch seconds), read from the
    database of the release's ``env``."""
    query = "SELECT log, marks, started_at FROM tutorials_practicegame WHERE code = %s"
    config = dj_database_url.parse(env["DATABASE_URL"])
    if config["ENGINE"].endswith("sqlite3"):
        with sqlite3.connect(config["NAME"]) as conn:
            log, marks, started = conn.execute(query.replace("%s", "?"), (code,)).fetchone()
    else:
        import psycopg

        with psycopg.connect(env["DATABASE_URL"]) as conn:
            log, marks, started = conn.execute(query, (code,)).fetchone()
    if isinstance(started, str):  # (SQLite: UTC, without its offset)
        started = datetime.fromisoformat(started if "+" in started[10:] else started + "+00:00")

    def loaded(raw):
        return json.loads(raw) if isinstance(raw, str) else raw

    return loaded(log), loaded(marks), started.timestamp()


def captain_delays(env: dict[str, str], code: str, shown: dict[int, float]) -> list[float]:
    """For each captain move of game ``code``: when a page first showed it (``shown``:
    version -> epoch seconds) minus its due moment on the game's clock."""
    log, marks, started = stored_game(env, code)
    delays = []
    for index, (at, _action, by_learner) in enumerate(log):
        if by_learner:
            continue
        # the first version whose log holds this move, and when the page showed it (or a later one)
        first = next(v for v, count in enumerate(marks) if count > index)
        seen = [when for version, when in shown.items() if version >= first]
        if seen:
            delays.append(min(seen) - (started + at))
    return delays
