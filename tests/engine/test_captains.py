"""Computer captains play fair: hidden facts never change a choice; they play whole games."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from captain.rules import Colour, Mode, RuleSet
from captain.rules.captains.policies import greedy_policy
from captain.rules.captains.strengths import CAPTAINS, GreedyCaptain, StrongCaptain, captain
from captain.rules.game import GameState, Phase, legal_actions, new_game
from captain.rules.game.view import determinize, unrevealed, unseen_treasure
from captain.rules.model import cell_of
from captain.rules.sim.players import play_game
from engine_strategies import rule_sets, seatings
from profiles import examples

R, B, G, W = Colour


def states_of_a_game(players, rules, seed, every=5) -> list[GameState]:
    """States met in a game of greedy captains (every ``every``-th one, not over)."""
    found = []

    def on_step(_before, _action, after):
        if not after.is_over and len(found) < 400:
            found.append(after)

    play_game(players, {c: captain("greedy") for c in players}, seed=seed, rules=rules,
              on_step=on_step)
    return found[::every]


def with_other_hidden_facts(state: GameState, colour: Colour, rng: random.Random) -> GameState:
    """The same game as ``colour`` sees it, with every hidden fact changed: the deck and
    box (order and which unseen cards are where), the seed of future rolls, and which of
    each opponent's unrevealed cards are in hand and which face down on the board."""
    unseen = list(state.deck + state.box)
    rng.shuffle(unseen)
    board = state.board
    players = []
    for p in state.players:
        if p.colour is colour:
            players.append(p)
            continue
        face_down = [pos for pos, card in board.cards().items() if card.colour is p.colour]
        kinds = list(p.hand) + [board.at(pos).card.kind for pos in face_down]
        rng.shuffle(kinds)
        for pos, kind in zip(face_down, kinds, strict=False):  # the rest go back to the hand
            board = board.with_cell(pos, cell_of(board.at(pos).treasure, p.colour, kind))
        players.append(replace(p, hand=tuple(sorted(kinds[len(face_down):]))))
    return replace(state, board=board, deck=tuple(unseen[:len(state.deck)]),
                   box=tuple(unseen[len(state.deck):]), players=tuple(players),
                   seed=rng.getrandbits(40))


def deciders(state: GameState) -> list[Colour]:
    """Colours with something to decide now."""
    return [c for c in state.seating.players if legal_actions(state, c)]


@settings(max_examples=examples(12), suppress_health_check=[HealthCheck.too_slow])
@given(players=seatings(), rules=rule_sets(), seed=st.integers(0, 2**31),
       strength=st.sampled_from(sorted(CAPTAINS)))
def test_changing_hidden_facts_never_changes_a_choice(players, rules, seed, strength):
    chooser = StrongCaptain(samples=3, rollouts=18) if strength == "strong" else captain(strength)
    rng = random.Random(seed)
    checked = 0
    for state in states_of_a_game(players, rules, seed, every=7):
        for colour in deciders(state):
            choice = chooser.choose(state, colour, random.Random(99))
            for _ in range(2):
                other = with_other_hidden_facts(state, colour, rng)
                assert chooser.choose(other, colour, random.Random(99)) == choice
                checked += 1
    assert checked > 0


def test_hidden_facts_do_change_in_the_variants():
    """The test above would be empty if the variants changed nothing hidden."""
    rng = random.Random(1)
    state = next(s for s in states_of_a_game((R, B, G), RuleSet(), 4, every=1)
                 if s.phase is Phase.SETTING and s.board.cards() and s.turn is not None
                 and any(c.colour is not s.turn for c in s.board.cards().values()))
    colour = state.turn
    other = with_other_hidden_facts(state, colour, rng)
    assert other.deck != state.deck and other.seed != state.seed
    changed = [p for p in state.board.cards() if state.board.at(p).card != other.board.at(p).card]
    hands = [p.hand for p in state.players if p.colour is not colour]
    other_hands = [p.hand for p in other.players if p.colour is not colour]
    assert changed or hands != other_hands


@pytest.mark.parametrize("mode", list(Mode))
def test_a_view_keeps_everything_its_player_sees(mode):
    rng = random.Random(3)
    for state in states_of_a_game((R, B, G, W), RuleSet(mode=mode), 11, every=3):
        for colour in state.seating.players:
            view = determinize(state, colour, rng)
            assert view.player(colour) == state.player(colour)
            assert view.seating == state.seating and view.phase is state.phase
            assert view.turn == state.turn and view.round == state.round
            assert len(view.deck) == len(state.deck) and len(view.box) == len(state.box)
            assert sorted(view.deck + view.box) == unseen_treasure(state)
            for pos, cell in state.board:
                seen = view.board.at(pos)
                assert seen.treasure == cell.treasure
                if cell.dice is not None or (cell.card is not None and cell.card.colour is colour):
                    assert seen.occupant == cell.occupant
                elif cell.card is not None:
                    assert seen.card.colour is cell.card.colour
            for p, q in zip(state.players, view.players, strict=True):
                assert q.won == p.won and q.dice == p.dice and q.discard == p.discard
                assert q.false_bell == p.false_bell
                if p.colour is not colour:
                    on_board = [c.kind for c in view.board.cards().values() if c.colour is p.colour]
                    assert sorted(q.hand + tuple(on_board)) == sorted(unrevealed(state, p.colour).elements())
            assert legal_actions(view, colour) == legal_actions(state, colour)


def test_the_greedy_captain_chooses_as_the_greedy_policy_does_on_the_real_state():
    for state in states_of_a_game((R, B, G), RuleSet(), 8, every=2):
        for colour in deciders(state):
            real = greedy_policy(state, colour, legal_actions(state, colour), random.Random(5))
            rng = random.Random(5)
            view = determinize(state, colour, rng)
            assert GreedyCaptain().decide(view, colour, legal_actions(view, colour),
                                          random.Random(5)) == real


@pytest.mark.parametrize("mode", list(Mode))
@pytest.mark.parametrize("strength", sorted(CAPTAINS))
def test_captains_play_whole_games(mode, strength):
    players = (R, B, G, W)
    chooser = StrongCaptain(samples=2, rollouts=12) if strength == "strong" else captain(strength)
    policies = {c: captain("greedy") for c in players}
    policies[G] = chooser
    final = play_game(players, policies, seed=21, rules=RuleSet(mode=mode))
    assert final.is_over


def test_unknown_strength_says_which_exist():
    with pytest.raises(KeyError, match="random, greedy, strong"):
        captain("legendary")


def test_new_game_states_have_nothing_hidden_but_the_deck_and_seed():
    state = new_game((R, B), seed=2)
    view = determinize(state, R, random.Random(0))
    assert view.players == state.players and view.board == state.board
    assert len(view.box) == 10 and view.seed != state.seed
