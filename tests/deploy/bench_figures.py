"""What every site bench (``bin/bench-*``) prints about the cost of a request, the machine and
the spread: the worker CPU per request against ``/healthz``, the load average at the start
and the end of the measured part, quartiles, and a plain warning when the machine was busy
or the spread wide (the load and spread themselves: :mod:`captain.rules.sim.figures`, which
the engine's bench prints too).

Worker CPU, not latency: ``/healthz`` mostly waits and a page mostly computes, so on a busy
machine every request waits, a short one proportionally longer, and a latency ratio grows
with the load while the CPU ratio does not. :class:`Workers` reads, before and after each
request, the CPU time every thread of a server's gunicorn workers has used (/proc, to the
nanosecond: :func:`processes.cpu_seconds`); one request at a time, so that nothing else runs
in them meanwhile.
"""

from __future__ import annotations

import statistics
import time
from dataclasses import dataclass

from captain.rules.sim.figures import BUSY, WIDE, load, load_line, quartiles, verdict, wide
from processes import cpu_seconds

__all__ = ["BUSY", "CPU_HOLDS", "WIDE", "YARDSTICK", "Sample", "Workers", "cpu_lines", "load",
           "load_line", "quartiles", "spread_of", "verdict", "wide"]

#: the site's yardstick: a view that writes ``ok`` through the whole middleware stack
YARDSTICK = "/healthz"
#: what a busy machine leaves of worker-CPU figures (``holds`` of :func:`verdict`)
CPU_HOLDS = ("CPU time per request holds up better than latency, but caches and CPU frequency "
             "suffer too.")


@dataclass(frozen=True)
class Sample:
    """One request: the workers' CPU milliseconds it took, and its latency in seconds."""

    cpu_ms: float
    seconds: float


class Workers:
    """The CPU time of a gunicorn server's workers (all their threads), request by request;
    each request is sent as from ``client`` with ``headers`` (and its own)."""

    def __init__(self, server, *, client: str = "198.18.7.7", headers: dict[str, str] | None = None) -> None:
        self.server = server
        self.client = client
        self.headers = headers or {}

    def each(self) -> dict[int, float]:
        """Seconds of CPU each worker has used so far, by process id."""
        return {pid: cpu_seconds(pid) for pid in self.server.workers()}

    def since(self, before: dict[int, float]) -> float:
        """Milliseconds of CPU the workers have used since :meth:`each` read ``before``: only
        those there then and now (one that a ``max_requests`` replaced meanwhile counts
        nothing: a new one's start is no part of the requests)."""
        after = self.each()
        return sum(after[pid] - before[pid] for pid in after.keys() & before.keys()) * 1000

    def measure(self, path: str, headers: dict[str, str] | None = None) -> Sample:
        """One GET of ``path`` (the body read): what it cost the workers (:meth:`since`) and
        how long it took; checks it is 200."""
        before = self.each()
        started = time.perf_counter()
        sent = {**self.headers, **(headers or {})}
        status, _headers, body = self.server.get(path, client=self.client, headers=sent)
        seconds = time.perf_counter() - started
        spent = self.since(before)
        assert status == 200, (path, status, body[:200])
        return Sample(spent, seconds)

    def cost(self, path: str, headers: dict[str, str] | None = None) -> float:
        """Milliseconds of worker CPU that one GET of ``path`` took (the body read); checks it is 200."""
        return self.measure(path, headers).cpu_ms


def cpu_lines(series: dict[str, list[float]], yardstick: str, goals: dict[str, float] | None = None,
              *, units: dict[str, str] | None = None) -> list[str]:
    """Worker CPU per request as printed: for each named series of milliseconds its median,
    quartiles and count (of ``units[name]``, requests unless named), and but for the
    ``yardstick`` series its ratio to the yardstick's median, beside its goal where ``goals``
    names one (the most the ratio may be)."""
    goals, units = goals or {}, units or {}
    base = statistics.median(series[yardstick])
    width = max(len(name) for name in series) + 1
    lines = ["worker CPU per request, ms: median [first-third quartile]"]
    for name, values in series.items():
        low, median, high = quartiles(values)
        counted = f"{len(values)} {units.get(name, 'requests')}"
        line = f"  {name + ':':<{width}} {median:7.2f} [{low:.2f}-{high:.2f}] ({counted})"
        if name != yardstick:
            ratio = median / base if base > 0 else float("inf")
            line += f"  ratio {ratio:5.2f}"
            if name in goals:
                line += f" (goal: at most {goals[name]:g}: {'met' if ratio <= goals[name] else 'MISSED'})"
        lines.append(line)
    return lines


def spread_of(series: dict[str, list[float]]) -> list[str]:
    """The names of the series whose spread is wide."""
    return [name for name, values in series.items() if wide(values)]
