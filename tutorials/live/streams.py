"""Live streams (server-sent events): a page hears the moment what it shows has changed.

A *topic* on the live bus (:mod:`tutorials.live.bus`: a table) has a *mark*,
a few counters that only go up (a version and the like), read from the database by the
caller's ``current``. A stream says the mark first when it is news to the page, then a new
event whenever a message on its topic brings a mark the stream has not passed on (or one
sent ``always``): the event's id is the mark, ``<n>.<n>…``. Events are nudges: the page
then asks for what it shows, as its poll did, so every page still gets only its own view.

A stream that reconnects sends the last mark it had (``Last-Event-ID``, or ``?since=``
from a page that opens a new stream): when the topic has moved on meanwhile, the first
event says so at once. The stream says ``down`` and ends when the bus is lost (pages then
poll as before and say so, static/js/live.js), ``gone`` when the topic is; every few seconds
it sends a heartbeat (``beat``), so that nginx and phones' networks keep it open and the page
knows it still hears the stream; it ends itself
after :data:`STREAM_SECONDS`, and the browser opens the next one.

Streams are served by ASGI only, thousands on one event loop: the stream process in
production (gunicorn's asyncio worker, ``captain.asgi``, docs/production.md), and the
development server (``bin/serve``). A stream that reaches the WSGI site (gunicorn's threads,
which it would hold for minutes) is refused with 503, and its page polls.
"""

from __future__ import annotations

import time
from collections.abc import AsyncIterator, Callable

from asgiref.sync import sync_to_async
from django.core.handlers.asgi import ASGIRequest
from django.http import HttpRequest, HttpResponse, StreamingHttpResponse

from tutorials.live import bus

#: seconds between two heartbeats on a quiet stream (nginx drops a proxied connection
#: silent for 60 s; phones' networks drop idle ones sooner)
HEARTBEAT_SECONDS = 15

#: a stream ends after this many seconds and the browser opens the next one with its last
#: mark: no connection outlives what it follows by long, and none is held forever
STREAM_SECONDS = 600

#: what the browser waits before it reconnects a stream that ended (milliseconds)
RECONNECT_MS = 1000

Mark = tuple[int, ...]


def mark_text(mark: Mark) -> str:
    return ".".join(map(str, mark))


def parse_mark(text: str | None, size: int) -> Mark | None:
    """The mark of ``size`` counters written as ``text``, or ``None``."""
    parts = (text or "").strip().split(".")
    if len(parts) == size and all(p.isdigit() and len(p) <= 9 for p in parts):
        return tuple(int(p) for p in parts)
    return None


def message(mark: Mark, always: bool = False) -> dict:
    """What the bus carries for ``mark`` (:func:`~tutorials.live.bus.publish`)."""
    return {"m": list(mark), "a": always}


# --- the stream ---------------------------------------------------------------------------
DOWN_EVENT = "event: down\ndata: {}\n\n"
GONE_EVENT = "event: gone\ndata: {}\n\n"
#: a heartbeat is an event of its own kind, which a page hears (a comment line it would not)
#: without asking for anything: a stream that has said nothing for a few beats is cut off
HEARTBEAT = "event: beat\ndata: \n\n"


class _Follow:
    """What one stream says: an event only for a mark it has not passed on yet, ``down``
    when the bus is lost, ``gone`` when the table is; ``ended`` once it has nothing more to
    say."""

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
        if isinstance(found, list) and found and all(type(n) is int for n in found):
            return self.event(tuple(found), always=message.get("a") is True)
        return None

    def event(self, mark: Mark, always: bool = False) -> str | None:
        """The event for ``mark`` when it is news to this stream (or ``always``), else ``None``."""
        if self.said is not None and len(mark) != len(self.said):
            return None  # not this topic's kind of mark
        seen = self.said is not None and all(now <= said for now, said in zip(mark, self.said, strict=True))
        if seen and not always:
            return None
        self.said = mark if self.said is None else tuple(map(max, mark, self.said))
        text = mark_text(self.said)
        return f"id: {text}\ndata: {text}\n\n"


async def _events(topic: str, current: Callable[[], Mark | None], follow: _Follow,
                  here: Callable[[bool], None] | None) -> AsyncIterator[str]:
    """What the stream sends, on the event loop of the ASGI server holding it; ``here``
    once it is open (``True``) and with every heartbeat (``False``)."""
    yield follow.prelude()
    try:
        async with bus.listen(topic) as inbox:
            said = follow.opened(await sync_to_async(current)())
            if here is not None and not follow.ended:
                await sync_to_async(here)(True)
            end = time.monotonic() + STREAM_SECONDS
            while True:
                if said:
                    yield said
                if follow.ended or time.monotonic() >= end:
                    return
                said = follow.on(await inbox.get(HEARTBEAT_SECONDS))
                if said is HEARTBEAT and here is not None:
                    await sync_to_async(here)(False)
    except bus.BusDown:
        yield DOWN_EVENT


def refusal(status: int, code: str) -> HttpResponse:
    """A stream refused: ``status`` and its ``Problem-Code`` (EventSource gives up on it)."""
    response = HttpResponse(status=status, content_type="text/plain; charset=utf-8")
    response["Problem-Code"] = code
    response["Cache-Control"] = "no-store"
    return response


def served_here(request: HttpRequest) -> bool:
    """Whether this server holds streams: an ASGI server does, the WSGI site never."""
    return isinstance(request, ASGIRequest)


def event_stream(request: HttpRequest, topic: str, current: Callable[[], Mark | None],
                 size: int, here: Callable[[bool], None] | None = None) -> HttpResponse:
    """The stream of ``topic``, whose marks have ``size`` counters and are read by
    ``current`` (``None``: the topic is gone); ``here`` tells the topic that its reader is
    there, once the stream is open (``here(True)``) and every :data:`HEARTBEAT_SECONDS`
    (``here(False)``): a page that hears its events asks nothing while nothing changes, so
    the stream says it for it."""
    since = (parse_mark(request.headers.get("Last-Event-ID"), size)
             or parse_mark(request.GET.get("since"), size))
    response = StreamingHttpResponse(_events(topic, current, _Follow(since), here),
                                     content_type="text/event-stream; charset=utf-8")
    response["Cache-Control"] = "no-store"
    response["X-Accel-Buffering"] = "no"  # nginx passes each event on at once
    return response
