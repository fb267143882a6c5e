"""Analyzer cost over HTTP: ``bin/bench-analyzer`` (prints figures; no goal is asserted).

Runs the release steps of docs/production.md and gunicorn with the production settings (DEBUG off,
Redis cache, three workers), then asks, one request at a time as a browser does
(``Accept-Encoding: gzip, br``), for the analyzer page and its what-if panel (the htmx fragment
the page asks for once shown) of 20 varied positions (full 4x4 battles and the dice boards of
seeded random 2- to 4-player games, in English, German and Japanese by turns), each first seen
in the run (cold: nothing of it cached) and then again (warm), with the trivial view
``/healthz`` between them as the yardstick.

What it measures is the CPU time the gunicorn workers spend on each request (all their threads,
from /proc), not latency: a busy machine makes every request wait, and a short request waits
proportionally longer, so a latency ratio grows with the load while the CPU ratio does not. It
prints the median and quartiles per request, the ratios to ``/healthz`` beside their goals (the
page at most 3, the panel at most 4, cold), the load average at the start and the end, and says
when the machine was busy or the spread wide. ``bin/bench-analyzer N``: N positions instead of 20.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from urllib.parse import urlencode

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "captain.settings")

from bench_figures import CPU_HOLDS, YARDSTICK, Workers, cpu_lines, load, load_line, spread_of, verdict  # noqa: E402
from captain.rules import Colour, RulesError, Situation, notation  # noqa: E402
from captain.rules.sim.bench import full_battle_board  # noqa: E402
from captain.rules.sim.players import POLICIES, play_game  # noqa: E402
from harness import FULL_BATTLE, bench_release, serve  # noqa: E402

#: the full 4x4 battle, the first of :func:`positions` (bin/bench-bytes weighs its page)
PAGE = f"/en/analyze/?pos={FULL_BATTLE}"
BROWSER = {"Accept-Encoding": "gzip, br"}
HTMX = {"HX-Request": "true"}
LANGUAGES = ("en", "de", "ja")
#: the series as printed, the yardstick first
NAMES = {"healthz": "/healthz (yardstick)", "page cold": "page, cold",
         "panel cold": "what-if panel (htmx), cold", "page warm": "page, warm",
         "panel warm": "what-if panel (htmx), warm"}
#: the cold ratios to /healthz the analyzer must stay within (docs/benchmarks.md)
GOALS = {NAMES["page cold"]: 3.0, NAMES["panel cold"]: 4.0}


def positions(count: int, *, first_seed: int = 0) -> list[str]:
    """``count`` different positions, half of them full 4x4 battles (16 attack cards, seeded
    as the engine bench seeds them), half the fullest dice boards of seeded random games of
    2, 3 and 4 players by turns, alternately."""
    found: list[str] = []
    seed = first_seed
    while len(found) < count:
        if len(found) % 2 == 0:
            board, seating = full_battle_board(seed + 1)
            code = Situation(board, seating).to_notation()
        else:
            code = _game_position(seed)
        seed += 1
        if code and code not in found:
            found.append(code)
    return found


def _game_position(seed: int) -> str:
    """The fullest board a random game of 2 to 4 players (by ``seed``) shows as a position
    to analyze ("" when none does)."""
    colours = tuple(Colour)[:2 + seed % 3]
    states: list = []
    play_game(colours, {c: POLICIES["random"] for c in colours}, seed=seed,
              on_step=lambda _before, _action, after: states.append(after))
    readable = []
    for state in states:
        if state.is_over or not (state.board.cards() or state.board.dice()):
            continue
        code = Situation(state.board, state.seating, state.rules).to_notation()
        try:
            notation.parse(code)  # during Battle Time cards and dice lie together: no position
        except RulesError:
            continue
        readable.append((len(state.board.cards()) + len(state.board.dice()), code))
    return max(readable)[1] if readable else ""


def addresses(code: str, lang: str) -> tuple[str, str]:
    """The analyzer page of ``code`` in ``lang`` and its what-if panel."""
    query = urlencode({"pos": code})
    return f"/{lang}/analyze/?{query}", f"/{lang}/analyze/what-if/?{query}"


def main() -> None:
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 20
    measured = positions(count)
    warm_up = positions(6, first_seed=1000)
    series: dict[str, list[float]] = {name: [] for name in NAMES}
    with bench_release() as release, serve(release, workers=3, name="bench-analyzer") as server:
        workers = Workers(server, headers=BROWSER)
        for index, code in enumerate(warm_up * 3):  # every worker loads its code and templates
            page, panel = addresses(code, LANGUAGES[index % 3])
            workers.cost(page)
            workers.cost(panel, HTMX)
            workers.cost(YARDSTICK)
        started = load()
        for kind in ("cold", "warm"):
            for index, code in enumerate(measured):
                page, panel = addresses(code, LANGUAGES[index % 3])
                series["healthz"].append(workers.cost(YARDSTICK))
                series[f"page {kind}"].append(workers.cost(page))
                series["healthz"].append(workers.cost(YARDSTICK))
                series[f"panel {kind}"].append(workers.cost(panel, HTMX))
        ended = load()
    printed = {NAMES[key]: values for key, values in series.items()}
    print("\n".join([load_line(started, ended),
                     f"{count} positions in {', '.join(LANGUAGES)} by turns", "",
                     *cpu_lines(printed, NAMES["healthz"], GOALS), "",
                     *verdict(started, spread_of(printed), holds=CPU_HOLDS)]))


if __name__ == "__main__":
    main()
