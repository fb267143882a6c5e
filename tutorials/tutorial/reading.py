"""How long a teaching script takes to read aloud, measured from its text.

The parts a presenter reads aloud carry ``class="say"`` in the section templates
(hands-on prompts included; headings, tables, board captions and screen-only hints not),
and the clauses they teach in ``data-clause``. :func:`read_aloud` renders a section for a
table's options in one language and returns those parts; :func:`measure` counts them the
way reading speed is counted in that language and turns the count into minutes.

Reading rates (:data:`RATES`), for reading aloud to a table, slower than silent reading:
Japanese 300 characters a minute (non-space characters, punctuation included; NHK-style
reading runs 300-350), English 150 words a minute, German 130 words a minute (longer words
than English). Words are runs of non-space characters.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from html import escape
from html.parser import HTMLParser

from django.template.loader import render_to_string
from django.utils import translation
from django.utils.safestring import mark_safe

from tutorials.tutorial.audience import DEFAULT_AUDIENCE, Audience
from tutorials.tutorial.script import LESSONS_BY_SLUG
from tutorials.tutorial.teaching import Section, lesson_context, script_context, sections, stored_options

#: language -> (units per minute, unit): see the module docstring.
RATES: Mapping[str, tuple[int, str]] = {"ja": (300, "characters"), "en": (150, "words"),
                                        "de": (130, "words")}
@dataclass(frozen=True)
class Paragraph:
    """One read-aloud part of a section as its template says it (``class="say"``, a
    paragraph or a list item), or one lead paragraph of the guided round's
    (``class="round-lead"``, ``kind``): its ``html`` (inline markup kept), its plain
    ``text``, the ``clauses`` it teaches and whether it is a hands-on aside's."""

    kind: str
    html: str
    text: str
    clauses: tuple[str, ...] = ()
    hands_on: bool = False


class _Paragraphs(HTMLParser):
    """Collects the :class:`Paragraph` parts of a rendered section."""

    VOID = {"br", "img", "input", "hr", "meta", "link", "source", "wbr", "col", "area"}
    KINDS = ("say", "round-lead")

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[Paragraph] = []
        self._depth = 0
        self._aside: int | None = None  # the depth of the hands-on aside we are in
        self._open: tuple[str, int, bool, tuple[str, ...]] | None = None  # kind, depth, aside, clauses
        self._html: list[str] = []
        self._text: list[str] = []

    def handle_starttag(self, tag, attrs):
        if tag in self.VOID:
            if self._open:
                self._html.append(self.get_starttag_text() or "")
                self._text.append(" ")
            return
        self._depth += 1
        attributes = dict(attrs)
        classes = (attributes.get("class") or "").split()
        if self._open:
            self._html.append(self.get_starttag_text() or "")
        elif kind := next((k for k in self.KINDS if k in classes), None):
            clauses = tuple((attributes.get("data-clause") or "").split())
            self._open, self._html, self._text = (kind, self._depth, self._aside is not None, clauses), [], []
        if tag == "aside" and "hands-on" in classes:
            self._aside = self._depth

    def handle_endtag(self, tag):
        if tag in self.VOID:
            return
        if self._open and self._open[1] == self._depth:
            kind, _depth, hands_on, clauses = self._open
            text = " ".join("".join(self._text).split())
            html = mark_safe("".join(self._html).strip())
            self.found.append(Paragraph(kind, html, text, clauses, hands_on))
            self._open = None
        elif self._open:
            self._html.append(f"</{tag}>")
        if self._aside == self._depth:
            self._aside = None
        self._depth -= 1

    def handle_data(self, data):
        if self._open:
            self._html.append(escape(data, quote=False))
            self._text.append(data)


def paragraphs(section: Section, options: Mapping[str, object], **context) -> list[Paragraph]:
    """The :class:`Paragraph` parts of ``section`` rendered for a table with ``options`` (and
    ``context``) in the active language."""
    parser = _Paragraphs()
    parser.feed(render_to_string(section.template, {**script_context(options), **context}))
    parser.close()
    return parser.found


@dataclass(frozen=True)
class ReadAloud:
    """The read-aloud part of one section: ``text`` (paragraphs separated by newlines),
    ``clauses`` (ids taught, in order, without repeats), ``length`` in the language's
    unit and the estimated ``minutes`` at :data:`RATES`."""

    text: str
    clauses: tuple[str, ...]
    length: int
    minutes: float


def length_of(text: str, lang: str) -> int:
    """Characters without spaces (Japanese) or words (English, German) in ``text``."""
    if RATES[lang][1] == "characters":
        return sum(1 for ch in text if not ch.isspace())
    return len(text.split())


def _measured(found: list[Paragraph], lang: str) -> ReadAloud:
    said = [p for p in found if p.kind == "say" and p.text]
    text = "\n".join(p.text for p in said)
    n = length_of(text, lang)
    return ReadAloud(text, tuple(dict.fromkeys(c for p in said for c in p.clauses)), n, n / RATES[lang][0])


def read_aloud(section: Section, options: Mapping[str, object], lang: str) -> ReadAloud:
    """Render ``section`` for a table with ``options`` in ``lang`` and measure what is read
    aloud. Raises ``KeyError`` for a language without a reading rate."""
    RATES[lang]  # noqa: B018 - the KeyError before any rendering
    with translation.override(lang):
        return _measured(paragraphs(section, options), lang)


@lru_cache(maxsize=64)
def lesson_reading(slug: str, lang: str, audience: Audience = DEFAULT_AUDIENCE) -> ReadAloud:
    """The tutorial lesson ``slug`` as its page shows it for ``audience``, measured as the
    teaching scripts are: the one reading-time measure of the site."""
    lesson = LESSONS_BY_SLUG[slug]
    parser = _Paragraphs()
    with translation.override(lang):
        parser.feed(render_to_string(lesson.template_for(audience.strategy), lesson_context(audience)))
    parser.close()
    return _measured(parser.found, lang)


def _key(options: Mapping[str, object]) -> tuple:
    o = stored_options(options)
    return (o["players"], o["mode"], o["script"], tuple(o["variants"]), bool(o["first_edition"]))


@lru_cache(maxsize=256)
def _timing(key: tuple, lang: str) -> tuple[ReadAloud, ...]:
    players, mode, script, variants, first_edition = key
    options = {"players": players, "mode": mode, "script": script, "variants": list(variants),
               "first_edition": first_edition}
    return tuple(read_aloud(s, options, lang) for s in sections(options))


def script_timing(options: Mapping[str, object], lang: str) -> tuple[ReadAloud, ...]:
    """:func:`read_aloud` of every section of the script for ``options``, in order (cached
    per process: the templates do not change while it runs)."""
    return _timing(_key(options), lang)


def taught_clauses(options: Mapping[str, object], lang: str = "en") -> frozenset[str]:
    """Every clause id the script for ``options`` reads aloud (``data-clause`` of its say parts)."""
    return frozenset(c for part in script_timing(options, lang) for c in part.clauses)
