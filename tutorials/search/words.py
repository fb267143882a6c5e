"""The words players use, mapped to the site's words, for the rules search.

One list per language beside the glossary (``tutorials/wording/player_words/<lang>.txt``),
reviewed like any text: each line ``what players say, …  =  the site's words``. A question
in any language is matched against all three lists (a German word typed on the English
page still finds its rule), and the site's words of every line that matches are added to
the question before the index is asked.
"""

from __future__ import annotations

import re
import unicodedata
from functools import cache
from pathlib import Path

from django.utils import translation

from tutorials.search.documents import LANGUAGES, TERMS
from tutorials.wording.glossary import CARD_NAMES

FOLDER = Path(__file__).resolve().parents[1] / "wording" / "player_words"
_CJK = re.compile("[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")


def normalize(text: str) -> str:
    """Width and case as the search compares them (NFKC: full-width letters and digits
    become half-width; German umlauts stay)."""
    return unicodedata.normalize("NFKC", text).lower()


@cache
def player_words() -> tuple[tuple[tuple[str, ...], str], ...]:
    """Every line of every language's list: ``(what players say, the site's words)``."""
    out = []
    for lang in LANGUAGES:
        path = FOLDER / f"{lang}.txt"
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            line = line.split("#", 1)[0].strip()
            if not line:
                continue
            said, sep, site = line.partition("=")
            if not sep or not site.strip():
                raise ValueError(f"{path.name}:{number}: expected 'words, … = the site's words'")
            out.append((tuple(normalize(w.strip()) for w in said.split(",") if w.strip()), site.strip()))
    return tuple(out)


def _says(question: str, phrase: str) -> bool:
    if _CJK.search(phrase):
        return phrase in question
    return re.search(rf"(?<![^\W_]){re.escape(phrase)}(?![^\W_])", question) is not None


def expand(question: str) -> str:
    """``question`` with the site's words of every player word it uses added."""
    text = normalize(question)
    added = [site for said, site in player_words() if any(_says(text, p) for p in said)]
    return " ".join([question, *added])


@cache
def game_words() -> tuple[str, ...]:
    """The glossary's names in every language (the attack cards, the phases, the start
    player, the false bell…), normalized: a question that names one is about the game."""
    out = set()
    for lang in LANGUAGES:
        with translation.override(lang):
            out |= {normalize(str(name)) for name in CARD_NAMES.values()}
            out |= {normalize(str(term)) for term, _clauses in TERMS if not hasattr(term, "value")}
    return tuple(sorted(out))


def about_the_game(question: str) -> bool:
    """Whether ``question`` uses a player word or names one of the glossary's names."""
    text = normalize(question)
    return any(_says(text, p) for said, _site in player_words() for p in said) or \
        any(_says(text, name) for name in game_words())
