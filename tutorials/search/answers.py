"""The rules search's answers as the pages and the API show them, in the active language.

:func:`answer` turns the ranked hits of :func:`tutorials.search.index.answers` into
:class:`Answer` values: the clause, its statement with the question's words marked, what
led to it (an FAQ entry, a "when it comes up" card, a term of the glossary), whether it is
one of the site's readings, the clauses it leads on to and the example that shows it on a
board in the analyzer.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from django.urls import reverse
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language, pgettext

from tutorials.search.documents import EXAMPLES, RELATED, section_title
from tutorials.search.index import Hit, answers, rules_index
from tutorials.search.words import normalize
from tutorials.web.links import analyzer_url
from tutorials.wording.clauses import clause_summary

#: at most this many characters of a question are read
MAX_QUESTION = 200
_CJK = re.compile("[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")


@dataclass(frozen=True)
class Answer:
    """One clause found for a question (see the module docstring)."""

    clause: str
    section: str
    text: SafeString
    url: str
    led_by: str
    led_by_text: SafeString
    reading: bool
    related: tuple[tuple[str, str], ...]
    example_url: str

    def to_json(self) -> dict:
        return {"clause": self.clause, "title": self.section, "text": _plain(self.text),
                "url": self.url, "reading": self.reading,
                "related": [clause for clause, _text in self.related],
                "example": self.example_url or None}


@dataclass(frozen=True)
class Found:
    """What a question found: its ``answers`` (best first) and whether the best one
    answers it (``answered``); when not, the answers are the closest clauses."""

    question: str
    answers: tuple[Answer, ...]
    answered: bool
    clause_asked: str | None = None


def _plain(html: str) -> str:
    return re.sub(r"</?mark>", "", str(html)).replace("&amp;", "&").replace("&lt;", "<") \
        .replace("&gt;", ">").replace("&quot;", '"').replace("&#x27;", "'")


def highlight(text: str, words: tuple[str, ...]) -> SafeString:
    """``text`` escaped, the question's ``words`` marked (``<mark>``): whole words in Latin
    script, any occurrence in Japanese; marks that touch are joined."""
    folded = normalize(text)
    if len(folded) != len(text):  # NFKC changed the length: mark nothing rather than wrongly
        return escape(text)
    spans = []
    for word in words:
        if len(word) < 2:
            continue
        pattern = re.escape(word) if _CJK.search(word) else rf"(?<![^\W_]){re.escape(word)}(?![^\W_])"
        spans += [m.span() for m in re.finditer(pattern, folded)]
    spans.sort()
    merged: list[list[int]] = []
    for start, end in spans:
        if merged and start <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], end)
        else:
            merged.append([start, end])
    out, at = [], 0
    for start, end in merged:
        out += [escape(text[at:start]), "<mark>", escape(text[start:end]), "</mark>"]
        at = end
    out.append(escape(text[at:]))
    return mark_safe("".join(out))


def _led_by(kind: str, title: str, text: str) -> str:
    """What led to an answer as one line, joined the way the active language joins a
    question and its answer, or a heading and its text (Japanese: no half-width spaces)."""
    if kind == "faq":
        return pgettext("rules search: a frequent question, then its answer",
                        "%(question)s — %(answer)s") % {"question": title, "answer": text}
    if not text:
        return title
    return pgettext("rules search: a card's or a term's title, then its text",
                    "%(title)s: %(text)s") % {"title": title, "text": text}


def _answer(hit: Hit) -> Answer:
    index = rules_index()
    entry = index.entries.get(hit.entry)
    led_by, led_text = "", mark_safe("")
    if entry is not None and entry.kind != "clause":
        lang = (get_language() or "en")[:2]
        led_by = entry.kind
        title, text = entry.title.get(lang, ""), entry.text.get(lang, "")
        led_text = highlight(_led_by(entry.kind, title, text), hit.matched)
    example = EXAMPLES.get(hit.clause)
    return Answer(
        clause=hit.clause, section=section_title(hit.clause),
        text=highlight(clause_summary(hit.clause), hit.matched),
        url=f"{reverse('tutorials:rules')}#{hit.clause}",
        led_by=led_by, led_by_text=led_text,
        reading=hit.clause.startswith("INT-"),
        related=tuple((c, clause_summary(c)) for c in RELATED.get(hit.clause, ())),
        example_url=analyzer_url(example) if example is not None else "")


def answer(question: str, limit: int = 5) -> Found:
    """The answers to ``question`` (at most :data:`MAX_QUESTION` characters are read)."""
    question = question.strip()[:MAX_QUESTION]
    if not question:
        return Found(question, (), False)
    hits, answered = answers(question, limit)
    asked = hits[0].clause if hits and hits[0].entry == hits[0].clause and hits[0].score == float("inf") \
        else None
    return Found(question, tuple(_answer(h) for h in hits), answered, asked)
