"""Static checks, run by bin/test and bin/test --quick alike: ruff with the project's
configuration (pyproject.toml: pyflakes, pycodestyle, bugbear, pyupgrade, simplify, import
order, and a complexity limit of 12 at the project's line length), and the type checker,
mypy with the Django plugin over captain and tutorials (pyproject.toml [tool.mypy]: the
engine strict, the site's modules loosened one by one; an unused ``# type: ignore`` is an
error)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_ruff_finds_nothing():
    proc = subprocess.run([sys.executable, "-m", "ruff", "check", "--output-format", "concise",
                           "captain", "tutorials", "tests", "manage.py"],
                          cwd=ROOT, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_types_check():
    # the plugin loads the settings: the production-like variables of a bin/test run
    # (a PostgreSQL or Redis URL) change nothing in the types
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    proc = subprocess.run([sys.executable, "-m", "mypy", "--no-error-summary", "--show-error-codes"],
                          cwd=ROOT, capture_output=True, text=True, env=env)
    assert proc.returncode == 0, proc.stdout + proc.stderr
