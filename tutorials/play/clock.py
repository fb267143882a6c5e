"""The practice game's server clock: the captains act at their time whether or not anyone asks.

While a learner's page holds its game's live stream (:mod:`tutorials.play.live`), the
process serving that stream runs a clock for the game: a thread that sleeps until the
captains' next action may be due (:func:`~tutorials.practice.games.clock_tick`, from the
engine's :func:`~captain.rules.captains.practice.next_due`), plays and stores what is due,
and sleeps again; the stored move reaches the page by the stream at once. A move of the
learner's (a message on the game's topic) wakes it early: the captains' plans change.

Exactly once across workers and hosts: only the holder of the game's lease
(:func:`~tutorials.http.bus.hold`, :data:`LEASE_SECONDS`, renewed at every strike) runs the
clock; the other processes holding a stream of the game try for it every
:data:`TRY_SECONDS`, so when the holder dies another takes over within the lease's time.
Even two clocks at once would act once: every store is made from the version it read
(:meth:`~tutorials.models.VersionedRow.change`), and the loser reads the winner's record.
A game nobody watches has no clock and waits; its next request plays what is due, as
every request does (:func:`~tutorials.practice.games.catch_up`).
"""

from __future__ import annotations

import contextlib
import logging
import os
import queue
import secrets
import threading
from collections.abc import Iterator
from contextlib import contextmanager

from django.db import close_old_connections, connection
from django.utils import timezone

from tutorials.http import bus
from tutorials.models import PracticeGame
from tutorials.practice import games

logger = logging.getLogger(__name__)

#: how long a clock's lease lasts without being renewed (seconds)
LEASE_SECONDS = 3.0
#: the longest a clock sleeps between two strikes (it renews its lease at each)
STRIKE_SECONDS = 1.0
#: how often a process without the lease tries for it
TRY_SECONDS = 1.0


def topic(code: str) -> str:
    return "game:" + code


class _Clocks:
    """This process's clocks: how many streams watch each game, and each game's thread."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.watchers: dict[str, int] = {}
        self.threads: dict[str, threading.Thread] = {}

    def still_watched(self, code: str, holder: str) -> bool:
        """Whether the calling clock thread of ``code`` goes on; when nobody watches, it
        stops being the game's clock at once (its lease given up, its place left), so that
        a page watching again a moment later starts a new one rather than count on it."""
        with self.lock:
            if self.watchers.get(code, 0) > 0:
                return True
            if self.threads.get(code) is threading.current_thread():
                del self.threads[code]
            bus.give_up(topic(code), holder)
            return False


_clocks = _Clocks()


@contextmanager
def watch(code: str) -> Iterator[None]:
    """Keep game ``code``'s clock running (in this process, or wherever its lease is) while
    the block runs: a learner's page holds the game's stream."""
    with _clocks.lock:
        _clocks.watchers[code] = _clocks.watchers.get(code, 0) + 1
        thread = _clocks.threads.get(code)
        if thread is None or not thread.is_alive():
            thread = threading.Thread(target=_run, args=(code,), name=f"clock-{code}", daemon=True)
            _clocks.threads[code] = thread
            thread.start()
    try:
        yield
    finally:
        with _clocks.lock:
            _clocks.watchers[code] -= 1
            if not _clocks.watchers[code]:
                del _clocks.watchers[code]


def running() -> list[str]:
    """The games whose clock threads run in this process (for the tests)."""
    with _clocks.lock:
        return sorted(code for code, thread in _clocks.threads.items() if thread.is_alive())


def _strike(code: str) -> float | None:
    """Play what is due of game ``code``; seconds until the next strike (``None``: the game
    is gone)."""
    close_old_connections()
    game = PracticeGame.objects.filter(code=code).first()
    if game is None or game.expired:
        return None
    next_at = games.clock_tick(game)
    if next_at is None:
        return STRIKE_SECONDS  # the learner is to act: a move of theirs wakes the clock
    return min(STRIKE_SECONDS, max(0.0, (next_at - timezone.now()).total_seconds()))


def _run(code: str) -> None:
    holder = f"{os.getpid()}-{secrets.token_hex(8)}"  # (the process: who holds it, for the logs)
    try:
        with bus.listen(topic(code)) as moves:
            _tick_while_watched(code, holder, moves)
    except bus.BusDown:
        _tick_while_watched(code, holder, None)
    finally:
        with _clocks.lock:
            if _clocks.threads.get(code) is threading.current_thread():
                del _clocks.threads[code]
                bus.give_up(topic(code), holder)
        connection.close()


def _tick_while_watched(code: str, holder: str, moves: queue.Queue | None) -> None:
    while _clocks.still_watched(code, holder):
        wait = TRY_SECONDS
        if bus.hold(topic(code), holder, LEASE_SECONDS):
            try:
                wait = _strike(code)
            except Exception:  # a failing strike must not stop the clock: log, try again
                logger.exception("the clock of game %s failed to strike", code)
                wait = TRY_SECONDS
            if wait is None:
                return
        if moves is None:
            threading.Event().wait(wait)
            continue
        with contextlib.suppress(queue.Empty):
            moves.get(timeout=wait)  # a move stored meanwhile (the learner's): strike at once
