"""Tables' live streams as deployed: nginx in front, gunicorn with three workers answering the
moves, the ASGI stream process (two workers) holding the streams, Redis between them.

A move answered by any gunicorn worker reaches every stream, whichever stream worker holds
it; a stream worker killed while guests follow costs them a reconnect (Last-Event-ID) and no
move; gunicorn itself never holds a stream; with Redis gone the streams say ``down`` (the
pages then poll) and come back with it; each stream worker subscribes once, while it holds
streams."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import time
from collections import Counter

import pytest
import redis

from harness import Browser, RedisServer, serve_behind_nginx
from live_clients import Follower
from processes import wait_for


@pytest.fixture(scope="module")
def proxy(bare_release):
    with serve_behind_nginx(bare_release, workers=3, streams=2) as running:
        yield running


def _busiest(streams) -> int:
    """The stream worker (a child of its gunicorn arbiter) holding the most connections."""
    held = subprocess.run(["ss", "-Htnp", "state", "established", f"( sport = :{streams.port} )"],
                          capture_output=True, text=True, check=True).stdout
    counts = Counter(int(pid) for pid in re.findall(r"pid=(\d+)", held))
    workers = streams.workers()
    assert workers and counts, (workers, held)
    return max(workers, key=lambda pid: counts.get(pid, 0))


def _table(proxy, client: str) -> tuple[Browser, str]:
    presenter = Browser(proxy, client)
    return presenter, presenter.start_table()


def _move(presenter: Browser, code: str, to: int, version: int) -> None:
    status, _headers, body = presenter.request("POST", f"/en/teach/{code}/go/",
                                               {"to": str(to), "v": str(version)})
    assert status == 302, body[-2000:]


def _mark(proxy, code: str) -> str:
    """The table's mark as a new stream says it first."""
    follower = Follower(proxy, code, "127.0.9.9").start()
    try:
        deadline = time.monotonic() + 10
        while not follower.events and time.monotonic() < deadline:
            time.sleep(0.02)
        assert follower.events, follower.statuses
        return follower.events[0].id
    finally:
        follower.stop()


def test_moves_reach_every_stream_and_a_killed_stream_worker_costs_no_move(proxy):
    presenter, code = _table(proxy, "127.0.8.1")
    followers = [Follower(proxy, code, f"127.0.8.{10 + i}").start() for i in range(8)]
    try:
        first = _mark(proxy, code)
        for f in followers:
            assert f.wait_for(first), (f.statuses, f.events)
        version = int(first.split(".")[0])
        for to in range(1, 7):
            if to == 4:  # the stream worker holding the most streams dies while the guests follow
                os.kill(_busiest(proxy.streams), signal.SIGKILL)
            _move(presenter, code, to, version)
            version += 1
            time.sleep(0.3)
        final = _mark(proxy, code)
        assert final.startswith(f"{version}.")
        for f in followers:
            assert f.wait_for(final, timeout=15), (f.statuses, [e.id for e in f.events])
            ids = [e.id for e in f.events if e.id]
            versions = [int(i.split(".")[0]) for i in ids]
            assert versions == sorted(versions), ids  # never back to an older table
            assert all(s == 200 for s in f.statuses), f.statuses
        # the streams on the killed worker reconnected, and each asked from its last mark
        assert sum(f.connections > 1 for f in followers) >= 1, [f.connections for f in followers]
        assert "Traceback" not in proxy.streams.log.read_text(errors="replace")
    finally:
        for f in followers:
            f.stop()


def test_an_event_is_passed_on_at_once_and_quiet_streams_stay_open(proxy):
    presenter, code = _table(proxy, "127.0.8.2")
    follower = Follower(proxy, code, "127.0.8.30").start()
    try:
        first = _mark(proxy, code)
        assert follower.wait_for(first)
        version = int(first.split(".")[0])
        sent = time.monotonic()
        _move(presenter, code, 1, version)
        event = follower.wait_for(f"{version + 1}.0.0", timeout=5)
        assert event is not None and event.arrived - sent < 1.0  # not held in a buffer
    finally:
        follower.stop()


def test_gunicorn_never_holds_a_stream(proxy):
    _presenter, code = _table(proxy, "127.0.8.3")
    status, headers, _body = proxy.server.get(f"/live/{code}/")
    assert status == 503 and headers["Problem-Code"] == "live-off"


def test_with_redis_down_streams_say_so_and_come_back_with_it(bare_release, tmp_path_factory):
    own = RedisServer(tmp_path_factory.mktemp("live-redis"))
    own.start()
    try:
        with serve_behind_nginx(bare_release, workers=2, streams=1,
                                env={"REDIS_URL": f"{own.url}/0"}) as site:
            presenter, code = _table(site, "127.0.8.4")
            follower = Follower(site, code, "127.0.8.40").start()
            try:
                first = _mark(site, code)
                assert follower.wait_for(first)
                own.stop()
                deadline = time.monotonic() + 10
                while not any(e.kind == "down" for e in follower.events) and time.monotonic() < deadline:
                    time.sleep(0.05)
                assert any(e.kind == "down" for e in follower.events), [e.kind for e in follower.events]
                # the move is made all the same (the pages that poll see it)
                _move(presenter, code, 1, int(first.split(".")[0]))
                own.start()
                # back: a stream that reconnects hears the move it missed
                moved = f"{int(first.split('.')[0]) + 1}.0.0"
                assert follower.wait_for(moved, timeout=15), [(e.kind, e.id) for e in follower.events]
                # the stream worker's one subscription, which its first stream started
                assert redis.Redis.from_url(own.url).pubsub_numpat() == 1
            finally:
                follower.stop()
            # the last stream gone, its subscription ends with it
            wait_for(lambda: redis.Redis.from_url(own.url).pubsub_numpat() == 0, 10,
                     "the stream worker still subscribes with no stream left")
    finally:
        own.stop()
