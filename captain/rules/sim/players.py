"""Playing whole games with computer players: :func:`play_game`.

A policy maps ``(state, colour, actions, rng)`` — ``actions`` being that colour's
:class:`~captain.rules.game.LegalActions` — to one of those actions, or ``None`` when
the colour has nothing to do (:mod:`captain.rules.captains.policies`; a computer
captain is one too). In action mode (real time, no turns) a random seated player moves
at each tick.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping

from ..captains.policies import Policy, greedy_policy, random_policy
from ..game import Action, GameState, Phase, Roll, legal_actions, new_game
from ..model import Colour
from ..situation import RuleSet

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
            movers = [*players[k:], *players[:k]]
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


class DiceTimeLength:
    """An ``on_step`` that measures Dice Times: ``longest`` is the most turns one Dice Time
    of the game took (strategy mode: a re-roll that lets the same player still place,
    STRAT-4, is part of that player's turn; action mode has no turns, so every roll, claim
    and bell counts), ``current`` the count of the Dice Time under way.

    >>> from captain.rules import Colour
    >>> length = DiceTimeLength()
    >>> _ = play_game((Colour.RED, Colour.BLUE), dict.fromkeys((Colour.RED, Colour.BLUE),
    ...               greedy_policy), seed=1, on_step=length)
    >>> length.longest > 0 and length.current == 0
    True
    """

    def __init__(self) -> None:
        self.longest = 0
        self.current = 0

    def __call__(self, before: GameState, action: Action, after: GameState) -> None:
        if before.phase is not Phase.DICE:
            return
        if not (isinstance(action, Roll) and after.phase is Phase.DICE and after.rerolled):
            self.current += 1
            self.longest = max(self.longest, self.current)
        if after.phase is not Phase.DICE:
            self.current = 0
