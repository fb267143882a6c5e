"""Engine errors worded for people, in the active language.

The engine raises :class:`~captain.rules.errors.RulesError` with a stable ``code``,
``params``, ``where`` and ``clause``. :func:`describe` turns one into a sentence for
the page language; the JSON API uses the same sentences (chosen by Accept-Language).
"""

from __future__ import annotations

from django.utils.text import capfirst
from django.utils.translation import gettext as _

from captain.rules import AttackKind, Colour, RulesError

from .glossary import CARD_NAMES, COLOUR_NAMES, position_label


def _colour(params) -> str:
    try:
        return str(COLOUR_NAMES[Colour(params.get("colour"))])
    except (ValueError, KeyError):
        return str(params.get("colour", "?"))


def _at(params) -> str:
    pos = params.get("position")
    return position_label(pos) if isinstance(pos, (list, tuple)) and len(pos) == 2 else ""


def describe(error: RulesError) -> str:
    """One translated sentence saying what is wrong (and where, when known)."""
    p = error.params
    code = error.code
    if code == "too-many-cards":
        kind = AttackKind(p["value"])
        if p.get("owned") == 0:
            text = _("%(colour)s plays without %(name)s cards in this game.") % {
                "colour": _colour(p), "name": CARD_NAMES[kind]}
        elif p.get("owned") == 1:
            text = _("%(colour)s already has its %(name)s on the board; each colour has only "
                     "one.") % {"colour": _colour(p), "name": CARD_NAMES[kind]}
        else:
            text = _("%(colour)s has only %(owned)s %(name)s cards in this game, and they are all "
                     "on the board already.") % {"colour": _colour(p), "owned": p["owned"],
                                                 "name": CARD_NAMES[kind]}
    elif code == "too-many-dice":
        text = _("%(colour)s has six dice, enough for three cards; its dice are on three cards "
                 "already.") % {"colour": _colour(p)}
    elif code == "colour-not-seated":
        text = _("%(colour)s is not playing in this position. Seat it first.") % {
            "colour": _colour(p)}
    elif code == "occupant-without-treasure":
        text = _("Attack cards and dice must lie on a treasure card; %(at)s has none.") % {
            "at": _at(p)}
    elif code == "two-occupants":
        text = _("A treasure card holds one attack card or one player's dice, not both.")
    elif code == "dice-and-cards":
        text = _("Dice and attack cards cannot be on the board together: Battle Time starts "
                 "only when every die has been replaced by an attack card.")
    elif code == "too-many-copies":
        text = _("The game has two treasure cards of each kind, but %(treasure)s appears "
                 "%(count)s times (board and won cards).") % p
    elif code == "too-many-treasures":
        text = _("That makes %(total)s treasure cards, but this game has only %(limit)s.") % p
    elif code == "player-count":
        text = _("Two to four players take part.")
    elif code == "duplicate-colour":
        text = _("Each colour can be seated only once.")
    elif code == "start-player-not-seated":
        text = _("The start player must be one of the seated players.")
    elif code in ("bad-faces", "bad-treasure"):
        text = _("A treasure card shows two die faces from 1 to 6, like 35.")
    elif code == "faces-order":
        text = _("Write a treasure card's smaller face first, like 35.")
    elif code == "bad-attack-value":
        text = _("Attack cards have values 0 to 5.")
    elif code == "bad-notation":
        text = _("The position text could not be read at character %(offset)s: expected "
                 "%(expected)s.") % {"offset": p.get("offset", 0) + 1,
                                     "expected": p.get("expected", "?")}
    elif code == "board-too-large":
        text = _("The board is too large.")
    elif code == "bad-deck":
        text = _("The deck size must be a whole number, 0 or more.")
    elif code == "bad-rule":
        text = _("Unknown rule setting.")
    else:
        text = _("This position is not allowed: %(detail)s") % {"detail": error.message}
    return capfirst(text)


def problem(error: RulesError, *, field: str | None = None) -> dict[str, object]:
    """A machine-readable problem for the JSON API: field, position, code, clause, message."""
    position = error.params.get("position")
    return {
        "field": field or error.where or "",
        "position": list(position) if isinstance(position, (list, tuple)) else None,
        "offset": error.params.get("offset"),
        "code": error.code,
        "clause": error.clause,
        "message": describe(error),
    }
