"""The render children of one starting process (tutorials/rendering/render_children.py): as many
as asked for, under one supervisor, a fresh child for each render, and all of them gone
when the process that started them is killed."""

from __future__ import annotations

import signal
import subprocess
import sys
import time

import pytest
from django.conf import settings

from tests.deploy.processes import alive, wait_for
from tests.deploy.processes import children as children_of

STARTER = """
import sys
from tutorials.rendering import render_children
host = render_children.start_once(int(sys.argv[1]))
print(host.supervisor, flush=True)
sys.stdin.read()
"""


@pytest.fixture
def starter():
    process = subprocess.Popen([sys.executable, "-c", STARTER, "3"], cwd=settings.BASE_DIR,
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    supervisor = int(process.stdout.readline())
    wait_for(lambda: len(children_of(supervisor)) == 3, 60, "the render children did not start")
    yield process, supervisor
    process.kill()
    process.wait()


@pytest.mark.parametrize("how", [signal.SIGKILL, signal.SIGTERM])
def test_the_children_end_with_the_process_that_started_them(starter, how):
    process, supervisor = starter
    children = children_of(supervisor)
    assert all(alive(pid) for pid in [supervisor, *children])
    process.send_signal(how)
    process.wait(timeout=10)
    wait_for(lambda: not any(alive(pid) for pid in [supervisor, *children]), 10,
              "render processes outlived the process that started them")


def test_each_render_has_a_fresh_child_of_the_one_supervisor():
    from tutorials.rendering import pdf, render_children

    first = pdf.render_pdf('<html lang="en"><p>one</p></html>')
    second = pdf.render_pdf('<html lang="en"><p>two</p></html>')
    supervisor = render_children.start_once(settings.RENDER_LIMIT).supervisor
    assert first.pdf.startswith(b"%PDF") and second.pdf.startswith(b"%PDF")
    assert first.pid != second.pid
    assert first.niceness == second.niceness == 19
    # the supervisor has replaced the children that rendered: as many as the limit again
    wait_for(lambda: len(children_of(supervisor)) == settings.RENDER_LIMIT
             and first.pid not in children_of(supervisor), 10, "the children were not replaced")


def test_a_child_whose_worker_went_away_stops_rendering():
    from tutorials.rendering import render_children

    supervisor = render_children.start_once(settings.RENDER_LIMIT).supervisor
    wait_for(lambda: len(children_of(supervisor)) == settings.RENDER_LIMIT, 60, "no render children")
    before = set(children_of(supervisor))
    # long enough to keep a child busy for many seconds
    pending = render_children.submit("<html lang='en'>" + "<p>Captain Dice, a long page.</p>" * 40000,
                                     {}, settings.RENDER_LIMIT)
    assert not any(pid not in children_of(supervisor) for pid in before)  # nothing done yet
    time.sleep(0.5)
    pending.close()
    closed_at = time.monotonic()
    wait_for(lambda: before - set(children_of(supervisor)), 3, "the child went on rendering for nobody")
    assert time.monotonic() - closed_at < 3
