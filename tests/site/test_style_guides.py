"""The style guides (docs/style/<lang>.md) are checked, not only read.

Each guide ends its terms with a fenced ``forbidden`` block: one ``REGEX => instead`` per
line, the variants an editor struck out. No catalogue entry, template, page or printed
sheet in that language may use one. The German guide's address rule (*ihr* to the table acting
together, *du* to one player or to the person at the device, never *Sie*) is checked on
every German read-aloud text of every table the start form allows, and on the rest of the
catalogue.
"""

from __future__ import annotations

import itertools
import re
from functools import cache
from pathlib import Path

import polib
import pytest
from django.conf import settings
from django.utils import translation

from teach_options import teach_options
from tutorials.sheets.render import SHEETS, sheet_html
from tutorials.tutorial.comes_up import cards_for
from tutorials.tutorial.reading import script_timing, taught_clauses
from tutorials.tutorial.script import LESSONS

BASE = Path(settings.BASE_DIR)
LANGS = ("ja", "de", "en")
GUIDE = BASE / "docs" / "style"


@cache
def forbidden(lang: str) -> tuple[tuple[re.Pattern, str], ...]:
    """The guide's forbidden variants: (pattern, what to write instead)."""
    text = (GUIDE / f"{lang}.md").read_text(encoding="utf-8")
    blocks = re.findall(r"^```forbidden\n(.*?)^```", text, re.MULTILINE | re.DOTALL)
    assert len(blocks) == 1, f"docs/style/{lang}.md needs exactly one ```forbidden block"
    rules = []
    for line in blocks[0].splitlines():
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        pattern, sep, instead = line.partition(" => ")
        assert sep, f"docs/style/{lang}.md: {line!r} is not 'REGEX => instead'"
        rules.append((re.compile(pattern.strip()), instead.strip()))
    return tuple(rules)


def hits(lang: str, text: str) -> list[str]:
    return [f"{m.group(0)!r} (use {instead})" for pattern, instead in forbidden(lang)
            for m in [pattern.search(text)] if m]


def _catalogue(lang: str) -> polib.POFile:
    return polib.pofile(str(BASE / "locale" / lang / "LC_MESSAGES" / "django.po"))


def _visible(html: str) -> str:
    """Text a reader sees or hears: tag contents and the attributes read aloud."""
    said = " ".join(re.findall(r'(?:aria-label|title|alt)="([^"]*)"', html))
    html = re.sub(r"<(style|script)\b.*?</\1>", " ", html, flags=re.DOTALL)
    return " ".join((re.sub(r"<[^>]+>", " ", html) + " " + said).split())


@pytest.mark.parametrize("lang", LANGS)
def test_each_guide_lists_its_forbidden_variants(lang):
    rules = forbidden(lang)
    assert len(rules) >= 5, (lang, len(rules))
    assert all(instead for _pattern, instead in rules)


def test_the_check_finds_a_forbidden_variant():
    """The lists bite: a sentence with a struck-out variant is caught."""
    assert hits("de", "Der Analysator legt das Raster aus.")
    assert hits("ja", "速さの順に解決します。")
    assert not hits("de", "Das Analysewerkzeug zeigt die Einstellung.")


@pytest.mark.parametrize("lang", ("ja", "de"))
def test_no_translation_uses_a_forbidden_variant(lang):
    found = []
    for entry in _catalogue(lang):
        for text in [entry.msgstr, *entry.msgstr_plural.values()]:
            if text and (h := hits(lang, text)):
                found.append(f"{entry.msgid[:60]!r}: {', '.join(h)}")
    assert not found, "\n".join(found)


def test_no_english_source_text_uses_a_forbidden_variant():
    """The English is the msgids (every translatable text of the templates and the code)."""
    found = [f"{e.msgid[:60]!r}: {', '.join(h)}" for e in _catalogue("en")
             for text in (e.msgid, e.msgid_plural) if text and (h := hits("en", text))]
    assert not found, "\n".join(found)


def _pages(lang: str) -> list[str]:
    return [f"/{lang}/", f"/{lang}/tutorial/", *(f"/{lang}/tutorial/{s.slug}/" for s in LESSONS),
            f"/{lang}/rules/", f"/{lang}/teach/", f"/{lang}/sheets/", f"/{lang}/play/",
            f"/{lang}/analyze/",
            f"/{lang}/analyze/?pos=Rbg_11.13r3.22.14-15.16b1.23.24r2-26.33.34g1.35-36g0.44.45.46"]


@pytest.mark.django_db
@pytest.mark.parametrize("lang", LANGS)
def test_no_page_uses_a_forbidden_variant(client, lang):
    found = []
    for url in _pages(lang):
        response = client.get(url, follow=True)
        assert response.status_code == 200, url
        found += [f"{url}: {h}" for h in hits(lang, _visible(response.content.decode()))]
    assert not found, "\n".join(found)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", sorted(SHEETS))
def test_no_sheet_uses_a_forbidden_variant(lang, name):
    assert not hits(lang, _visible(sheet_html(name, lang))), (name, lang)


# --- the German address rule ------------------------------------------------------------------
#: formal address: "Sie", "Ihnen", "Ihr…" capitalised where a sentence does not begin
_FORMAL = re.compile(r"(?<![.!?:„“\n]\s)(?<![„(])(?<!^)\b(Sie|Ihnen|Ihre?[mnrs]?)\b")
#: a capitalised "Sie" (they) right after a colon reads as the formal "you"
_SIE_AFTER_COLON = re.compile(r":\s+(Sie|Ihnen)\b")
#: du-forms: a rule speaks to each player on their own ("Bist du dran, wählst du …")
_DU = re.compile(r"\b(du|dich|dir|dein|deine[mnrs]?)\b", re.IGNORECASE)
#: ihr-forms that can only mean "you all": the table acting together ("Mischt eure …")
_EUCH = re.compile(r"\b(euch|euer|eure[mnrs]?)\b", re.IGNORECASE)
#: where one sentence ends and the next begins (a colon or semicolon starts a new clause
#: that may turn from the table to one player)
_SENTENCE_END = re.compile(r"(?<=[.!?:;])\s+|\n")


def _mixed(text: str) -> list[str]:
    """Sentences of ``text`` that speak to one player (du) and to the table (euch) at once."""
    return [s for s in _SENTENCE_END.split(text) if _DU.search(s) and _EUCH.search(s)]


def _every_table():
    for players, mode, script in itertools.product((2, 3, 4), ("action", "strategy"), ("quick", "full")):
        for chosen in ([["v1", "v2", "v3"] if mode == "action" else ["v1", "v2"], []]):
            yield teach_options({"players": str(players), "mode": mode, "script": script,
                                 "variants": chosen})


@cache
def read_aloud_de() -> tuple[str, ...]:
    """Every German text read aloud to a table: each script section's spoken text and each
    "when it comes up" card, for every table the start form allows, and the spoken lines of
    the printed scripts."""
    texts: set[str] = set()
    with translation.override("de"):
        for options in _every_table():
            texts.update(t.text for t in script_timing(options, "de"))
            texts.update(card.say() for card in cards_for(options, taught_clauses(options)))
    for name in ("quick-start", "teach"):  # the printed scripts have their own spoken lines
        said = re.findall(r'<p class="say"[^>]*>(.*?)</p>', sheet_html(name, "de"), re.DOTALL)
        texts.update(" ".join(re.sub(r"<[^>]+>", "", t).split()) for t in said)
    return tuple(sorted(t for t in texts if t.strip()))


def test_german_read_aloud_texts_keep_one_address_per_sentence():
    """Read aloud, *ihr* is the table acting together and *du* each player on their own;
    one sentence never turns from one to the other, and nothing says *Sie*."""
    texts = read_aloud_de()
    assert len(texts) > 30 and any(_EUCH.search(t) for t in texts) and any(_DU.search(t) for t in texts)
    wrong = [f"{m.group(0)!r} in {t[max(0, m.start() - 50):m.end() + 30]!r}" for t in texts
             for rule in (_FORMAL, _SIE_AFTER_COLON) for m in rule.finditer(t)]
    wrong += [f"du and ihr in one sentence: {s!r}" for t in texts for s in _mixed(t)]
    assert not wrong, "\n".join(wrong)


def _is_read_aloud(msgstr: str, read_aloud: str) -> bool:
    """Whether the translation ``msgstr`` is (part of) a text read aloud, its placeholders
    filled with anything."""
    text = re.sub(r"<[^>]+>", "", msgstr)
    pieces = [re.escape(" ".join(p.split())) for p in re.split(r"%\(\w+\)[sd]", text)]
    return bool(re.search(".{1,80}?".join(pieces), read_aloud))


def test_german_screens_speak_to_one_person():
    """Everything but the read-aloud texts (buttons, hints, notes to the person at the
    device) says du, and nothing says Sie."""
    read_aloud = "\n".join(read_aloud_de())
    wrong = []
    for entry in _catalogue("de"):
        for text in [entry.msgstr, *entry.msgstr_plural.values()]:
            if not text:
                continue
            rules = (_FORMAL, _SIE_AFTER_COLON) if _is_read_aloud(text, read_aloud) else (
                _FORMAL, _SIE_AFTER_COLON, _EUCH)
            wrong += [f"{m.group(0)!r} in {text[:90]!r}" for rule in rules for m in rule.finditer(text)]
    assert not wrong, "\n".join(wrong)


def test_the_address_check_bites():
    assert _mixed("Legt eure Karten ab, sobald du dran bist.")
    assert not _mixed("Mischt eure Karten. Bist du dran, wählst du eine.")
    assert _FORMAL.search("Dann legen Sie die Karte ab.")
    assert _SIE_AFTER_COLON.search("mitlesen: Sie scannen den Code")
    assert not _FORMAL.search("Sie würfeln alle. Danach legt ihr ab.")
    assert _EUCH.search("Legt eure Karten ab.")
