"""The simplest computer players: a random legal player and a greedy one.

A policy maps ``(state, colour, actions, rng)`` — ``actions`` being that colour's
:class:`~captain.rules.game.LegalActions` — to one of those actions, or ``None`` when
the colour has nothing to do. Both read only what their player sees at the table (the
board, the dice, their own hand): given a state from
:func:`~captain.rules.game.view.determinize` they choose exactly as on the real one.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from ..game import Action, Claim, GameState, LegalActions, PlaceAttackCard, RingBell, RingStartBell, Roll
from ..model import AttackKind, Colour, Position
from ..situation import Mode

Policy = Callable[[GameState, Colour, LegalActions, random.Random], "Action | None"]


def random_policy(state: GameState, colour: Colour, actions: LegalActions,
                  rng: random.Random) -> Action | None:
    """Any legal action of ``colour``, uniformly."""
    return actions[int(rng.random() * len(actions))] if actions else None


def _line_partners(state: GameState, colour: Colour, pos: Position) -> int:
    """How many of ``colour``'s dice cards share a row, column or diagonal with ``pos``."""
    return sum(1 for p in state.dice_cards(colour) if state.board.between(pos, p) is not None)


def greedy_policy(state: GameState, colour: Colour, actions: LegalActions,
                  rng: random.Random) -> Action | None:
    """A simple greedy player.

    Dice Time: ring as soon as the bell may ring and it holds dice on a card; else claim
    the card lining up with most of its own cards (sandwich chances); else re-roll.
    Setting Time: play the card whose range holds most opponents' dice, else a Scout
    Ship, else its lowest card.
    """
    if not actions:
        return None
    by_type: dict[type, list[Action]] = {}
    for a in actions:
        by_type.setdefault(type(a), []).append(a)
    if RingStartBell in by_type:
        return by_type[RingStartBell][0]
    if PlaceAttackCard in by_type:
        opponents = {p for p, d in state.board.dice().items() if d.colour != colour}

        def score(a: PlaceAttackCard) -> tuple[int, int]:
            hits = len(state.board.range_of(a.kind, a.position) & opponents)
            return (hits * 10 + (3 if a.kind is AttackKind.SCOUT_SHIP else 0)
                    + (2 if a.kind is AttackKind.HOSTAGE_GAMBIT and _line_partners(
                        state, colour, a.position) else 0), -int(a.kind))

        return max(by_type[PlaceAttackCard], key=score)  # type: ignore[arg-type]
    if RingBell in by_type and state.dice_cards(colour):
        return by_type[RingBell][0]
    if Claim in by_type:
        return max(by_type[Claim], key=lambda a: (_line_partners(state, colour, a.position),  # type: ignore[union-attr]
                                                  rng.random()))
    rolls = by_type.get(Roll, [])
    if rolls:
        if state.rules.mode is Mode.STRATEGY:
            return max(rolls, key=lambda a: len(a.dice or ()))  # type: ignore[union-attr]
        return rolls[0]
    return actions[0]


