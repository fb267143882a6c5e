"""The guest section as every guest following a table sees it, rendered once per table move.

When the presenter moves the table, every phone at it asks for the new section within the
same second. What they get is the same for all of them but for each guest's own seat and
hand, which the section leaves out and asks for apart (``teach/_guest_seat.html``). So it
is rendered once per table version, seating, language and code version, compressed once,
and kept in the shared cache (Redis in production) for the other workers; within a
process, the guests that ask while it is being rendered wait for that render instead of
starting their own.

A phone that heard of the move on its stream names the table's mark it wants (``m``): a
section already rendered for that mark is served as it was kept, without reading the
table or the guest, so a move costs each guest's phone but one cache lookup. What
was rendered for a mark was the table's section at that mark, for whoever may see the table
(the code is the key to it); the rest, the guest's seat and whether the table still
exists, is asked for as before.

Whether the guest came by the QR link is part of the key (the links of that section carry
the link's token), and the section a phone showed when the table jumped ahead (the section
lists what it missed). Nothing else in it depends on who asks.
"""

from __future__ import annotations

import contextlib
import gzip
import re
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass

from django.apps import apps
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from django.utils import translation

from tutorials.forms import Query
from tutorials.live import streams
from tutorials.models import Table
from tutorials.teach.access import live_session
from tutorials.web import shared_cache
from tutorials.web.compression import precompressed
from tutorials.web.link_tokens import TABLE_LINK

#: how long a rendered section is kept: a table's guests ask for it within seconds of a move
SECONDS = 60
#: the sections a process keeps at hand (a few per table it serves)
KEPT = 64


@dataclass(frozen=True)
class Section:
    """A rendered section: the table's section ``index`` at the mark it was rendered for,
    its HTML (``body``) and the same gzipped (``packed``, made once for every guest)."""

    index: int
    body: bytes
    packed: bytes


_lock = threading.Lock()
_recent: OrderedDict[str, tuple[float, Section]] = OrderedDict()  # key -> (kept until, section)


def key(code: str, version: int, seating: int, *, token: bool, missed_from: int | None = None) -> str:
    """The cache key of table ``code``'s section at ``version`` and ``seating``, in the
    active language, for a phone that showed section ``missed_from`` before the table
    jumped past the next."""
    return ":".join(("teach-section", code, str(version), str(seating),
                     translation.get_language() or "", "k" if token else "-",
                     "-" if missed_from is None else str(missed_from),
                     str(getattr(apps.get_app_config("tutorials"), "code_version", ""))))


def _from_cache(name: str) -> Section | None:
    until, found = _recent.get(name, (0.0, None))
    if found is None or until < time.monotonic():
        try:
            found = shared_cache.call(cache.get, name)
        except shared_cache.Unavailable:
            return None
        if not isinstance(found, Section):
            return None
        _keep(name, found)
    return found


def _keep(name: str, section: Section) -> None:
    with _lock:
        _store(name, section)


def _store(name: str, section: Section) -> None:
    """(``_lock`` held)"""
    _recent[name] = (time.monotonic() + SECONDS, section)
    _recent.move_to_end(name)
    while len(_recent) > KEPT:
        _recent.popitem(last=False)


class Moved(Exception):
    """The table is no longer at the mark a section was asked for."""


def cached(code: str, version: int, seating: int, *, token: bool, missed_from: int | None,
           render: Callable[[], tuple[int, str]]) -> Section:
    """Table ``code``'s shared section at ``version`` and ``seating``: from this process or
    the shared cache, else ``render()`` (the section's index and HTML, or :class:`Moved`)
    once and kept in both (a cache that is down only costs the render). The guests that ask
    while it is being rendered in this process wait for it."""
    name = key(code, version, seating, token=token, missed_from=missed_from)
    section = _from_cache(name)
    if section is not None:
        return section
    with _lock:
        until, section = _recent.get(name, (0.0, None))
        if section is None or until < time.monotonic():
            with contextlib.suppress(shared_cache.Unavailable):
                section = shared_cache.call(cache.get, name)
            if not isinstance(section, Section):
                index, html = render()
                body = html.encode()
                section = Section(index, body, gzip.compress(body, compresslevel=6, mtime=0))
                with contextlib.suppress(shared_cache.Unavailable):
                    shared_cache.call(cache.set, name, section, SECONDS)
            _store(name, section)
    return section


def answer(request: HttpRequest, section: Section, token: bool) -> HttpResponse:
    """A shared section as sent: compressed unless it carries the guest link's token, which
    is as secret as a cookie."""
    if token:
        return HttpResponse(section.body)
    return precompressed(request, section.body, section.packed)


def at_mark(request: HttpRequest, code: str,
            render_shared: Callable[[HttpRequest, Table], tuple[int, str]]) -> HttpResponse | None:
    """A live phone's poll (``m``: the table's mark its stream announced): 204 when the
    phone shows that mark's version and seating already, else the section every guest
    shares at that mark, as rendered for the first of them to ask (the others, without
    reading the table or the guest: the stream tells the table who follows), made by
    ``render_shared`` (the section's index and HTML). ``None`` when
    the phone missed more than the last section or the table is no longer at that mark
    (a phone at its own pace is the view's to answer)."""
    query = Query(request)
    mark = streams.parse_mark(query.get("m"), 3)
    if mark is None:
        return None
    version, seats = mark[0], mark[1]
    if query.get("v") == str(version) and query.get("s") == str(seats):
        return HttpResponse(status=204)
    shown = query.get("i", "")
    token = TABLE_LINK.opens(request, code)

    def render() -> tuple[int, str]:
        session = live_session(request, code)
        if (session.code, session.version, session.seating) != (code, version, seats):
            raise Moved
        return render_shared(request, session)

    try:
        section = cached(code, version, seats, token=token, missed_from=None, render=render)
    except Moved:
        return None
    if re.fullmatch(r"[0-9]{1,4}", shown) and section.index - int(shown) > 1:
        return None  # (the sections it missed: its own rendering, read from the table)
    return answer(request, section, token)
