"""Property tests: whole random games keep every invariant, and notation round-trips.

Games are played by :func:`play_game` with random and greedy computer players over random
seeds, seatings and rule sets; ``on_step`` checks the state after every single action.
The example counts keep this file well under a minute on two cores.
"""

from __future__ import annotations

import re
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from captain.rules import FULL_DECK, AttackKind, Board, Colour, IllegalAction, Mode, Outcome, RuleSet
from captain.rules.captains.policies import greedy_policy, random_policy
from captain.rules.game import (
    GameState,
    Phase,
    apply,
    attack_cards_of,
    check,
    legal_actions,
    new_game,
    starting_hand,
)
from captain.rules.notation import parse, parse_unchecked
from captain.rules.resolve.bell import bell_status, may_ring
from captain.rules.sim.players import play_game
from captain.rules.sim.transcript import transcript
from engine_strategies import rule_sets, seatings, situations
from profiles import examples

POLICIES = {"random": random_policy, "greedy": greedy_policy}
URL_SAFE = re.compile(r"^[A-Za-z0-9._~-]+$")


# --- invariants ---------------------------------------------------------------------------------

class Checker:
    """Checks every step of one game; counts what it saw."""

    def __init__(self, players: tuple[Colour, ...], rules: RuleSet) -> None:
        self.players = players
        self.rules = rules
        self.full_hand = Counter(starting_hand(rules, len(players)))
        self.steps = 0
        self.battles = 0
        self.actions: list[object] = []

    def __call__(self, before: GameState, action, after: GameState) -> None:
        self.steps += 1
        self.actions.append(action)
        self.cards(after)
        self.treasure(after)
        self.dice(after)
        self.turns(after)
        self.carried(after)
        if after.last_round is not None and after.last_round is not before.last_round:
            self.battles += 1
            self.battle(after)
            assert after.last_round.round == before.round
        if self.steps % 7 == 0:  # legal_actions only lists what check() accepts
            for a in legal_actions(after):
                check(after, a)
        if self.steps % 5 == 0:  # the analyzer's view of the moment reads back the same
            situation = after.situation()
            assert parse_unchecked(situation.to_notation()) == situation

    def carried(self, state: GameState) -> None:
        """What a board carried over from the previous board equals a fresh computation."""
        fresh = Board(state.board.rows)
        assert state.board.occupancy() == fresh.occupancy()
        assert list(state.board.free_faces().items()) == list(fresh.free_faces().items())
        assert may_ring(state.board, state.seating, state.rules) == \
            bell_status(fresh, state.seating, state.rules).may_ring

    def cards(self, state: GameState) -> None:
        for colour in self.players:
            assert attack_cards_of(state, colour) == self.full_hand, colour
        for card in state.board.cards().values():
            assert card.colour in self.players

    def treasure(self, state: GameState) -> None:
        everything = Counter(cell.treasure for _, cell in state.board if cell.treasure is not None)
        everything.update(state.deck)
        everything.update(state.box)
        for p in state.players:
            everything.update(p.won)
        assert everything == Counter(FULL_DECK)
        assert sum(everything.values()) == state.treasure_total() == 42
        assert len(state.box) == (10 if len(self.players) == 2 else 0)

    def dice(self, state: GameState) -> None:
        if state.phase in (Phase.AWAIT_START_BELL, Phase.OVER):
            assert not state.board.dice() and not state.board.cards()
            assert all(p.dice == () and not p.false_bell for p in state.players)
            return
        for p in state.players:  # six dice each: in hand or two on each card (SET-1 returns them)
            assert len(p.dice) + 2 * len(state.dice_cards(p.colour)) == 6, p
        if state.phase is Phase.DICE:
            assert not state.board.cards()
            assert not all(p.false_bell for p in state.players)  # INT-7

    def turns(self, state: GameState) -> None:
        if state.phase is Phase.SETTING:
            assert state.turn is not None and state.dice_cards(state.turn)
            assert state.board.dice()
        elif state.phase is Phase.DICE and state.rules.mode is Mode.STRATEGY:
            assert state.turn is not None
        else:
            assert state.turn is None

    def battle(self, state: GameState) -> None:
        record = state.last_round
        before = record.battle.before
        removed_at: dict[object, int] = {}
        for step in record.battle.turns:
            if step.position in removed_at:
                # a card removed before its turn never acts (BAT-3)
                assert step.outcome is Outcome.REMOVED_BEFORE and step.removed == ()
                assert removed_at[step.position] < step.index
            else:
                assert step.outcome is not Outcome.REMOVED_BEFORE
            for pos in step.removed:
                victim = before.at(pos).card
                assert victim is not None
                assert victim.colour != step.card.colour  # own cards are never removed
                assert victim.kind is not AttackKind.HOSTAGE_GAMBIT  # [0] is immune
                assert pos not in removed_at
                removed_at[pos] = step.index
        survivors = record.battle.board.cards()
        assert set(survivors) == set(before.cards()) - set(removed_at)
        assert all(p in survivors for p, c in before.cards().items()
                   if c.kind is AttackKind.HOSTAGE_GAMBIT)
        # every card of this round is now in its owner's discard (BAT-4, TRE-4)
        assert not state.board.cards()


def play(players, rules, seed, kinds, on_step=None) -> GameState:
    policies = {c: POLICIES[kinds[i % len(kinds)]] for i, c in enumerate(players)}
    return play_game(players, policies, seed=seed, rules=rules, on_step=on_step)


@settings(max_examples=examples(150), suppress_health_check=[HealthCheck.too_slow])
@given(players=seatings(), rules=rule_sets(), seed=st.integers(0, 2**31),
       kinds=st.lists(st.sampled_from(sorted(POLICIES)), min_size=1, max_size=4))
def test_random_games_keep_every_invariant_and_end(players, rules, seed, kinds):
    checker = Checker(players, rules)
    final = play(players, rules, seed, kinds, checker)
    assert final.is_over
    assert final.deck == () and final.board.treasure_count() <= 8  # END-1, INT-4
    assert checker.battles == final.round
    standings, winner = final.standings()
    assert sum(s.cards for s in standings) == sum(len(p.won) for p in final.players)
    assert winner is None or winner == standings[0].player
    # same seed: the same game, action for action
    again = Checker(players, rules)
    replay = play(players, rules, seed, kinds, again)
    assert replay == final
    assert again.actions == checker.actions


@settings(max_examples=examples(8))
@given(n=st.integers(2, 4), seed=st.integers(0, 10_000), mode=st.sampled_from(Mode),
       policy=st.sampled_from(sorted(POLICIES)))
def test_same_seed_same_transcript(n, seed, mode, policy):
    text = transcript(n, seed, mode, policy)
    assert transcript(n, seed, mode, policy) == text
    assert text.rstrip().splitlines()[-1].startswith("Winner: ")


@settings(max_examples=examples(30))
@given(players=seatings(), rules=rule_sets(), seed=st.integers(0, 2**31), data=st.data())
def test_every_action_legal_actions_offers_is_accepted(players, rules, seed, data):
    """Walk a game by hand choosing among ``legal_actions``; ``apply`` accepts each."""
    state = new_game(players, rules=rules, seed=seed)
    for _ in range(60):
        actions = legal_actions(state)
        if not actions:
            assert state.is_over
            break
        for colour in players:
            own = legal_actions(state, colour)
            assert own == [a for a in actions if a.player == colour]
        state = apply(state, data.draw(st.sampled_from(actions)))


@settings(max_examples=examples(30))
@given(players=seatings(), seed=st.integers(0, 2**31), data=st.data())
def test_actions_of_other_players_out_of_turn_are_refused_with_a_clause(players, seed, data):
    rules = RuleSet(mode=Mode.STRATEGY)
    state = new_game(players, rules=rules, seed=seed)
    for _ in range(40):
        if state.is_over:
            break
        if state.turn is not None:
            for colour in players:
                if colour == state.turn:
                    continue
                for action in legal_actions(replace_turn(state, colour)):
                    try:
                        apply(state, action)
                    except IllegalAction as exc:
                        assert exc.clause in ("STRAT-1", "SET-1")
                    else:
                        raise AssertionError(f"{action} accepted out of turn")
        state = apply(state, data.draw(st.sampled_from(legal_actions(state))))


def replace_turn(state: GameState, colour: Colour) -> GameState:
    from dataclasses import replace

    return replace(state, turn=colour)


# --- notation -------------------------------------------------------------------------------------

@settings(max_examples=examples(300))
@given(situations())
def test_notation_round_trips_for_random_positions(situation):
    text = situation.to_notation()
    assert URL_SAFE.match(text), text
    assert parse(text) == situation
    assert parse(text).to_notation() == text


@settings(max_examples=examples(100))
@given(st.text(alphabet="RBGWrbgwx0123456789._-spvdi", max_size=40))
def test_notation_reader_never_crashes(text):
    """Any string either reads or fails with a NotationError/InvalidSituation, never else."""
    from captain.rules import RulesError
    from captain.rules.notation import NotationError

    try:
        situation = parse_unchecked(text)
    except NotationError as exc:
        assert 0 <= exc.offset <= len(text)
        return
    except RulesError:
        return
    assert parse_unchecked(situation.to_notation()) == situation
