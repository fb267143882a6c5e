"""What the conformance tests check against, all inside the repository.

* :data:`CASE_FILES` — the "what happens here?" cases in ``tests/cases/`` (their contract is
  ``tests/cases/README.md``);
* :data:`CLAUSE_IDS` — every clause id of the site's own rules reference
  (``tutorials/wording/clauses.py``), so a test of the engine's clause registry compares it
  with something the engine did not write;
* :func:`norm` — the list orders the case contract leaves open, made comparable;
* :func:`check_case` — a case answered in-process exactly as it expects;
* :data:`SHARED` — the team's shared folder beside the checkout, or ``None``: only
  ``test_shared_reference.py`` reads it, as an extra check.

(Imported as ``conformance``: ``tests/`` is on ``sys.path`` through its ``conftest.py``.)
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from captain.rules import RulesError, situation_from_json, solve
from tutorials.wording.clauses import CLAUSES

ROOT = Path(__file__).resolve().parents[1]
CASE_DIR = ROOT / "tests" / "cases"
CASE_FILES = sorted(CASE_DIR.glob("*.json"))
CLAUSE_IDS = tuple(CLAUSES)
SHARED = ROOT.parent / "shared" if (ROOT.parent / "shared" / "RULES.md").is_file() else None


def load(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def readable_case_files() -> list[Path]:
    """The cases whose position the rules allow (those without an expected error)."""
    return [path for path in CASE_FILES if not load(path)["expect"].get("error")]


def norm(key: str, value: object) -> object:
    """Outcome lists whose order the contract leaves open, sorted so they compare."""
    if key == "treasure" and isinstance(value, dict):
        return {k: sorted(map(tuple, v)) for k, v in value.items()}
    if key in ("standings", "survivors") and isinstance(value, list):
        return sorted(json.dumps(v, sort_keys=True) for v in value)
    return value


def differences(expect: dict, got: dict) -> list[str]:
    """The expected keys ``got`` misses or answers otherwise, each said as ``key: want ≠ got``."""
    return [f"{key}: {json.dumps(want)} ≠ {json.dumps(got.get(key, '<missing>'))}"
            for key, want in expect.items() if norm(key, got.get(key, "<missing>")) != norm(key, want)]


def check_case(path: Path) -> None:
    """Fail unless ``solve`` answers the case as its ``expect`` block says, or refuses its
    position when that expects an error."""
    case = load(path)
    expect = case["expect"]
    assert expect, "a case without answers checks nothing"
    if expect.get("error"):
        with pytest.raises(RulesError):
            solve(situation_from_json(case))
        return
    assert not differences(expect, solve(situation_from_json(case)).outcome())
