"""The Captain Dice rules engine: immutable values, explicit events, no Django.

Main entry points:

* :func:`solve` — every answer for a :class:`Situation` (bell, battle, treasure, end).
* :func:`resolve_battle`, :func:`collect_treasure`, :func:`bell_status`, :func:`end_round`.
* :func:`situation_from_json` — the case format of ``shared/cases``.
* :mod:`~captain.rules.notation` — ``parse``/``format`` of the one-line position notation.
* :mod:`~captain.rules.game` — whole games: ``new_game``, ``legal_actions``, ``apply``.

Clause ids refer to RULES.md; every :class:`Event` carries one.
"""

from .battle import BattleResult, BattleStep, Outcome, resolve_battle, resolution_order
from .bell import BellStatus, bell_lines, bell_status
from .cases import situation_from_json, situation_to_json
from .errors import IllegalAction, InvalidInput, InvalidPosition, RulesError
from .events import Event
from .model import (COLOURS, FULL_DECK, AttackCard, AttackKind, Board, Colour, Dice, Position,
                    Square, Treasure)
from .round_end import RoundEnd, Standing, end_round, rearranged_shape
from .situation import BellRule, Collection, Mode, RuleSet, Seating, Situation, SpeedOrder
from .solve import Solution, solve
from .treasure import Sandwich, TreasureResult, collect_treasure, resolve_round
from . import game, notation  # noqa: E402  (submodules as part of the public API)

__all__ = [
    "AttackCard", "AttackKind", "BattleResult", "BattleStep", "BellRule", "BellStatus", "Board",
    "COLOURS", "Collection", "Colour", "Dice", "Event", "FULL_DECK", "IllegalAction",
    "InvalidInput", "InvalidPosition", "Mode", "Outcome", "Position", "RoundEnd", "RuleSet",
    "RulesError", "Sandwich", "Seating", "Situation", "Solution", "SpeedOrder", "Square",
    "Standing", "Treasure", "TreasureResult", "bell_lines", "bell_status", "collect_treasure",
    "end_round", "rearranged_shape", "resolution_order", "resolve_battle", "situation_from_json",
    "situation_to_json", "solve", "game", "notation", "resolve_round",
]
