"""Every conformance case of tests/cases, in-process and through ``python -m captain.rules solve``."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from conformance import CASE_DIR, CASE_FILES, ROOT, check_case, differences, load


def test_there_are_cases():
    assert len(CASE_FILES) >= 12


@pytest.mark.parametrize("path", CASE_FILES, ids=[p.stem for p in CASE_FILES])
def test_case(path):
    check_case(path)


def test_the_command_line_answers_every_case():
    """One ``solve`` run over the whole folder: one JSON line per readable case, in order;
    every case whose rules forbid its position named on stderr, and then exit 1."""
    proc = subprocess.run([sys.executable, "-m", "captain.rules", "solve", *map(str, CASE_FILES)],
                          cwd=ROOT, capture_output=True, text=True, timeout=300)
    cases = [load(path) for path in CASE_FILES]
    readable = [case for case in cases if not case["expect"].get("error")]
    lines = proc.stdout.splitlines()
    assert len(lines) == len(readable), proc.stdout + proc.stderr
    for case, line in zip(readable, lines, strict=True):
        assert not differences(case["expect"], json.loads(line)), case["id"]
    refused = [path for path, case in zip(CASE_FILES, cases, strict=True) if case["expect"].get("error")]
    assert proc.returncode == (1 if refused else 0), proc.stderr
    for path in refused:
        assert f"error: {path}" in proc.stderr or f"error: {path.name}" in proc.stderr


def test_the_case_readme_names_every_outcome_key():
    """The contract in tests/cases/README.md covers every key an answer can hold."""
    readme = (CASE_DIR / "README.md").read_text(encoding="utf-8")
    keys = {key for path in CASE_FILES for key in load(path)["expect"]}
    assert keys, "no outcome keys"
    for key in keys | {"removals", "survivors", "treasure", "bell", "board_after", "game_over",
                       "standings", "winner"}:
        assert f"`{key}`" in readme, key
