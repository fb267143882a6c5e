"""Two application hosts behind one nginx (docs/production.md, "More than one host").

Each host runs its own gunicorn site, its own ASGI stream process and its own render pool
on ports of its own; both share the release (PostgreSQL,
the secret key) and one Redis database, and nginx's upstream blocks name both
(``manage.py nginx_site --upstream A --upstream B``).

A presenter on one host and guests on the other see every move. One host stopped mid-table
(``systemctl stop`` of both its units): the guests' streams that it held open again on the
other host and every move made after the stop reaches every guest; no page a guest asks for
meanwhile gets anything but 200 (nginx sends a GET that the stopped host could not take to
the other host). Each host keeps its own render limit.
"""

from __future__ import annotations

import http.client
import re
import subprocess
import threading
from collections import Counter
from concurrent.futures import ThreadPoolExecutor

import pytest

from harness import Browser, fresh_position_pdf, serve_behind_nginx
from live_clients import Follower
from operator_load import NORMAL, OperatorLoad
from processes import wait_for


@pytest.fixture(scope="module")
def two_hosts(bare_release):
    with serve_behind_nginx(bare_release, workers=2, streams=1, hosts=2,
                            env={"DJANGO_RENDER_LIMIT": "1"}) as proxy:
        yield proxy


def _mark(follower: Follower) -> str:
    """The table's mark as the follower's stream said it first."""
    wait_for(lambda: follower.events, 30, f"the stream did not begin: {follower.statuses}")
    return follower.events[0].id


def _move(presenter: Browser, code: str, to: int, version: int) -> None:
    status, _headers, body = presenter.request("POST", f"/en/teach/{code}/go/",
                                               {"to": str(to), "v": str(version)})
    assert status == 302, (status, body[-1000:])


def _all_reach(followers: list[Follower], mark: str) -> None:
    for follower in followers:
        assert follower.wait_for(mark, timeout=30), (mark, follower.statuses,
                                                      [e.id for e in follower.events][-5:])


def test_a_presenter_on_one_host_and_guests_on_the_other_see_every_move(two_hosts):
    """Under the operator's load, its presenter on one host and its guests (polling and
    following the stream) on the other; its saves and PDFs through nginx."""
    one, other = two_hosts.hosts
    assert one.streams and other.streams
    with OperatorLoad(two_hosts, presenter_via=one.site, guests_via=other.site,
                      streams_via=other.streams) as load:
        load.wait_for_every_kind()
        load.wait_for_moves(3)
        last = load.moves[-1][0]
        wait_for(lambda: all(max(seen, default=0) >= last for seen in load.seen)
                 and all(f.wait_for(f"{last}.0.0", timeout=0) for f in load.followers), 30,
                 f"the guests did not catch up with the last move: {load.summary()}")
    assert not load.server_errors(), (load.server_errors()[:5], load.summary())
    moved = {version for version, _when in load.moves}
    assert len(moved) >= 3
    for follower in load.followers:
        assert set(follower.statuses) == {200}, follower.statuses
        streamed = {int(e.id.split(".")[0]) for e in follower.events if e.id}  # its version first
        assert moved <= streamed, (sorted(moved - streamed), load.summary())
    for seen in load.seen:
        assert moved <= set(seen), (sorted(moved - set(seen)), load.summary())
    # the site's own refusal of a render (the host's limit) is an answer, not a failure
    assert all(a.status in NORMAL[a.kind] or a.kind == "pdf" and a.status == 503 and a.retry_after
               for a in load.answers), load.summary()


def test_each_host_keeps_its_own_render_limit(two_hosts):
    """Four renders at once through nginx, whose hosts each have a render pool of one worker:
    two are rendered, one by each host's pool, and two are refused with 503 and Retry-After
    (had one host taken both, its pool would have rendered two at once)."""
    paths = [fresh_position_pdf("en", long=True) for _ in range(4)]
    offsets = {host.name: host.pool.log_size() for host in two_hosts.hosts}
    barrier = threading.Barrier(len(paths))

    def ask(index: int):
        barrier.wait(timeout=30)
        return two_hosts.get(paths[index], source=f"127.0.8.{index + 1}", timeout=180)

    with ThreadPoolExecutor(len(paths)) as pool:
        results = list(pool.map(ask, range(len(paths))))
    for status, headers, body in results:
        if status == 503:
            assert int(headers["Retry-After"]) > 0
        else:
            assert status == 200 and body.startswith(b"%PDF"), (status, body[:200])
    assert sorted(status for status, _headers, _body in results) == [200, 200, 503, 503]

    def rendered() -> dict[str, int]:
        # a pool logs a request once it has answered it: wait for the lines
        return {host.name: host.pool.log_since(offsets[host.name]).count("position.pdf")
                for host in two_hosts.hosts}

    wait_for(lambda: sum(rendered().values()) >= 2, 30, f"the pools logged no renders: {rendered()}")
    assert rendered() == {host.name: 1 for host in two_hosts.hosts}


def _guest_pages(proxy, code: str, source: str, stop: threading.Event, answers: Counter) -> None:
    """A guest's page and its poll through nginx, one after another on new connections, until
    ``stop``: every status (or the error a request met) counted in ``answers``."""
    while not stop.is_set():
        for path in (f"/en/t/{code}/", f"/en/t/{code}/poll/"):
            try:
                status, _headers, _body = proxy.get(path, source=source, timeout=60)
                answers[status] += 1
            except (OSError, http.client.HTTPException) as error:
                answers[type(error).__name__] += 1


def test_a_host_stopped_mid_table_costs_its_guests_nothing(bare_release):
    with serve_behind_nginx(bare_release, workers=2, streams=1, hosts=2) as proxy:
        presenter = Browser(proxy, "127.0.7.1")
        code = presenter.start_table()
        # nginx sends the streams to the hosts in turn: four guests, two on each
        followers = [Follower(proxy, code, f"127.0.7.{10 + i}").start() for i in range(4)]
        stop = threading.Event()
        answers = [Counter() for _ in range(3)]
        try:
            version = int(_mark(followers[0]).split(".")[0])
            _all_reach(followers, f"{version}.0.0")
            stopped = proxy.hosts[1]
            assert stopped.streams
            held = _held(stopped.streams.port)
            assert held, "no stream was held by the host about to stop"
            with ThreadPoolExecutor(len(answers)) as pool:
                for i, counted in enumerate(answers):
                    pool.submit(_guest_pages, proxy, code, f"127.0.7.{30 + i}", stop, counted)
                wait_for(lambda: all(sum(c.values()) >= 4 for c in answers), 60, "the guests got no page")
                _move(presenter, code, 1, version)
                version += 1
                _all_reach(followers, f"{version}.0.0")
                # the host goes down as systemctl stop ends its units, while the guests read
                stopped.site.stop()
                stopped.streams.stop()
                for to in (2, 3, 2, 1):
                    _move(presenter, code, to, version)
                    version += 1
                    _all_reach(followers, f"{version}.0.0")
                done = [sum(c.values()) for c in answers]
                wait_for(lambda: all(sum(c.values()) >= n + 4 for c, n in zip(answers, done, strict=True)),
                         60, "the guests got no page from the host left")
                stop.set()
        finally:
            stop.set()
            for follower in followers:
                follower.stop()
        # the streams the stopped host held opened again on the other host
        assert sum(f.connections >= 2 for f in followers) >= len(held), [f.statuses for f in followers]
        for follower in followers:
            assert set(follower.statuses) == {200}, follower.statuses
            versions = [int(e.id.split(".")[0]) for e in follower.events if e.id]
            assert versions == sorted(versions), versions  # never back to an older table
        total = sum(answers, Counter())
        assert set(total) == {200}, total
        served = (proxy.prefix / "access.log").read_text()
        assert not re.search(r'" 5\d\d ', served), [line for line in served.splitlines()
                                                    if re.search(r'" 5\d\d ', line)][:5]
        assert "Traceback" not in proxy.hosts[0].site.log.read_text(errors="replace")


def _held(port: int) -> list[str]:
    """The connections established to ``port`` (nginx's, carrying the streams)."""
    lines = subprocess.run(["ss", "-Htn", "state", "established", f"( sport = :{port} )"],
                           capture_output=True, text=True, check=True).stdout.splitlines()
    return [line for line in lines if line.strip()]

