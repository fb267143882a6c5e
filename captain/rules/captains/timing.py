"""What a pace means at the table, measured on simulated action-mode rounds.

:func:`measure` deals practice games whose learner never claims (it only rings the start
bell when it is the start player and says it is ready between rounds), lets the captains
play at a :class:`~.pace.Pace`, and times every Dice Time from the start bell: when the
first captain acted, and when Dice Time ended. ``manage.py pace_figures`` prints the
medians per pace; the tests hold the first-game pace to its promise.
"""

from __future__ import annotations

from dataclasses import dataclass
from statistics import median

from ..game import Phase, RingBell, RingStartBell, apply, legal_actions
from ..model import COLOURS
from ..resolve.bell import may_ring
from ..situation import Mode, RuleSet
from .pace import Pace
from .practice import advance, learner_acts, learner_continues, start_practice


@dataclass(frozen=True)
class DiceTimeTiming:
    """One Dice Time: seconds from the start bell to the first captain action and to its end."""

    first_action: float
    length: float


@dataclass(frozen=True)
class PaceFigures:
    """The medians over ``rounds`` Dice Times of :func:`measure`."""

    pace: Pace
    players: int
    rounds: int
    first_action: float
    length: float


def _timings(practice) -> list[DiceTimeTiming]:
    """Every finished Dice Time of ``practice``'s log, replayed from the deal."""
    out, state, began, first = [], practice.dealt, None, None
    for entry in practice.log:
        before, state = state.phase, apply(state, entry.action)
        if isinstance(entry.action, RingStartBell):
            began, first = entry.at, None
        elif began is not None and before is Phase.DICE and first is None and not entry.by_learner:
            first = entry.at
        if began is not None and before is Phase.DICE and state.phase is not Phase.DICE:
            out.append(DiceTimeTiming((first if first is not None else entry.at) - began, entry.at - began))
            began = None
    return out


def _captain_can_act(practice) -> bool:
    return any(legal_actions(practice.state, c) for c in practice.captains)


def play_rounds(pace: Pace, *, players: int, rounds: int, seed: int) -> list[DiceTimeTiming]:
    """Simulate games at ``pace`` until ``rounds`` Dice Times are timed."""
    timings: list[DiceTimeTiming] = []
    game = 0
    while len(timings) < rounds:
        seats = COLOURS[:players]
        practice = start_practice(seats, learner=seats[0], seed=seed + game, captain_seed=seed * 7 + game,
                                  rules=RuleSet(mode=Mode.ACTION), strength="greedy", pace=pace)
        now, wanted = 0.0, rounds - len(timings)
        while not practice.state.is_over and practice.state.round <= wanted:
            state = practice.state
            mover = state.start_player if state.phase is Phase.AWAIT_START_BELL else state.turn
            if practice.waiting_for_learner:
                practice = learner_continues(practice, now)
            elif state.phase is Phase.AWAIT_START_BELL and mover is practice.learner:
                practice = learner_acts(practice, RingStartBell(practice.learner), now)
            # a captain's turn: the start bell, Setting Time
            elif mover is not None and mover in practice.next_tick:
                now = max(now, practice.next_tick[mover])
                practice = advance(practice, now)
            elif practice.real_time and practice.next_tick:
                before = len(practice.log)
                now = max(now, min(practice.next_tick.values()))
                practice = advance(practice, now)
                if len(practice.log) == before and not _captain_can_act(practice):
                    # the captains wait for the learner, who holds Dice Time open with its
                    # dice: it rings as a table would, or the game stops here
                    if not may_ring(state.board, state.seating, state.rules):
                        break
                    practice = learner_acts(practice, RingBell(practice.learner), now)
            else:  # nobody is due: the learner holds the turn it never takes
                break
        timings += _timings(practice)
        game += 1
    return timings[:rounds]


def measure(pace: Pace, *, players: int = 3, rounds: int = 40, seed: int = 1) -> PaceFigures:
    """The median time to the first captain action and the median Dice Time length."""
    timings = play_rounds(pace, players=players, rounds=rounds, seed=seed)
    return PaceFigures(pace, players, len(timings), median(t.first_action for t in timings),
                       median(t.length for t in timings))
