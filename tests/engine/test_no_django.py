"""The rules engine stays pure Python: importing it never loads Django."""

from __future__ import annotations

import pkgutil
import re
import subprocess
import sys
from pathlib import Path

import captain.rules

ROOT = Path(__file__).resolve().parents[2]
RULES_DIR = Path(captain.rules.__file__).parent
SUBMODULES = sorted(m.name for m in pkgutil.walk_packages([str(RULES_DIR)], prefix="captain.rules."))

PROBE = """
import importlib, json, sys
import captain.rules
for name in sys.argv[1:]:
    importlib.import_module(name)
print(json.dumps(sorted(m for m in sys.modules if m == "django" or m.startswith("django."))))
"""


def test_submodules_found():
    assert {"captain.rules.model", "captain.rules.resolve.solve", "captain.rules.__main__"} <= set(
        SUBMODULES)


def test_importing_the_engine_loads_no_django():
    proc = subprocess.run([sys.executable, "-c", PROBE, *SUBMODULES], cwd=ROOT,
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "[]"


def test_no_django_import_in_the_source():
    pattern = re.compile(r"^\s*(import\s+django\b|from\s+django\b)", re.MULTILINE)
    files = sorted(RULES_DIR.rglob("*.py"))
    assert files
    offenders = [str(f.relative_to(ROOT)) for f in files
                 if pattern.search(f.read_text(encoding="utf-8"))]
    assert offenders == []
