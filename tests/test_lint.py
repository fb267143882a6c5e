"""Static checks: no undefined names, unused imports or syntax errors (ruff, rules F and E9)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_ruff_finds_no_errors():
    proc = subprocess.run([sys.executable, "-m", "ruff", "check", "--select", "F,E9", "--output-format",
                           "concise", "captain", "tutorials", "tests"], cwd=ROOT, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr
