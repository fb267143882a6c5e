"""Values a board works out once and carries to the boards made from it (occupancy masks,
free treasure cards) stay read-only, survive pickling, and never let a bad board through."""

from __future__ import annotations

import copy
import pickle

import pytest

from captain.rules import AttackCard, AttackKind, BellRule, Board, Colour, Dice, RuleSet, Seating
from captain.rules.errors import InvalidSituation
from captain.rules.game import Phase, RingStartBell, apply, legal_actions, new_game
from captain.rules.model import Position
from captain.rules.resolve.bell import bell_status, may_ring

R, B, G = Colour.RED, Colour.BLUE, Colour.GREEN


def dice_time_board() -> Board:
    state = apply(new_game((R, B, G), seed=3, start_player=R), RingStartBell(R))
    assert state.phase is Phase.DICE
    legal_actions(state)  # works out (and memoises) the free cards
    return state.board


@pytest.mark.parametrize("roundtrip", [lambda b: pickle.loads(pickle.dumps(b)), copy.deepcopy,
                                       copy.copy])
def test_boards_with_memoised_values_pickle_and_copy(roundtrip):
    board = dice_time_board().with_occupant(Position(0, 0), Dice(R))
    board.occupancy()
    again = roundtrip(board)
    assert again == board
    assert again.occupancy() == board.occupancy()
    assert dict(again.free_faces()) == dict(board.free_faces())


def test_occupancy_and_free_cards_are_read_only():
    board = Board.parse(["11:R 12 13", "14 22 23", "33 34 35"])
    occupancy = board.occupancy()
    with pytest.raises(TypeError):
        occupancy.dice_of[B] = 32  # type: ignore[index]
    with pytest.raises(TypeError):
        board.free_faces()[Position(0, 1)] = (1, 1)  # type: ignore[index]
    # a board made from this one starts from the same values and stays right
    after = board.with_occupant(Position(0, 1), AttackCard(B, AttackKind.CANNON))
    assert after.occupancy() == Board(after.rows).occupancy()
    assert dict(after.occupancy().dice_of) == {R: 1}
    assert Position(0, 1) not in after.free_faces()


def test_an_occupant_on_a_gap_is_refused_by_name():
    board = Board.parse(["11 12 13", "-- 22 23", "33 34 35"])
    board.free_faces()
    with pytest.raises(InvalidSituation) as err:
        board.with_occupant(Position(1, 0), Dice(R))
    assert err.value.code == "occupant-without-treasure"
    assert err.value.clause == "DICE-2"


def test_all_dice_bell_counts_only_seated_colours():
    """VAR-3: a seated player's three cards; dice of a colour not at the table never count."""
    board = Board.parse(["11", "12:G", "13:G", "14:G"])
    rules = RuleSet(bell=BellRule.ALL_DICE)
    two = Seating((R, B), R)
    assert may_ring(board, two, rules) is bell_status(board, two, rules).may_ring is False
    three = Seating((R, B, G), R)
    assert may_ring(board, three, rules) is bell_status(board, three, rules).may_ring is True
