"""The examples in the engine's docstrings run and pass."""

from __future__ import annotations

import doctest
import importlib
import pkgutil
from pathlib import Path

import pytest

import captain.rules

RULES_DIR = Path(captain.rules.__file__).parent
MODULES = ["captain.rules"] + sorted(
    m.name for m in pkgutil.walk_packages([str(RULES_DIR)], prefix="captain.rules."))

#: Modules known to carry examples: losing them all would be a silent regression.
WITH_EXAMPLES = {"captain.rules.model", "captain.rules.resolve.battle", "captain.rules.resolve.bell",
                 "captain.rules.resolve.round_end", "captain.rules.situation"}


def _examples(module) -> int:
    finder = doctest.DocTestFinder()
    return sum(len(t.examples) for t in finder.find(module))


@pytest.mark.parametrize("name", MODULES)
def test_doctests(name):
    module = importlib.import_module(name)
    if name in WITH_EXAMPLES:
        assert _examples(module) > 0
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
    if _examples(module):
        assert result.attempted > 0
