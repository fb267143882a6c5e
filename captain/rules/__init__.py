"""The Captain Dice rules engine: immutable values, explicit events, no Django.

Main entry points:

* :func:`solve` — every answer for a :class:`Situation` (bell, battle, treasure, end).
* :func:`resolve_battle`, :func:`collect_treasure`, :func:`bell_status`, :func:`end_round`.
* :func:`situation_from_json` — the case format of ``shared/cases``.
* :mod:`~captain.rules.notation` — ``parse`` reads the one-line notation;
  :meth:`Situation.to_notation` writes it.
* :mod:`~captain.rules.game` — whole games: ``new_game``, ``legal_actions``, ``apply``.
* :mod:`~captain.rules.sim` — computer players, statistics, transcripts, the benchmark.

Layers, lowest first (an import-linter contract in ``pyproject.toml`` keeps them):
``errors``, ``caches``, ``clauses``, ``coords`` → ``geometry``, ``events`` → ``model`` →
``situation`` → ``resolve`` (bell, battle, treasure, round_end, solve) → ``game``,
``cases``, ``notation`` → ``sim`` → ``__main__``.

Every clause of RULES.md is implemented by exactly one function, marked
``@implements("TRE-2")`` (:mod:`~captain.rules.clauses`); every :class:`Event` carries
the clause it applies. Every module-level memo table is in :mod:`~captain.rules.caches`.
"""

from . import game, notation
from .cases import situation_from_json, situation_to_json
from .errors import IllegalAction, InvalidInput, InvalidPosition, RulesError
from .events import Event
from .model import (COLOURS, FULL_DECK, AttackCard, AttackKind, Board, Colour, Dice, Position,
                    Square, Treasure)
from .resolve.battle import BattleResult, BattleStep, Outcome, resolution_order, resolve_battle
from .resolve.bell import BellStatus, bell_lines, bell_status, may_ring
from .resolve.round_end import RoundEnd, Standing, end_round, rearranged_shape
from .resolve.solve import Solution, solve
from .resolve.treasure import Sandwich, TreasureResult, collect_treasure, resolve_round
from .situation import (BellRule, Collection, Mode, RuleSet, Seating, Situation, SpeedOrder,
                        TableSetup, table_setup)

__all__ = [
    "AttackCard", "AttackKind", "BattleResult", "BattleStep", "BellRule", "BellStatus", "Board",
    "COLOURS", "Collection", "Colour", "Dice", "Event", "FULL_DECK", "IllegalAction",
    "InvalidInput", "InvalidPosition", "Mode", "Outcome", "Position", "RoundEnd", "RuleSet",
    "RulesError", "Sandwich", "Seating", "Situation", "Solution", "SpeedOrder", "Square",
    "Standing", "TableSetup", "Treasure", "TreasureResult", "bell_lines", "bell_status",
    "collect_treasure", "end_round", "game", "may_ring", "notation", "rearranged_shape",
    "resolution_order", "resolve_battle", "resolve_round", "situation_from_json",
    "situation_to_json", "solve", "table_setup",
]
