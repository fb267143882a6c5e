"""Hypothesis strategies for engine tests (imported as ``engine_strategies``; tests/ has
no packages): rule sets, seatings and random valid situations."""

from __future__ import annotations

from hypothesis import strategies as st

from captain.rules import (
    FULL_DECK,
    AttackCard,
    AttackKind,
    BellRule,
    Board,
    Cell,
    Collection,
    Dice,
    Mode,
    RuleSet,
    Seating,
    Situation,
    SpeedOrder,
)
from captain.rules.model import Colour
from captain.rules.situation import full_treasure_count


@st.composite
def rule_sets(draw) -> RuleSet:
    mode = draw(st.sampled_from(Mode))
    return RuleSet(speed_order=draw(st.sampled_from(SpeedOrder)),
                   collection=draw(st.sampled_from(Collection)),
                   mode=mode,
                   no_scouts=draw(st.booleans()),
                   bell=draw(st.sampled_from(BellRule)),
                   place_after_reroll=mode is Mode.STRATEGY and draw(st.booleans()))


@st.composite
def seatings(draw) -> tuple[Colour, ...]:
    n = draw(st.integers(2, 4))
    return tuple(draw(st.permutations(list(Colour)))[:n])


@st.composite
def situations(draw) -> Situation:
    """Random valid situations: boards up to 6x6 with gaps and short rows, occupants
    (attack cards or dice, never both), rules flags, deck size and won cards."""
    players = draw(seatings())
    n = len(players)
    start = draw(st.sampled_from(players))
    rules = draw(rule_sets())
    pool = list(draw(st.permutations(FULL_DECK)))[: full_treasure_count(n)]
    kind = draw(st.sampled_from(["none", "dice", "cards"]))
    if kind == "cards":
        supply = [AttackCard(c, k) for c in players for k in AttackKind
                  for _ in range(rules.copies(k, n))]
    elif kind == "dice":
        supply = [Dice(c) for c in players for _ in range(3)]
    else:
        supply = []
    supply = list(draw(st.permutations(supply))) if supply else []
    lengths = draw(st.lists(st.integers(1, 6), min_size=1, max_size=6))
    rows = []
    for length in lengths:
        row = []
        for what in draw(st.lists(st.integers(0, 3), min_size=length, max_size=length)):
            if what == 0 or not pool:
                row.append(Cell())
            elif what == 3 and supply:
                row.append(Cell(pool.pop(), supply.pop()))
            else:
                row.append(Cell(pool.pop()))
        rows.append(tuple(row))
    won = {}
    for colour in draw(st.lists(st.sampled_from(players), unique=True)):
        k = draw(st.integers(0, min(5, len(pool))))
        won[colour] = tuple(pool.pop() for _ in range(k))
    deck = draw(st.none() | st.integers(0, len(pool)))
    return Situation(Board(tuple(rows)), Seating(players, start), rules, deck, won).validate()


