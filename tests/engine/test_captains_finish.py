"""Every computer captain finishes its game: no captain re-rolls forever.

A captain that can claim a card does so some time; one that cannot re-rolls so that a
claim becomes possible. The long version (thousands of games) is a command, not a test:
``python -m captain.rules simulate --players 2 --mode strategy --policy strong --games
2000 --jobs 0`` prints the longest Dice Time it saw.
"""

from __future__ import annotations

import functools
import random
from dataclasses import dataclass, replace
from itertools import combinations_with_replacement

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from captain.rules import Colour, Mode, RuleSet
from captain.rules.captains.strengths import CAPTAINS, StrongCaptain, captain
from captain.rules.game import Claim, GameState, Phase, Roll, legal_actions, pairs_shown
from captain.rules.sim.players import DiceTimeLength, play_game
from captain.rules.sim.simulate import report, simulate
from engine_strategies import rule_sets
from profiles import examples

R, B, G, W = Colour
STRENGTHS = sorted(CAPTAINS)
#: Steps no finished game of these tests comes near (the longest take a few hundred).
STEP_CAP = 5_000


def _chooser(strength: str):
    """A captain of ``strength``; the strong one with fewer play-outs, to keep tests quick
    (its re-roll choice is the same code)."""
    return StrongCaptain(samples=2, rollouts=12) if strength == "strong" else captain(strength)


def test_the_strong_captain_finishes_the_game_where_it_kept_a_hopeless_die():
    """Game 24 of ``winrate --strength strong --against greedy --players 2 --mode strategy
    --seed 1`` (seed 1 + 24; the strong captain sits at seat 24 mod 2, red). Red comes to
    hold two dice that match no free card while blue has placed all of its dice: only red
    can end that Dice Time, by claiming."""
    seed, tested = 1 + 24, (R, B)[24 % 2]
    assert tested is R
    alone_without_a_claim = []
    length = DiceTimeLength()

    def on_step(before: GameState, action, after: GameState) -> None:
        length(before, action, after)
        if (after.phase is Phase.DICE and after.turn is R and not after.player(B).dice
                and not any(isinstance(a, Claim) for a in legal_actions(after, R))):
            alone_without_a_claim.append(after.player(R).dice)

    final = play_game((R, B), {R: captain("strong"), B: captain("greedy")}, seed=seed,
                      rules=RuleSet(mode=Mode.STRATEGY), max_steps=1_000, on_step=on_step)
    assert final.is_over
    assert alone_without_a_claim, "the game no longer reaches the situation it is about"
    assert length.longest <= 60


@pytest.mark.parametrize("mode", list(Mode))
@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("strength", STRENGTHS)
@settings(max_examples=examples(3))
@given(data=st.data(), seed=st.integers(0, 2**31))
def test_every_captain_finishes_its_games(strength, players, mode, data, seed):
    """Random seeds, rules of the mode, the captain in a random seat and the other seats
    of any strength: the game ends within the step cap."""
    colours = tuple(Colour)[:players]
    rules = data.draw(rule_sets().filter(lambda r: r.mode is mode), label="rules")
    seat = data.draw(st.sampled_from(colours), label="seat")
    policies = {c: _chooser(data.draw(st.sampled_from(STRENGTHS), label=c.value))
                for c in colours}
    policies[seat] = _chooser(strength)
    final = play_game(colours, policies, seed=seed, rules=rules, max_steps=STEP_CAP)
    assert final.is_over


# --- the strong captain's re-roll, whatever its look-ahead says --------------------------------

@dataclass
class _FixedValues(StrongCaptain):
    """A strong captain whose look-ahead values the free cards as given (in board order,
    repeated), however low: the re-roll it chooses must still be able to lead to a claim."""

    values: tuple[float, ...] = (0.0,)

    def _claim_values(self, view, colour, positions, rng):
        return {pos: self.values[i % len(self.values)] for i, pos in enumerate(positions)}


@functools.cache
def _strategy_turns() -> tuple[GameState, ...]:
    """Strategy-mode Dice Time states of greedy games where the player on turn holds two
    to four dice: late in Dice Time, when few free cards are left."""
    found = []
    for players, seed, stray in (((R, B), 3, False), ((R, B, G), 5, True), ((R, B, G, W), 8, False)):
        def on_step(_before, _action, after, found=found) -> None:
            if (after.phase is Phase.DICE and after.turn is not None
                    and 2 <= len(after.player(after.turn).dice) <= 4):
                found.append(after)

        play_game(players, dict.fromkeys(players, captain("greedy")), seed=seed,
                  rules=RuleSet(mode=Mode.STRATEGY, place_after_reroll=stray), on_step=on_step)
    return tuple(found)


def _hands_with_a_hopeless_die(state: GameState) -> list[tuple[int, ...]]:
    """Every hand of as many dice as the player on turn holds that matches no free card
    and holds a die no free card shows: keeping it and re-rolling the rest one die at a
    time can never claim."""
    free = set(state.board.free_faces().values())
    shown = {v for faces in free for v in faces}
    size = len(state.player(state.turn).dice)
    return [hand for hand in combinations_with_replacement(range(1, 7), size)
            if free.isdisjoint(pairs_shown(hand)) and not shown.issuperset(hand)]


def _may_claim_after(state: GameState, roll: Roll) -> bool:
    """Some outcome of ``roll`` shows two dice with a free card's faces."""
    free = set(state.board.free_faces().values())
    hand = state.player(roll.player).dice
    rerolled = roll.dice or hand
    kept = list(hand)
    for d in rerolled:
        kept.remove(d)
    return any(not free.isdisjoint(pairs_shown(tuple(sorted(kept + list(new)))))
               for new in combinations_with_replacement(range(1, 7), len(rerolled)))


@settings(max_examples=examples(30))
@given(data=st.data(), seed=st.integers(0, 2**31),
       values=st.lists(st.floats(-12, 4), min_size=1, max_size=16)
       | st.lists(st.floats(-12, -1.01), min_size=1, max_size=16))
def test_a_strong_captains_re_roll_can_always_lead_to_a_claim(data, seed, values):
    """No look-ahead values, however low, make a re-roll that can never claim (keeping a
    die no free card shows) worth more than one that can."""
    state = data.draw(st.sampled_from(_tempting_turns()), label="state")
    hand = data.draw(st.sampled_from(_hands_with_a_hopeless_die(state)), label="hand")
    colour = state.turn
    players = tuple(replace(p, dice=hand) if p.colour is colour else p for p in state.players)
    state = replace(state, players=players, rerolled=False)
    action = _FixedValues(values=tuple(values)).choose(state, colour, random.Random(seed))
    assert isinstance(action, Roll)
    assert _may_claim_after(state, action), (hand, state.board.free_faces(), action)


def _tempting_turns() -> list[GameState]:
    return [s for s in _strategy_turns() if _hands_with_a_hopeless_die(s)]


def test_the_re_roll_test_has_states_to_play_on():
    assert len(_tempting_turns()) >= 10


# --- measuring Dice Times ---------------------------------------------------------------------

def test_with_strat_4_a_re_roll_and_the_placement_or_pass_after_it_are_one_turn():
    """Under STRAT-4 every re-roll is followed by the same player's claim or pass, so a
    Dice Time lasts as many turns as it has claims and passes."""
    players = (R, B, G)
    dice_times: list[list[object]] = []
    length = DiceTimeLength()

    def on_step(before, action, after) -> None:
        length(before, action, after)
        if before.phase is Phase.DICE:
            dice_times[-1].append(action)
        elif after.phase is Phase.DICE:
            dice_times.append([])

    play_game(players, dict.fromkeys(players, captain("greedy")), seed=4,
              rules=RuleSet(mode=Mode.STRATEGY, place_after_reroll=True), on_step=on_step)
    turns = [sum(1 for a in moves if not isinstance(a, Roll)) for moves in dice_times]
    assert length.longest == max(turns)
    assert any(isinstance(a, Roll) for moves in dice_times for a in moves)


def test_simulate_reports_the_longest_dice_time_of_any_strength():
    tally = simulate(2, 2, 25, Mode.STRATEGY, "strong")
    assert tally.longest_dice_time > 0 and tally.longest_dice_time_seed in (25, 26)
    text = report(tally, 2, 2, Mode.STRATEGY, "strong", 0.0)
    assert (f"longest Dice Time: {tally.longest_dice_time} turns "
            f"(seed {tally.longest_dice_time_seed})") in text.splitlines()
