"""The host's PDF render children under gunicorn: one set for the host (``RENDER_LIMIT``
children under one supervisor, none per worker), and no process left behind when a worker
dies mid-render or when gunicorn's arbiter is killed (tutorials/rendering/render_children.py).

A process belongs to a server when its environment carries that server's ``REDIS_URL`` (a
database number of its own, harness.redis_database): every process the server starts
inherits it, and one left behind keeps it after its parent is gone.
"""

from __future__ import annotations

import os
import pickle
import signal
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
import redis

from harness import Server, fresh_position_pdf, serve
from processes import wait_for

LIMIT = 2


def _processes_of(server: Server) -> set[int]:
    """Every process on the host whose environment carries the server's ``REDIS_URL``."""
    marker = f"REDIS_URL={server.env['REDIS_URL']}\0".encode()
    found = set()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if marker in (entry / "environ").read_bytes() + b"\0":
                    found.add(int(entry.name))
            except (FileNotFoundError, ProcessLookupError, PermissionError):
                continue
    return found


def _parent(pid: int) -> int:
    stat = Path(f"/proc/{pid}/stat").read_text()
    return int(stat.rsplit(")", 1)[1].split()[1])


def _descends_from(pid: int, ancestor: int) -> bool:
    while pid > 1:
        if pid == ancestor:
            return True
        try:
            pid = _parent(pid)
        except FileNotFoundError:
            return False
    return False


def _render_set(server: Server) -> tuple[int, list[int]]:
    found = server.render_processes()
    assert found is not None, "gunicorn's arbiter started no render children"
    return found


def _left_behind(server: Server) -> set[int]:
    """The server's processes that are not the arbiter or below it (zombies aside)."""
    return {pid for pid in _processes_of(server)
            if not _descends_from(pid, server.process.pid) and pid != server.process.pid}


@pytest.fixture
def site(bare_release):
    with serve(bare_release, workers=3, name="render-children",
               env={"DJANGO_RENDER_LIMIT": str(LIMIT), "DJANGO_RENDER_LEASE_SECONDS": "4"}) as server:
        wait_for(lambda: len(_render_set(server)[1]) == LIMIT, 60, "the render children did not start")
        yield server


def test_one_set_of_render_children_for_the_host(site):
    supervisor, children = _render_set(site)
    assert len(children) == LIMIT
    with ThreadPoolExecutor(LIMIT) as pool:
        paths = [fresh_position_pdf(lang) for lang in ("en", "de", "ja", "en")]
        answers = list(pool.map(lambda path: site.get(path, client="198.51.100.9"), paths))
    assert [status for status, _h, _b in answers].count(200) >= 2, [a[0] for a in answers]
    workers = site.workers()
    assert len(workers) == 3 and supervisor not in workers
    for worker in workers:  # no worker keeps render children of its own
        assert Path(f"/proc/{worker}/task/{worker}/children").read_text().split() == []
    supervisor_after, children_after = _render_set(site)
    assert supervisor_after == supervisor and len(children_after) == LIMIT
    for pid in children_after:
        assert os.getpriority(os.PRIO_PROCESS, pid) == 19


def test_a_worker_killed_mid_render_leaves_no_process_behind(site):
    store = redis.Redis.from_url(site.env["REDIS_URL"])
    path = fresh_position_pdf(long=True)
    with ThreadPoolExecutor(1) as pool:
        rendering = pool.submit(site.get, path, client="198.51.100.30")
        keys = wait_for(lambda: store.keys("*render-lease*"), 30, "no render lease was taken")
        holder = int(pickle.loads(store.get(keys[0])).split(":")[0])
        assert holder in site.workers()
        os.kill(holder, signal.SIGKILL)
        with pytest.raises(OSError):  # its client's connection is cut
            rendering.result(timeout=60)
    time.sleep(2)  # what a dead worker leaves would be reparented by now
    assert _left_behind(site) == set()
    # the host's set goes on: the same supervisor and children, renders answered again
    _supervisor, children = _render_set(site)
    assert len(children) == LIMIT
    assert wait_for(lambda: site.get(path, client="198.51.100.31")[0] == 200, 30, "no render after the kill")


def test_killing_the_arbiter_ends_every_render_process(site):
    supervisor, children = _render_set(site)
    ours = _processes_of(site)
    assert {supervisor, *children} <= ours
    site.process.send_signal(signal.SIGKILL)
    site.process.wait(timeout=10)
    # the workers notice their arbiter is gone and exit; the lifeline then ends the rest
    wait_for(lambda: not (_processes_of(site) & ours), 30,
              f"left behind: {sorted(_processes_of(site) & ours)}")
