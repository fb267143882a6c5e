"""Command line: ``python -m captain.rules solve CASE.json [CASE.json ...]``.

For each file prints one line of JSON with the outcome keys of the case format and
exits 0; for a file the rules do not allow, prints ``error: <what, where>`` to stderr
and exits 1 (after answering the good files).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from .cases import load_case
from .errors import RulesError
from .solve import solve


def main(argv: list[str] | None = None) -> int:
    """Entry point; returns the exit status."""
    parser = argparse.ArgumentParser(prog="python -m captain.rules",
                                     description="Captain Dice rules engine.")
    sub = parser.add_subparsers(dest="command", required=True)
    p_solve = sub.add_parser("solve", help="answer case files (shared/cases format)")
    p_solve.add_argument("files", nargs="+", type=Path)
    p_solve.add_argument("--explain", action="store_true",
                         help="also include the explanation events in each line")
    args = parser.parse_args(argv)
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


if __name__ == "__main__":
    sys.exit(main())
