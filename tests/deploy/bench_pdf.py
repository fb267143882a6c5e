"""PDF figures of the deployed configuration: ``bin/bench-pdf`` (prints figures; no speed or
size goal is asserted).

Runs the release steps of docs/production.md without filling the sheet cache, and gunicorn
with three workers, Redis and a render limit of two (a two-CPU host), then prints:

* the position PDF of the full 4x4 battle (the position of ``bin/bench-analyzer`` and
  ``bin/bench-load``) in each language, once every worker has answered a few requests: the
  first request (rendered) and the second (kept), the median of 20 more interleaved with the
  trivial view ``/healthz`` (the yardstick: the machine's load in the same run), and the PDF's size
  and fonts, and what the 20 kept requests cost the render pool's workers in CPU and the
  ``/healthz`` between them the site's (median, quartiles, ratio:
  tests/deploy/bench_figures.py); then the second request of nine more positions (median
  and max);
* the host's render pool (gunicorn_pdf.conf.py, asked straight as nginx would pass the
  PDF addresses on) while two renders run at once, rendering every sheet in every
  language two at a time: how many processes, and their summed RSS and PSS at the peak
  (sampled every 20 ms; PSS counts a page shared by n processes as 1/n of it), and the same
  for the gunicorn workers, for scale (MB: 10^6 bytes).

The load average at the start and the end of the timed part ends the figures, with a plain
warning when the machine was busy or a spread wide. ``bin/bench-pdf N``: render limit N
instead of two.
"""

from __future__ import annotations

import os
import runpy
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from urllib.parse import urlencode

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "captain.settings")

from bench_figures import (  # noqa: E402
    CPU_HOLDS,
    YARDSTICK,
    Workers,
    cpu_lines,
    load,
    load_line,
    spread_of,
    verdict,
)
from harness import FULL_BATTLE, Server, bench_release, fresh_position_pdf, serve, serve_pdf  # noqa: E402

LANGUAGES = ("en", "de", "ja")
POOL_CONFIG = Path(__file__).resolve().parents[2] / "gunicorn_pdf.conf.py"
MAX_REQUESTS = runpy.run_path(str(POOL_CONFIG))["max_requests"]
SHEETS = ("rules", "reference", "quick-start", "teach")


def timed_get(server: Server, path: str) -> tuple[float, int, bytes]:
    started = time.perf_counter()
    status, _headers, body = server.get(path, client="198.18.7.7")
    return time.perf_counter() - started, status, body


def render_processes(pool: Server, site: Server) -> tuple[list[int], list[int]]:
    """(the render pool's arbiter and its workers, the site's gunicorn workers)."""
    return [pool.process.pid, *pool.workers()], site.workers()


def memory_kib(pids: list[int]) -> tuple[int, int]:
    """Summed (RSS, PSS) of ``pids`` in KiB; processes gone meanwhile count nothing."""
    rss = pss = 0
    for pid in pids:
        try:
            rollup = Path(f"/proc/{pid}/smaps_rollup").read_text()
        except (FileNotFoundError, ProcessLookupError):
            continue
        for line in rollup.splitlines():
            if line.startswith("Rss:"):
                rss += int(line.split()[1])
            elif line.startswith("Pss:"):
                pss += int(line.split()[1])
    return rss, pss


def fonts_of(pdf: bytes) -> str:
    with tempfile.NamedTemporaryFile(suffix=".pdf") as tmp:
        tmp.write(pdf)
        tmp.flush()
        listing = subprocess.run(["pdffonts", tmp.name], capture_output=True, text=True, check=True).stdout
    return ", ".join(sorted({line.split()[0].split("+")[-1] for line in listing.splitlines()[2:]}))


def warm_workers(server: Server) -> None:
    """Every worker's first requests (imports, templates, a database connection) done, as
    ``bin/bench-load`` does: a tutorial page, and the position PDF's ``HEAD``, which takes
    the same way through the view without rendering."""
    for lang in LANGUAGES:
        for _ in range(10):
            assert server.get(f"/{lang}/tutorial/battle-time/", client="198.18.7.7")[0] == 200
            path = f"/{lang}/analyze/position.pdf?{urlencode({'pos': FULL_BATTLE})}"
            assert server.request("HEAD", path, client="198.18.7.7")[0] == 200


def position_figures(server: Server, site: Server) -> dict[str, list[float]]:
    """Prints each language's figures; returns the worker CPU of the kept requests and of
    ``/healthz`` (ms), by name."""
    warm_workers(site)
    pool, workers = Workers(server), Workers(site)
    cpu: dict[str, list[float]] = {"/healthz (yardstick)": []}
    for lang in LANGUAGES:
        path = f"/{lang}/analyze/position.pdf?{urlencode({'pos': FULL_BATTLE})}"
        first, status, body = timed_get(server, path)
        assert status == 200 and body.startswith(b"%PDF"), (status, body[:300])
        second, status, again = timed_get(server, path)
        assert status == 200 and again == body
        more, yardstick, kept = [], [], []
        for _ in range(20):  # interleaved with the trivial view /healthz: how busy the machine is meanwhile
            sample = pool.measure(path)
            more.append(sample.seconds)
            kept.append(sample.cpu_ms)
            sample = workers.measure(YARDSTICK)
            yardstick.append(sample.seconds)
            cpu["/healthz (yardstick)"].append(sample.cpu_ms)
        cpu[f"position PDF {lang}, kept"] = kept
        print(f"position PDF {lang}: first {first * 1000:7.1f} ms, second {second * 1000:5.1f} ms, "
              f"median of 20 more {statistics.median(more) * 1000:5.1f} ms "
              f"(/healthz between them: {statistics.median(yardstick) * 1000:4.1f} ms) "
              f"(goal: second at most 20 ms); "
              f"{len(body) / 1000:5.0f} kB (goal en: at most 200 kB); fonts: {fonts_of(body)}")
    return cpu


def second_requests(server: Server, count: int = 9) -> None:
    """First and second request of ``count`` more positions, the languages in turn: one
    second request is one sample, and the machine may be busy just then."""
    seconds = []
    for i in range(count):
        path = fresh_position_pdf(LANGUAGES[i % 3])
        assert timed_get(server, path)[1] == 200
        seconds.append(timed_get(server, path)[0])
    print(f"second request after the first, {count} more positions: median "
          f"{statistics.median(seconds) * 1000:.1f} ms, max {max(seconds) * 1000:.1f} ms")


def memory_figures(server: Server, site: Server, limit: int) -> None:
    peak = {"rss": 0, "pss": 0, "processes": 0, "workers_pss": 0}
    done = threading.Event()

    def sample() -> None:
        while not done.is_set():
            render, workers = render_processes(server, site)
            rss, pss = memory_kib(render)
            if pss > peak["pss"]:
                peak.update(rss=rss, pss=pss, processes=len(render), workers_pss=memory_kib(workers)[1])
            time.sleep(0.02)

    sampler = threading.Thread(target=sample)
    sampler.start()
    paths = [f"/{lang}/sheets/{name}.pdf" for name in SHEETS for lang in LANGUAGES]
    statuses = []
    try:
        for start in range(0, len(paths), limit):
            with ThreadPoolExecutor(limit) as pool:
                statuses += [status for _t, status, _b in pool.map(lambda p: timed_get(server, p),
                                                                    paths[start:start + limit])]
    finally:
        done.set()
        sampler.join()
    render, _workers = render_processes(server, site)
    print(f"render pool: {len(render) - 1} workers under one arbiter for the host "
          f"(render limit {limit}, 3 gunicorn workers for pages); "
          f"{len(paths)} sheets rendered {limit} at a time, "
          f"answers: {sorted(set(statuses))}")
    print(f"render processes at the peak: {peak['processes']} (arbiter + workers), "
          f"summed RSS {_mb(peak['rss'])} MB, summed PSS {_mb(peak['pss'])} MB "
          f"(goal: PSS at most 400 MB together); the 3 workers' PSS then: {_mb(peak['workers_pss'])} MB")


def _mb(kib: int) -> str:
    return f"{kib * 1024 / 1e6:.0f}"


def main() -> None:
    limit = int(sys.argv[1]) if len(sys.argv) > 1 else 2
    with bench_release() as release, serve(release, workers=3, name="bench-pdf",
               env={"DJANGO_RENDER_LIMIT": str(limit)}) as site, \
            serve_pdf(site, name="bench-pdf-pool") as pool:
        print(f"CPUs: {os.cpu_count()}, gunicorn workers: 3, DEBUG off, render limit: {limit} "
              f"(render pool, max_requests {MAX_REQUESTS})")
        started = load()
        cpu = position_figures(pool, site)
        second_requests(pool)
        ended = load()
        print("\n".join([*cpu_lines(cpu, "/healthz (yardstick)"), load_line(started, ended),
                          *verdict(started, spread_of(cpu), holds="The milliseconds suffer most, "
                                   "the first request's above all. " + CPU_HOLDS)]))
        memory_figures(pool, site, limit)


if __name__ == "__main__":
    main()
