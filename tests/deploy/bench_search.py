"""Rules search speed over HTTP: ``bin/bench-search`` (prints figures; no goal is asserted).

Runs the release steps of docs/production.md and gunicorn with the production settings (DEBUG off,
Redis cache, three workers), then asks every question of the question set
(tutorials/search/questions.json, the three languages) through the API
(``/api/v1/rules/search``) and through the answers under the search box
(``/<lang>/rules/answers/``, htmx), interleaved with the yardstick, the trivial view
``/healthz``, by one client; prints each one's median and p95 (goal: a p95 of at most
50 ms for the search), the worker CPU each took (median, quartiles, ratio to ``/healthz``:
what holds on a busy machine, tests/deploy/bench_figures.py), the load average at the start
and the end, and says when the machine was busy or the spread wide.
``bin/bench-search N``: N rounds over the questions (default 3).
"""

from __future__ import annotations

import json
import os
import statistics
import sys
from pathlib import Path
from urllib.parse import quote

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "captain.settings")

from bench_figures import CPU_HOLDS, YARDSTICK, Workers, cpu_lines, load, load_line, spread_of, verdict  # noqa: E402
from harness import BASE_DIR, bench_release, serve  # noqa: E402

QUESTIONS = BASE_DIR / "tutorials" / "search" / "questions.json"
NAMES = ("API /api/v1/rules/search", "answers under the search box", "yardstick: /healthz")


def p95(values: list[float]) -> float:
    return statistics.quantiles(values, n=20)[-1]


def main() -> None:
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    data = json.loads(QUESTIONS.read_text(encoding="utf-8"))
    asked = [(lang, q["q"]) for lang in ("ja", "en", "de") for q in data[lang]]
    with bench_release() as release, serve(release, workers=3, name="bench-search") as server:
        workers = Workers(server, client="198.18.7.8")
        for lang, q in asked[:12]:  # warm every worker up (each builds its index once)
            workers.measure(f"/api/v1/rules/search?q={quote(q)}", {"Accept-Language": lang})
        samples = {name: [] for name in NAMES}
        started = load()
        for _ in range(rounds):
            for lang, q in asked:
                api, box, still = NAMES
                samples[api].append(workers.measure(f"/api/v1/rules/search?q={quote(q)}",
                                                    {"Accept-Language": lang}))
                samples[box].append(workers.measure(f"/{lang}/rules/answers/?q={quote(q)}",
                                                    {"HX-Request": "true"}))
                samples[still].append(workers.measure(YARDSTICK))
        ended = load()
    print(report(samples, started, ended))


def report(samples, started, ended) -> str:
    """Latency (the goal), worker CPU per request against /healthz, the load and the spread."""
    lines = []
    latency = {name: [s.seconds * 1000 for s in values] for name, values in samples.items()}
    for name, values in latency.items():
        lines.append(f"{name:30} median {statistics.median(values):6.1f} ms  "
                     f"p95 {p95(values):6.1f} ms  ({len(values)} requests, interleaved)")
    api, box, still = NAMES
    lines.append(f"goal: p95 of the search at most 50 ms (API {p95(latency[api]):.1f} ms, "
                 f"search box {p95(latency[box]):.1f} ms)")
    cpu = {"/healthz (yardstick)": [s.cpu_ms for s in samples[still]],
           api: [s.cpu_ms for s in samples[api]], box: [s.cpu_ms for s in samples[box]]}
    lines += ["", *cpu_lines(cpu, "/healthz (yardstick)"), "", load_line(started, ended)]
    spread = spread_of(cpu) + [f"latency of {name}" for name in spread_of(latency)]
    lines += verdict(started, spread, holds="The latencies, and so the goal, suffer most; " + CPU_HOLDS)
    return "\n".join(lines)


if __name__ == "__main__":
    main()
