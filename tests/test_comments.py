"""The code says why in its own terms: no issue numbers and no testers' roles in the code,
templates, scripts or tests (the history of a change belongs in its commit message)."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
WHERE = ("captain", "tutorials", "templates", "static/js", "static/css", "tests", "bin")
SUFFIXES = {".py", ".html", ".js", ".css", ".txt", ""}
HISTORY = re.compile(r"\b[Ii]ssues? ?#?\d+|\bthe breaker\b|\bbreaker's\b")


def _files():
    for top in WHERE:
        for path in sorted((ROOT / top).rglob("*")):
            if path.is_file() and path.suffix in SUFFIXES and "__pycache__" not in path.parts:
                yield path


def test_no_issue_numbers_or_testers_roles():
    found = []
    for path in _files():
        if path == Path(__file__).resolve():
            continue
        for n, line in enumerate(path.read_text(encoding="utf-8", errors="replace").splitlines(), 1):
            if HISTORY.search(line):
                found.append(f"{path.relative_to(ROOT)}:{n}: {line.strip()[:90]}")
    assert not found, "say why in the code's own terms:\n" + "\n".join(found)
