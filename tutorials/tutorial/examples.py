"""The worked examples of RULES.md and the fixed boards of the tutorial, as board rows
in the case format (``11:r3`` = a red [3] on the card 1-1)."""

from __future__ import annotations

from captain.rules import Colour

# --- fixed example positions ------------------------------------------------------------
DICE_BOARD_4 = ("12 35 44 26", "15 33 24 56", "11 46 23 13", "34 66 25 14")

DICE_BOARD_2 = ("12 35 44", "15 33 24", "11 46 23")

#: EX-BATTLE from RULES.md (tests/cases/manual-battle.json).
EX_BATTLE = ("11 13:r3 22 14", "15 16:b1 23 24:r2", "26 33 34:g1 35", "36:g0 44 45 46")

EX_BATTLE_SEATS = (Colour.RED, Colour.BLUE, Colour.GREEN)

#: EX-SANDWICH, EX-BLOCK, EX-PRIORITY (tests/cases/sandwich-row, blocked-sandwich,
#: sandwich-priority).
TREASURE_EXAMPLES = {
    "sandwich": (("12:b4 25 36 44:b5", "11 13 14 15", "16 22 23 24", "26 33 34:r5 35"),
                 (Colour.RED, Colour.BLUE, Colour.GREEN, Colour.WHITE), Colour.RED),
    "block": (("11 12 13 14", "15:r5 16:b0 22 23:r5", "24 25 26 33", "34 35 36 44"),
              (Colour.RED, Colour.BLUE), Colour.RED),
    "priority": (("11 12:r5 13 14", "15:b5 16 22:b5 23", "24 25:r0 26 33", "34 35 36 44"),
                 (Colour.RED, Colour.BLUE, Colour.GREEN), Colour.RED),
}


# --- the same lessons for tables that play otherwise ---------------------------------------
#: A two-player battle on the 3 × 3 grid (SETUP-4): red (start player) and blue tie at
#: speed 1 and red's goes first (BAT-2); blue's [1] and [2] are removed before their turns
#: (BAT-3); blue's [0] stays (BAT-4).
EX_BATTLE_2P = ("11:r1 12:b1 13", "14 15:b2 16:r3", "22 23:b0 24")

EX_BATTLE_2P_SEATS = (Colour.RED, Colour.BLUE)

#: The treasure examples for a table without [5] cards (VAR-2), on the 4 × 4 grid: each
#: [5] replaced by a card that attacks nothing of another player here, so every example
#: still shows what it shows (a sandwich, a blocked one, two after the same card).
TREASURE_EXAMPLES_NO_SCOUTS = {
    "sandwich": (("12:b4 25 36 44:b0", "11 13 14 15", "16 22 23 24", "26 33 34:r0 35"),
                 (Colour.RED, Colour.BLUE, Colour.GREEN, Colour.WHITE), Colour.RED),
    "block": (("11 12 13 14", "15:r2 16:b0 22 23:r3", "24 25 26 33", "34 35 36 44"),
              (Colour.RED, Colour.BLUE), Colour.RED),
    "priority": (("11 12:r2 13 14", "15:b3 16 22:b0 23", "24 25:r0 26 33", "34 35 36 44"),
                 (Colour.RED, Colour.BLUE, Colour.GREEN), Colour.RED),
}

#: The treasure examples for two players, on the 3 × 3 grid, red and blue (no [5] cards,
#: so they serve VAR-2 tables too).
TREASURE_EXAMPLES_2P = {
    "sandwich": (("12:b4 25 36:b0", "11 13 14", "15 16:r2 22"), (Colour.RED, Colour.BLUE), Colour.RED),
    "block": (("11:r2 12:b0 13:r3", "14 15 16", "22 23 24"), (Colour.RED, Colour.BLUE), Colour.RED),
    "priority": (("11:r1 12 13", "14:b0 15 16:b2", "22 23 24:r0"), (Colour.RED, Colour.BLUE), Colour.RED),
}

#: Example sets by the letter that marks them in a board's state: "" the official
#: examples, "n" no scouts (VAR-2), "t" two players.
TREASURE_SETS = {"": TREASURE_EXAMPLES, "n": TREASURE_EXAMPLES_NO_SCOUTS, "t": TREASURE_EXAMPLES_2P}
