"""A table's live stream (/live/<code>/): a move, a seat, a card entered reach an open stream
as an event whose id is the table's mark; a stream that reconnects with Last-Event-ID hears
only what it missed; refusals and the bus going down are said, never a hang."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from tutorials.live import bus, streams
from tutorials.models import Table
from tutorials.teach import live

pytestmark = pytest.mark.django_db(transaction=True)


def _start(client: Client) -> Table:
    response = client.post("/en/teach/", {"players": "4", "mode": "action", "script": "quick"})
    assert response.status_code == 302
    return Table.objects.get(code=response["Location"].rstrip("/").split("/")[-1])


def _mark(table: Table) -> str:
    return ".".join(map(str, live._current(table.code)))


class Stream:
    """An open stream read chunk by chunk, as a browser's EventSource would."""

    def __init__(self, client: Client, code: str, query: str = "", **headers) -> None:
        self.response = client.get(f"/live/{code}/{query}", headers=headers)
        assert self.response.status_code == 200, self.response.status_code
        assert self.response["Content-Type"].startswith("text/event-stream")
        self.chunks = iter(self.response.streaming_content)

    def next(self) -> str:
        return next(self.chunks).decode()

    def close(self) -> None:
        self.response.close()


@pytest.fixture
def quick_beat(monkeypatch):
    """Heartbeats every 50 ms: a stream with nothing to say shows it at once."""
    monkeypatch.setattr(streams, "HEARTBEAT_SECONDS", 0.05)


def test_a_move_a_seat_and_a_card_each_reach_an_open_stream_at_once(client, quick_beat):
    table = _start(client)
    stream = Stream(client, table.code)
    assert stream.next() == f"retry: {streams.RECONNECT_MS}\n\n"
    # a stream that says no mark hears where the table is, first of all
    assert stream.next() == f"id: {_mark(table)}\ndata: {_mark(table)}\n\n"
    assert bus.listening(live.topic(table.code)) == 1

    assert client.post(f"/en/teach/{table.code}/go/", {"to": "1", "v": str(table.version)}).status_code == 302
    table.refresh_from_db()
    event = stream.next()
    assert event == f"id: {_mark(table)}\ndata: {_mark(table)}\n\n"
    assert event.startswith(f"id: {table.version}.")

    guest = Client()
    guest.get(f"/en/t/{table.code}/")
    assert guest.post(f"/en/t/{table.code}/seat/", {"do": "take", "at": "red"}).status_code == 302
    seated = stream.next()
    table.refresh_from_db()
    assert seated == f"id: {_mark(table)}\ndata: {_mark(table)}\n\n" and table.seating >= 1

    stream.close()
    assert bus.listening(live.topic(table.code)) == 0  # a closed stream leaves the bus


def test_a_stream_that_reconnects_hears_only_what_it_missed(client, quick_beat):
    table = _start(client)
    seen = _mark(table)
    # nothing happened since: the stream only keeps the line open
    stream = Stream(client, table.code, **{"Last-Event-ID": seen})
    assert stream.next().startswith("retry:")
    assert stream.next() == streams.HEARTBEAT
    stream.close()
    # two moves while it was away: one event, where the table is now
    for to in (1, 2):
        table.refresh_from_db()
        moved = client.post(f"/en/teach/{table.code}/go/", {"to": str(to), "v": str(table.version)})
        assert moved.status_code == 302
    table.refresh_from_db()
    stream = Stream(client, table.code, **{"Last-Event-ID": seen})
    stream.next()
    assert stream.next() == f"id: {_mark(table)}\ndata: {_mark(table)}\n\n"
    assert stream.next() == streams.HEARTBEAT
    stream.close()
    # a page opening a new stream may name its mark in the address instead
    stream = Stream(client, table.code, f"?since={_mark(table)}")
    stream.next()
    assert stream.next() == streams.HEARTBEAT
    stream.close()


def test_an_unknown_or_ended_table_and_a_server_without_streams_are_refused(client, settings):
    unknown = client.get("/live/ZZZZZ/")
    assert unknown.status_code == 404 and unknown["Problem-Code"] == "table-unknown"
    table = _start(client)
    Table.objects.filter(pk=table.pk).update(expires_at=table.created_at)
    ended = client.get(f"/live/{table.code}/")
    assert ended.status_code == 410 and ended["Problem-Code"] == "table-ended"
    # gunicorn in production: its threads are never held by streams; the page polls
    settings.LIVE_STREAMS_ON_THREADS = False
    table = _start(client)
    off = client.get(f"/live/{table.code}/")
    assert off.status_code == 503 and off["Problem-Code"] == "live-off"


def test_with_the_bus_down_the_stream_says_so_and_ends(client, monkeypatch):
    table = _start(client)

    def refuse(*_args):
        raise bus.BusDown("Redis cannot be reached")

    monkeypatch.setattr(bus._hub, "add", refuse)
    stream = Stream(client, table.code)
    assert stream.next().startswith("retry:")
    assert stream.next() == streams.DOWN_EVENT
    with pytest.raises(StopIteration):
        stream.next()


def test_a_bus_lost_while_streaming_ends_the_stream_with_down(client, quick_beat):
    table = _start(client)
    stream = Stream(client, table.code)
    stream.next()
    stream.next()
    bus._hub._tell_all(bus.DOWN)
    assert stream.next() == streams.DOWN_EVENT
    with pytest.raises(StopIteration):
        stream.next()


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
    table = _start(client)
    presenter = client.get(f"/en/teach/{table.code}/").content.decode()
    guest = Client()
    guest_page = guest.get(f"/en/t/{table.code}/", follow=True).content.decode()
    screen = client.get(f"/en/teach/{table.code}/screen/").content.decode()
    for page in (presenter, guest_page, screen):
        assert f'data-live-stream="/live/{table.code}/"' in page
        assert re.search(r'hx-trigger="every \d+s, live"[^>]*data-live-target', page)
        assert 'data-live-state hidden' in page and "/js/live." in page


def test_a_projector_opening_reaches_the_streams_though_the_table_did_not_move(client, quick_beat):
    table = _start(client)
    mark = _mark(table)
    stream = Stream(client, table.code, **{"Last-Event-ID": mark})
    stream.next()
    assert stream.next() == streams.HEARTBEAT
    assert client.get(f"/en/teach/{table.code}/screen/").status_code == 200
    assert stream.next() == f"id: {mark}\ndata: {mark}\n\n"  # the presenter's page asks at once
    # a projector that stays open says nothing more
    assert client.get(f"/en/teach/{table.code}/screen/", headers={"HX-Request": "true"}).status_code == 200
    assert stream.next() == streams.HEARTBEAT
    stream.close()
