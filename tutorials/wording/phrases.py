"""Phrases the sentences of the site are built from: card names in the role a sentence
gives them, positions, lists and runs of sentences, in the active language.

:mod:`tutorials.wording.events` words the engine's events with them; boards, hints and
pictures use them too.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.utils.translation import gettext as _
from django.utils.translation import pgettext, pgettext_lazy

from captain.rules import AttackKind, Colour
from tutorials.wording.glossary import CARD_NAMES, COLOUR_NAMES, position_label


def positions(ps: Iterable[Iterable[int]]) -> str:
    """``B2, C2 and D2`` (``B2、C2、D2`` in Japanese, ``B2, C2 und D2`` in German), for
    sentences (:func:`list_join`)."""
    return list_join(position_label(tuple(p)) for p in ps)


def colour_name(value: str) -> str:
    return str(COLOUR_NAMES[Colour(value)])


#: A card phrase as the sentence uses it. German inflects the article by the card's role and
#: gender ("der Enterkampf", "den Enterkampf", "dem Enterkampf"), so each role and card kind
#: is its own message; languages without articles translate them all alike.
_ROLE_PHRASES = {
    "subject": {
        0: pgettext_lazy("card as subject: [0] Hostage Gambit", "%(colour)s [%(value)s] %(name)s"),
        1: pgettext_lazy("card as subject: [1] Boarding Melee", "%(colour)s [%(value)s] %(name)s"),
        2: pgettext_lazy("card as subject: [2] Broadside", "%(colour)s [%(value)s] %(name)s"),
        3: pgettext_lazy("card as subject: [3] Cannon", "%(colour)s [%(value)s] %(name)s"),
        4: pgettext_lazy("card as subject: [4] Kraken's Wrath", "%(colour)s [%(value)s] %(name)s"),
        5: pgettext_lazy("card as subject: [5] Scout Ship", "%(colour)s [%(value)s] %(name)s"),
    },
    "object": {
        0: pgettext_lazy("card as object: [0] Hostage Gambit", "%(colour)s [%(value)s] %(name)s"),
        1: pgettext_lazy("card as object: [1] Boarding Melee", "%(colour)s [%(value)s] %(name)s"),
        2: pgettext_lazy("card as object: [2] Broadside", "%(colour)s [%(value)s] %(name)s"),
        3: pgettext_lazy("card as object: [3] Cannon", "%(colour)s [%(value)s] %(name)s"),
        4: pgettext_lazy("card as object: [4] Kraken's Wrath", "%(colour)s [%(value)s] %(name)s"),
        5: pgettext_lazy("card as object: [5] Scout Ship", "%(colour)s [%(value)s] %(name)s"),
    },
    "after preposition": {
        0: pgettext_lazy("card after a preposition: [0] Hostage Gambit", "%(colour)s [%(value)s] %(name)s"),
        1: pgettext_lazy("card after a preposition: [1] Boarding Melee", "%(colour)s [%(value)s] %(name)s"),
        2: pgettext_lazy("card after a preposition: [2] Broadside", "%(colour)s [%(value)s] %(name)s"),
        3: pgettext_lazy("card after a preposition: [3] Cannon", "%(colour)s [%(value)s] %(name)s"),
        4: pgettext_lazy("card after a preposition: [4] Kraken's Wrath",
                         "%(colour)s [%(value)s] %(name)s"),
        5: pgettext_lazy("card after a preposition: [5] Scout Ship", "%(colour)s [%(value)s] %(name)s"),
    },
}

#: The roles a card phrase can take: ``label`` stands alone (a list entry, an image's
#: description); the others sit inside a sentence.
CARD_ROLES = ("label", *_ROLE_PHRASES)


def card_phrase(token: str, role: str = "label") -> str:
    """``blue [1] Boarding Melee`` for ``b1``; in German with the article the ``role``
    needs (``der [1] Enterkampf von Blau`` as the subject)."""
    colour = next(c for c in Colour if c.letter == token[0])
    kind = AttackKind(int(token[1]))
    template = _("%(colour)s [%(value)s] %(name)s") if role == "label" else _ROLE_PHRASES[role][int(kind)]
    return str(template) % {"colour": COLOUR_NAMES[colour], "value": int(kind), "name": CARD_NAMES[kind]}


def card_at(token: str, pos, role: str = "label") -> str:
    """``blue [1] Boarding Melee (B2)``."""
    return pgettext("card at position", "%(card)s (%(pos)s)") % {
        "card": card_phrase(token, role), "pos": position_label(pos)}


def list_join(items: Iterable[str]) -> str:
    """``A, B and C`` (``A、B、C`` in Japanese, ``A, B und C`` in German): the language's
    list separator, and its own word before the last item."""
    parts = [str(i) for i in items]
    if len(parts) < 2:
        return "".join(parts)
    last = pgettext("list separator before the last item", " and ")
    return pgettext("list separator", ", ").join(parts[:-1]) + last + parts[-1]


def either(items: Iterable[str]) -> str:
    """``[2], [3] or [4]`` (``[2]、[3]、または[4]`` in Japanese, ``[2], [3] oder [4]`` in
    German): the language's list of alternatives."""
    parts = [str(i) for i in items]
    if len(parts) < 2:
        return "".join(parts)
    last = pgettext("list separator before the last alternative", " or ")
    return pgettext("list separator", ", ").join(parts[:-1]) + last + parts[-1]


def sentences(*parts: str) -> str:
    """Sentences one after another, with the language's space between them (none after
    「。」 in Japanese)."""
    out = ""
    for part in (p for p in parts if p):
        out = pgettext("two sentences in a row", "%(first)s %(second)s") % {
            "first": out, "second": part} if out else part
    return out
