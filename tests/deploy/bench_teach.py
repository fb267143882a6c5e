"""Teaching-table latency in the deployed configuration: ``bin/bench-teach`` (prints figures;
the targets are checked by reading them, no test times anything).

As docs/production.md deploys it: nginx in front, gunicorn with three workers answering the
pages and the moves, the ASGI stream process (two workers) holding the tables' live
streams, Redis between them. Each guest and each projector is a stream read the way a
browser's EventSource reads it (tests/deploy/live_clients.py), each from its own address.

1. One table, 9 guests and a projector: for every move, the time from the presenter's POST
   being sent to the event's arrival in each client (median, p95, max), after warm-up
   moves (a fresh gunicorn worker's first answers load templates and code; printed apart).
2. 200 guests on 20 tables (10 streams each), every presenter moving every 2.5 s: the same
   delays, the streams' errors, and ``/en/tutorial/``'s p95 read by one more client
   meanwhile, against its p95 idle read in the same run just before.
3. A guest's page in chromium on a 390 px phone, over HTTPS and HTTP/2 through nginx: the
   time from the POST being sent to the new section applied on the page (htmx settled).
4. One table with 50 guests, then one with 200: each guest a stream and its own kept-alive
   connection doing what its page does on an event (static/js/live.js: the section for the
   mark the event announced, gzip accepted, and its own seat part only when the section
   says the seat part changed). Per (guest, move): the time from the presenter's POST being
   sent to that guest's page up to date (p95 over every guest x move; goals at most 150 ms
   and 400 ms), the gunicorn workers' CPU per move and the bytes a guest receives per move.

The load average at the start is printed first; at 1 or more the machine was busy and the
figures are not the site's alone.
"""

from __future__ import annotations

import argparse
import gzip
import http.client
import os
import re
import statistics
import sys
import threading
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "captain.settings")

import django  # noqa: E402

django.setup()  # the harness reads the settings

from playwright.sync_api import sync_playwright  # noqa: E402

from bench_figures import load, load_line, verdict  # noqa: E402
from harness import Browser, bench_release, serve_behind_nginx  # noqa: E402
from live_clients import Follower  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
PHONE_MOVES = 30

MOVES, MOVE_EVERY, WARM_UP = 40, 0.5, 12   # part 1
TABLES, PER_TABLE, LOAD_MOVES, LOAD_EVERY = 20, 10, 8, 2.5   # part 2
PAGE_SAMPLES = 80
GUESTS, GUEST_MOVES, GUEST_EVERY, GUEST_WARM_UP = (50, 200), 10, 1.5, 3   # part 4
GOALS = {50: 0.150, 200: 0.400}


def quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def describe(delays: list[float]) -> str:
    return (f"median {statistics.median(delays) * 1000:.1f} ms, p95 {quantile(delays, 0.95) * 1000:.1f} ms, "
            f"max {max(delays) * 1000:.1f} ms ({len(delays)} move x client pairs)")


class Table:
    """A presenter and the streams following its table."""

    def __init__(self, proxy, n: int, clients: int) -> None:
        self.presenter = Browser(proxy, f"127.99.{n}.1", lang="en")
        self.code = self.presenter.start_table()
        self.version = 1
        self.sent: dict[int, float] = {}  # version -> when the move making it was sent
        self.followers = [Follower(proxy, self.code, f"127.{20 + n}.{i // 200}.{i % 200 + 2}").start()
                          for i in range(clients)]
        self.errors: list[int] = []

    def ready(self, timeout: float = 30) -> bool:
        deadline = time.monotonic() + timeout
        return all(f.wait_for(f"{self.version}.0.0", max(0.1, deadline - time.monotonic()))
                   for f in self.followers)

    def move(self, index: int) -> None:
        self.sent[self.version + 1] = time.monotonic()
        status, _h, _b = self.presenter.request("POST", f"/en/teach/{self.code}/go/",
                                                {"to": str(index % 8 + 1), "v": str(self.version)})
        if status != 302:
            self.errors.append(status)
            return
        self.version += 1

    def delays(self) -> tuple[list[float], int]:
        """Every (move, client) delay, and how many pairs never arrived."""
        found, missing = [], 0
        for f in self.followers:
            for version, sent in self.sent.items():
                arrived = next((e.arrived for e in f.events
                                if e.id and int(e.id.split(".")[0]) >= version), None)
                if arrived is None:
                    missing += 1
                else:
                    found.append(arrived - sent)
        return found, missing

    def stop(self) -> None:
        for f in self.followers:
            f.stop()

    def stream_errors(self) -> int:
        return sum(1 for f in self.followers for s in f.statuses if s != 200)


def page_p95(proxy, samples: int) -> float:
    reader = Browser(proxy, "127.98.0.1", lang="en")
    times = []
    for _ in range(samples):
        started = time.monotonic()
        status, _h, _b = reader.request("GET", "/en/tutorial/")
        assert status == 200, status
        times.append(time.monotonic() - started)
        time.sleep(0.05)
    return quantile(times, 0.95)


def cpu_seconds(pids: list[int]) -> float:
    """The user and system CPU time the processes ``pids`` have used so far."""
    total = 0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += int(fields[11]) + int(fields[12])
    return total / os.sysconf("SC_CLK_TCK")


class Guest(threading.Thread):
    """A guest's page without the browser: on each event it asks for the section (gzip
    accepted, as htmx's request is) and then for its own seat part, on one kept-alive
    connection from its own address. ``done``: version -> when the page showed it."""

    def __init__(self, proxy, code: str, n: int, stop: threading.Event) -> None:
        super().__init__(daemon=True)
        self.address = f"127.{60 + n // 200}.{n % 200 // 100}.{n % 100 + 2}"
        self.proxy, self.code, self.stop = proxy, code, stop
        self.browser = Browser(proxy, self.address, lang="en")
        status, _h, page = self.browser.request("GET", f"/en/t/{code}/")
        assert status == 200, status
        self.version = int(re.search(rb'data-version="(\d+)"', page)[1])
        self.index = int(re.search(rb'data-index="(\d+)"', page)[1])
        self.seating = int(re.search(rb'&amp;s=(\d+)', page)[1])
        self.seat = re.search(rb'<div id="(guest-seat[^"]*)"', page)[1]
        self.follower = Follower(proxy, code, self.address).start()
        self.done: dict[int, float] = {}
        self.received = 0   # bytes of the answers' bodies, as sent
        self.errors: list[int | str] = []  # statuses of 400 and over, or what broke the connection
        self.connection = None

    def get(self, path: str) -> bytes:
        headers = {"HX-Request": "true", "Accept-Encoding": "gzip",
                   "Cookie": "; ".join(f"{k}={v}" for k, v in self.browser.cookies.items())}
        for attempt in (1, 2):
            if self.connection is None:
                self.connection = self.proxy.connection(source=self.address)
            try:
                self.connection.request("GET", path, headers=headers)
                response = self.connection.getresponse()
                body = response.read()
                break
            except (OSError, http.client.HTTPException) as error:
                self.connection.close()
                self.connection = None
                if attempt == 2:
                    self.errors.append(type(error).__name__)
                    return b""
        if response.status >= 400:
            self.errors.append(response.status)
        self.received += len(body)
        return gzip.decompress(body) if response.getheader("Content-Encoding") == "gzip" else body

    def run(self) -> None:
        while not self.stop.is_set():
            event = self.follower.wait_for(f"{self.version + 1}.0.0", timeout=0.5)
            if event is None:
                continue
            section = self.get(f"/en/t/{self.code}/poll/?v={self.version}&s={self.seating}&i={self.index}"
                               f"&m={event.id}")
            shown = re.search(rb'data-version="(\d+)"', section)
            if not shown:
                continue
            seat = re.search(rb'<div id="(guest-seat[^"]*)"', section)
            if seat and seat[1] != self.seat:  # as hx-preserve keeps the part the page has
                self.get(f"/en/t/{self.code}/mine/")
                self.seat = seat[1]
            now = time.monotonic()
            new = int(shown[1])
            self.index = int(re.search(rb'data-index="(\d+)"', section)[1])
            self.seating = int(re.search(rb'&amp;s=(\d+)', section)[1])
            for version in range(self.version + 1, new + 1):
                self.done[version] = now
            self.version = new


def guests_up_to_date(proxy, n: int, guests: int) -> None:
    """Part 4 for one table of ``guests`` guests."""
    table = Table(proxy, n, 0)
    stop = threading.Event()
    crowd = [Guest(proxy, table.code, i, stop) for i in range(guests)]
    assert all(g.follower.wait_for(f"{table.version}.0.0", 60) for g in crowd), "the streams did not open"
    for g in crowd:
        g.start()
    for m in range(GUEST_WARM_UP):
        table.move(m)
        time.sleep(GUEST_EVERY)
    table.sent.clear()
    workers = proxy.server.workers()
    cpu, received = cpu_seconds(workers), sum(g.received for g in crowd)
    client_cpu = time.process_time()
    for m in range(GUEST_MOVES):
        table.move(GUEST_WARM_UP + m)
        time.sleep(GUEST_EVERY)
    cpu = cpu_seconds(workers) - cpu
    received = sum(g.received for g in crowd) - received
    stop.set()
    delays, missing = [], 0
    for g in crowd:
        for version, sent in table.sent.items():
            if version in g.done:
                delays.append(g.done[version] - sent)
            else:
                missing += 1
        g.join(timeout=5)
        g.follower.stop()
    errors = Counter(e for g in crowd for e in g.errors) + Counter(table.errors)
    client_cpu = (time.process_time() - client_cpu) / GUEST_MOVES
    p95 = quantile(delays, 0.95) if delays else float("nan")
    goal = GOALS.get(guests, min(GOALS.values()))
    print(f"1 table, {guests} guests, {GUEST_MOVES} moves: POST sent -> every guest's page up to date "
          f"(section, and seat part when it changed): {describe(delays)}; goal p95 <= {goal * 1000:.0f} ms: "
          f"{'met' if p95 <= goal else 'MISSED'}")
    print(f"  gunicorn workers' CPU per move: {cpu / GUEST_MOVES * 1000:.1f} ms "
          f"({cpu / GUEST_MOVES / guests * 1000:.2f} ms per guest); "
          f"received per guest and move: {received / GUEST_MOVES / guests:,.0f} B; "
          f"never up to date: {missing}; errors: {dict(errors) or 0}")
    print(f"  this bench's own CPU per move (its guests' clients, on the same machine): "
          f"{client_cpu * 1000:.1f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(prog="bin/bench-teach", description=__doc__.split("\n\n")[0])
    parser.add_argument("--guests", type=int, nargs="*", default=list(GUESTS), metavar="N",
                        help="part 4's tables, one per number of guests (default: %(default)s; "
                             "none: part 4 is left out)")
    parser.add_argument("--only-guests", action="store_true",
                        help="part 4 alone: every guest's page up to date")
    args = parser.parse_args()
    started = load()
    print(f"load average (1, 5, 15 min) at the start: {' '.join(f'{value:.2f}' for value in started)}")
    try:
        run(args)
    finally:
        print(load_line(started, load()))
        print("\n".join(verdict(started, None, holds=LATENCY_HOLDS)))


#: what a busy machine leaves of this bench's figures (``holds`` of :func:`verdict`)
LATENCY_HOLDS = ("The latencies are the machine's as much as the site's, its clients sharing the CPUs; "
                 "the workers' CPU per move holds up better.")


def run(args: argparse.Namespace) -> None:
    with bench_release() as release, serve_behind_nginx(release, workers=3, streams=2) as proxy:
        print("nginx, gunicorn 3 workers, stream process 2 workers, Redis; "
              f"{os.cpu_count()} CPUs")
        # --- 4. every guest's page up to date, 50 and 200 guests on one table
        for n, guests in enumerate(args.guests):
            guests_up_to_date(proxy, 50 + n, guests)
        if args.only_guests:
            return

        # --- 1. one table, 9 guests and a projector
        table = Table(proxy, 0, 10)
        assert table.ready(), "the streams did not open"
        # a fresh worker's first answers load what it has not loaded yet: warm-up
        # moves, until each gunicorn worker has answered some, are not counted
        for n in range(WARM_UP):
            table.move(n)
            time.sleep(MOVE_EVERY)
        time.sleep(1)
        cold, _missing = table.delays()
        table.sent.clear()
        for n in range(MOVES):
            table.move(n)
            time.sleep(MOVE_EVERY)
        time.sleep(1)
        delays, missing = table.delays()
        table.stop()
        print(f"1 table, 9 guests + projector, {MOVES} moves: POST sent -> event arrived: "
              f"{describe(delays)}; "
              f"never arrived: {missing}; stream errors: {table.stream_errors()}")
        print(f"  ({WARM_UP} warm-up moves before, not counted: max {max(cold) * 1000:.1f} ms)")

        # --- 2. 200 guests on 20 tables, the tutorial page read meanwhile
        idle = page_p95(proxy, PAGE_SAMPLES)
        tables = [Table(proxy, 1 + n, PER_TABLE) for n in range(TABLES)]
        assert all(t.ready(60) for t in tables), "the streams did not open"
        busy: list[float] = []
        reader = threading.Thread(target=lambda: busy.append(page_p95(proxy, PAGE_SAMPLES)))
        reader.start()

        def present(t: Table, offset: float) -> None:
            time.sleep(offset)
            for n in range(LOAD_MOVES):
                t.move(n)
                time.sleep(LOAD_EVERY)

        presenters = [threading.Thread(target=present, args=(t, i * LOAD_EVERY / TABLES))
                      for i, t in enumerate(tables)]
        for p in presenters:
            p.start()
        for p in presenters:
            p.join()
        reader.join()
        time.sleep(1)
        all_delays, all_missing = [], 0
        for t in tables:
            d, m = t.delays()
            all_delays += d
            all_missing += m
        move_errors = sum(len(t.errors) for t in tables)
        stream_errors = sum(t.stream_errors() for t in tables)
        reconnects = sum(max(0, f.connections - 1) for t in tables for f in t.followers)
        for t in tables:
            t.stop()
        print(f"{TABLES} tables, {TABLES * PER_TABLE} streams, {LOAD_MOVES} moves each: "
              f"POST sent -> event arrived: {describe(all_delays)}")
        print(f"  never arrived: {all_missing}; move errors: {move_errors}; "
              f"stream errors: {stream_errors}; "
              f"reconnects: {reconnects}")
        print(f"/en/tutorial/ p95: idle {idle * 1000:.1f} ms, "
              f"with the tables {busy[0] * 1000:.1f} ms "
              f"({busy[0] / idle:.2f}x idle)")

        # --- 3. a guest's phone in chromium
        applied = phone(proxy)
        print(f"a 390 px phone in chromium, {PHONE_MOVES} moves: POST sent -> section applied: "
              f"{describe(applied)}")


#: records when each version of the guest's section was applied (the page's clock, ms)
RECORD = """() => {
  window.__applied = {};
  document.addEventListener("htmx:afterSettle", () => {
    const s = document.getElementById("guest-section");
    if (s && !(s.dataset.version in window.__applied)) window.__applied[s.dataset.version] = Date.now();
  });
}"""


def phone(proxy) -> list[float]:
    table = Table(proxy, 41, 0)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
        context = browser.new_context(ignore_https_errors=True, viewport={"width": 390, "height": 844},
                                      device_scale_factor=3, is_mobile=True, has_touch=True, locale="ja")
        page = context.new_page()
        page.goto(f"https://127.0.0.1:{proxy.port}/ja/t/{table.code}/")
        page.wait_for_selector('html[data-live="on"]')
        page.evaluate(RECORD)
        delays = []
        for n in range(WARM_UP + PHONE_MOVES):
            sent = time.time()
            table.move(n)
            page.wait_for_function(f"() => '{table.version}' in window.__applied", timeout=10000)
            if n >= WARM_UP:
                delays.append(page.evaluate(f"() => window.__applied['{table.version}']") / 1000 - sent)
            time.sleep(MOVE_EVERY)
        browser.close()
    return delays


if __name__ == "__main__":
    main()
