"""Translated names of the game's terms (RULES.md names table) and position labels."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext, pgettext_lazy

from captain.rules import AttackKind, Colour, Position

CARD_NAMES = {
    AttackKind.HOSTAGE_GAMBIT: pgettext_lazy("attack card", "Hostage Gambit"),
    AttackKind.BOARDING_MELEE: pgettext_lazy("attack card", "Boarding Melee"),
    AttackKind.BROADSIDE: pgettext_lazy("attack card", "Broadside"),
    AttackKind.CANNON: pgettext_lazy("attack card", "Cannon"),
    AttackKind.KRAKENS_WRATH: pgettext_lazy("attack card", "Kraken's Wrath"),
    AttackKind.SCOUT_SHIP: pgettext_lazy("attack card", "Scout Ship"),
}

#: What each card does, in a few words (BAT-4).
CARD_EFFECTS = {
    AttackKind.HOSTAGE_GAMBIT: _("No attack; can never be removed"),
    AttackKind.BOARDING_MELEE: _("Hits the 8 surrounding positions"),
    AttackKind.BROADSIDE: _("Hits its whole row"),
    AttackKind.CANNON: _("Hits its whole column"),
    AttackKind.KRAKENS_WRATH: _("Hits both diagonals, end to end"),
    AttackKind.SCOUT_SHIP: _("No attack"),
}

COLOUR_NAMES = {
    Colour.RED: pgettext_lazy("player colour", "red"),
    Colour.BLUE: pgettext_lazy("player colour", "blue"),
    Colour.GREEN: pgettext_lazy("player colour", "green"),
    Colour.WHITE: pgettext_lazy("player colour", "white"),
}

#: One letter (or character) per colour, printed on every token so that colours
#: never depend on colour vision alone.
COLOUR_LETTERS = {
    Colour.RED: pgettext_lazy("colour letter", "R"),
    Colour.BLUE: pgettext_lazy("colour letter", "B"),
    Colour.GREEN: pgettext_lazy("colour letter", "G"),
    Colour.WHITE: pgettext_lazy("colour letter", "W"),
}

PHASE_NAMES = {
    "dice": pgettext_lazy("phase", "Dice Time"),
    "setting": pgettext_lazy("phase", "Setting Time"),
    "battle": pgettext_lazy("phase", "Battle Time"),
    "treasure": pgettext_lazy("phase", "Treasure Time"),
}

COLUMN_LETTERS = "ABCDEFGHIJKL"


def position_label(pos: Position | tuple[int, int] | list[int]) -> str:
    """``B2`` for row 1, column 1 (zero-based): column letter, then row number.

    The boards print the same letters and numbers on their edges.
    """
    row, col = pos[0], pos[1]
    return f"{COLUMN_LETTERS[col]}{row + 1}"


def card_label(kind: AttackKind) -> str:
    """``[1] Boarding Melee`` in the active language."""
    # Japanese sets the speed right against the name (「[1]船上白兵戦」)
    return pgettext("card label", "[%(value)s] %(name)s") % {"value": int(kind), "name": CARD_NAMES[kind]}
