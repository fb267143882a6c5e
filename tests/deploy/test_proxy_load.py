"""What one abusive address costs the other readers once nginx is in front (docs/production.md):
nothing they would notice.

Without nginx, 100 sockets trickling their headers or bodies made other readers' pages time
out and got gunicorn workers killed, and 60 already-refused clients of one address pushed a
reader's page from milliseconds to two seconds. Here the same clients (load_clients.py, a
process of their own) run against nginx in rounds, each between two idle stretches, while
one reader asks for a page at a steady pace; its p95 under load must stay within three
times its idle p95 of the same run, no worker may be killed, and the over-long addresses
must get the site's 414 page.
"""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

from harness import serve_behind_nginx

HERE = Path(__file__).resolve().parent
ROUNDS = 3
IDLE_SECONDS, LOAD_SECONDS, WARM_UP_SECONDS = 4.0, 7.0, 1.5
#: one page every this many seconds: well below the per-address rate, so that the reader
#: itself is never held back by it
READER_PACE = 0.05


def _p95(samples: list[float]) -> float:
    return statistics.quantiles(samples, n=20)[-1]


def _read_for(conn, seconds: float, samples: list[float]) -> None:
    """Ask for the tutorial page every READER_PACE seconds for ``seconds``; keep each time."""
    until = time.monotonic() + seconds
    while time.monotonic() < until:
        started = time.perf_counter()
        conn.request("GET", "/en/tutorial/")
        response = conn.getresponse()
        body = response.read()
        samples.append(time.perf_counter() - started)
        assert response.status == 200 and b"<html" in body, (response.status, body[:200])
        time.sleep(max(0.0, READER_PACE - (time.perf_counter() - started)))


def test_slow_clients_refused_bursts_and_long_addresses_cost_other_readers_nothing(bare_release):
    # the failed lookups' limit counts in fixed windows (django-ratelimit): a day's, rather
    # than the ten minutes of production, so that no window ends while the test runs and
    # lets the used-up address look codes up again
    with serve_behind_nginx(bare_release, workers=2, env={"DJANGO_RATE_LIMITS": "code-miss=60/d"}) as proxy:
        workers = sorted(proxy.server.workers())
        log_start = proxy.server.log_size()
        reader = proxy.connection(timeout=30)
        idle: list[float] = []
        loaded: list[float] = []
        results = []
        _read_for(reader, 1.0, [])  # the first pages warm the workers up
        for round_number in range(ROUNDS):
            _read_for(reader, IDLE_SECONDS, idle)
            clients = subprocess.Popen(
                [sys.executable, str(HERE / "load_clients.py"), "--port", str(proxy.port),
                 "--ca", str(proxy.prefix / "tls.crt"), "--seconds", str(LOAD_SECONDS + WARM_UP_SECONDS),
                 "--slow-headers", "50", "--slow-bodies", "50", "--refused", "60", "--long-every", "0.2",
                 *(["--use-up", "61"] if round_number == 0 else [])],
                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            _read_for(reader, WARM_UP_SECONDS, [])
            _read_for(reader, LOAD_SECONDS - 0.5, loaded)
            output, errors = clients.communicate(timeout=60)
            assert clients.returncode == 0, errors
            results.append(json.loads(output))
        reader.close()
        log = proxy.server.log_since(log_start)
        workers_after = sorted(proxy.server.workers())

    idle_p95, loaded_p95 = _p95(idle), _p95(loaded)
    print(f"\nreader's page: idle p95 {idle_p95 * 1000:.1f} ms ({len(idle)} pages), "
          f"under load p95 {loaded_p95 * 1000:.1f} ms ({len(loaded)} pages), "
          f"ratio {loaded_p95 / idle_p95:.2f}; clients got {results}")
    assert loaded_p95 <= 3 * idle_p95, (idle_p95, loaded_p95, results)
    # the clients did what they were meant to: refused, held, answered the site's 414
    first = results[0]
    assert first["used up"].get("404", 0) >= 60 and first["used up"].get("429", 0) >= 1, first
    for result in results:
        assert set(result["refused"]) == {"429"} and sum(result["refused"].values()) >= 60, result
        # each slow socket was held until the round ended, or dropped by nginx's timeouts
        for kind in ("headers", "body"):
            slow = result["slow"]
            assert slow.get(f"{kind} held", 0) + slow.get(f"{kind} closed by the server", 0) >= 50, result
        assert set(result["long"]) == {"414 the site's page"}, result
    assert "WORKER TIMEOUT" not in log and "Booting worker" not in log, log[-2000:]
    assert workers_after == workers, "a worker was restarted"
