"""Every refusal the rules engine can raise has its own translated sentence: without one,
``describe`` falls back to the engine's English detail, which a ja or de page then shows."""

from __future__ import annotations

import re
from pathlib import Path

from django.conf import settings
from django.utils import translation

from captain.rules.errors import InvalidInput
from tutorials.wording import problems

ENGINE = Path(settings.BASE_DIR) / "captain" / "rules"
#: codes of files that are not the site's input (the conformance case files of the CLI)
NOT_SHOWN_ON_THE_SITE = {"unreadable", "not-utf8"}


def _engine_codes() -> set[str]:
    codes = set()
    for path in ENGINE.rglob("*.py"):
        codes |= set(re.findall(r'\bcode="([a-z0-9-]+)"', path.read_text(encoding="utf-8")))
    return codes


def test_every_engine_refusal_has_a_sentence():
    codes = _engine_codes()
    assert len(codes) > 40, "the scan found too few codes: is the pattern still right?"
    known = set(problems._SENTENCES) | set(problems._FIXED)
    assert codes - known - NOT_SHOWN_ON_THE_SITE == set()


def test_a_bad_reroll_is_said_in_the_pages_language():
    error = InvalidInput("dice must be null (all) or a list of 1 to 6 faces 1-6", where="action.dice",
                         code="bad-dice")
    with translation.override("ja"):
        sentence = problems.describe(error)
    assert "null" not in sentence and re.search(r"[\u3040-\u30ff]", sentence), sentence


API = Path(settings.BASE_DIR) / "tutorials" / "api"


def test_the_apis_refusals_are_worded_in_the_one_place():
    """The API's endpoints, bodies and problem answers word nothing themselves: every code
    they raise has its sentence in tutorials.wording.problems (the middlewares, which answer
    before any view, still word their three refusals)."""
    known = set(problems._SENTENCES) | set(problems._FIXED)
    raised = set()
    for name in ("endpoints.py", "games.py", "bodies.py", "problems.py"):
        text = (API / name).read_text(encoding="utf-8")
        assert "gettext" not in text and not re.search(r"\b_\(", text), name
        raised |= set(re.findall(r'(?:refusal\(|code=)"([a-z0-9-]+)"', text))
    assert {"empty-body", "bad-text", "not-found", "stale-version", "unsupported-media-type"} <= raised
    assert raised - known == set()
