"""Every memo table of the engine answers exactly what a fresh computation answers,
stays within its bound, and never mixes up board shapes."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from captain.rules import (
    BellRule,
    Board,
    Cell,
    Colour,
    Dice,
    Mode,
    RuleSet,
    Seating,
    Treasure,
    bell_status,
    may_ring,
    solve,
)
from captain.rules.caches import GEOMETRY, every_memo
from captain.rules.geometry import Geometry
from captain.rules.sim.players import POLICIES, play_game
from engine_strategies import rule_sets, seatings, situations
from profiles import examples

R, B, G, W = Colour


def same(a, b) -> bool:
    """Equality of memoised answers; geometries compare by what they hold."""
    if isinstance(a, Geometry):
        return (isinstance(b, Geometry) and a.row_lengths == b.row_lengths and a.key == b.key
                and a.positions == b.positions and dict(a.index) == dict(b.index)
                and a.lines == b.lines and a.full_lines == b.full_lines and a.reach == b.reach
                and dict(a.between) == dict(b.between) and a.lattice_gap == b.lattice_gap
                and a.between_rows == b.between_rows)
    return a == b


def check_every_memo() -> int:
    checked = 0
    for memo in every_memo():
        assert memo.compute is not None, f"{memo.name} has no function"
        assert len(memo) <= memo.maxsize, memo
        assert memo.why.endswith("."), memo.name
        for key, value in memo.items():
            assert same(value, memo.fresh(key)), (memo.name, key)
            checked += 1
    return checked


def test_every_memo_is_explained_and_bounded():
    names = [m.name for m in every_memo()]
    assert len(names) == len(set(names)) and len(names) >= 7
    for memo in every_memo():
        assert 0 < memo.maxsize <= 1 << 16
        assert len(memo.why.split()) >= 8, memo.name


@settings(max_examples=examples(40), suppress_health_check=[HealthCheck.too_slow])
@given(players=seatings(), rules=rule_sets(), seed=st.integers(0, 2**31))
def test_every_cached_answer_equals_a_fresh_computation_after_games(players, rules, seed):
    play_game(players, {c: POLICIES["random"] for c in players}, seed=seed, rules=rules)
    assert check_every_memo() > 0


@settings(max_examples=examples(150), suppress_health_check=[HealthCheck.too_slow])
@given(situation=situations())
def test_every_cached_answer_equals_a_fresh_computation_after_solving(situation):
    solution = solve(situation)
    if solution.treasure is not None:
        _ = solution.treasure.events  # the explanations fill more tables
    check_every_memo()


def _random_board(rng: random.Random) -> Board:
    faces = [Treasure(a, b) for a in range(1, 7) for b in range(a, 7)] * 2
    rng.shuffle(faces)
    rows = []
    for _ in range(rng.randint(1, 6)):
        row = []
        for _ in range(rng.randint(1, 6)):
            if rng.random() < 0.15 or not faces:
                row.append(Cell())
            else:
                occupant = Dice(rng.choice((R, B, G))) if rng.random() < 0.5 else None
                row.append(Cell(faces.pop(), occupant))
        rows.append(tuple(row))
    return Board(tuple(rows))


def test_many_shapes_never_answer_for_another_shape():
    """More shapes than the geometry memo holds: shapes are dropped and built again, and
    no answer ever comes from another shape (the ``id()`` keys of old reused freed ids)."""
    rng = random.Random(12)
    seats = Seating((R, B, G), R)
    boards = [_random_board(rng) for _ in range(GEOMETRY.maxsize + 600)]
    expected = []
    for board in boards:
        for memo in every_memo():  # the answer from scratch: no memo at all
            memo.table.clear()
        fresh = Board(board.rows)  # no per-board memo carried over
        expected.append((may_ring(fresh, seats), bell_status(fresh, seats).line,
                         may_ring(fresh, seats, RuleSet(mode=Mode.STRATEGY)),
                         may_ring(fresh, seats, RuleSet(bell=BellRule.FIRST_EDITION))))
    assert len(GEOMETRY) <= GEOMETRY.maxsize
    rng.shuffle(order := list(range(len(boards))))
    for i in order:
        board = Board(boards[i].rows)
        got = (may_ring(board, seats), bell_status(board, seats).line,
               may_ring(board, seats, RuleSet(mode=Mode.STRATEGY)),
               may_ring(board, seats, RuleSet(bell=BellRule.FIRST_EDITION)))
        assert got == expected[i], boards[i].to_rows()
    check_every_memo()
