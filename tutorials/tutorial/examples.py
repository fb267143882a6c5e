"""The worked examples of RULES.md and the fixed boards of the tutorial, as board rows
in the case format (``11:r3`` = a red [3] on the card 1-1)."""

from __future__ import annotations

from captain.rules import Colour

# --- fixed example positions ------------------------------------------------------------
DICE_BOARD_4 = ("12 35 44 26", "15 33 24 56", "11 46 23 13", "34 66 25 14")

DICE_BOARD_2 = ("12 35 44", "15 33 24", "11 46 23")

#: EX-BATTLE from RULES.md (shared/cases/manual-battle.json).
EX_BATTLE = ("11 13:r3 22 14", "15 16:b1 23 24:r2", "26 33 34:g1 35", "36:g0 44 45 46")

EX_BATTLE_SEATS = (Colour.RED, Colour.BLUE, Colour.GREEN)

#: EX-SANDWICH, EX-BLOCK, EX-PRIORITY (shared/cases/sandwich-row, blocked-sandwich,
#: sandwich-priority).
TREASURE_EXAMPLES = {
    "sandwich": (("12:b4 25 36 44:b5", "11 13 14 15", "16 22 23 24", "26 33 34:r5 35"),
                 (Colour.RED, Colour.BLUE, Colour.GREEN, Colour.WHITE), Colour.RED),
    "block": (("11 12 13 14", "15:r5 16:b0 22 23:r5", "24 25 26 33", "34 35 36 44"),
              (Colour.RED, Colour.BLUE), Colour.RED),
    "priority": (("11 12:r5 13 14", "15:b5 16 22:b5 23", "24 25:r0 26 33", "34 35 36 44"),
                 (Colour.RED, Colour.BLUE, Colour.GREEN), Colour.RED),
}

