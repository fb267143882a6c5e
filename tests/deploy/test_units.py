"""The site's processes as their systemd units run them (templates/deploy/systemd/, written by
``manage.py systemd_units``; the harness starts each with the unit's own ``ExecStart`` and
reloads it with its ``ExecReload``, tests/deploy/harness.py). The units pass
``systemd-analyze verify`` where systemd is installed.

No process of the site outlives its parent: an arbiter killed with SIGKILL leaves no worker
holding the port, and the unit's restart binds it again. A release by the units' reload,
while readers load pages, follow a table's stream and the presenter moves through nginx,
answers every request (no 502, nothing refused) and loses no move. Stopping the units ends
every process of theirs before systemd would have to kill one.
"""

from __future__ import annotations

import contextlib
import http.client
import os
import pwd
import shutil
import socket
import subprocess
import sys
import threading
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from harness import Browser, Server, Unit, serve, serve_behind_nginx, serve_pdf, serve_streams
from live_clients import Follower
from processes import alive, wait_for

SERVICES = ("captain-pdf.service", "captain-site.service", "captain-streams.service")


def test_a_unit_per_process_and_a_target_for_them_all(bare_release):
    units = bare_release.units
    assert sorted(p.name for p in units.iterdir()) == sorted([*SERVICES, "captain-dice.target"])
    target = (units / "captain-dice.target").read_text()
    assert f"Wants={' '.join(SERVICES)}\n" in target and "WantedBy=multi-user.target" in target
    user = pwd.getpwuid(os.geteuid()).pw_name
    for name in SERVICES:
        text, service = (units / name).read_text(), Unit.read(units / name).service
        assert "PartOf=captain-dice.target\n" in text, name
        # the whole group stopped together, restarted on failure, reloaded by gunicorn's HUP
        assert service["KillMode"] == ["control-group"] and service["Restart"] == ["on-failure"], name
        assert service["ExecReload"] == ["/bin/kill -s HUP $MAINPID"], name
        assert service["User"] == service["Group"] == [user], name
        assert service["EnvironmentFile"] == [str(bare_release.tmp / "site.env")], name
        assert service["ExecStart"][0].startswith(f"{sys.prefix}/bin/gunicorn "), name
        assert "{" not in text.replace("${", ""), text  # no template tag left


@pytest.mark.skipif(shutil.which("systemd-analyze") is None,
                    reason="systemd-analyze is not installed (Debian package systemd)")
def test_systemd_analyze_verifies_the_units(bare_release):
    # it checks each setting, and that each command is an executable file
    run = subprocess.run(["systemd-analyze", "verify", *sorted(str(p) for p in bare_release.units.iterdir())],
                         capture_output=True, text=True)
    assert run.returncode == 0 and not run.stderr.strip(), run.stderr


@pytest.mark.parametrize("option, value", [("--user", "www data"), ("--environment-file", "/etc/50%/env"),
                                           ("--site-bind", "127.0.0.1:$PORT"), ("--user", "")])
def test_what_a_unit_file_cannot_hold_is_refused(tmp_path, option, value):
    with pytest.raises(CommandError, match=option.removeprefix("--")):
        call_command("systemd_units", str(tmp_path), option, value)
    assert list(tmp_path.iterdir()) == []


def _listening(port: int) -> bool:
    with socket.socket() as sock:
        return sock.connect_ex(("127.0.0.1", port)) == 0


@contextlib.contextmanager
def _open_stream(streams: Server, code: str):
    """A table's stream held open on the stream process itself, its answer begun."""
    conn = http.client.HTTPConnection("127.0.0.1", streams.port, timeout=30)
    try:
        conn.request("GET", f"/live/{code}/", headers={
            "Host": "127.0.0.1", "X-Forwarded-Proto": "https", "X-Forwarded-For": "127.0.2.9",
            "Accept": "text/event-stream"})
        response = conn.getresponse()
        assert response.status == 200, response.read()[:500]
        assert response.readline()  # the stream has begun
        yield response
    finally:
        conn.close()


@pytest.mark.parametrize("unit", ["site", "streams", "pdf"])
def test_a_killed_arbiter_leaves_no_process_and_the_restart_binds(bare_release, unit):
    with serve(bare_release, workers=2, name=f"killed-{unit}") as site:
        code = Browser(site, "127.0.2.1").start_table()
        with contextlib.ExitStack() as stack:
            server = (site if unit == "site" else stack.enter_context(serve_streams(site, name="killed"))
                      if unit == "streams" else stack.enter_context(serve_pdf(site, name="killed")))
            # the stream process's workers hold streams while their arbiter dies
            for _ in range(2 if unit == "streams" else 0):
                stack.enter_context(_open_stream(server, code))
            def started() -> list[int] | None:
                group = server.group()
                return group if len(group) > 2 else None

            # the arbiter and its workers (forked once it listens)
            group = wait_for(started, 30, f"{unit}: fewer than two workers")
            server.process.kill()
            server.process.wait()
            wait_for(lambda: not server.group(), 30, "processes left behind by the killed arbiter")
            assert not any(alive(pid) for pid in group)
            assert not _listening(server.port)
            # systemd's Restart=on-failure starts the unit again: it binds the same port
            again = (serve(bare_release, workers=2, name=f"restarted-{unit}", port=server.port,
                           env={"REDIS_URL": site.env["REDIS_URL"]})
                     if unit == "site" else serve_streams(site, name="restarted", port=server.port)
                     if unit == "streams" else serve_pdf(site, name="restarted", port=server.port))
            with again as restarted:
                status, _headers, body = restarted.get("/healthz")
                assert status == 200 and body == b"ok"
                if unit == "streams":
                    with _open_stream(restarted, code):
                        pass


def _reader(proxy, source: str, stop: threading.Event, answers: Counter, pdf: bool = False) -> None:
    """Pages one after another, each on a new connection, until ``stop``: every status (or
    the error a request met) counted in ``answers``; with ``pdf``, a sheet from the render
    pool between them (rendered by the first request, kept for the next)."""
    paths = ("/en/tutorial/", "/de/rules/", "/ja/analyze/", "/healthz",
             *(("/de/sheets/reference.pdf",) if pdf else ()))
    while not stop.is_set():
        for path in paths:
            try:
                status, _headers, _body = proxy.get(path, source=source, timeout=60)
                answers[status] += 1
            except (OSError, http.client.HTTPException) as error:
                answers[type(error).__name__] += 1


def _swapped(server: Server, old: set[int], count: int) -> bool:
    """Whether every old worker is gone and ``count`` new ones run."""
    workers = set(server.workers())
    return not (workers & old) and not any(alive(pid) for pid in old) and len(workers) == count


def test_a_release_by_the_units_reload_answers_every_request(bare_release):
    with serve_behind_nginx(bare_release, workers=2, streams=2) as proxy:
        presenter = Browser(proxy, "127.0.3.1")
        code = presenter.start_table()
        followers = [Follower(proxy, code, f"127.0.3.{10 + i}").start() for i in range(3)]
        stop = threading.Event()
        answers = [Counter() for _ in range(4)]
        try:
            first = wait_for(lambda: all(f.events for f in followers) and followers[0].events[0].id, 30,
                             "the followers' streams did not begin")
            version = int(first.split(".")[0])
            with ThreadPoolExecutor(len(answers)) as pool:
                for i, counted in enumerate(answers):
                    pool.submit(_reader, proxy, f"127.0.3.{30 + i}", stop, counted, i == 0)
                wait_for(lambda: all(sum(c.values()) >= 4 for c in answers), 60, "the readers got no answer")
                old_site, old_streams = set(proxy.server.workers()), set(proxy.streams.workers())
                old_pool = set(proxy.pool.workers())
                pool_workers = int(proxy.pool.env.get("DJANGO_RENDER_LIMIT") or os.cpu_count() or 1)
                proxy.server.reload()
                proxy.streams.reload()
                proxy.pool.reload()
                # the presenter goes on moving while the workers are swapped
                moves = 0
                deadline = time.monotonic() + 120
                while not (_swapped(proxy.server, old_site, 2) and _swapped(proxy.streams, old_streams, 2)
                           and _swapped(proxy.pool, old_pool, pool_workers)):
                    assert time.monotonic() < deadline, (proxy.server.workers(), proxy.streams.workers(),
                                                         proxy.pool.workers())
                    moves += 1  # to the next section and back again, as often as it takes
                    status, _headers, body = presenter.request("POST", f"/en/teach/{code}/go/",
                                                               {"to": str(moves % 2), "v": str(version)})
                    assert status == 302, (status, body[-1000:])
                    version += 1
                    time.sleep(0.5)
                # and the new workers answer: every reader gets more pages
                done = [sum(c.values()) for c in answers]
                wait_for(lambda: all(sum(c.values()) >= n + 8 for c, n in zip(answers, done, strict=True)),
                         60, "the readers got no answer from the new workers")
                stop.set()
            # the streams of the old workers ended, and their browsers opened them again on the
            # new ones, which pass on a move made now
            wait_for(lambda: all(f.connections >= 2 for f in followers), 30,
                     f"a stream was not opened again: {[f.statuses for f in followers]}")
            status, _headers, body = presenter.request("POST", f"/en/teach/{code}/go/",
                                                       {"to": str((moves + 1) % 2), "v": str(version)})
            assert status == 302, (status, body[-1000:])
            moved = f"{version + 1}.0.0"  # the table's mark: its version first
            for follower in followers:
                assert follower.wait_for(moved, timeout=30), (follower.statuses, follower.events[-3:])
        finally:
            stop.set()
            for follower in followers:
                follower.stop()
        total = sum(answers, Counter())
        assert set(total) == {200}, total
        statuses = [f.statuses for f in followers]
        assert moves >= 1 and all(set(s) == {200} for s in statuses), statuses
        assert " 502 " not in (proxy.prefix / "access.log").read_text()


def test_stopping_the_units_ends_every_process_in_time(bare_release):
    with serve(bare_release, workers=2, name="stopped") as site, \
            serve_streams(site, name="stopped") as streams, serve_pdf(site, name="stopped") as renders:
        code = Browser(site, "127.0.4.1").start_table()
        with _open_stream(streams, code), _open_stream(streams, code):
            groups = {"site": site.group(), "streams": streams.group(), "pdf": renders.group()}
            # captain-dice.target stops them all at once
            with ThreadPoolExecutor(3) as pool:
                stopped = dict(zip(groups, pool.map(Server.stop, (site, streams, renders)), strict=True))
        for name, group in groups.items():
            assert len(group) > 2, (name, group)
            assert stopped[name].killed == [], (name, stopped[name])
            assert not any(alive(pid) for pid in group), (name, [pid for pid in group if alive(pid)])
        assert not any(_listening(server.port) for server in (site, streams, renders))
