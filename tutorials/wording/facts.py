"""The game's countable facts, taken from the rules engine, for every sentence that states
one: how many dice and cards, the grid sizes, the bell's threshold, when the game ends,
the speed order: a page or sheet never types such a number itself.

Templates load them with ``{% game_facts as facts %}`` and pass them into a message
(``{% blocktranslate with dice=facts.dice %}…{{ dice }} dice…{% endblocktranslate %}``);
Python formats its messages with ``% facts()`` (names as below).
"""

from __future__ import annotations

from functools import lru_cache
from types import MappingProxyType

from django.utils.translation import get_language, pgettext

from captain.rules import FULL_DECK, AttackKind
from captain.rules.situation import BELL_CARDS, DICE_PER_PLAYER, END_AT, SpeedOrder, speed_ranks, table_setup


def _speeds(order: SpeedOrder) -> tuple[int, ...]:
    ranks = speed_ranks(order)
    return tuple(int(k) for k in sorted(AttackKind, key=lambda k: ranks[int(k)]))


def _facts() -> dict[str, int | tuple[int, ...]]:
    four, two = table_setup(4), table_setup(2)
    scouts = int(AttackKind.SCOUT_SHIP)
    return {
        "dice": DICE_PER_PLAYER,                      # SETUP-1
        "dice_cards": DICE_PER_PLAYER // 2,           # six dice cover three cards
        "hand": four.hand,                            # SETUP-1: 9 attack cards
        "hand_2p": two.hand,                          # SETUP-4: 7
        "scouts": four.copies[scouts],                # four [5]
        "scouts_removed_2p": four.copies[scouts] - two.copies[scouts],
        "kinds": len(AttackKind),                     # six kinds of attack card
        "fastest": int(min(AttackKind)),
        "slowest": int(max(AttackKind)),
        "treasures": four.in_play,                    # SETUP-2: 42
        "doubles": sum(1 for t in FULL_DECK if t.low == t.high),
        "boxed_2p": two.boxed,                        # SETUP-4: 10 back to the box
        "side": four.side,                            # 4×4
        "side_2p": two.side,                          # 3×3
        "grid": four.side ** 2,                       # 16 cards
        "grid_2p": two.side ** 2,                     # 9 cards
        "bell_cards": BELL_CARDS,                     # DICE-4, DICE-5, VAR-4, INT-3
        "end_at": END_AT,                             # END-1, INT-4
        "speeds": _speeds(SpeedOrder.ASCENDING),      # BAT-1: 0, 1, 2, 3, 4, 5
        "speeds_reversed": _speeds(SpeedOrder.REVERSED),  # VAR-1
    }


#: The facts by name (read-only); ``speeds`` and ``speeds_reversed`` as tuples of values.
FACTS = MappingProxyType(_facts())


def facts() -> dict[str, int | str]:
    """:data:`FACTS` for a message in the active language: the speed orders written as
    lists (``0, 1, 2, 3, 4, 5`` / ``0、1、2、3、4、5``). A fresh dict each call (callers
    may add their own keys); built once per language."""
    return dict(_facts_in(get_language()))


@lru_cache(maxsize=16)
def _facts_in(language: str | None) -> MappingProxyType:
    sep = pgettext("list separator", ", ")
    out: dict[str, int | str] = dict(FACTS)
    for key in ("speeds", "speeds_reversed"):
        out[key] = sep.join(str(v) for v in FACTS[key])
    return MappingProxyType(out)


@lru_cache(maxsize=16)
def table_facts(players: int = 4, no_scouts: bool = False) -> MappingProxyType:
    """The numbers of one table: ``hand`` attack cards each (SETUP-1; 7 with two players,
    SETUP-4; without the [5] cards under VAR-2), ``scouts`` [5] cards each, ``kinds`` of
    attack card in play, the grid's
    ``side`` and its ``grid`` card count (4 × 4 = 16, or 3 × 3 = 9 with two players)."""
    two = players == 2
    scouts = 0 if no_scouts else FACTS["scouts"] - (FACTS["scouts_removed_2p"] if two else 0)
    return MappingProxyType({"hand": FACTS["hand"] - FACTS["scouts"] + scouts, "scouts": scouts,
                             "kinds": FACTS["kinds"] - (1 if no_scouts else 0),
                             "side": FACTS["side_2p"] if two else FACTS["side"],
                             "grid": FACTS["grid_2p"] if two else FACTS["grid"]})
