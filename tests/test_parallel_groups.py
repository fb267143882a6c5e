"""pytest-xdist keeps an ``xdist_group`` on one worker: bin/test relies on it (the deploy
suite's release steps and Redis databases, each sheet's one render). Some pytest and
pytest-xdist versions together drop the groups without a word, so a small suite run in a
subprocess checks it here."""

from __future__ import annotations

import os
import subprocess
import sys

SUITE = '''
import os
import pytest

def record(name):
    with open(os.path.join(os.environ["GROUPS_OUT"], name), "w") as fh:
        fh.write(os.environ["PYTEST_XDIST_WORKER"])

@pytest.mark.xdist_group("together")
@pytest.mark.parametrize("i", range(6))
def test_grouped(i):
    record(f"grouped-{i}")

@pytest.mark.parametrize("i", range(6))
def test_later(i):
    record(f"later-{i}")
'''

ADDED_LATER = '''
import pytest

@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(items):
    for item in items:
        if item.name.startswith("test_later"):
            item.add_marker(pytest.mark.xdist_group("added"))
'''


def test_each_group_runs_on_one_worker(tmp_path):
    """A group given by a mark, and one added at collection as tests/deploy/conftest.py and
    tests/site/conftest.py add theirs: each ran on one worker."""
    suite = tmp_path / "suite"
    suite.mkdir()
    (tmp_path / "out").mkdir()
    (suite / "test_groups.py").write_text(SUITE)
    (suite / "conftest.py").write_text(ADDED_LATER)
    proc = subprocess.run([sys.executable, "-m", "pytest", "-n", "2", "--dist", "loadgroup", "-q",
                           "-p", "no:randomly", "-p", "no:django", "-p", "no:cacheprovider",
                           "-c", os.devnull, "--rootdir", str(suite), str(suite)],
                          capture_output=True, text=True, timeout=120,
                          env={**os.environ, "GROUPS_OUT": str(tmp_path / "out")})
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    ran: dict[str, set[str]] = {"grouped": set(), "later": set()}
    for path in (tmp_path / "out").iterdir():
        ran[path.name.split("-")[0]].add(path.read_text())
    assert ran["grouped"] in ({"gw0"}, {"gw1"}), ran
    assert ran["later"] in ({"gw0"}, {"gw1"}), ran
