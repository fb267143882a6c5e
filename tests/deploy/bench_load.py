"""Load benchmark of the deployed configuration: ``bin/bench-load`` (prints figures; no speed goal
is asserted).

Runs the release steps of docs/production.md and, as they set a host up, nginx in front of
gunicorn with three workers, the render pool and Redis, with the default limits (render
limit: one per CPU; rate limits from settings.RATE_LIMITS; nginx's limits per client
address, each simulated client its own loopback address). Then it prints:

``bin/bench-load N`` measures with a render limit of N instead.

* the load average at the start and the end of the measured part, and a warning when the
  machine was busy (the latencies then say more about the machine than about the site);
* the tutorial page's median and p95 latency idle, while 30 clients ask for cold position
  PDFs as fast as they can for 30 s, each on a connection of its own that it keeps, ignoring
  ``Retry-After``, and idle again (the idle runs are the yardstick, before and after), and
  the ratio of the loaded p95 to the idle one (goal: at most 3);
* what the 30 clients got (PDFs, 503 busy, 429 limited) and the CPU time they used (they run
  on the same machine, in this process);
* the save limit observed: saves one client got through before its first 429;
* how many requests the schemathesis test sends (tests/api/test_api_schema.py);
* the wall time of the last ``bin/test`` run on this machine (``var/test-times.log``).
"""

from __future__ import annotations

import http.client
import itertools
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlencode

sys.path.insert(0, str(Path(__file__).resolve().parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "captain.settings")

from bench_figures import load, load_line, verdict  # noqa: E402
from harness import BASE_DIR, Proxy, bench_release, fresh_position_pdf, serve_behind_nginx  # noqa: E402

PAGE = "/en/tutorial/battle-time/"
POSITIONS = ["Rbgw_11r1.12g2.13g5.14w4-15w1.16b0.22w2.23b4-24r0.25g4.26r5.33w5-34b1.35b2.36g1.44r2",
             "Rb_11r1.12b2", "Rbg_11.13r3.22.14-15.16b1.23.24r2-26.33.34g1.35-36g0.44.45.46"]
CLIENTS, LOAD_SECONDS = 30, 30


#: what a busy machine leaves of the ratio (``holds`` of :func:`verdict`)
LATENCY_HOLDS = ("The ratio compares latencies taken under the same load, but the clients share "
                 "the CPUs with the site.")
#: the reader whose tutorial page is timed, and the first address of the PDF clients
READER, CLIENT_BASE = "127.0.9.9", "127.0.10."


class Client:
    """One client's connection to nginx, kept open as a browser keeps it (opened again when
    nginx closes it): its requests cost TLS handshakes only once."""

    def __init__(self, proxy: Proxy, source: str) -> None:
        self.proxy, self.source = proxy, source
        self.connection = proxy.connection(source=source, timeout=120)

    def get(self, path: str) -> int:
        for attempt in (1, 2):
            try:
                self.connection.request("GET", path)
                response = self.connection.getresponse()
                response.read()
                if response.will_close:
                    self.connection.close()
                return response.status
            except (http.client.HTTPException, ConnectionError):
                self.connection.close()  # closed by nginx while idle: once more, anew
                if attempt == 2:
                    raise
        raise AssertionError("unreachable")


def page_latencies(reader: Client, *, count: int | None = None,
                   until: threading.Event | None = None) -> list[float]:
    """Seconds per tutorial page request, one after another (one reader)."""
    times: list[float] = []
    while (count is None or len(times) < count) and not (until and until.is_set()):
        started = time.perf_counter()
        status = reader.get(PAGE)
        times.append(time.perf_counter() - started)
        assert status == 200, status
    return times


def cold_pdfs(lang: str) -> Iterator[str]:
    """Addresses of position PDFs in ``lang`` that nobody has asked for (a position PDF is
    kept once rendered): the full 4x4 battle under each seating, then boards of four cards
    (red's and blue's attack cards each two different ones: 1,800 of them)."""
    for _ in range(12):
        yield fresh_position_pdf(lang, long=True)
    for a, c, b, d in itertools.product(range(6), repeat=4):
        if a != c and b != d:
            for paper in ("a4", "letter"):
                query = urlencode({"pos": f"Rb_11r{a}.12b{b}.13r{c}.14b{d}", "paper": paper})
                yield f"/{lang}/analyze/position.pdf?{query}"


def pdf_clients(proxy: Proxy, stop_at: float) -> tuple[Counter, float]:
    """CLIENTS threads, each its own address, asking for position PDFs until ``stop_at``,
    never waiting for ``Retry-After``: what they got, and the CPU seconds they used."""
    statuses: Counter = Counter()
    cpu: list[float] = []
    lock = threading.Lock()
    cold = {lang: cold_pdfs(lang) for lang in ("en", "ja", "de")}

    def client(i: int) -> None:
        started = time.thread_time()
        addresses = cold[("en", "ja", "de")[i % 3]]
        asking = Client(proxy, f"{CLIENT_BASE}{i + 1}")
        while time.monotonic() < stop_at:
            with lock:
                address = next(addresses)
            status = asking.get(address)
            with lock:
                statuses[status] += 1
        with lock:
            cpu.append(time.thread_time() - started)

    threads = [threading.Thread(target=client, args=(i,)) for i in range(CLIENTS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return statuses, sum(cpu)


def figures(times: list[float]) -> str:
    p95 = statistics.quantiles(times, n=20)[18]
    median = statistics.median(times)
    return f"median {median * 1000:6.1f} ms, p95 {p95 * 1000:6.1f} ms ({len(times)} requests)"


def save_limit(proxy: Proxy) -> tuple[int, str]:
    """Saves one client gets through the API before its first 429, and the Retry-After."""
    body = json.dumps({"notation": POSITIONS[1]}).encode()
    for accepted in range(1000):
        status, headers, _ = proxy.request("POST", "/api/v1/positions", body=body, client="127.0.11.1",
                                           headers={"Content-Type": "application/json"})
        if status == 429:
            return accepted, headers["Retry-After"]
        assert status == 201, status
    return 1000, "-"


def schemathesis_requests() -> str:
    with tempfile.NamedTemporaryFile("r", suffix=".txt") as out:
        subprocess.run([sys.executable, "-m", "pytest", "tests/api/test_api_schema.py", "-q",
                        "-p", "no:randomly"],
                       cwd=BASE_DIR, env={**os.environ, "SCHEMATHESIS_COUNT_FILE": out.name},
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
        return out.read().strip() or "?"


def main() -> None:
    # optional: bin/bench-load N measures with a render limit of N instead of one per CPU
    render_limit = int(sys.argv[1]) if len(sys.argv) > 1 else os.cpu_count()
    started = load()
    limits = {"DJANGO_RENDER_LIMIT": str(render_limit)}
    with bench_release() as release, serve_behind_nginx(release, workers=3, env=limits) as proxy:
        reader = Client(proxy, READER)
        page_latencies(reader, count=30)  # warm every worker up
        idle = page_latencies(reader, count=300)
        done = threading.Event()
        loaded: list[float] = []
        timed = threading.Thread(target=lambda: loaded.extend(page_latencies(reader, until=done)))
        timed.start()
        statuses, client_cpu = pdf_clients(proxy, time.monotonic() + LOAD_SECONDS)
        done.set()
        timed.join()
        idle_after = page_latencies(reader, count=300)
        ended = load()
        saves, retry_after = save_limit(proxy)
    idle_p95 = statistics.quantiles(idle + idle_after, n=20)[18]
    loaded_p95 = statistics.quantiles(loaded, n=20)[18]
    print(f"CPUs: {os.cpu_count()}, gunicorn workers: 3, render limit: {render_limit}"
          + (" (the default: one per CPU)" if render_limit == os.cpu_count() else "")
          + ", nginx in front")
    print(f"tutorial page, idle (before):         {figures(idle)}")
    print(f"tutorial page, {CLIENTS} clients x PDFs, {LOAD_SECONDS} s: {figures(loaded)}")
    print(f"tutorial page, idle (after):          {figures(idle_after)}")
    print(f"loaded p95 / idle p95: {loaded_p95 / idle_p95:.2f} (goal: at most 3)")
    print(f"position PDF answers to the {CLIENTS} clients: " + ", ".join(
        f"{status}: {count}" for status, count in sorted(statuses.items()))
          + f"; their CPU: {client_cpu:.1f} s in {LOAD_SECONDS} s")
    print(f"save limit observed: {saves} saves, then 429 (Retry-After {retry_after} s)")
    print(f"schemathesis: {schemathesis_requests()} requests")
    log = BASE_DIR / "var" / "test-times.log"
    last = log.read_text().strip().splitlines()[-1] if log.exists() else "no bin/test run recorded yet"
    print(f"bin/test (last run): {last}")
    print(load_line(started, ended))
    print("\n".join(verdict(started, None, holds=LATENCY_HOLDS)))


if __name__ == "__main__":
    main()
