"""Threads, timers, processes, forks and leases are the servers' and their clients' to run
(gunicorn, uvicorn, nginx, systemd, Redis): no module of the site, the engine, the gunicorn
configurations or ``bin/`` starts one, except those ``docs/architecture.md`` lists under
"Runtime code of our own", each with the requirement that keeps it. The list and the code
agree both ways, so a module that stops needing its exception leaves the list too."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
ARCHITECTURE = ROOT / "docs" / "architecture.md"

#: modules whose import alone means running processes, threads or locks by hand
_MODULES = {"multiprocessing", "_thread", "ctypes", "fcntl"}
#: names that start a thread, timer, process or fork, or take a lease, wherever they come from
_CALLS = {"Thread", "Timer", "Popen", "ThreadPoolExecutor", "ProcessPoolExecutor", "fork", "forkpty",
          "prctl", "spawnv", "spawnl", "posix_spawn"}
#: redis-py's scripts and locks (a Lua lease, ``Lock``)
_REDIS = {"eval", "evalsha", "register_script", "lock"}
#: the same, as a shell script or a one-line Python in ``bin/`` would write them
_SHELL = re.compile(r"\b(threading|multiprocessing|Popen|os\.fork|fcntl|flock|prctl|ctypes"
                    r"|register_script)\b")


def _python_sources() -> list[Path]:
    found = list(ROOT.glob("gunicorn*.conf.py"))
    for base in ("captain", "tutorials"):
        found += (ROOT / base).rglob("*.py")
    return sorted(found)


def _uses(tree: ast.AST) -> list[str]:
    """What in ``tree`` starts a thread, timer, process or fork, or takes a lease."""
    seen = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            seen += [a.name for a in node.names if a.name.split(".")[0] in _MODULES]
        elif isinstance(node, ast.ImportFrom) and node.module:
            if node.module.split(".")[0] in _MODULES:
                seen.append(node.module)
            seen += [f"{node.module}.{a.name}" for a in node.names if a.name in _CALLS]
        elif isinstance(node, ast.Call):
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            if name in _CALLS or (isinstance(func, ast.Attribute) and name in _REDIS):
                seen.append(ast.unparse(func))
    return seen


def _found() -> dict[str, list[str]]:
    found = {}
    for path in _python_sources():
        uses = _uses(ast.parse(path.read_text(encoding="utf-8"), filename=str(path)))
        if uses:
            found[str(path.relative_to(ROOT))] = uses
    for path in sorted((ROOT / "bin").iterdir()):
        uses = _SHELL.findall(path.read_text(encoding="utf-8"))
        if uses:
            found[str(path.relative_to(ROOT))] = uses
    return found


def _listed() -> set[str]:
    """The paths in the table of the "Runtime code of our own" section."""
    text = ARCHITECTURE.read_text(encoding="utf-8")
    section = re.search(r"^## Runtime code of our own\n(.*?)(?=^## |\Z)", text, re.MULTILINE | re.DOTALL)
    assert section, "docs/architecture.md has no section '## Runtime code of our own'"
    return set(re.findall(r"^\| `([^`]+)` \|", section[1], re.MULTILINE))


def test_the_walk_sees_what_it_looks_for():
    source = ("import threading, fcntl\nfrom subprocess import Popen\nimport os\n"
              "threading.Thread(target=print).start()\nos.fork()\nclient.lock('x')\n"
              "client.register_script('return 1')\nPopen(['true'])\n")
    assert sorted(_uses(ast.parse(source))) == sorted(
        ["fcntl", "subprocess.Popen", "threading.Thread", "os.fork", "client.lock",
         "client.register_script", "Popen"])
    assert _uses(ast.parse("import threading\nlock = threading.Lock()\nwith lock: pass\n")) == []


def test_only_the_listed_modules_start_threads_processes_or_leases():
    found, listed = _found(), _listed()
    unlisted = {path: uses for path, uses in found.items() if path not in listed}
    assert not unlisted, ("start a thread, timer, process, fork or lease but are not in "
                          f"docs/architecture.md: {unlisted}")


@pytest.mark.parametrize("path", sorted(_listed()) if ARCHITECTURE.exists() else [])
def test_every_listed_module_still_needs_its_exception(path):
    assert (ROOT / path).exists(), f"docs/architecture.md lists {path}, which does not exist"
    assert path in _found(), \
        f"docs/architecture.md lists {path}, which no longer starts anything: take it off"
