"""The site's processes as their systemd units run them (templates/deploy/systemd/, written by
``manage.py systemd_units``; the harness starts each with the unit's own ``ExecStart`` and
reloads it with its ``ExecReload``, tests/deploy/harness.py). The units pass
``systemd-analyze verify`` where systemd is installed.

No process of the site outlives its parent: an arbiter killed with SIGKILL leaves no worker
holding the port, and the unit's restart binds it again; the stream process's, under the
operator's load (tests/deploy/operator_load.py), costs no request a 500. A release by the
units' reload, under that load, answers every request (no 502, nothing refused) and loses
no move. Stopping the units ends
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
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from harness import Browser, Server, Unit, serve, serve_behind_nginx, serve_pdf, serve_streams
from operator_load import NORMAL, OperatorLoad
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


def _kill_arbiter(server: Server) -> None:
    """SIGKILL of the unit's main process, then: none of its processes is left and nothing
    listens on its port."""
    def started() -> list[int] | None:
        group = server.group()
        return group if len(group) > 2 else None

    # the arbiter and its workers (forked once it listens)
    group = wait_for(started, 30, "fewer than two workers")
    server.process.kill()
    server.process.wait()
    wait_for(lambda: not server.group(), 30, "processes left behind by the killed arbiter")
    assert not any(alive(pid) for pid in group)
    assert not _listening(server.port)


def test_a_killed_site_arbiter_leaves_no_process_and_the_restart_binds(bare_release):
    with serve(bare_release, workers=2, name="killed-site") as site:
        _kill_arbiter(site)
        # systemd's Restart=on-failure starts the unit again: it binds the same port
        with serve(bare_release, workers=2, name="restarted-site", port=site.port,
                   env={"REDIS_URL": site.env["REDIS_URL"]}) as restarted:
            status, _headers, body = restarted.get("/healthz")
            assert status == 200 and body == b"ok"


def test_a_killed_pool_arbiter_leaves_no_process_and_the_restart_binds(bare_release):
    with serve(bare_release, workers=2, name="pool-site") as site, serve_pdf(site, name="killed") as pool:
        _kill_arbiter(pool)
        with serve_pdf(site, name="restarted", port=pool.port) as restarted:
            status, _headers, body = restarted.get("/healthz")
            assert status == 200 and body == b"ok"


def test_a_killed_stream_arbiter_under_load_leaves_no_process_and_the_restart_binds(bare_release):
    with serve_behind_nginx(bare_release, workers=2, streams=2) as proxy, OperatorLoad(proxy) as load:
        assert proxy.streams
        load.wait_for_every_kind()
        # the stream process's workers hold the followers' streams while their arbiter dies
        _kill_arbiter(proxy.streams)
        # systemd's Restart=on-failure starts the unit again: it binds the same port, and the
        # followers' streams, opened again on it, pass on the next move
        with serve_streams(proxy.server, name="restarted", port=proxy.streams.port) as restarted:
            status, _headers, body = restarted.get("/healthz")
            assert status == 200 and body == b"ok"
            load.wait_for_moves(1)
            mark = load.marks()[-1]
            for follower in load.followers:
                assert follower.wait_for(mark, timeout=30), (mark, follower.statuses, load.summary())
    assert not load.server_errors(), (load.server_errors()[:5], load.summary())
    assert all(a.status in NORMAL[a.kind] for a in load.answers), load.summary()
    # while nothing listened, nginx said so (502) to the streams opened meanwhile: never a 500
    assert all(set(f.statuses) <= {200, 502} and f.connections >= 2 for f in load.followers), load.summary()


def _swapped(server: Server, old: set[int], count: int) -> bool:
    """Whether every old worker is gone and ``count`` new ones run."""
    workers = set(server.workers())
    return not (workers & old) and not any(alive(pid) for pid in old) and len(workers) == count


def test_a_release_by_the_units_reload_answers_every_request(bare_release):
    with serve_behind_nginx(bare_release, workers=2, streams=2) as proxy, OperatorLoad(proxy) as load:
        assert proxy.streams
        load.wait_for_every_kind()
        old_site, old_streams = set(proxy.server.workers()), set(proxy.streams.workers())
        old_pool = set(proxy.pool.workers())
        pool_workers = int(proxy.pool.env.get("DJANGO_RENDER_LIMIT") or os.cpu_count() or 1)
        moves = len(load.moves)
        proxy.server.reload()
        proxy.streams.reload()
        proxy.pool.reload()
        # the load goes on (the presenter moving) while the workers are swapped
        wait_for(lambda: _swapped(proxy.server, old_site, 2) and _swapped(proxy.streams, old_streams, 2)
                 and _swapped(proxy.pool, old_pool, pool_workers), 120, "the workers were not swapped: "
                 f"{proxy.server.workers()}, {proxy.streams.workers()}, {proxy.pool.workers()}")
        # the new workers answer every kind; the streams of the old workers ended, and their
        # browsers opened them again on the new ones, which pass on a move made now
        load.wait_for_every_kind()
        wait_for(lambda: all(f.connections >= 2 for f in load.followers), 30,
                 f"a stream was not opened again: {load.summary()}")
        load.wait_for_moves(1)
        mark = load.marks()[-1]
        for follower in load.followers:
            assert follower.wait_for(mark, timeout=30), (mark, follower.statuses, load.summary())
    assert len(load.moves) >= moves + 1
    assert not load.server_errors(), (load.server_errors()[:5], load.summary())
    assert all(a.status in NORMAL[a.kind] for a in load.answers), load.summary()
    assert all(set(f.statuses) == {200} for f in load.followers), load.summary()
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
