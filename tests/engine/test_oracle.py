"""The engine against a plain reference written separately from RULES.md (``oracle.py``),
on random valid situations: removals, survivors, both INT-1 readings, the bell."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings

import oracle
from captain.rules import (
    AttackCard,
    AttackKind,
    Board,
    Cell,
    Collection,
    Colour,
    Position,
    RuleSet,
    Seating,
    Treasure,
    collect_treasure,
    may_ring,
    resolve_battle,
    solve,
)
from engine_strategies import situations
from profiles import examples


def _engine_answers(situation):
    board, seating, rules = situation.board, situation.seating, situation.rules
    battle = resolve_battle(board, seating, rules)
    removals = [(tuple(by), [tuple(p) for p in removed]) for by, removed in battle.removals]
    survivors = {tuple(p): c for p, c in battle.survivors.items()}
    readings = {}
    for reading in Collection:
        result = collect_treasure(battle.board, seating, RuleSet(collection=reading))
        readings[reading] = {c: {tuple(p) for p in ps} for c, ps in result.winnings.items()}
    return removals, survivors, readings


@settings(max_examples=examples(400), suppress_health_check=[HealthCheck.too_slow])
@given(situations())
def test_engine_agrees_with_the_reference(situation):
    board, seating, rules = situation.board, situation.seating, situation.rules
    if board.dice():
        assert may_ring(board, seating, rules) == oracle.bell(board, seating, rules)
        assert solve(situation).bell.may_ring == oracle.bell(board, seating, rules)
    if board.cards():
        removals, survivors, readings = _engine_answers(situation)
        want_removals, want_survivors = oracle.battle(board, seating, rules)
        assert removals == want_removals
        assert survivors == want_survivors
        after = resolve_battle(board, seating, rules).board
        for reading in Collection:
            assert readings[reading] == oracle.treasure(after, seating, reading), reading


def test_engine_agrees_with_the_reference_on_full_boards():
    """Crowded 4×4 boards, where ties, blockers and priorities are common."""
    rng = random.Random(5)
    faces = [Treasure(a, b) for a in range(1, 7) for b in range(a, 7)]
    for _ in range(400):
        players = tuple(rng.sample(list(Colour), rng.randint(2, 4)))
        seating = Seating(players, rng.choice(players))
        supply = [AttackCard(c, k) for c in players for k in AttackKind
                  for _ in range(4 if k is AttackKind.SCOUT_SHIP else 1)]
        rng.shuffle(supply)
        cells = {}
        for r in range(4):
            for c in range(4):
                card = supply.pop() if rng.random() < 0.8 else None
                cells[Position(r, c)] = Cell(rng.choice(faces), card)
        board = Board.from_cells(cells, (4, 4))
        battle = resolve_battle(board, seating)
        want_removals, want_survivors = oracle.battle(board, seating, RuleSet())
        assert [(tuple(b), [tuple(p) for p in rs]) for b, rs in battle.removals] == want_removals
        for reading in Collection:
            got = collect_treasure(battle.board, seating, RuleSet(collection=reading)).winnings
            assert {c: {tuple(p) for p in ps} for c, ps in got.items()} == \
                oracle.treasure(battle.board, seating, reading)
