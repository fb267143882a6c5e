"""The render pool behind nginx (gunicorn_pdf.conf.py, captain-pdf.service, docs/production.md):
the site answers a kept PDF itself and hands every render to the pool, which renders it in its
workers at the lowest CPU priority, never in the site's; one render more than the pool has
workers is answered at once with 503, ``Retry-After`` and a page in the reader's language,
while what is kept is still served; a client asking again and again waits its turn at nginx;
a render the pool ends past the render timeout reaches the reader as nginx's page in their
language, not a bare 5xx.
"""

from __future__ import annotations

import os
import re
import signal
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from harness import fresh_position_pdf, serve_behind_nginx
from processes import alive, wait_for
from tutorials.sheets.render import SHEETS
from tutorials.web.proxy_site import ProxySite

LIMIT = 2


def _niceness(pid: int) -> int:
    # /proc/<pid>/stat: the 19th field is the niceness (after the command in parentheses)
    return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[16])


def _cpu_ticks(pid: int) -> int:
    # /proc/<pid>/stat: user and system time (14th and 15th fields), in clock ticks
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])


@pytest.fixture(scope="module")
def proxy(bare_release):
    # the site's gunicorn logs each request too, so a test can tell who answered what
    with serve_behind_nginx(bare_release, workers=2, env={
            "DJANGO_RENDER_LIMIT": str(LIMIT), "DJANGO_RATE_LIMITS": "pdf=100000/m",
            "GUNICORN_CMD_ARGS": "--timeout 120 --access-logfile -"}) as running:
        yield running


def test_pdfs_are_rendered_in_the_pools_workers_at_the_lowest_priority(proxy):
    pool, site = proxy.pool, proxy.server
    assert _niceness(pool.process.pid) == 19 and all(_niceness(pid) == 19 for pid in pool.workers())
    # the site's workers keep the priority they were started with (the tests' own, bin/test)
    assert all(_niceness(pid) == os.nice(0) for pid in site.workers())
    assert len(pool.workers()) == LIMIT
    pool_log, site_log = pool.log_size(), site.log_size()
    path = fresh_position_pdf("en")
    status, headers, body = proxy.get(path)
    assert status == 200 and body.startswith(b"%PDF"), (status, body[:300])
    assert proxy.get("/en/tutorial/")[0] == 200
    # each logs a request once it has answered it
    wait_for(lambda: "position.pdf" in pool.log_since(pool_log), 30, "the pool logged no render")
    wait_for(lambda: "GET /en/tutorial/" in site.log_since(site_log), 30, "the site logged no page")
    # the site handed the render over with an empty answer (X-Accel-Redirect)
    [handed] = [line for line in site.log_since(site_log).splitlines() if "position.pdf" in line]
    assert re.search(r'" 200 (0|-) ', handed), handed


def test_one_pdf_more_than_the_pool_has_workers_is_answered_503_in_the_readers_language(proxy):
    paths = [fresh_position_pdf("de", long=True) for _ in range(LIMIT + 1)]
    barrier = threading.Barrier(len(paths))

    def ask(index: int):
        barrier.wait(timeout=30)
        return proxy.get(paths[index], headers={"Accept-Language": "de"},
                         source=f"127.0.7.{index + 1}", timeout=180)

    with ThreadPoolExecutor(len(paths)) as pool:
        answers = list(pool.map(ask, range(len(paths))))
    statuses = sorted(status for status, _headers, _body in answers)
    assert statuses.count(503) >= 1 and set(statuses) <= {200, 503}, statuses
    for status, headers, body in answers:
        if status == 503:
            assert int(headers["Retry-After"]) > 0 and headers["Content-Language"] == "de"
            assert b'lang="de"' in body and b"Der Server erstellt gerade andere PDFs" in body
        else:
            assert body.startswith(b"%PDF")


def test_a_client_that_keeps_asking_for_pdfs_waits_its_turn(proxy):
    """Refusals cost the refused: one address asking for PDF after PDF, refused or not, is held
    at nginx to ``ProxySite.renders_per_second`` once its first few have passed, and never
    refused for it while it asks one at a time."""
    site = ProxySite(upstreams=("-",), public_host="-")
    rate, passing = site.renders_per_second, site.renders_per_second * 4
    asked = passing + 8
    paths = [fresh_position_pdf("en") for _ in range(asked)]
    started = time.monotonic()
    statuses = [proxy.get(path, source="127.0.8.1", timeout=180)[0] for path in paths]
    # past the first ``passing`` (and the rate's own share of the time they took), each waited
    # for its turn: at least this long in all, however fast the machine
    assert time.monotonic() - started >= (asked - 1 - passing) / rate - 0.5, statuses
    assert set(statuses) <= {200, 503}, statuses


def test_kept_previews_are_served_all_at_once_while_every_worker_renders(proxy):
    """The sheets page's four previews, asked for at once (as a browser does over HTTP/2),
    while each of the pool's workers renders: kept, they never reach the pool."""
    previews = [f"/en/sheets/{name}.png" for name in SHEETS]
    for path in previews:  # rendered and kept, as the release's prerender_sheets keeps them
        assert proxy.get(path, source="127.0.8.3", timeout=180)[0] == 200
    workers = proxy.pool.workers()
    before = {pid: _cpu_ticks(pid) for pid in workers}
    with ThreadPoolExecutor(LIMIT + len(previews)) as clients:
        renders = [clients.submit(proxy.get, fresh_position_pdf("en", long=True), source=f"127.0.8.{10 + i}",
                                  timeout=180) for i in range(LIMIT)]
        wait_for(lambda: all(_cpu_ticks(pid) > before[pid] + 10 for pid in workers), 60,
                 "the pool's workers did not take the renders")
        answers = list(clients.map(lambda path: proxy.get(path, source="127.0.8.2", timeout=180), previews))
        assert all(render.result()[0] == 200 for render in renders)
    assert [status for status, _headers, _body in answers] == [200] * len(previews)
    assert all(body.startswith(b"\x89PNG") for _status, _headers, body in answers)


@pytest.fixture(scope="module")
def impatient(bare_release, tmp_path_factory):
    """A pool whose render timeout is one second (gunicorn ends a worker one to two seconds
    into a request it has not answered), with a sheet cache of its own, empty."""
    with serve_behind_nginx(bare_release, workers=1, env={
            "DJANGO_RENDER_TIMEOUT": "1", "DJANGO_RENDER_LIMIT": "1", "DJANGO_RATE_LIMITS": "pdf=100000/m",
            "DJANGO_SHEET_CACHE_DIR": str(tmp_path_factory.mktemp("impatient") / "sheets")}) as running:
        yield running


def test_a_render_ended_past_the_timeout_is_answered_in_the_readers_language(impatient):
    """A render frozen mid-way (``SIGSTOP``) tells the arbiter nothing more, as one that runs
    too long: past the timeout the arbiter ends it, and nginx answers the reader."""
    pool = impatient.pool
    [worker] = wait_for(lambda: pool.workers() if len(pool.workers()) == 1 else None, 30, "no worker")
    before, offset = _cpu_ticks(worker), pool.log_size()
    with ThreadPoolExecutor(1) as asking:
        asked = asking.submit(impatient.get, "/ja/sheets/rules.pdf?paper=a4",
                              headers={"Accept-Language": "ja"}, timeout=120)
        wait_for(lambda: _cpu_ticks(worker) > before + 10, 60, "the worker did not take the render")
        os.kill(worker, signal.SIGSTOP)
        try:
            wait_for(lambda: "WORKER TIMEOUT" in pool.log_since(offset), 30, "the arbiter let it be")
        finally:
            os.kill(worker, signal.SIGCONT)
        status, headers, body = asked.result(timeout=120)
    assert status == 504, (status, body[:300])
    assert headers["Content-Language"] == "ja" and int(headers["Retry-After"]) > 0
    assert b'lang="ja"' in body and "このPDFの作成に時間がかかりすぎました".encode() in body
    # ended: by its own worker_abort (gunicorn_pdf.conf.py), or by the arbiter's SIGKILL
    # should that come first
    wait_for(lambda: not alive(worker), 30, "the worker that ran past the timeout lives on")
    # the pool goes on: a fresh worker took the ended one's place
    wait_for(lambda: len(pool.workers()) == 1 and worker not in pool.workers(), 30,
             "the pool did not fork a fresh worker")
    assert impatient.get("/healthz")[0] == 200
