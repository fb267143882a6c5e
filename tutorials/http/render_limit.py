"""At most ``RENDER_LIMIT`` PDF renders at once per host, across every worker process.

A render holds one of ``RENDER_LIMIT`` numbered leases in the shared cache (Redis in
production): ``cache.add`` takes a free one atomically, with a timeout, so the lease of a
worker that dies mid-render frees itself after ``RENDER_LEASE_SECONDS``. A lease's value
is ``"<process id>:<random>"``: the worker that holds it. When every lease
is taken the render is refused at once with :class:`RenderBusy` (the views answer 503
with ``Retry-After``): a queue of renders would hold every worker and starve ordinary
pages.
"""

from __future__ import annotations

import os
import secrets
import socket
from collections.abc import Iterator
from contextlib import contextmanager

from django.conf import settings
from django.core.cache import cache

#: Seconds a refused client is asked to wait (``Retry-After``): about one render.
RETRY_AFTER = 5


class RenderBusy(Exception):
    """Every render lease of this host is taken; try again after ``retry_after`` seconds."""

    def __init__(self, retry_after: int = RETRY_AFTER) -> None:
        super().__init__(f"all render slots are busy; retry after {retry_after} s")
        self.retry_after = retry_after


def _lease_key(slot: int) -> str:
    return f"render-lease:{socket.gethostname()}:{slot}"


class Lease:
    """A held render lease: ``slot`` (0-based); :meth:`renew` keeps it from expiring
    while a long render goes on."""

    def __init__(self, slot: int, key: str, token: str, lease_seconds: int) -> None:
        self.slot = slot
        self.key = key
        self.token = token
        self.lease_seconds = lease_seconds

    def renew(self) -> None:
        """Give the lease another ``lease_seconds`` (only while it is still ours)."""
        if cache.get(self.key) == self.token:
            cache.touch(self.key, self.lease_seconds)


@contextmanager
def render_slot(limit: int | None = None, lease_seconds: int | None = None) -> Iterator[Lease]:
    """Hold one render lease for the ``with`` block; yields the :class:`Lease`.

    ``limit`` and ``lease_seconds`` default to the settings ``RENDER_LIMIT`` and
    ``RENDER_LEASE_SECONDS``. Raises :class:`RenderBusy` without waiting when all
    ``limit`` leases are held. The holder renews the lease while it renders, so only a
    worker that died loses it, ``lease_seconds`` after its last renewal. The lease is
    given back when the block ends, also on error, unless it expired meanwhile and
    another render took it (it then stays theirs).
    """
    limit = settings.RENDER_LIMIT if limit is None else limit
    lease_seconds = settings.RENDER_LEASE_SECONDS if lease_seconds is None else lease_seconds
    token = f"{os.getpid()}:{secrets.token_hex(8)}"  # who holds it, for whoever looks
    for slot in range(limit):
        key = _lease_key(slot)
        if cache.add(key, token, timeout=lease_seconds):
            break
    else:
        raise RenderBusy()
    try:
        yield Lease(slot, key, token, lease_seconds)
    finally:
        # Only our own lease is given back (the render renews it, so it is still ours
        # unless this worker stalled for longer than the lease).
        if cache.get(key) == token:
            cache.delete(key)
