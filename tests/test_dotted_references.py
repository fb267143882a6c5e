"""Every dotted name the code's comments, docstrings and the docs mention
(``tutorials.walkthrough.StepNav``, ``captain.rules.solve``) still names something: a
module, or something in one."""

from __future__ import annotations

import importlib
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOTTED = re.compile(r"(?<![\w./-])((?:captain|tutorials)(?:\.[A-Za-z_]\w*)+)")
#: Django system check ids (``captain.E001``) are names of checks, not of code
CHECK_ID = re.compile(r"\.[A-Z]\d{3}$")
SOURCES = sorted([*ROOT.glob("captain/**/*.py"), *ROOT.glob("tutorials/**/*.py"), *ROOT.glob("tests/**/*.py"),
                  *ROOT.glob("docs/*.md"), ROOT / "README.md", *ROOT.glob("templates/**/*.html")])


def _instance_attribute(cls: object, attr: str) -> bool:
    """``attr`` is an attribute a class's ``__init__`` sets (``self.field = …``)."""
    init = getattr(cls, "__init__", None)
    code = getattr(init, "__code__", None)
    return isinstance(cls, type) and code is not None and attr in code.co_names


def resolves(name: str) -> bool:
    parts = name.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            thing = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        for attr in parts[cut:]:
            if not hasattr(thing, attr) and not _instance_attribute(thing, attr):
                return False
            thing = getattr(thing, attr, None)
        return True
    return False


def _mentions() -> list[tuple[str, str]]:
    found = []
    for path in SOURCES:
        if path == Path(__file__).resolve() or "migrations" in path.parts:
            continue  # migrations name models by app label ("tutorials.teachsession"), not by module
        text = path.read_text(encoding="utf-8")
        for n, line in enumerate(text.splitlines(), 1):
            for name in DOTTED.findall(line):
                name = name.rstrip(".")
                if CHECK_ID.search(name):
                    continue
                if name.endswith(("py", "html", "md", "txt", "json", "toml")) and "/" in line:
                    continue
                found.append((f"{path.relative_to(ROOT)}:{n}", name))
    return found


def test_every_dotted_reference_resolves():
    broken = sorted({f"{where}: {name}" for where, name in _mentions() if not resolves(name)})
    assert not broken, "these names no longer exist:\n" + "\n".join(broken)


@pytest.mark.parametrize("name", ["tutorials.no_such_module", "captain.rules.NoSuchThing"])
def test_a_name_that_is_gone_is_found(name):
    assert not resolves(name)
