"""How well the rules search answers the question set (``questions.json``): recall@1 and
recall@3 per language, on the tuned part and on the part held out.

Every third question of a language (the 3rd, 6th, …) is held out: it is never looked at
while the search or the player words are tuned, only for the final figures. A question
counts as found at k when one of its clauses is among the first k answers. The questions
out of scope must get no answer (the best score below the threshold).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from tutorials.search.documents import LANGUAGES
from tutorials.search.index import answers, search

QUESTIONS = Path(__file__).resolve().with_name("questions.json")
#: recall the tuned part must reach in every language
TARGETS = {1: 0.7, 3: 0.9}


@dataclass(frozen=True)
class Question:
    lang: str
    text: str
    clauses: tuple[str, ...]
    held_out: bool


def questions() -> list[Question]:
    data = json.loads(QUESTIONS.read_text(encoding="utf-8"))
    return [Question(lang, q["q"], tuple(q["clauses"]), i % 3 == 2)
            for lang in LANGUAGES for i, q in enumerate(data[lang])]


def out_of_scope() -> dict[str, list[str]]:
    return json.loads(QUESTIONS.read_text(encoding="utf-8"))["out_of_scope"]


def rank_of(question: Question) -> int | None:
    """Where the first right clause comes in the answers (1 = first), or ``None``."""
    for n, hit in enumerate(search(question.text, limit=10), start=1):
        if hit.clause in question.clauses:
            return n
    return None


def figures(held_out: bool) -> dict[str, dict[int, float]]:
    """Recall at 1 and 3 per language, of the tuned part or of the part held out."""
    out = {}
    for lang in LANGUAGES:
        part = [q for q in questions() if q.lang == lang and q.held_out == held_out]
        ranks = [rank_of(q) for q in part]
        out[lang] = {k: sum(1 for r in ranks if r is not None and r <= k) / len(part) for k in (1, 3)}
    return out


def misses(held_out: bool = False, k: int = 3) -> list[tuple[Question, int | None]]:
    """The questions whose clause is not among the first ``k`` answers."""
    return [(q, r) for q in questions() if q.held_out == held_out
            for r in [rank_of(q)] if r is None or r > k]


def answered_out_of_scope() -> list[str]:
    """The out-of-scope questions the search wrongly answers."""
    return [q for qs in out_of_scope().values() for q in qs if answers(q)[1]]
