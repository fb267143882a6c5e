"""Rules search speed over HTTP: ``bin/bench-search`` (prints figures; no goal is asserted).

Runs the release steps of docs/production.md and gunicorn with the production settings (DEBUG off,
Redis cache, three workers), then asks every question of the question set
(tutorials/search/questions.json, the three languages) through the API
(``/api/v1/rules/search``) and through the answers under the search box
(``/<lang>/rules/answers/``, htmx), interleaved with the yardstick, the trivial view
``/healthz``, by one client; prints each one's median and p95 (goal: a p95 of at most
50 ms for the search).
``bin/bench-search N``: N rounds over the questions (default 3).
"""

from __future__ import annotations

import json
import os
import statistics
import sys
import time
from pathlib import Path
from urllib.parse import quote

sys.path.insert(0, str(Path(__file__).resolve().parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "captain.settings")

from harness import BASE_DIR, bench_release, serve  # noqa: E402

QUESTIONS = BASE_DIR / "tutorials" / "search" / "questions.json"


def timed(server, path: str, headers: dict[str, str]) -> float:
    """Seconds for one GET of ``path`` (the whole body read); checks the status."""
    started = time.perf_counter()
    status, _headers, body = server.get(path, client="198.18.7.8", headers=headers)
    elapsed = time.perf_counter() - started
    assert status == 200, (path, status, body[:200])
    return elapsed


def p95(values: list[float]) -> float:
    return statistics.quantiles(values, n=20)[-1]


def main() -> None:
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    data = json.loads(QUESTIONS.read_text(encoding="utf-8"))
    asked = [(lang, q["q"]) for lang in ("ja", "en", "de") for q in data[lang]]
    with bench_release() as release, serve(release, workers=3, name="bench-search") as server:
        yardstick = "/healthz"
        for lang, q in asked[:12]:  # warm every worker up (each builds its index once)
            timed(server, f"/api/v1/rules/search?q={quote(q)}", {"Accept-Language": lang})
        api, box, still = [], [], []
        for _ in range(rounds):
            for lang, q in asked:
                language = {"Accept-Language": lang}
                api.append(timed(server, f"/api/v1/rules/search?q={quote(q)}", language))
                box.append(timed(server, f"/{lang}/rules/answers/?q={quote(q)}",
                                 {"HX-Request": "true"}))
                still.append(timed(server, yardstick, {}))
    for name, values in (("API /api/v1/rules/search", api), ("answers under the search box", box),
                         ("yardstick: /healthz", still)):
        print(f"{name:30} median {statistics.median(values) * 1000:6.1f} ms  "
              f"p95 {p95(values) * 1000:6.1f} ms  ({len(values)} requests, interleaved)")
    print(f"goal: p95 of the search at most 50 ms (API {p95(api) * 1000:.1f} ms, "
          f"search box {p95(box) * 1000:.1f} ms)")


if __name__ == "__main__":
    main()
