"""Analyzer speed over HTTP: ``bin/bench-analyzer`` (prints figures; no goal is asserted).

Runs the release steps of docs/production.md and gunicorn with the production settings (DEBUG off,
Redis cache, three workers), then asks for the analyzer page of a full 4x4 battle and,
as the yardstick, the redirect at ``/``: interleaved (page, redirect, page, …) by one
client, 50 times each after a warm-up, and prints the medians and their ratio
(goal: at most 3). ``bin/bench-analyzer N`` takes N of each instead of 50.
"""

from __future__ import annotations

import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "captain.settings")

from harness import release_steps, serve, start_redis  # noqa: E402

PAGE = ("/en/analyze/?pos=Rbgw_11r1.12g2.13g5.14w4-15w1.16b0.22w2.23b4-24r0.25g4.26r5.33w5"
        "-34b1.35b2.36g1.44r2")
YARDSTICK = "/"


def timed(server, path: str, expected: int) -> float:
    """Seconds for one GET of ``path`` (the whole body read); checks the status."""
    started = time.perf_counter()
    status, _headers, body = server.get(path, client="198.18.7.7",
                                        headers={"Accept-Language": "en"})
    elapsed = time.perf_counter() - started
    assert status == expected, (path, status, body[:200])
    return elapsed


def main() -> None:
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 50
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        (folder / "redis").mkdir()
        with start_redis(folder / "redis") as redis_base:
            release = release_steps(folder / "production", redis_base,
                                    f"sqlite:///{folder / 'db.sqlite3'}", prerender=False)
            with serve(release, workers=3, name="bench-analyzer") as server:
                for _ in range(20):  # warm every worker up
                    timed(server, PAGE, 200)
                    timed(server, YARDSTICK, 302)
                page, redirect = [], []
                for _ in range(count):
                    page.append(timed(server, PAGE, 200))
                    redirect.append(timed(server, YARDSTICK, 302))
    page_ms, redirect_ms = statistics.median(page) * 1000, statistics.median(redirect) * 1000
    print(f"analyzer page (full 4x4 battle): median {page_ms:6.1f} ms ({count} requests)")
    print(f"redirect at /:                   median {redirect_ms:6.1f} ms ({count} requests, interleaved)")
    print(f"ratio: {page_ms / redirect_ms:.2f} (goal: at most 3)")


if __name__ == "__main__":
    main()
