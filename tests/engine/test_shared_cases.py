"""Every conformance case in shared/cases, in-process and through shared/tools/check_cases.py."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from captain.rules import RulesError, situation_from_json, solve

ROOT = Path(__file__).resolve().parents[2]
CASES = ROOT.parent / "shared" / "cases"
CHECK_CASES = ROOT.parent / "shared" / "tools" / "check_cases.py"
CASE_FILES = sorted(CASES.glob("*.json"))


def norm(key: str, value: object) -> object:
    """List orders the contract leaves open, made comparable as check_cases.py does."""
    if key == "treasure" and isinstance(value, dict):
        return {k: sorted(map(tuple, v)) for k, v in value.items()}
    if key == "standings" and isinstance(value, list):
        return sorted(json.dumps(v, sort_keys=True) for v in value)
    if key == "survivors" and isinstance(value, list):
        return sorted(json.dumps(v) for v in value)
    return value


def test_there_are_cases():
    assert len(CASE_FILES) >= 12


@pytest.mark.parametrize("path", CASE_FILES, ids=[p.stem for p in CASE_FILES])
def test_case(path):
    case = json.loads(path.read_text(encoding="utf-8"))
    expect = case["expect"]
    assert expect, "a case without answers checks nothing"
    if expect.get("error"):
        with pytest.raises(RulesError):
            solve(situation_from_json(case))
        return
    got = solve(situation_from_json(case)).outcome()
    for key, value in expect.items():
        assert key in got, f"{key} missing from the outcome"
        assert norm(key, got[key]) == norm(key, value), key


def test_check_cases_tool_passes():
    proc = subprocess.run([sys.executable, str(CHECK_CASES), "--python", sys.executable,
                           str(CASES)], cwd=ROOT, capture_output=True, text=True, timeout=300)
    last = proc.stdout.strip().splitlines()[-1]
    assert re.fullmatch(r"(\d+) passed, 0 failed", last), proc.stdout
    assert int(last.split()[0]) == len(CASE_FILES)
    assert proc.returncode == 0
