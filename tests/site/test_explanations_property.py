"""Every explanation of random legal positions (both modes, 2-4 players, every variant)
renders in ja, en and de without error and without English left in ja and de.
Which clause each event cites is checked against the reference in
tests/engine/test_explanation_flags.py; this test checks the wording side."""

from __future__ import annotations

import importlib.util
import re
from functools import cache

from django.utils import translation
from hypothesis import HealthCheck, given, settings

from captain.rules import solve
from profiles import examples
from tutorials.wording.clauses import clause_summary
from tutorials.wording.events import explain
from wording_helpers import ROOT, english_messages


def _engine_strategies():
    """The engine tests' hypothesis strategies (tests/ holds no packages, so by path)."""
    spec = importlib.util.spec_from_file_location(
        "engine_strategies", ROOT / "tests" / "engine" / "engine_strategies.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


situations = _engine_strategies().situations


@cache
def _english() -> tuple[str, ...]:
    return tuple(english_messages())


@settings(max_examples=examples(150), suppress_health_check=[HealthCheck.too_slow])
@given(situations())
def test_every_explanation_renders_in_every_language(situation):
    events = solve(situation).events
    texts = {}
    for lang in ("en", "ja", "de"):
        with translation.override(lang):
            explanations = [explain(e) for e in events]
            texts[lang] = [x.text for x in explanations]
            for x in explanations:
                assert x.text.strip()
                assert all(clause_summary(c) for c in x.cited), x.cited
    for lang in ("ja", "de"):
        for text in texts[lang]:
            leftovers = [m for m in _english() if m in text]
            assert not leftovers, (lang, text, leftovers)
    for text in texts["ja"]:
        assert not re.search(r"[A-Za-z]{4,}", re.sub(r"[A-Z]+-[0-9]+", "", text)), text
