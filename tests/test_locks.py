"""The two lock files bin/lock writes: requirements.txt is what a production host installs
(docs/production.md), requirements-dev.txt what a developer and CI install (bin/setup). The
test tools of pyproject's dev extra belong to the second only, and the second pins every
production package exactly as the first does, so the tests run on what is deployed."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parents[1]
PIN = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)==(\S+)")


def _locked(name: str) -> dict[str, tuple[str, tuple[str, ...]]]:
    """Package → (version, hashes) of a lock file written by pip-compile --generate-hashes."""
    found: dict[str, tuple[str, tuple[str, ...]]] = {}
    package = None
    for line in (ROOT / name).read_text(encoding="utf-8").splitlines():
        pin = PIN.match(line)
        if pin:
            package = canonicalize_name(pin.group(1))
            found[package] = (pin.group(2).rstrip("\\").strip(), ())
        elif package and line.strip().startswith("--hash="):
            version, hashes = found[package]
            found[package] = (version, (*hashes, line.strip().rstrip("\\").strip()))
        elif line.strip() and not line.startswith((" ", "#")):
            raise AssertionError(f"{name}: a line that is neither a pin, a hash nor a comment: {line!r}")
    return found


def _extra(name: str) -> set[str]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    return {canonicalize_name(Requirement(r).name) for r in project["optional-dependencies"][name]}


def _dependencies() -> set[str]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    return {canonicalize_name(Requirement(r).name) for r in project["dependencies"]}


def test_the_production_lock_holds_no_test_package():
    production = _locked("requirements.txt")
    tools = _extra("dev")
    assert {"pytest", "playwright", "hypothesis", "schemathesis", "mypy"} <= tools
    assert sorted(tools & set(production)) == []
    assert _dependencies() | _extra("postgres") <= set(production)


def test_the_dev_lock_is_production_plus_the_test_tools():
    production, dev = _locked("requirements.txt"), _locked("requirements-dev.txt")
    assert _extra("dev") <= set(dev)
    differing = {name: (pin[0], dev.get(name, ("missing",))[0])
                 for name, pin in production.items() if dev.get(name) != pin}
    assert differing == {}, "run bin/lock: the dev lock must pin production's versions and hashes"
    assert all(hashes for _version, hashes in dev.values()), "every pin needs its hashes"
