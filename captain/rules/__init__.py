"""The Captain Dice rules engine: immutable values, explicit events, no Django.

Main entry points:

* :func:`solve` — every answer for a :class:`Situation` (bell, battle, treasure, end).
* :func:`resolve_battle`, :func:`collect_treasure`, :func:`bell_status`, :func:`end_round`.
* :func:`situation_from_json` — the case format of ``tests/cases``.
* :mod:`~captain.rules.notation` — ``parse`` reads the one-line notation;
  :meth:`Situation.to_notation` writes it.
* :mod:`~captain.rules.game` — whole games: ``new_game``, ``legal_actions``, ``apply``.
* :mod:`~captain.rules.sim` — computer players, statistics, transcripts, the benchmark.

Layers, lowest first (an import-linter contract in ``pyproject.toml`` keeps them):
``errors``, ``caches``, ``clauses``, ``coords`` → ``geometry``, ``events`` → ``model`` →
``situation`` → ``resolve`` (bell, battle, treasure, round_end, solve) → ``game``,
``cases``, ``notation`` → ``sim`` → ``__main__``.

Terms, one word per idea (RULES.md's names table for the game's own words):

* **position** — one place on the grid, :class:`Position` ``(row, col)``, zero-based
  from the top left (RULES.md: "positions on the grid").
* **cell** — what lies at a position: a treasure card or none, and at most one occupant
  (attack card or dice), :class:`Cell`. The site draws one as a ``CellView``.
* **board** — the cells, row by row (:class:`Board`); rows may differ in length.
* **situation** — everything the rules read at one moment: board, seats and start
  player, rule set, deck, cards won (:class:`Situation`). The case format, the JSON API
  and the site's pages call this a "position" ("saved position", ``position.pdf``,
  the ``invalid-position`` error code); inside the code it is always a situation.
* **turn** — one attack card's turn in Battle Time (:class:`CardTurn`, BAT-3).
* **step** — one step of the site's step-by-step answer (``tutorials.walkthrough``);
  a page of the tutorial is a **lesson**, a part of a taught table a **section**.
* **game state** — a whole game between moves (:class:`~captain.rules.game.GameState`);
  an **action** is one player's move in it.

Every clause of RULES.md is implemented by exactly one function, marked
``@implements("TRE-2")`` (:mod:`~captain.rules.clauses`); every :class:`Event` carries
the clause it applies. Every module-level memo table is in :mod:`~captain.rules.caches`.
"""

from . import game, notation
from .cases import situation_from_json, situation_to_json
from .errors import IllegalAction, InvalidInput, InvalidSituation, RulesError
from .events import Event
from .model import COLOURS, FULL_DECK, AttackCard, AttackKind, Board, Cell, Colour, Dice, Position, Treasure
from .resolve.battle import BattleResult, CardTurn, Outcome, resolution_order, resolve_battle
from .resolve.bell import BellStatus, bell_lines, bell_status, may_ring
from .resolve.round_end import RoundEnd, Standing, end_round, rearranged_shape
from .resolve.solve import Solution, solve
from .resolve.treasure import Sandwich, TreasureResult, collect_treasure, resolve_round
from .situation import (
                    BellRule,
                    Collection,
                    Mode,
                    RuleSet,
                    Seating,
                    Situation,
                    SpeedOrder,
                    TableSetup,
                    table_setup,
)

__all__ = [
    "AttackCard", "AttackKind", "BattleResult", "CardTurn", "BellRule", "BellStatus", "Board",
    "COLOURS", "Collection", "Colour", "Dice", "Event", "FULL_DECK", "IllegalAction",
    "InvalidInput", "InvalidSituation", "Mode", "Outcome", "Position", "RoundEnd", "RuleSet",
    "RulesError", "Sandwich", "Seating", "Situation", "Solution", "SpeedOrder", "Cell",
    "Standing", "TableSetup", "Treasure", "TreasureResult", "bell_lines", "bell_status",
    "collect_treasure", "end_round", "game", "may_ring", "notation", "rearranged_shape",
    "resolution_order", "resolve_battle", "resolve_round", "situation_from_json",
    "situation_to_json", "solve", "table_setup",
]
