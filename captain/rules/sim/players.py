"""Computer players for simulations: a random legal player and a simple greedy one.

A policy maps ``(state, colour, actions, rng)`` — ``actions`` being that colour's
:class:`~captain.rules.game.LegalActions` — to one of those actions, or ``None`` when
the colour has nothing to do. :func:`play_game` runs a whole game: in action mode (real
time, no turns) a random seated player moves at each tick.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping

from ..game import (Action, Claim, GameState, LegalActions, Phase, PlaceAttackCard, RingBell,
                    RingStartBell, Roll, legal_actions, new_game)
from ..model import AttackKind, Colour, Position
from ..situation import Mode, RuleSet

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
        return max(by_type[Claim], key=lambda a: (_line_partners(state, colour, a.position),  # type: ignore[attr-defined]
                                                  rng.random()))
    rolls = by_type.get(Roll, [])
    if rolls:
        if state.rules.mode is Mode.STRATEGY:
            return max(rolls, key=lambda a: len(a.dice or ()))  # type: ignore[attr-defined]
        return rolls[0]
    return actions[0]


POLICIES: Mapping[str, Policy] = {"random": random_policy, "greedy": greedy_policy}


def play_game(players: tuple[Colour, ...], policies: Mapping[Colour, Policy], *, seed: int,
              rules: RuleSet = RuleSet(), max_steps: int = 100_000,
              on_step: Callable[[GameState, Action, GameState], None] | None = None
              ) -> GameState:
    """Play a whole game and return the final state.

    ``rng`` for the policies and the scheduler is seeded from ``seed`` too, so the same
    seed gives the same game. Raises ``RuntimeError`` if ``max_steps`` is exceeded.
    """
    rng = random.Random(seed)
    state = new_game(players, rules=rules, seed=seed)
    for _ in range(max_steps):
        if state.phase is Phase.OVER:
            return state
        if state.turn is not None:
            movers = [state.turn]
        elif state.phase is Phase.AWAIT_START_BELL:
            movers = [state.start_player]
        else:  # real time: a random player gets there first; then the others clockwise
            k = int(rng.random() * len(players))
            movers = players[k:] + players[:k]
        for colour in movers:
            actions = legal_actions(state, colour)
            action = policies[colour](state, colour, actions, rng)
            if action is not None:
                new = actions.apply(action)
                if on_step:
                    on_step(state, action, new)
                state = new
                break
        else:
            raise RuntimeError(f"nobody can move in phase {state.phase.value}")
    raise RuntimeError(f"game not over after {max_steps} steps (seed {seed})")
