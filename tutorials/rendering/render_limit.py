"""At most ``RENDER_LIMIT`` PDF renders at once per host, across every worker process.

A render holds one of ``RENDER_LIMIT`` numbered leases in the shared cache (Redis in
production): ``cache.add`` takes a free one atomically, with a timeout, so the lease of a
worker that dies mid-render frees itself after ``RENDER_LEASE_SECONDS``. A lease's value
is ``"<process id>:<random>"``: the worker that holds it. When every lease
is taken the render is refused at once with :class:`RenderBusy` (the views answer 503
with ``Retry-After``): a queue of renders would hold every worker and starve ordinary
pages.

While the shared cache cannot be reached (:mod:`tutorials.web.shared_cache`), a render
holds one of ``RENDER_LIMIT`` lock files of the host instead (``flock`` on
``RENDER_LOCK_DIR``, :func:`_host_slot`): PDFs keep coming, and the host still renders at
most ``RENDER_LIMIT`` at once, whichever worker asks. The kernel frees the lock of a worker
that dies.
"""

from __future__ import annotations

import fcntl
import logging
import os
import secrets
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress

from django.conf import settings
from django.core.cache import cache
from django.utils.translation import gettext as _

from tutorials.web import shared_cache
from tutorials.web.limits import TryLater

logger = logging.getLogger(__name__)

#: Seconds a refused client is asked to wait (``Retry-After``): about one render.
RETRY_AFTER = 5

#: Seconds between two tries of :func:`render_slot_in_turn` for a free slot.
TURN_POLL_SECONDS = 0.5


class RenderBusy(TryLater):
    """Every render lease of this host is taken; try again after ``retry_after`` seconds."""

    status, code = 503, "busy"

    def __init__(self, retry_after: int = RETRY_AFTER) -> None:
        super().__init__(f"all render slots are busy; retry after {retry_after} s")
        self.retry_after = retry_after

    @property
    def message(self) -> str:
        return _("The server is busy making other PDFs right now. Please try again in "
                 "%(seconds)s seconds.") % {"seconds": self.retry_after}


def _lease_key(slot: int) -> str:
    return f"render-lease:{settings.HOST_NAME}:{slot}"


class Lease:
    """A held render lease: ``slot`` (0-based); :meth:`renew` keeps it from expiring
    while a long render goes on. ``key`` is ``None`` for a lease of this process alone
    (taken while the shared cache was down), which nothing else can take."""

    def __init__(self, slot: int, key: str | None, token: str, lease_seconds: int) -> None:
        self.slot = slot
        self.key = key
        self.token = token
        self.lease_seconds = lease_seconds

    def renew(self) -> None:
        """Give the lease another ``lease_seconds`` (only while it is still ours); a cache
        that went down meanwhile is no reason to stop the render."""
        if self.key is None:
            return
        with suppress(shared_cache.Unavailable):
            shared_cache.call(_renew, self.key, self.token, self.lease_seconds)


def _renew(key: str, token: str, lease_seconds: int) -> None:
    if cache.get(key) == token:
        cache.touch(key, lease_seconds)


def _take(limit: int, token: str, lease_seconds: int) -> int:
    """The first free slot, taken in the shared cache; :class:`RenderBusy` when none is."""
    for slot in range(limit):
        if cache.add(_lease_key(slot), token, timeout=lease_seconds):
            return slot
    raise RenderBusy()


def _give_back(key: str, token: str) -> None:
    # Only our own lease is given back (the render renews it, so it is still ours
    # unless this worker stalled for longer than the lease).
    if cache.get(key) == token:
        cache.delete(key)


@contextmanager
def _host_slot(limit: int, token: str, lease_seconds: int) -> Iterator[Lease]:
    """One of the host's ``limit`` render slots, held as an exclusive lock on its file:
    every open of a file is its own lock holder, so threads of one worker exclude each
    other as workers do."""
    folder = settings.RENDER_LOCK_DIR
    for slot in range(limit):
        try:
            folder.mkdir(parents=True, exist_ok=True)
            # a lock needs only a file to read: a slot another user's process made (a
            # release step) is taken all the same
            fd = os.open(folder / f"slot-{slot}", os.O_RDONLY | os.O_CREAT, 0o644)
        except OSError as error:
            logger.warning("render slot %s in %s cannot be opened (%s): skipped", slot, folder, error)
            continue
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            continue
        try:
            yield Lease(slot, None, token, lease_seconds)
        finally:
            os.close(fd)  # closing the file gives the lock back
        return
    raise RenderBusy()


@contextmanager
def render_slot(limit: int | None = None, lease_seconds: int | None = None) -> Iterator[Lease]:
    """Hold one render lease for the ``with`` block; yields the :class:`Lease`.

    ``limit`` and ``lease_seconds`` default to the settings ``RENDER_LIMIT`` and
    ``RENDER_LEASE_SECONDS``. Raises :class:`RenderBusy` without waiting when all
    ``limit`` leases are held. The holder renews the lease while it renders, so only a
    worker that died loses it, ``lease_seconds`` after its last renewal. The lease is
    given back when the block ends, also on error, unless it expired meanwhile and
    another render took it (it then stays theirs). Without the shared cache the lease is
    one of the host's lock files (:func:`_host_slot`), counted as degraded.
    """
    limit = settings.RENDER_LIMIT if limit is None else limit
    lease_seconds = settings.RENDER_LEASE_SECONDS if lease_seconds is None else lease_seconds
    token = f"{os.getpid()}:{secrets.token_hex(8)}"  # who holds it, for whoever looks
    try:
        slot = shared_cache.call(_take, limit, token, lease_seconds)
    except shared_cache.Unavailable:
        slot = None
    if slot is None:
        shared_cache.degraded("render")
        with _host_slot(limit, token, lease_seconds) as lease:
            yield lease
        return
    key = _lease_key(slot)
    try:
        yield Lease(slot, key, token, lease_seconds)
    finally:
        with suppress(shared_cache.Unavailable):  # else the lease frees itself after lease_seconds
            shared_cache.call(_give_back, key, token)


@contextmanager
def render_slot_in_turn(wait: float) -> Iterator[Lease]:
    """:func:`render_slot`, waiting up to ``wait`` seconds for one of the host's slots to
    come free instead of being refused at once: for a job that must render everything and
    keeps no reader waiting (the release step, ``prerender_sheets``). It takes the same
    slots as the site's renders, so together they never render more than the limit at
    once. Raises :class:`RenderBusy` when none came free in time."""
    deadline = time.monotonic() + wait
    while True:
        holding = False
        try:
            with render_slot() as lease:
                holding = True
                yield lease
            return
        except RenderBusy:
            if holding or time.monotonic() >= deadline:  # the render's own, or waited long enough
                raise
        time.sleep(TURN_POLL_SECONDS)
