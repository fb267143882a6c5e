"""Practice games: captains act by the clock in action mode, by turns otherwise; a
learner's late claim is refused; the log replays; the same inputs give the same game."""

from __future__ import annotations

import itertools
import random

import pytest

from captain.rules import Colour, IllegalAction, Mode, RuleSet
from captain.rules.captains.pace import Pace, interval, jitter
from captain.rules.captains.practice import (
    advance,
    learner_acts,
    learner_continues,
    next_due,
    replay,
    start_practice,
)
from captain.rules.captains.timing import measure, play_rounds
from captain.rules.game import Claim, Phase, RingStartBell, Roll, legal_actions
from captain.rules.game.state import GameState

R, B, G, W = Colour


def play_out(practice, learner_rng: random.Random, step: float = 0.2, limit: int = 20_000):
    """The learner takes a random legal action every ``step`` seconds (or says they are
    ready when the captains wait for them), until the game ends."""
    now = 0.0
    for _ in range(limit):
        if practice.state.is_over:
            return practice
        now += step
        practice = advance(practice, now)
        if practice.state.is_over:
            return practice
        own = legal_actions(practice.state, practice.learner)
        if own:
            practice = learner_acts(practice, own[learner_rng.randrange(len(own))], now)
        elif practice.waiting_for_learner:
            practice = learner_continues(practice, now)
    raise AssertionError("the practice game did not end")


@pytest.mark.parametrize("mode", list(Mode))
@pytest.mark.parametrize("players", [(R, B), (R, B, G), (R, B, G, W)])
def test_a_practice_game_ends_and_its_log_replays_exactly(mode, players):
    practice = start_practice(players, learner=B, seed=7, captain_seed=8,
                              rules=RuleSet(mode=mode), strength="greedy", pace=Pace.FASTEST)
    final = play_out(practice, random.Random(1))
    assert final.state.is_over
    assert replay(final.dealt, final.log) == final.state
    times = [entry.at for entry in final.log]
    assert times == sorted(times)
    assert any(entry.by_learner for entry in final.log)
    assert any(not entry.by_learner for entry in final.log)


def test_the_same_inputs_give_the_same_game_however_often_the_page_asks():
    def game(poll_every: float):
        practice = start_practice((R, B, G), learner=R, seed=5, captain_seed=6,
                                  strength="greedy", pace=Pace.QUICK)
        practice = learner_continues(practice, 0.0)
        now = 0.0
        while now < 30:
            now = round(now + poll_every, 3)
            practice = advance(practice, now)
        return practice

    a, b = game(0.1), game(0.7)
    assert [(e.at, e.action) for e in a.log] == [(e.at, e.action) for e in b.log]
    assert a.state == b.state


def test_captains_wait_for_the_learner_before_the_first_round_and_between_rounds():
    practice = start_practice((R, B, G), learner=R, seed=2, captain_seed=3, start_player=B,
                              pace=Pace.FASTEST)
    assert advance(practice, 100.0).log == ()  # nobody moves until the learner is ready
    practice = learner_continues(practice, 0.0)
    practice = advance(practice, 0.2)
    assert practice.log and practice.log[0].action == RingStartBell(B)
    # play until a round is resolved; then the captains wait
    rng = random.Random(4)
    now = 0.2
    while practice.state.last_round is None:
        now += 0.1
        practice = advance(practice, now)
        own = legal_actions(practice.state, R)
        if own and practice.state.last_round is None:
            practice = learner_acts(practice, own[rng.randrange(len(own))], now)
    assert practice.waiting_for_learner
    waited = advance(practice, now + 1000)
    assert waited.log == practice.log


def test_a_claim_a_captain_made_first_is_refused_with_the_reason():
    practice = start_practice((R, B), learner=R, seed=11, captain_seed=12, start_player=R,
                              strength="greedy", pace=Pace.FASTEST)
    practice = learner_acts(practice, RingStartBell(R), 0.0)
    # find a card the captain claims within the next seconds, then claim it late
    later = advance(practice, 5.0)
    taken = [e for e in later.log if isinstance(e.action, Claim) and e.action.player is B]
    assert taken, "the captain claimed nothing"
    first = taken[0]
    with pytest.raises(IllegalAction) as exc:  # a moment after the captain's claim
        learner_acts(practice, Claim(R, first.action.position), first.at + 0.001)
    assert exc.value.clause == "DICE-2"
    assert exc.value.code in ("occupied", "no-pair")


def test_strategy_mode_captains_play_their_turns_at_once():
    practice = start_practice((R, B, G), learner=G, seed=9, captain_seed=1, start_player=R,
                              rules=RuleSet(mode=Mode.STRATEGY), strength="greedy")
    practice = learner_continues(practice, 0.0)
    assert practice.state.phase is Phase.DICE
    assert practice.state.turn is G  # red and blue took their turns
    assert {e.action.player for e in practice.log} == {R, B}


def test_an_action_for_a_captain_seat_is_refused():
    practice = start_practice((R, B), learner=R, seed=1, captain_seed=1)
    with pytest.raises(IllegalAction, match="computer captain"):
        learner_acts(practice, Roll(B), 0.0)


def test_pace_intervals_follow_the_pace_and_are_reproducible():
    gaps = [interval(Pace.TABLE, seed=3, colour="red", n=n) for n in range(200)]
    assert all(0.5 / 1.2 <= g < 1.5 / 1.2 for g in gaps)
    assert gaps == [interval(Pace.TABLE, seed=3, colour="red", n=n) for n in range(200)]
    assert jitter(3, "red", 0) != jitter(3, "blue", 0)
    mean = sum(gaps) / len(gaps)
    assert abs(mean - 1 / 1.2) < 0.1
    assert Pace.FIRST_GAME.actions_per_second < Pace.TABLE.actions_per_second


def test_the_dealt_state_is_kept():
    practice = start_practice((R, B), learner=B, seed=4, captain_seed=4)
    assert isinstance(practice.dealt, GameState) and practice.dealt == practice.state



def test_the_first_game_pace_leaves_time_to_look_and_moves_one_captain_at_a_time():
    for players in (2, 3, 4):
        assert all(t.first_action >= Pace.FIRST_GAME.opening_seconds
                   for t in play_rounds(Pace.FIRST_GAME, players=players, rounds=12, seed=5))
    practice = learner_continues(start_practice((R, B, G), learner=R, seed=9, captain_seed=2,
                                                rules=RuleSet(mode=Mode.ACTION), strength="greedy",
                                                pace=Pace.FIRST_GAME, start_player=B), 0.0)
    practice = advance(practice, 200.0)  # the learner never moves: the captains play on alone
    moves = [e.at for e in practice.log if not e.by_learner]
    assert len(moves) > 5
    assert min(b - a for a, b in itertools.pairwise(moves)) >= Pace.FIRST_GAME.gap_seconds - 1e-9
    slow, table = measure(Pace.FIRST_GAME, rounds=20), measure(Pace.TABLE, rounds=20)
    assert slow.first_action >= 5 > table.first_action
    assert slow.length > 3 * table.length


@pytest.mark.parametrize("mode", list(Mode))
@pytest.mark.parametrize("pace", list(Pace))
def test_a_clock_woken_at_next_due_plays_the_same_game_as_one_asking_all_the_time(mode, pace):
    """A server clock sleeps until :func:`next_due` and advances then; nothing happens before
    that moment, something (a tick) at it, and the game is the one a page asking every
    20 ms would have made."""
    def dealt():
        practice = start_practice((R, B, G), learner=R, seed=11, captain_seed=12,
                                  rules=RuleSet(mode=mode), strength="greedy", pace=pace)
        return learner_continues(practice, 0.0)

    clocked, asked, now = dealt(), dealt(), 0.0
    for _ in range(400):
        due = next_due(clocked)
        if due is None:
            break
        before = advance(clocked, max(clocked.clock, due - 1e-6))
        assert (before.log, before.ticks) == (clocked.log, clocked.ticks)  # nothing is early
        woken = advance(clocked, max(due, clocked.clock))
        assert woken.ticks != clocked.ticks or woken.log != clocked.log  # something is due
        clocked, now = woken, max(due, clocked.clock)
    while asked.clock < now:
        asked = advance(asked, min(now, asked.clock + 0.02))
    assert [(e.at, e.action) for e in clocked.log] == [(e.at, e.action) for e in asked.log]
    if mode is Mode.ACTION:  # Dice Time by the clock, past the opening seconds
        assert len(clocked.log) > 3
    else:  # the captains' turns at once, then the clock stops at the learner's
        assert clocked.log and legal_actions(clocked.state, R) and next_due(clocked) is None
