"""The shared cache (Redis in production) as a part that may fail.

Rate-limit counts (:mod:`tutorials.web.limits`) live in the shared cache. When it cannot be
reached (Redis stopped or restarting, the network to it down, a full memory), the site goes
on in a degraded mode instead of failing every request that counts something: rate limits
let requests through; the analyzer renders what it would have found there
(:mod:`tutorials.web.fragments`). Saved links, saves, PDFs, tables and games only need the
database.

Every process finds out on its own. The first call that fails marks the cache as down;
for ``SHARED_CACHE_RETRY_SECONDS`` nothing asks it again (a hung Redis costs no request a
timeout), then the next call tries it, and the first that succeeds ends the degraded mode:
the limits count again without a restart.

The log says what happens, without a line per request: a warning when the cache is found
down, one every :data:`REPORT_SECONDS` while it stays down, and one when it answers again,
each with how many requests went through without a rate limit. :func:`degraded_counts`
gives the process's counts since it started.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import Counter
from collections.abc import Callable

import redis
from django.conf import settings

logger = logging.getLogger(__name__)

#: What a cache backend raises when its server cannot be reached or cannot answer: redis-py's
#: errors (connection refused or lost, timeouts, a server out of memory or read-only) and
#: the socket's own.
ERRORS = (redis.exceptions.RedisError, OSError)

#: Seconds between two warnings while the cache stays down.
REPORT_SECONDS = 60

#: What :func:`degraded` counts: requests a rate limit let through without counting them.
KINDS = ("rate-limit",)

class Unavailable(Exception):
    """The shared cache cannot be reached now, or could not a moment ago."""


class _State:
    """This process's view of the shared cache (guarded by ``lock``)."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.down_since: float | None = None  # monotonic time of the first failure
        self.retry_at = 0.0
        self.probing = False  # a request is asking the cache whether it is back
        self.reported_at = 0.0
        self.outage: Counter[str] = Counter()  # counts of the current outage
        self.total: Counter[str] = Counter()   # counts since the process started


_state = _State()


def _summary(counts: Counter[str]) -> str:
    return f"{counts['rate-limit']} requests without a rate limit"


def call[T](function: Callable[..., T], *args, **kwargs) -> T:
    """``function(*args, **kwargs)``, which uses the shared cache; raises
    :class:`Unavailable` when the cache fails, or failed less than
    ``SHARED_CACHE_RETRY_SECONDS`` ago (``function`` is then not called).

    Once that time is up, one request asks the cache again while the others of the
    process go on without it: a cache that hangs costs one request its timeout per
    retry, not every request that comes meanwhile."""
    probe = False
    if _state.down_since is not None:
        with _state.lock:
            if _state.probing or time.monotonic() < _state.retry_at:
                raise Unavailable()
            _state.probing = probe = True
    try:
        result = function(*args, **kwargs)
    except ERRORS as error:
        _failed(error)
        raise Unavailable() from error
    finally:
        if probe:
            _state.probing = False
    if _state.down_since is not None:
        _answered()
    return result


def _failed(error: Exception) -> None:
    now = time.monotonic()
    with _state.lock:
        _state.retry_at = now + settings.SHARED_CACHE_RETRY_SECONDS
        if _state.down_since is not None:
            return
        _state.down_since = _state.reported_at = now
        _state.outage.clear()
    logger.warning("shared cache unreachable (%s: %s): rate limits let requests through until it "
                   "answers again",
                   type(error).__name__, error)


def _answered() -> None:
    with _state.lock:
        if _state.down_since is None:
            return
        lasted = time.monotonic() - _state.down_since
        counts = _state.outage.copy()
        _state.down_since = None
        _state.outage.clear()
    logger.warning("shared cache answers again after %.0f s; meanwhile %s", lasted, _summary(counts))


def degraded(kind: str) -> None:
    """Count one request that went on without the shared cache (``kind`` of :data:`KINDS`);
    while it stays down, say so in the log every :data:`REPORT_SECONDS`."""
    if kind not in KINDS:
        raise ValueError(f"unknown kind {kind!r}")
    now = time.monotonic()
    with _state.lock:
        _state.total[kind] += 1
        _state.outage[kind] += 1
        report = _state.down_since is not None and now - _state.reported_at >= REPORT_SECONDS
        if report:
            _state.reported_at = now
            lasted, counts = now - _state.down_since, _state.outage.copy()
    if report:
        logger.warning("shared cache still unreachable after %.0f s: %s so far", lasted, _summary(counts))


def degraded_counts() -> dict[str, int]:
    """How many requests of each kind of :data:`KINDS` this process served without the
    shared cache since it started."""
    with _state.lock:
        return {kind: _state.total[kind] for kind in KINDS}


def is_down() -> bool:
    """Whether this process takes the shared cache to be down right now."""
    return _state.down_since is not None


def reset() -> None:
    """Forget every failure and count (tests start from a cache that answers)."""
    global _state
    _state = _State()
