"""A table's live stream: every screen following a table (the guests' phones, the projector,
each presenter tab) hears of a change the moment it is made, not at its next poll.

A change of a table (:data:`~tutorials.models.table_changed`: a move, a new
:attr:`~tutorials.models.TeachSession.version`; a seat taken or freed, its
:attr:`~tutorials.models.TeachSession.seating`; a card a player entered, which only the
presenter's screen shows) is announced on the live bus (:mod:`tutorials.http.bus`) once its
transaction is committed; each open stream of that table (server-sent events,
``/live/<code>/``) passes it on as an event whose id is the table's *mark*,
``<version>.<seating>.<entries>``. The event only says that the table moved: the
page then asks for its section as its poll always did, so each screen still gets its own
view (a player's hand stays on that player's phone) and the versions that refuse stale
moves stay as they are.

A stream that reconnects sends the last mark it had (``Last-Event-ID``, or ``?since=``
from a page that opens a new stream): when the table has moved on meanwhile, the first
event says so at once. The stream says ``down`` and ends when the bus is lost, and pages
then poll as they did before streams and say so (static/js/live.js); every few seconds it
sends a comment line, so that nginx and phones' networks keep it open.

The ASGI stream process (``uvicorn captain.asgi``, docs/production.md) holds streams by the
thousand on one event loop. The development server, one process without Redis, serves
them on its threads; gunicorn's threads are never tied up by them in production
(:data:`~django.conf.settings.LIVE_STREAMS_ON_THREADS`): it answers 503 and pages poll.
"""

from __future__ import annotations

import queue
import time
from collections.abc import AsyncIterator, Iterator

from asgiref.sync import sync_to_async
from django.conf import settings
from django.core.handlers.asgi import ASGIRequest
from django.db import transaction
from django.db.models import Sum
from django.db.models.functions import Coalesce
from django.dispatch import receiver
from django.http import HttpRequest, HttpResponse, StreamingHttpResponse

from tutorials.http import bus
from tutorials.models import TeachSession, normalize_code, table_changed
from tutorials.teach.access import TableGone, live_session

#: seconds between two comment lines on a quiet stream (nginx drops a proxied connection
#: silent for 60 s; phones' networks drop idle ones sooner)
HEARTBEAT_SECONDS = 15

#: a stream ends after this many seconds and the browser opens the next one with its last
#: mark: no connection outlives its table's expiry by long, and none is held forever
STREAM_SECONDS = 600

#: what the browser waits before it reconnects a stream that ended (milliseconds)
RECONNECT_MS = 1000

Mark = tuple[int, int, int]


def topic(code: str) -> str:
    return "table:" + code


def _mark_text(mark: Mark) -> str:
    return ".".join(map(str, mark))


def _parse_mark(text: str | None) -> Mark | None:
    parts = (text or "").strip().split(".")
    if len(parts) == 3 and all(p.isdigit() and len(p) <= 9 for p in parts):
        return int(parts[0]), int(parts[1]), int(parts[2])
    return None


def _current(code: str) -> Mark | None:
    """The table's mark now, or ``None`` when it is gone."""
    row = (TeachSession.objects.filter(code=code)
           .annotate(entries=Coalesce(Sum("seats__version"), 0))
           .values_list("version", "seating", "entries").first())
    return (row[0], row[1], row[2]) if row else None


# --- announcing ---------------------------------------------------------------------------
@receiver(table_changed)
def announce(sender, code: str, always: bool = False, **_kwargs) -> None:
    """Tell every stream of table ``code`` that it changed, once the change is committed
    (a stream's page would otherwise ask before it can see the change); ``always``: even
    when its mark stays the same (a projector opened: only the presenter's page shows it)."""
    def send() -> None:
        mark = _current(code)
        if mark is not None:
            bus.publish(topic(code), {"m": list(mark), "a": always})
    transaction.on_commit(send)


# --- the stream ---------------------------------------------------------------------------
DOWN_EVENT = "event: down\ndata: {}\n\n"
GONE_EVENT = "event: gone\ndata: {}\n\n"
HEARTBEAT = ": still here\n\n"


class _Follow:
    """What one stream says, served on a thread or on an event loop alike: an event only for
    a mark it has not passed on yet, ``down`` when the bus is lost, ``gone`` when the table
    is; ``ended`` once it has nothing more to say."""

    def __init__(self, since: Mark | None) -> None:
        self.said = since
        self.ended = False

    @staticmethod
    def prelude() -> str:
        return f"retry: {RECONNECT_MS}\n\n"

    def opened(self, mark: Mark | None) -> str | None:
        """What to say first, the table's ``mark`` read once the stream listens (so no
        change slips in between): where it is, if that is news."""
        if mark is None:
            self.ended = True
            return GONE_EVENT
        return self.event(mark)

    def on(self, message: object | None) -> str | None:
        """What to say on ``message`` from the bus (``None``: nothing came for a
        heartbeat's time)."""
        if message is None:
            return HEARTBEAT
        if message is bus.DOWN:
            self.ended = True
            return DOWN_EVENT
        found = message.get("m") if isinstance(message, dict) else None
        if isinstance(found, list) and len(found) == 3 and all(type(n) is int for n in found):
            return self.event((found[0], found[1], found[2]), always=message.get("a") is True)
        return None

    def event(self, mark: Mark, always: bool = False) -> str | None:
        """The event for ``mark`` when it is news to this stream (or ``always``), else ``None``."""
        seen = self.said is not None and all(now <= said for now, said in zip(mark, self.said, strict=True))
        if seen and not always:
            return None
        self.said = mark if self.said is None else tuple(map(max, mark, self.said))
        text = _mark_text(self.said)
        return f"id: {text}\ndata: {text}\n\n"


def _on_threads(code: str, follow: _Follow) -> Iterator[str]:
    """The stream served by a thread of the development server."""
    yield follow.prelude()
    try:
        with bus.listen(topic(code)) as inbox:
            said = follow.opened(_current(code))
            end = time.monotonic() + STREAM_SECONDS
            while True:
                if said:
                    yield said
                if follow.ended or time.monotonic() >= end:
                    return
                try:
                    said = follow.on(inbox.get(timeout=HEARTBEAT_SECONDS))
                except queue.Empty:
                    said = follow.on(None)
    except bus.BusDown:
        yield DOWN_EVENT


async def _on_loop(code: str, follow: _Follow) -> AsyncIterator[str]:
    """The stream served by the ASGI stream process's event loop."""
    yield follow.prelude()
    try:
        async with bus.AsyncInbox(topic(code)) as inbox:
            said = follow.opened(await sync_to_async(_current, thread_sensitive=False)(code))
            end = time.monotonic() + STREAM_SECONDS
            while True:
                if said:
                    yield said
                if follow.ended or time.monotonic() >= end:
                    return
                said = follow.on(await inbox.get(HEARTBEAT_SECONDS))
    except bus.BusDown:
        yield DOWN_EVENT


def _refusal(status: int, code: str) -> HttpResponse:
    response = HttpResponse(status=status, content_type="text/plain; charset=utf-8")
    response["Problem-Code"] = code
    response["Cache-Control"] = "no-store"
    return response


def table_stream(request: HttpRequest, code: str) -> HttpResponse:
    """``GET /live/<code>/``: the table's events (``text/event-stream``); 404 or 410 when
    the table is unknown or has ended, 503 where streams are not served (pages poll)."""
    on_loop = isinstance(request, ASGIRequest)
    if not on_loop and not settings.LIVE_STREAMS_ON_THREADS:
        return _refusal(503, "live-off")
    try:
        session = live_session(request, normalize_code(code))
    except TableGone as gone:
        return _refusal(410 if gone.expired else 404, "table-ended" if gone.expired else "table-unknown")
    since = _parse_mark(request.headers.get("Last-Event-ID")) or _parse_mark(request.GET.get("since"))
    follow = _Follow(since)
    events = _on_loop(session.code, follow) if on_loop else _on_threads(session.code, follow)
    response = StreamingHttpResponse(events, content_type="text/event-stream; charset=utf-8")
    response["Cache-Control"] = "no-store"
    response["X-Accel-Buffering"] = "no"  # nginx passes each event on at once
    return response
