"""Static checks with the project's ruff configuration (pyproject.toml: pyflakes, pycodestyle,
bugbear, pyupgrade, simplify and a complexity limit of 12 at the project's line length)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_ruff_finds_nothing():
    proc = subprocess.run([sys.executable, "-m", "ruff", "check", "--output-format", "concise",
                           "captain", "tutorials", "tests", "manage.py"],
                          cwd=ROOT, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr
