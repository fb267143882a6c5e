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
from html.parser import HTMLParser

from django.template.loader import render_to_string
from django.utils import translation

from tutorials.tutorial.teaching import Section, script_context, sections, stored_options

#: language -> (units per minute, unit): see the module docstring.
RATES: Mapping[str, tuple[int, str]] = {"ja": (300, "characters"), "en": (150, "words"),
                                        "de": (130, "words")}
_VOID = {"br", "img", "input", "hr", "meta", "link", "source", "wbr", "col", "area"}


class _SayParser(HTMLParser):
    """Collects the text inside ``class="say"`` elements and their ``data-clause`` ids."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.depth = 0          # open elements inside the current say element (0 = outside)
        self.parts: list[str] = []
        self.clauses: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in _VOID:
            return
        if self.depth:
            self.depth += 1
            return
        attributes = dict(attrs)
        if "say" in (attributes.get("class") or "").split():
            self.depth = 1
            self.parts.append("\n")
            self.clauses += (attributes.get("data-clause") or "").split()

    def handle_endtag(self, tag: str) -> None:
        if self.depth and tag not in _VOID:
            self.depth -= 1

    def handle_data(self, data: str) -> None:
        if self.depth:
            self.parts.append(data)


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


def read_aloud(section: Section, options: Mapping[str, object], lang: str) -> ReadAloud:
    """Render ``section`` for a table with ``options`` in ``lang`` and measure what is read
    aloud. Raises ``KeyError`` for a language without a reading rate."""
    rate = RATES[lang][0]
    with translation.override(lang):
        html = render_to_string(section.template, script_context(options))
    parser = _SayParser()
    parser.feed(html)
    parser.close()
    text = "\n".join(" ".join(p.split()) for p in "".join(parser.parts).split("\n") if p.strip())
    n = length_of(text, lang)
    return ReadAloud(text, tuple(dict.fromkeys(parser.clauses)), n, n / rate)


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
