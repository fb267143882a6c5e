"""Template helpers: language-switch URLs and the game's translated names."""

from __future__ import annotations

from django import template
from django.urls import translate_url as _translate_url

from captain.rules import AttackKind, Colour

from ..clauses import clause_summary
from ..glossary import CARD_EFFECTS, CARD_NAMES, COLOUR_LETTERS, COLOUR_NAMES

register = template.Library()


@register.filter
def translate_url(path: str, lang_code: str) -> str:
    """The same page (query string kept) in ``lang_code``."""
    return _translate_url(path, lang_code)


@register.filter
def colour_name(colour: Colour) -> str:
    """Translated colour name."""
    return str(COLOUR_NAMES[colour])


@register.filter
def colour_letter(colour: Colour) -> str:
    """Translated one-letter colour mark (R/B/G/W; 赤/青/緑/白)."""
    return str(COLOUR_LETTERS[colour])


@register.filter
def card_name(kind: AttackKind) -> str:
    """Translated attack card name."""
    return str(CARD_NAMES[AttackKind(kind)])


@register.filter
def card_effect(kind: AttackKind) -> str:
    """Translated few-word effect of an attack card."""
    return str(CARD_EFFECTS[AttackKind(kind)])


@register.filter
def clause_text(clause: str) -> str:
    """One-sentence translated statement of a RULES.md clause."""
    return clause_summary(clause)
