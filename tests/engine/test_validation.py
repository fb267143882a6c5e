"""Situation.validate: counted from the board's census, once per situation, and exactly as
strict as the walk that names each fault."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from captain.rules import (
    FULL_DECK,
    AttackCard,
    AttackKind,
    Board,
    Cell,
    Colour,
    Dice,
    InvalidInput,
    InvalidSituation,
    RuleSet,
    Seating,
    Situation,
    notation,
    solve,
)
from captain.rules.errors import RulesError
from profiles import examples

FULL = "Rbg_11.13r3.22.14-15.16b1.23.24r2-26.33.34g1.35-36g0.44.45.46"


@st.composite
def any_situations(draw) -> Situation:
    """Situations the rules may refuse: occupants of any colour and kind, dice beside
    cards, treasure cards repeated, won cards of anyone, any deck size."""
    players = tuple(draw(st.permutations(list(Colour)))[:draw(st.integers(2, 4))])
    faces = st.sampled_from(sorted(set(FULL_DECK)))
    # mostly seated colours, and mostly dice or cards alone, so that later faults are reached
    colours = st.sampled_from(players) | st.sampled_from(Colour)
    cards = st.builds(AttackCard, colours, st.sampled_from(AttackKind))
    dice = st.builds(Dice, colours)
    occupants = st.none() | draw(st.sampled_from([st.none(), cards, dice, cards | dice]))
    rows = []
    for length in draw(st.lists(st.integers(1, 5), min_size=1, max_size=5)):
        row = []
        for _ in range(length):
            treasure = draw(st.none() | faces)
            row.append(Cell(treasure, draw(occupants) if treasure else None))
        rows.append(tuple(row))
    won = draw(st.dictionaries(colours, st.lists(faces, max_size=8).map(tuple), max_size=3))
    return Situation(Board(tuple(rows)), Seating(players, draw(st.sampled_from(players))),
                     RuleSet(no_scouts=draw(st.booleans())),
                     draw(st.none() | st.integers(-2, 2) | st.integers(20, 45)),
                     won)


def _fault(situation: Situation) -> tuple | None:
    """What the walk refuses (error class, code, clause, where, params), or None."""
    try:
        situation._name_fault()
    except RulesError as exc:
        return type(exc), exc.code, exc.clause, exc.where, exc.params
    return None


@given(any_situations())
@settings(max_examples=examples(300), suppress_health_check=[HealthCheck.too_slow])
def test_the_counts_pass_exactly_what_the_walk_passes(situation):
    fault = _fault(situation)
    assert situation._within_limits() is (fault is None)
    assert replace(situation).allowed() is (fault is None)  # a copy: nothing checked yet
    if fault is None:
        assert situation.validate() is situation
    else:
        with pytest.raises(RulesError) as refused:
            situation.validate()
        exc = refused.value
        assert (type(exc), exc.code, exc.clause, exc.where, exc.params) == fault


def _built(text: str, **changes) -> Situation:
    return replace(notation.parse_unchecked(text), **changes)


FAULTS = {
    "colour-not-seated": _built("Rb_11g1"),
    "won colour-not-seated": _built("Rb_11", won={Colour.GREEN: ()}),
    "too-many-cards": _built("Rb_11r1.12b1.13r1"),
    "too-many-cards VAR-2": _built("Rb_11r5_rv2"),
    "too-many-cards SETUP-4": _built("Rb_11r5.12r5.13r5"),
    "too-many-dice": _built("Rbg_11R.12R.13B.14R.15R"),
    "dice-and-cards": _built("Rb_11R.12b1"),
    "too-many-copies": _built("Rb_11.12.11.11"),
    "too-many-copies won": _built("Rb_12_wr1111.b11"),
    "bad-deck": _built("Rb_11", deck=-1),
    "too-many-treasures": _built("Rb_11.12_d31"),
    "first fault in board order": _built("Rbg_11R.12R.13R.14R.15w1.16r1"),
}


@pytest.mark.parametrize("situation", FAULTS.values(), ids=FAULTS.keys())
def test_each_fault_is_refused_as_the_walk_names_it(situation):
    fault = _fault(situation)
    assert fault is not None
    assert situation._within_limits() is False
    with pytest.raises(RulesError) as refused:
        situation.validate()
    exc = refused.value
    assert (type(exc), exc.code, exc.clause, exc.where, exc.params) == fault


@pytest.mark.parametrize("text", [FULL, "Rb_11r5.12r5.13b5.14b5", "Rbgw_11R.12R.13R.14G_d0",
                                  "Rb_11.12_d30", "Rb_11.11_wr1212"])
def test_situations_at_the_limits_pass(text):
    situation = notation.parse_unchecked(text)
    assert _fault(situation) is None
    assert situation._within_limits() is True


@pytest.fixture
def checks(monkeypatch):
    """Every run of the checks, as the situation checked."""
    runs: list[Situation] = []
    within = Situation._within_limits

    def counted(self):
        runs.append(self)
        return within(self)

    monkeypatch.setattr(Situation, "_within_limits", counted)
    return runs


def test_parse_then_solve_checks_once(checks):
    situation = notation.parse(FULL)
    solve(situation)
    solve(situation)
    assert checks == [situation]


def test_a_situation_built_by_hand_is_checked_by_solve(checks):
    read = notation.parse_unchecked(FULL)
    assert checks == []
    too_many = read.board.with_occupant((0, 0), AttackCard(Colour.RED, AttackKind.BROADSIDE))
    with pytest.raises(InvalidSituation) as refused:
        solve(replace(read, board=too_many))  # red's [2] lies at D2 already
    assert refused.value.code == "too-many-cards"
    assert solve(read).battle is not None
    assert len(checks) == 2


def test_a_refused_situation_is_refused_every_time(checks):
    bad = notation.parse_unchecked("Rb_11r1.12r1")
    for _ in range(2):
        with pytest.raises(InvalidSituation):
            bad.validate()
    assert len(checks) == 2


def test_a_changed_copy_is_checked_again(checks):
    situation = notation.parse(FULL)
    with pytest.raises(InvalidInput):
        replace(situation, deck=-1).validate()
    assert len(checks) == 2


def test_the_census_is_what_the_cells_say():
    board = notation.parse_unchecked("Rb_11r0.12R.x-13b5.22").board
    census = board.census()
    assert census.occupancy == board.occupancy()
    assert [(at, card.token, colour, value) for at, card, colour, value in census.cards] == [
        (0, "r0", Colour.RED, 0), (3, "b5", Colour.BLUE, 5)]
    assert dict(census.own) == {Colour.RED: 0b1, Colour.BLUE: 0b1000}
    assert census.hostage == 0b1
    assert census.faces[1 * 8 + 1] == 1 and census.faces[2 * 8 + 2] == 1 and sum(census.faces) == 4
    assert board.census() is census
