"""An extra check against the team's shared folder, when it sits beside the checkout.

``../shared/RULES.md`` is the rules specification the site's rules reference was written
from, and ``../shared/cases/`` the original conformance cases (more than the copy in
``tests/cases/`` may hold one day). Without that folder this module is one skip: the rest
of the suite needs nothing outside the repository.
"""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

from conformance import CLAUSE_IDS, ROOT, SHARED, check_case

if SHARED is None:
    pytest.skip("no ../shared beside the checkout: the shared rules and cases are an extra check",
                allow_module_level=True)

RULES_MD = SHARED / "RULES.md"
CASES = SHARED / "cases"
CHECK_CASES = SHARED / "tools" / "check_cases.py"
CASE_FILES = sorted(CASES.glob("*.json"))


def test_there_are_cases():
    assert len(CASE_FILES) >= 12


def test_the_rules_reference_has_exactly_the_specifications_clauses():
    """The site's rules reference (tutorials/wording/clauses.py) states every clause of
    RULES.md and no other, so the tests that read it check the specification's ids."""
    specified = re.findall(r"^- \*\*([A-Z]+-\d+)\b", RULES_MD.read_text(encoding="utf-8"), re.MULTILINE)
    assert len(specified) == len(set(specified)) > 40
    assert sorted(CLAUSE_IDS) == sorted(specified)


@pytest.mark.parametrize("path", CASE_FILES, ids=[p.stem for p in CASE_FILES])
def test_case(path):
    check_case(path)


def test_check_cases_tool_passes():
    proc = subprocess.run([sys.executable, str(CHECK_CASES), "--python", sys.executable,
                           str(CASES)], cwd=ROOT, capture_output=True, text=True, timeout=300)
    last = proc.stdout.strip().splitlines()[-1]
    assert re.fullmatch(r"(\d+) passed, 0 failed", last), proc.stdout
    assert int(last.split()[0]) == len(CASE_FILES)
    assert proc.returncode == 0
