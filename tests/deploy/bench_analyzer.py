"""Analyzer speed over HTTP: ``bin/bench-analyzer`` (prints figures; no goal is asserted).

Runs the release steps of docs/production.md and gunicorn with the production settings (DEBUG off,
Redis cache, three workers), then asks for the analyzer page of a full 4x4 battle, its
what-if panel (the htmx fragment the page asks for once shown) and, as the yardstick, the
trivial view ``/healthz``: interleaved (page, panel, yardstick, page, …) by one client, as
a browser asks (``Accept-Encoding: gzip, br``), 50 times each after a warm-up, and prints
the medians and their ratios (goals: the page at most 3, the panel at most 4).
``bin/bench-analyzer N`` takes N of each instead of 50.
"""

from __future__ import annotations

import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "captain.settings")

from harness import bench_release, serve  # noqa: E402

POSITION = ("Rbgw_11r1.12g2.13g5.14w4-15w1.16b0.22w2.23b4-24r0.25g4.26r5.33w5"
            "-34b1.35b2.36g1.44r2")
PAGE = f"/en/analyze/?pos={POSITION}"
PANEL = f"/en/analyze/what-if/?pos={POSITION}"
YARDSTICK = "/healthz"
BROWSER = {"Accept-Language": "en", "Accept-Encoding": "gzip, br"}

#: What is asked, in the order of each round: (name, address, extra headers).
ASKED = (("analyzer page (full 4x4 battle)", PAGE, {}),
         ("its what-if panel (htmx)", PANEL, {"HX-Request": "true"}),
         ("yardstick /healthz", YARDSTICK, {}))
GOALS = {PAGE: 3, PANEL: 4}


def timed(server, path: str, headers: dict[str, str]) -> float:
    """Seconds for one GET of ``path`` (the whole body read); checks the status."""
    started = time.perf_counter()
    status, _headers, body = server.get(path, client="198.18.7.7", headers={**BROWSER, **headers})
    elapsed = time.perf_counter() - started
    assert status == 200, (path, status, body[:200])
    return elapsed


def main() -> None:
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 50
    times: dict[str, list[float]] = {path: [] for _name, path, _headers in ASKED}
    with bench_release() as release, serve(release, workers=3, name="bench-analyzer") as server:
        for _ in range(20):  # warm every worker up
            for _name, path, headers in ASKED:
                timed(server, path, headers)
        for _ in range(count):
            for _name, path, headers in ASKED:
                times[path].append(timed(server, path, headers))
    medians = {path: statistics.median(values) * 1000 for path, values in times.items()}
    for name, path, _headers in ASKED:
        print(f"{name + ':':<34} median {medians[path]:6.1f} ms ({count} requests, interleaved)")
    for name, path, _headers in ASKED:
        if path in GOALS:
            print(f"ratio, {name}: {medians[path] / medians[YARDSTICK]:.2f} (goal: at most {GOALS[path]})")


if __name__ == "__main__":
    main()
