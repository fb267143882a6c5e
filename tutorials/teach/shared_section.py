"""The guest section as every guest following a table sees it, rendered once per table move.

When the presenter moves the table, every phone at it asks for the new section within the
same second. What they get is the same for all of them but for each guest's own seat and
hand, which the section leaves out and asks for apart (``teach/_guest_seat.html``). So it
is rendered once per table version, seating, language and code version, and kept in the
shared cache (Redis in production) for the other workers; within a process, the guests
that ask while it is being rendered wait for that render instead of starting their own.

Whether the guest came by the QR link is part of the key (the links of that section carry
the link's token), and the section a phone showed when the table jumped ahead (the section
lists what it missed). Nothing else in it depends on who asks.
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections import OrderedDict
from collections.abc import Callable

from django.apps import apps
from django.core.cache import cache
from django.utils import translation

from tutorials.models import Table
from tutorials.web import shared_cache

#: how long a rendered section is kept: a table's guests ask for it within seconds of a move
SECONDS = 60
#: the sections a process keeps at hand (a few per table it serves)
KEPT = 64

_lock = threading.Lock()
_recent: OrderedDict[str, tuple[float, str]] = OrderedDict()  # key -> (kept until, section)


def key(session: Table, *, token: bool, missed_from: int | None = None) -> str:
    """The cache key of ``session``'s section as it is now, in the active language, for a
    phone that showed section ``missed_from`` before the table jumped past the next."""
    return ":".join(("teach-section", session.code, str(session.version), str(session.seating),
                     translation.get_language() or "", "k" if token else "-",
                     "-" if missed_from is None else str(missed_from),
                     str(getattr(apps.get_app_config("tutorials"), "code_version", ""))))


def _from_cache(name: str) -> str | None:
    until, body = _recent.get(name, (0.0, None))
    if body is None or until < time.monotonic():
        try:
            body = shared_cache.call(cache.get, name)
        except shared_cache.Unavailable:
            return None
    return body


def cached(session: Table, *, token: bool, missed_from: int | None, render: Callable[[], str]) -> str:
    """``session``'s shared section: from this process or the shared cache, else ``render()``
    once and kept in both (a cache that is down only costs the render)."""
    name = key(session, token=token, missed_from=missed_from)
    body = _from_cache(name)
    if body is not None:
        return body
    with _lock:
        body = _from_cache(name)
        if body is None:
            body = render()
            with contextlib.suppress(shared_cache.Unavailable):
                shared_cache.call(cache.set, name, body, SECONDS)
        _recent[name] = (time.monotonic() + SECONDS, body)
        while len(_recent) > KEPT:
            _recent.popitem(last=False)
    return body
