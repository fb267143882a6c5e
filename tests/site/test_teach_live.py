"""A table's live stream (/live/<code>/), served as the ASGI servers serve it: a move, a seat,
a card reach an open stream as an event whose id is the table's mark; a stream that
reconnects with Last-Event-ID hears only what it missed; a stream whose page has gone leaves
the bus; refusals and the bus going down are said, never a hang.

Each stream runs through Django's ASGI handler on the test's event loop (asgiref's
``ApplicationCommunicator`` stands for the server), and the moves are made through
``AsyncClient``, whose synchronous views run on asgiref's threads, as on the development
server: the bus within one process hands each move over to the loop.

Each test runs on a thread of its own (:func:`own_thread`), its coroutines on a loop of their
own there: in a test process that has also run the browser tests, Playwright's synchronous
API keeps an event loop marked running on the main thread, where no other loop may run and
Django's ``async_to_sync`` refuses to."""

from __future__ import annotations

import asyncio
import functools
import inspect
import re
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta

import pytest
from asgiref.sync import sync_to_async
from asgiref.testing import ApplicationCommunicator
from django.core.handlers.asgi import ASGIHandler
from django.test import AsyncClient, Client
from django.utils import timezone

from tutorials.live import bus, streams
from tutorials.models import Table, TableGuest
from tutorials.teach import live

pytestmark = pytest.mark.django_db(transaction=True)

#: seconds a stream may take to say its next line (a heartbeat comes every 50 ms here)
WAIT = 5


def own_thread(test):
    """``test`` run on a thread of its own, a coroutine function on a new event loop there."""
    @functools.wraps(test)
    def run(*args, **kwargs):
        call = (lambda: asyncio.run(test(*args, **kwargs))) if inspect.iscoroutinefunction(test) \
            else (lambda: test(*args, **kwargs))
        with ThreadPoolExecutor(1) as thread:
            return thread.submit(call).result()
    return run


async def _start(client: AsyncClient) -> Table:
    response = await client.post("/en/teach/", {"players": "4", "mode": "action", "script": "quick"})
    assert response.status_code == 302
    return await Table.objects.aget(code=response["Location"].rstrip("/").split("/")[-1])


async def _mark(table: Table) -> str:
    return ".".join(map(str, await sync_to_async(live._current)(table.code)))


async def _event(table: Table) -> str:
    mark = await _mark(table)
    return f"id: {mark}\ndata: {mark}\n\n"


class Stream:
    """An open stream read chunk by chunk, as a browser's EventSource would, from the ASGI
    application as a server runs it: a disconnect ends it."""

    def __init__(self, client: AsyncClient, code: str, query: str = "", **headers: str) -> None:
        sent = [(b"host", b"testserver"), *((k.lower().encode(), v.encode()) for k, v in headers.items())]
        sent += [(b"cookie", "; ".join(f"{c.key}={c.value}" for c in client.cookies.values()).encode())]
        self.app = ApplicationCommunicator(ASGIHandler(), {
            "type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "GET",
            "scheme": "http", "path": f"/live/{code}/", "raw_path": f"/live/{code}/".encode(),
            "query_string": query.lstrip("?").encode(), "root_path": "", "headers": sent,
            "client": ("127.0.0.1", 50000), "server": ("testserver", 80)})

    async def open(self) -> Stream:
        await self.app.send_input({"type": "http.request", "body": b"", "more_body": False})
        start = await self.app.receive_output(WAIT)
        assert start["type"] == "http.response.start" and start["status"] == 200, start
        assert dict(start["headers"])[b"Content-Type"].startswith(b"text/event-stream")
        return self

    async def next(self) -> str:
        """The next chunk; ``""`` once the stream has ended."""
        sent = await self.app.receive_output(WAIT)
        assert sent["type"] == "http.response.body", sent
        self.open_still = sent.get("more_body", False)
        return sent.get("body", b"").decode()

    async def said(self) -> str:
        """The next chunk that is not a heartbeat (the stream runs on while the test makes
        its moves, and says one whenever a beat passes quietly)."""
        while (chunk := await self.next()) == streams.HEARTBEAT:
            pass
        return chunk

    async def ended(self) -> bool:
        """Whether the stream ends now, saying nothing more."""
        return await self.next() == "" and not self.open_still

    async def close(self) -> None:
        """The page goes away: the server tells the application, which ends the stream."""
        await self.app.send_input({"type": "http.disconnect"})
        await self.app.wait(WAIT)


@pytest.fixture
def quick_beat(monkeypatch):
    """Heartbeats every 50 ms: a stream with nothing to say shows it at once."""
    monkeypatch.setattr(streams, "HEARTBEAT_SECONDS", 0.05)


@own_thread
async def test_a_move_a_seat_and_a_card_each_reach_an_open_stream_at_once(async_client, quick_beat):
    table = await _start(async_client)
    stream = await Stream(async_client, table.code).open()
    assert await stream.next() == f"retry: {streams.RECONNECT_MS}\n\n"
    # a stream that says no mark hears where the table is, first of all
    assert await stream.next() == await _event(table)
    assert bus.listening(live.topic(table.code)) == 1

    moved = await async_client.post(f"/en/teach/{table.code}/go/", {"to": "1", "v": str(table.version)})
    assert moved.status_code == 302
    await table.arefresh_from_db()
    event = await stream.said()
    assert event == await _event(table) and event.startswith(f"id: {table.version}.")

    guest = AsyncClient()
    await guest.get(f"/en/t/{table.code}/")
    assert (await guest.post(f"/en/t/{table.code}/seat/", {"do": "take", "at": "red"})).status_code == 302
    seated = await stream.said()
    await table.arefresh_from_db()
    assert seated == await _event(table) and table.seating >= 1

    await stream.close()
    assert bus.listening(live.topic(table.code)) == 0  # a closed stream leaves the bus


@own_thread
async def test_a_stream_that_reconnects_hears_only_what_it_missed(async_client, quick_beat):
    table = await _start(async_client)
    seen = await _mark(table)
    # nothing happened since: the stream only keeps the line open
    stream = await Stream(async_client, table.code, **{"Last-Event-ID": seen}).open()
    assert (await stream.next()).startswith("retry:")
    assert await stream.next() == streams.HEARTBEAT
    await stream.close()
    # two moves while it was away: one event, where the table is now
    for to in (1, 2):
        await table.arefresh_from_db()
        moved = await async_client.post(f"/en/teach/{table.code}/go/",
                                        {"to": str(to), "v": str(table.version)})
        assert moved.status_code == 302
    stream = await Stream(async_client, table.code, **{"Last-Event-ID": seen}).open()
    await stream.next()
    assert await stream.next() == await _event(table)
    assert await stream.next() == streams.HEARTBEAT
    await stream.close()
    # a page opening a new stream may name its mark in the address instead
    stream = await Stream(async_client, table.code, f"?since={await _mark(table)}").open()
    await stream.next()
    assert await stream.next() == streams.HEARTBEAT
    await stream.close()


@own_thread
async def test_an_unknown_or_ended_table_is_refused(async_client):
    unknown = await async_client.get("/live/ZZZZZ/")
    assert unknown.status_code == 404 and unknown["Problem-Code"] == "table-unknown"
    table = await _start(async_client)
    await Table.objects.filter(pk=table.pk).aupdate(expires_at=table.created_at)
    ended = await async_client.get(f"/live/{table.code}/")
    assert ended.status_code == 410 and ended["Problem-Code"] == "table-ended"


@own_thread
def test_the_wsgi_site_holds_no_stream(client):
    """gunicorn's threads are never held by a stream: a stream that reaches it is refused, and
    its page polls."""
    response = client.post("/en/teach/", {"players": "4", "mode": "action"})
    code = response["Location"].rstrip("/").split("/")[-1]
    off = Client().get(f"/live/{code}/")
    assert off.status_code == 503 and off["Problem-Code"] == "live-off"


@own_thread
async def test_with_redis_unreachable_the_stream_says_so_and_ends(async_client, settings, monkeypatch):
    table = await _start(async_client)
    settings.REDIS_URL = "redis://127.0.0.1:1/0"  # where no Redis answers
    monkeypatch.setattr(bus, "SUBSCRIBE_WAIT", 0.3)
    stream = await Stream(async_client, table.code).open()
    assert (await stream.next()).startswith("retry:")
    assert await stream.next() == streams.DOWN_EVENT
    assert await stream.ended()
    await stream.app.wait(WAIT)
    # nothing is left listening, and no subscription goes on trying for nobody
    assert bus.listening(live.topic(table.code)) == 0 and asyncio.get_running_loop() not in bus._hubs


@own_thread
async def test_a_bus_lost_while_streaming_ends_the_stream_with_down(async_client, quick_beat):
    table = await _start(async_client)
    stream = await Stream(async_client, table.code).open()
    await stream.next()
    await stream.next()
    bus._hubs[asyncio.get_running_loop()].tell_all(bus.DOWN)
    assert await stream.next() == streams.DOWN_EVENT
    assert await stream.ended()
    await stream.app.wait(WAIT)


@own_thread
async def test_a_projector_opening_reaches_the_streams_though_the_table_did_not_move(async_client,
                                                                                  quick_beat):
    table = await _start(async_client)
    mark = await _mark(table)
    stream = await Stream(async_client, table.code, **{"Last-Event-ID": mark}).open()
    await stream.next()
    assert await stream.next() == streams.HEARTBEAT
    assert (await async_client.get(f"/en/teach/{table.code}/screen/")).status_code == 200
    assert await stream.said() == f"id: {mark}\ndata: {mark}\n\n"  # the presenter's page asks at once
    # a projector that stays open says nothing more: the next event is the next move's
    again = await async_client.get(f"/en/teach/{table.code}/screen/", headers={"HX-Request": "true"})
    assert again.status_code == 200
    moved = await async_client.post(f"/en/teach/{table.code}/go/", {"to": "1", "v": str(table.version)})
    assert moved.status_code == 302
    await table.arefresh_from_db()
    assert await stream.said() == await _event(table) != f"id: {mark}\ndata: {mark}\n\n"
    await stream.close()


@own_thread
async def test_a_guests_stream_tells_the_table_the_guest_is_still_there(async_client, quick_beat):
    table = await _start(async_client)
    guest = AsyncClient()
    await guest.get(f"/en/t/{table.code}/")
    followed = TableGuest.objects.filter(session=table)
    assert not await followed.aexists(), "a guest counts from the first request with its cookie"
    # the page asks nothing while nothing is new: its stream says it is there, once open...
    stream = await Stream(guest, table.code).open()
    assert (await stream.next()).startswith("retry:")
    assert await stream.next() == await _event(table)
    assert await followed.aexists()
    long_ago = timezone.now() - timedelta(hours=1)
    # ...and while it stays open
    await followed.aupdate(seen_at=long_ago)
    for _beat in range(20):  # (a beat may have been on its way before the update)
        assert await stream.next() == streams.HEARTBEAT
        if (await followed.aget()).seen_at > long_ago:
            break
    assert (await followed.aget()).seen_at > long_ago
    await stream.close()


def test_marks_are_news_only_when_something_moved_on():
    follow = streams._Follow((5, 2, 7))
    assert follow.event((5, 2, 7)) is None
    assert follow.event((4, 2, 7)) is None  # an older nudge arriving late
    assert follow.event((5, 3, 7)) == "id: 5.3.7\ndata: 5.3.7\n\n"
    assert follow.event((6, 3, 7)) == "id: 6.3.7\ndata: 6.3.7\n\n"
    assert follow.opened(None) == streams.GONE_EVENT and follow.ended
    assert streams._Follow(None).on({"m": [1, "2", 3]}) is None  # not a mark: nothing said
    assert streams.parse_mark("12.0.3", 3) == (12, 0, 3)
    for bad in ("", "12", "12.0", "a.b.c", "1.2.3.4", "9" * 12 + ".0.0", None):
        assert streams.parse_mark(bad, 3) is None, bad


def test_the_pages_that_follow_a_table_name_its_stream(client):
    response = client.post("/en/teach/", {"players": "4", "mode": "action", "script": "quick"})
    code = response["Location"].rstrip("/").split("/")[-1]
    presenter = client.get(f"/en/teach/{code}/").content.decode()
    guest = Client()
    guest_page = guest.get(f"/en/t/{code}/", follow=True).content.decode()
    screen = client.get(f"/en/teach/{code}/screen/").content.decode()
    for page in (presenter, guest_page, screen):
        assert f'data-live-stream="/live/{code}/' in page
        assert re.search(r'hx-trigger="every \d+s, live"[^>]*data-live-target', page)
        assert 'data-live-state hidden' in page and "/js/live." in page
    # a guest's stream starts from the table's mark the page was drawn at: it tells only what is newer
    assert f'data-live-stream="/live/{code}/?since=1.0.0"' in guest_page
