"""What the site's benches print about worker CPU per request (tests/deploy/bench_figures.py);
the load and spread themselves: tests/engine/test_bench_figures.py."""

from __future__ import annotations

import os
import time
from concurrent.futures import ThreadPoolExecutor

import pytest

from bench_figures import Workers, cpu_lines, spread_of


def _spin(seconds: float) -> None:
    until = time.thread_time() + seconds
    while time.thread_time() < until:
        pass


class _Server:
    """A server whose one worker is this process: a GET spends ``spend`` seconds of CPU in a
    thread of ``pool``, as a gthread worker answers in a thread of its pool."""

    def __init__(self, pool: ThreadPoolExecutor, spend: float, status: int = 200) -> None:
        self.pool, self.spend, self.status, self.sent = pool, spend, status, []

    def workers(self) -> list[int]:
        return [os.getpid()]

    def get(self, path, *, client, headers):
        self.sent.append((path, client, headers))
        self.pool.submit(_spin, self.spend).result()
        return self.status, {}, b"ok"


def test_a_request_costs_what_the_workers_spent_answering_it():
    with ThreadPoolExecutor(1) as pool:
        cheap, dear = _Server(pool, 0.002), _Server(pool, 0.012)
        pool.submit(_spin, 0).result()  # the pool's thread is there before the first reading
        small = Workers(cheap, client="198.18.0.1", headers={"Accept-Encoding": "gzip"}).measure("/healthz")
        large = Workers(dear, client="198.18.0.1", headers={"Accept-Encoding": "gzip"}).measure(
            "/page", {"HX-Request": "true"})
    assert 2 <= small.cpu_ms < 10 and small.seconds > 0
    assert 12 <= large.cpu_ms < 24
    assert cheap.sent == [("/healthz", "198.18.0.1", {"Accept-Encoding": "gzip"})]
    assert dear.sent == [("/page", "198.18.0.1", {"Accept-Encoding": "gzip", "HX-Request": "true"})]


def test_a_worker_replaced_meanwhile_counts_nothing():
    """gunicorn replaces a worker after ``max_requests``: the new one's start is not the
    request's cost, nor is the old one's CPU a negative one."""
    with ThreadPoolExecutor(1) as pool:
        server = _Server(pool, 0.004)
        pool.submit(_spin, 0).result()
        pids = iter([[os.getpid(), 1], [os.getpid(), os.getppid()]])
        server.workers = lambda: next(pids)
        assert 4 <= Workers(server).cost("/healthz") < 8


def test_a_refused_request_is_no_figure():
    with pytest.raises(AssertionError, match="503"), ThreadPoolExecutor(1) as pool:
        Workers(_Server(pool, 0, status=503)).cost("/healthz")


def test_cpu_lines_give_quartiles_and_each_ratio_to_the_yardstick_beside_its_goal():
    series = {"/healthz": [1.0, 1.0, 1.0], "page": [2.0, 3.0, 4.0], "panel": [5.0, 5.0, 5.0],
              "other": [0.5, 0.5]}
    lines = cpu_lines(series, "/healthz", {"page": 3, "panel": 4}, units={"other": "games"})
    assert lines[0] == "worker CPU per request, ms: median [first-third quartile]"
    assert lines[1] == "  /healthz:    1.00 [1.00-1.00] (3 requests)"
    assert lines[2] == "  page:        3.00 [2.00-4.00] (3 requests)  ratio  3.00 (goal: at most 3: met)"
    assert lines[3].endswith("ratio  5.00 (goal: at most 4: MISSED)")
    assert lines[4] == "  other:       0.50 [0.50-0.50] (2 games)  ratio  0.50"
    assert spread_of(series) == ["page"]
