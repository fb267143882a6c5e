"""Command line of the rules engine.

``python -m captain.rules solve CASE.json [CASE.json ...]``
    For each file prints one line of JSON with the outcome keys of the case format and
    exits 0; for a file the rules do not allow, prints ``error: <what, where>`` to
    stderr and exits 1 (after answering the good files).

``python -m captain.rules simulate --players 4 --games N --seed S [--mode strategy] [--jobs J]``
    Plays whole games with computer players and prints statistics, the longest Dice Time
    among them (``--policy strong``: strong captains in every seat; ``--jobs 0``: one
    process per core; the figures do not depend on ``--jobs``).

``python -m captain.rules winrate --strength strong --against greedy --games 1000 [--jobs 0]``
    Plays one computer captain against others, seats rotated, and prints its win share
    with a 95% confidence interval and its decision times (``--mode strategy`` for the
    strategy mode).

``python -m captain.rules bench``
    Prints benchmark figures, each interleaved with a yardstick (:mod:`captain.rules.sim.bench`).

``python -m captain.rules transcript --players 3 --seed S``
    Prints a readable transcript of one seeded game.

``python -m captain.rules golden [tests/golden]``
    Rewrites the golden transcripts; review them with ``git diff``.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

from .cases import load_case
from .errors import RulesError
from .resolve.solve import solve
from .situation import Mode


def main(argv: list[str] | None = None) -> int:
    """Entry point; returns the exit status."""
    parser = argparse.ArgumentParser(prog="python -m captain.rules",
                                     description="Captain Dice rules engine.")
    sub = parser.add_subparsers(dest="command", required=True)
    p_solve = sub.add_parser("solve", help="answer case files (tests/cases format)")
    p_solve.add_argument("files", nargs="+", type=Path)
    p_solve.add_argument("--explain", action="store_true",
                         help="also include the explanation events in each line")
    p_sim = sub.add_parser("simulate", help="play many games and print statistics")
    p_sim.add_argument("--players", type=int, choices=(2, 3, 4), default=4)
    p_sim.add_argument("--games", type=int, default=100)
    p_sim.add_argument("--seed", type=int, default=0)
    p_sim.add_argument("--mode", choices=("action", "strategy"), default="action")
    p_sim.add_argument("--policy", choices=("random", "greedy", "strong"), default="random")
    p_sim.add_argument("--jobs", type=int, default=1,
                       help="processes to play in (0: one per core); same figures either way")
    p_win = sub.add_parser("winrate", help="one captain against others: win share and decision times")
    p_win.add_argument("--strength", choices=("random", "greedy", "strong"), default="strong")
    p_win.add_argument("--against", choices=("random", "greedy", "strong"), default="greedy")
    p_win.add_argument("--players", type=int, choices=(2, 3, 4), default=4)
    p_win.add_argument("--games", type=int, default=1000)
    p_win.add_argument("--seed", type=int, default=0)
    p_win.add_argument("--mode", choices=("action", "strategy"), default="action")
    p_win.add_argument("--jobs", type=int, default=1,
                       help="processes to play in (0: one per core); same figures either way")
    p_bench = sub.add_parser("bench", help="print benchmark figures")
    p_bench.add_argument("--seconds", type=float, default=3.0,
                         help="how long to play random games for the games/s figure")
    p_bench.add_argument("--rounds", type=int, default=41,
                         help="rounds per interleaved figure (ours and the yardstick in turn)")
    p_tr = sub.add_parser("transcript", help="print a readable transcript of one seeded game")
    p_tr.add_argument("--players", type=int, choices=(2, 3, 4), default=4)
    p_tr.add_argument("--seed", type=int, default=0)
    p_tr.add_argument("--mode", choices=("action", "strategy"), default="action")
    p_tr.add_argument("--policy", choices=("random", "greedy"), default="greedy")
    p_golden = sub.add_parser("golden", help="rewrite the golden transcripts (review the diff)")
    p_golden.add_argument("directory", nargs="?", default="tests/golden")
    args = parser.parse_args(argv)
    if args.command == "golden":
        from .sim.transcript import write_golden  # each command loads only what it runs

        for name in write_golden(args.directory):
            print(f"wrote {args.directory}/{name}")
        return 0
    if args.command == "simulate":
        return _simulate(args)
    if args.command == "winrate":
        return _winrate(args)
    if args.command == "bench":
        from .sim.bench import bench  # each command loads only what it runs

        if not 0 < args.seconds <= 600:
            print("error: --seconds must be more than 0 and at most 600", file=sys.stderr)
            return 2
        if not 4 <= args.rounds <= 10_000:
            print("error: --rounds must be 4 to 10000", file=sys.stderr)
            return 2
        print(bench(args.seconds, args.rounds))
        return 0
    if args.command == "transcript":
        from .sim.transcript import transcript  # each command loads only what it runs

        print(transcript(args.players, args.seed, Mode(args.mode), args.policy), end="")
        return 0
    status = 0
    for path in args.files:
        try:
            solution = solve(load_case(path))
        except RulesError as exc:
            print(f"error: {path}: {exc}", file=sys.stderr)
            status = 1
            continue
        out = solution.outcome()
        if args.explain:
            out["events"] = [e.to_json() for e in solution.events]
        print(json.dumps(out, ensure_ascii=False))
    return status


def _simulate(args: argparse.Namespace) -> int:
    import time  # each command loads only what it runs

    from .sim.simulate import report, simulate  # (see above)

    if args.games < 1:
        print("error: --games must be 1 or more", file=sys.stderr)
        return 2
    if args.jobs < 0:
        print("error: --jobs must be 0 (one per core) or more", file=sys.stderr)
        return 2
    jobs = min(args.jobs or os.cpu_count() or 1, args.games)
    mode = Mode(args.mode)
    t = time.perf_counter()
    tally = simulate(args.players, args.games, args.seed, mode, args.policy, jobs)
    print(report(tally, args.players, args.games, mode, args.policy, time.perf_counter() - t,
                 jobs))
    return 0


def _winrate(args: argparse.Namespace) -> int:
    import time  # each command loads only what it runs

    from .sim.winrate import report, winrate  # (see above)

    if args.games < 2:
        print("error: --games must be 2 or more", file=sys.stderr)
        return 2
    if args.jobs < 0:
        print("error: --jobs must be 0 (one per core) or more", file=sys.stderr)
        return 2
    jobs = min(args.jobs or os.cpu_count() or 1, args.games)
    mode = Mode(args.mode)
    t = time.perf_counter()
    tally = winrate(args.strength, args.against, players=args.players, games=args.games,
                    seed=args.seed, mode=mode, jobs=jobs)
    print(report(tally, args.strength, args.against, args.players, mode, time.perf_counter() - t))
    return 0


if __name__ == "__main__":
    sys.exit(main())
