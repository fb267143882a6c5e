"""Imports sit at the top of modules; one inside a function says why in a comment
(hidden function-level imports used to mask import cycles)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
MODULES = sorted(p for base in ("captain", "tutorials") for p in (ROOT / base).rglob("*.py")
                 if "migrations" not in p.parts)


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(ROOT)))
def test_function_level_imports_say_why(path):
    lines = path.read_text(encoding="utf-8").splitlines()
    for node in ast.walk(ast.parse("\n".join(lines))):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for sub in ast.walk(node):
                if isinstance(sub, (ast.Import, ast.ImportFrom)):
                    assert "#" in lines[sub.lineno - 1], \
                        f"{path.relative_to(ROOT)}:{sub.lineno}: an import inside a function without a reason"
