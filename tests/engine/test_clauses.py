"""One focused test (or a few) per RULES.md clause the engine implements.

Every expected value here is worked out by hand from the rules (RULES.md); the engine
is only ever the thing under test. Boards are written as case-format rows: positions
are ``(row, col)``, zero-based, row 0 at the top.
"""

from __future__ import annotations

import pytest

from captain.rules import (
    FULL_DECK,
    AttackCard,
    AttackKind,
    BellRule,
    Board,
    Collection,
    Colour,
    Dice,
    InvalidInput,
    InvalidSituation,
    Mode,
    Outcome,
    Position,
    RuleSet,
    Seating,
    Situation,
    SpeedOrder,
    Treasure,
    bell_lines,
    bell_status,
    collect_treasure,
    end_round,
    rearranged_shape,
    resolution_order,
    resolve_battle,
    solve,
)

R, B, G, W = Colour.RED, Colour.BLUE, Colour.GREEN, Colour.WHITE

#: A plain 4×4 board of 16 different treasure cards.
PLAIN_4x4 = ["11 12 13 14", "15 16 22 23", "24 25 26 33", "34 35 36 44"]


# --- helpers -------------------------------------------------------------------------------

def P(row: int, col: int) -> Position:
    return Position(row, col)


def positions(*pairs: tuple[int, int]) -> set[Position]:
    return {P(r, c) for r, c in pairs}


def seats(*players: Colour, start: Colour | None = None) -> Seating:
    return Seating(tuple(players), start or players[0])


def battle(rows, *players, start=None, **rules):
    return resolve_battle(Board.parse(rows), seats(*players, start=start), RuleSet(**rules))


def survivors(result) -> dict[tuple[int, int], str]:
    return {tuple(p): c.token for p, c in result.survivors.items()}


def treasure(rows, *players, start=None, **rules):
    """Battle Time then Treasure Time, as the game plays them."""
    seating = seats(*players, start=start)
    ruleset = RuleSet(**rules)
    after_battle = resolve_battle(Board.parse(rows), seating, ruleset).board
    return collect_treasure(after_battle, seating, ruleset)


def winnings(result) -> dict[str, set[tuple[int, int]]]:
    return {c.value: {tuple(p) for p in ps} for c, ps in result.winnings.items()}


def bell(rows, *players, start=None, **rules):
    return bell_status(Board.parse(rows), seats(*players, start=start), RuleSet(**rules))


def situation(rows, *players, start=None, deck=None, won=None, **rules) -> Situation:
    return Situation(Board.parse(rows), seats(*players, start=start), RuleSet(**rules), deck,
                     won or {})


def invalid(rows, *players, **kw) -> InvalidSituation:
    with pytest.raises(InvalidSituation) as info:
        situation(rows, *players, **kw).validate()
    return info.value


def cards(*faces: str) -> tuple[Treasure, ...]:
    return tuple(Treasure.parse(f) for f in faces)


# --- SETUP: components and validation ------------------------------------------------------

def test_setup_1_a_full_hand_of_nine_cards_is_valid():
    rows = ["11:r0 12:r1 13:r2", "14:r3 15:r4 16:r5", "22:r5 23:r5 24:r5"]
    assert situation(rows, R, B, G).validate() is not None


def test_setup_1_one_card_of_each_value_0_to_4():
    for value in range(5):
        err = invalid([f"11:b{value} 12 13:b{value}"], R, B, G)
        assert (err.clause, err.code) == ("SETUP-1", "too-many-cards")
        assert err.where == "position [0, 2]"


def test_setup_1_four_scouts_allowed_not_five():
    assert situation(["11:g5 12:g5 13:g5 14:g5"], R, B, G).validate()
    err = invalid(["11:g5 12:g5 13:g5 14:g5", "15:g5"], R, B, G)
    assert (err.clause, err.code, err.where) == ("SETUP-1", "too-many-cards", "position [1, 0]")


def test_setup_1_copies_per_colour():
    rules = RuleSet()
    assert [rules.copies(k, 3) for k in AttackKind] == [1, 1, 1, 1, 1, 4]
    assert sum(rules.copies(k, 4) for k in AttackKind) == 9


def test_setup_1_colours_on_the_board_must_be_seated():
    err = invalid(["11:w5 12 13"], R, B, G)
    assert (err.code, err.where) == ("colour-not-seated", "position [0, 0]")
    err = invalid(["11:W 12 13"], R, B, G)
    assert err.code == "colour-not-seated"
    err = invalid(["11 12 13"], R, B, won={W: cards("14")})
    assert (err.code, err.where) == ("colour-not-seated", "won.white")


def test_setup_1_attack_values_run_0_to_5():
    with pytest.raises(InvalidSituation) as info:
        Board.parse(["11 12:r6"])
    assert info.value.clause == "SETUP-1"
    assert "[0, 1]" in str(info.value)


def test_setup_1_six_dice_cover_at_most_three_cards():
    assert situation(["11:R 12:R 13:R 14"], R, B, G).validate()
    err = invalid(["11:R 12:R 13:R 14:R"], R, B, G)
    assert (err.clause, err.code, err.where) == ("SETUP-1", "too-many-dice", "position [0, 3]")


def test_setup_2_full_deck_is_21_pairs_twice():
    assert len(FULL_DECK) == 42
    pairs = {(t.low, t.high) for t in FULL_DECK}
    assert len(pairs) == 21
    assert all(1 <= a <= b <= 6 for a, b in pairs)
    assert all(FULL_DECK.count(t) == 2 for t in FULL_DECK)
    assert sum(t.is_double for t in FULL_DECK) == 12


def test_setup_2_treasure_faces_1_to_6_smaller_first():
    assert Treasure.parse("35").faces == (3, 5)
    assert Treasure.parse("44").is_double and not Treasure.parse("45").is_double
    for bad in ("07", "17", "70"):
        with pytest.raises(InvalidSituation) as info:
            Board.parse([f"11 {bad}"])
        assert info.value.clause == "SETUP-2"
        assert "[0, 1]" in str(info.value)
    with pytest.raises(InvalidInput):
        Board.parse(["53"])


def test_setup_2_at_most_two_copies_of_a_treasure_card():
    assert situation(["11 11 12"], R, B, G).validate()
    err = invalid(["11 11 11"], R, B, G)
    assert (err.clause, err.code) == ("SETUP-2", "too-many-copies")
    assert err.params["treasure"] == "11" and "11" in err.message
    assert err.where == "position [0, 2]" and err.params["position"] == [0, 2]  # the third copy
    # won cards count as well
    err = invalid(["11 12 13"], R, B, G, won={R: cards("11"), B: cards("11")})
    assert err.code == "too-many-copies"


def test_setup_2_at_most_42_treasure_cards_with_three_or_four_players():
    assert situation(PLAIN_4x4, R, B, G, deck=26).validate()          # 16 + 26 = 42
    err = invalid(PLAIN_4x4, R, B, G, deck=27)                         # 43
    assert (err.clause, err.code) == ("SETUP-2", "too-many-treasures")
    err = invalid(PLAIN_4x4, R, B, G, W, deck=26, won={W: cards("45")})
    assert err.code == "too-many-treasures"


def test_setup_4_two_players_have_two_scouts_each():
    assert RuleSet().copies(AttackKind.SCOUT_SHIP, 2) == 2
    assert situation(["11:r5 12:r5 13:b5", "14:b5 15 16"], R, B).validate()
    err = invalid(["11:r5 12:r5 13:r5"], R, B)
    assert (err.clause, err.code, err.where) == ("SETUP-4", "too-many-cards", "position [0, 2]")


def test_setup_4_two_players_play_with_32_treasure_cards():
    rows = ["11 12 13", "14 15 16", "22 23 24"]
    assert situation(rows, R, B, deck=23).validate()                   # 9 + 23 = 32
    err = invalid(rows, R, B, deck=24)
    assert (err.clause, err.code) == ("SETUP-4", "too-many-treasures")


def test_var_2_no_scouts():
    rows = ["11:r0 12:r1 13:r2", "14:r3 15:r4 16"]
    assert situation(rows, R, B, G, no_scouts=True).validate()
    err = invalid(["11:r0 12:b5 13"], R, B, G, no_scouts=True)
    assert (err.clause, err.code, err.where) == ("VAR-2", "too-many-cards", "position [0, 1]")
    assert sum(RuleSet(no_scouts=True).copies(k, 3) for k in AttackKind) == 5


# --- DICE: occupants and the bell ----------------------------------------------------------

def test_dice_2_occupant_tokens():
    board = Board.parse(["35:R 44:b1 12"])
    assert board.at(P(0, 0)).treasure == Treasure(3, 5)
    assert board.at(P(0, 0)).occupant == Dice(R)
    assert board.at(P(0, 1)).occupant == AttackCard(B, AttackKind.BOARDING_MELEE)
    assert board.at(P(0, 2)).occupant is None
    assert board.dice() == {P(0, 0): Dice(R)}
    assert board.to_rows() == ["35:R 44:b1 12"]


@pytest.mark.parametrize("token", ["--:r1", "--:R"])
def test_dice_2_occupant_needs_a_treasure_card(token):
    with pytest.raises(InvalidSituation) as info:
        Board.parse([f"11 {token} 12"])
    assert (info.value.clause, info.value.code) == ("DICE-2", "occupant-without-treasure")
    assert "[0, 1]" in str(info.value)


def test_dice_2_one_occupant_per_card():
    with pytest.raises(InvalidSituation) as info:
        Board.parse(["12", "11:r1:b2"])
    assert (info.value.clause, info.value.code) == ("DICE-2", "two-occupants")
    assert "[1, 0]" in str(info.value)


@pytest.mark.parametrize("token", ["11:x", "11:", "11:R1", "11:rb"])
def test_dice_2_unknown_occupant_is_rejected(token):
    with pytest.raises(InvalidInput):
        Board.parse([token])


def test_dice_4_three_dice_in_a_row_any_colours():
    status = bell(["11 12 13 14", "15:R 16:B 22:G 23", "24 25 26 33", "34 35 36 44"],
                  R, B, G, W)
    assert (status.may_ring, status.clause) == (True, "DICE-4")
    assert set(status.held) == positions((1, 0), (1, 1), (1, 2))


def test_dice_4_three_of_a_four_card_column():
    status = bell(["11 12 13:R 14", "15 16 22:B 23", "24 25 26 33", "34 35 36:R 44"], R, B, G)
    assert status.may_ring
    assert set(status.line) == positions((0, 2), (1, 2), (2, 2), (3, 2))
    assert set(status.held) == positions((0, 2), (1, 2), (3, 2))


def test_dice_4_diagonal_and_anti_diagonal():
    main = ["11:R 12 13 14", "15 16 22 23", "24 25 26:G 33", "34 35 36 44:B"]
    anti = ["11 12 13 14:W", "15 16 22:R 23", "24 25:R 26 33", "34 35 36 44"]
    assert bell(main, R, B, G).may_ring
    assert bell(anti, R, B, G, W).may_ring


def test_dice_4_short_three_card_diagonal_rings():
    status = bell(["11 12:R 13 14", "15 16 22:B 23", "24 25 26 33:R", "34 35 36 44"],
                  R, B, G, W)
    assert status.may_ring
    assert status.line == (P(0, 1), P(1, 2), P(2, 3))
    assert status.event.interpretation == "INT-3"


def test_dice_4_two_card_diagonal_never_rings():
    # (0,2) and (1,3) fill a 2-card diagonal; no bell line holds more than one of the three.
    status = bell(["11 12 13:R 14", "15 16 22 23:B", "24 25 26 33", "34:G 35 36 44"], R, B, G)
    assert (status.may_ring, status.clause) == (False, "DICE-4")


def test_dice_4_three_dice_not_in_one_line():
    status = bell(["11:R 12:G 13 14", "15 16 22 23:B", "24 25 26 33", "34 35 36 44"], R, B, G)
    assert not status.may_ring
    assert status.needed == 1
    assert status.event.code == "bell.not_yet"


def test_dice_5_two_players_three_cards_anywhere():
    rows3 = ["11:R 12 13", "14 15 16", "22:B 23 24:B"]
    rows2 = ["11:R 12 13", "14 15 16", "22:B 23 24"]
    status = bell(rows3, R, B, start=B)
    assert (status.may_ring, status.clause) == (True, "DICE-5")
    status = bell(rows2, R, B)
    assert (status.may_ring, status.clause, status.needed) == (False, "DICE-5", 1)


def test_strat_3_line_must_be_full():
    three_of_four = ["11:R 12:G 13:B 14", "15 16 22 23", "24 25 26 33", "34 35 36 44"]
    four_of_four = ["11:R 12:G 13:B 14:R", "15 16 22 23", "24 25 26 33", "34 35 36 44"]
    assert bell(three_of_four, R, B, G).may_ring            # DICE-4 would ring
    status = bell(three_of_four, R, B, G, mode=Mode.STRATEGY)
    assert (status.may_ring, status.clause, status.needed) == (False, "STRAT-3", 1)
    status = bell(four_of_four, R, B, G, mode=Mode.STRATEGY)
    assert (status.may_ring, status.clause) == (True, "STRAT-3")
    assert set(status.line) == positions((0, 0), (0, 1), (0, 2), (0, 3))


def test_strat_3_full_short_diagonal():
    rows = ["11 12:R 13 14", "15 16 22:B 23", "24 25 26 33:G", "34 35 36 44"]
    assert bell(rows, R, B, G, mode=Mode.STRATEGY).may_ring


def test_var_3_bell_when_a_player_has_placed_all_dice():
    line_of_three_colours = ["11:R 12:G 13:B 14", "15 16 22 23", "24 25 26 33", "34 35 36 44"]
    status = bell(line_of_three_colours, R, B, G, bell=BellRule.ALL_DICE)
    assert (status.may_ring, status.clause) == (False, "VAR-3")
    scattered_red = ["11:R 12 13 14", "15 16 22 23:R", "24 25 26 33", "34 35:R 36 44:B"]
    status = bell(scattered_red, R, B, G, bell=BellRule.ALL_DICE)
    assert (status.may_ring, status.clause) == (True, "VAR-3")
    assert set(status.held) == positions((0, 0), (1, 3), (3, 1))


def test_var_4_first_edition_three_cards_anywhere():
    rows = ["11:R 12:G 13 14", "15 16 22 23:B", "24 25 26 33", "34 35 36 44"]
    assert not bell(rows, R, B, G).may_ring
    status = bell(rows, R, B, G, bell=BellRule.FIRST_EDITION)
    assert (status.may_ring, status.clause) == (True, "VAR-4")
    rows2 = ["11:R 12:G 13 14", "15 16 22 23", "24 25 26 33", "34 35 36 44"]
    assert not bell(rows2, R, B, G, bell=BellRule.FIRST_EDITION).may_ring


def test_int_3_bell_lines_of_a_full_4x4():
    lines = bell_lines(Board.parse(PLAIN_4x4))
    # 4 rows, 4 columns, per direction the 4-card diagonal and two 3-card diagonals
    assert len(lines) == 4 + 4 + 3 + 3
    assert sorted(len(line) for line in lines) == [3] * 4 + [4] * 10
    assert (P(0, 2), P(1, 3)) not in lines


def test_int_3_positions_without_treasure_do_not_count():
    board = Board.parse(["11 -- 12 13", "14 -- 15 16", "22 23 24 25"])
    lines = bell_lines(board)
    assert (P(0, 0), P(0, 2), P(0, 3)) in lines            # row 0 without its hole
    assert not any(P(0, 1) in line or P(1, 1) in line for line in lines)
    # column 1 holds one treasure card: not a line
    assert not any(all(p.col == 1 for p in line) for line in lines)


def test_int_3_strategy_line_with_a_hole_is_full():
    rows = ["11:R -- 12:G 13:B", "14 15 16 22", "23 24 25 26", "33 34 35 36"]
    status = bell(rows, R, B, G, mode=Mode.STRATEGY)
    assert status.may_ring
    assert status.line == (P(0, 0), P(0, 2), P(0, 3))


def test_int_3_two_treasure_cards_are_no_line():
    rows = ["11:R 12:G -- --", "14 15 16 22", "23 24 25 26", "33 34 35 36"]
    assert not bell(rows, R, B, G, mode=Mode.STRATEGY).may_ring


# --- BAT: Battle Time ---------------------------------------------------------------------

def test_bat_1_lower_speed_acts_first():
    # r2 and b1 reach each other; [1] is faster.
    result = battle(["11:r2 12:b1 13 14"], R, B)
    assert survivors(result) == {(0, 1): "b1"}
    assert result.removals == [(P(0, 1), (P(0, 0),))]


def test_bat_1_resolution_order_by_speed():
    board = Board.parse(["11:r5 12:b4 13:r3", "14:b2 15:r1 16:b0"])
    order = [c.token for _, c in resolution_order(board, seats(R, B))]
    assert order == ["b0", "r1", "b2", "r3", "b4", "r5"]


def test_bat_2_equal_speed_start_player_first():
    rows = ["11:r2 12 13 14:b2"]
    assert survivors(battle(rows, R, B, start=R)) == {(0, 0): "r2"}
    assert survivors(battle(rows, R, B, start=B)) == {(0, 3): "b2"}


def test_bat_2_seating_order_from_a_later_start_player():
    # Seats red, blue, green; blue starts, so ties go blue, green, red.
    seating = seats(R, B, G, start=B)
    assert seating.order() == (B, G, R)
    rows = ["11:r2 12 13:g2 14", "15 16 22 23", "24 25 26 33", "34:b2 35 36 44"]
    board = Board.parse(rows)
    assert [c.token for _, c in resolution_order(board, seating)] == ["b2", "g2", "r2"]
    result = resolve_battle(board, seating)
    assert survivors(result) == {(0, 2): "g2", (3, 0): "b2"}
    assert result.removals == [(P(0, 2), (P(0, 0),))]
    red_step = result.turns[2]
    assert red_step.card.token == "r2" and red_step.tie_break


def test_bat_3_removed_card_does_not_act():
    # r1 removes b2 before b2's turn; b2 would have removed r1 along row 0.
    result = battle(["11:r1 12:b2 13 14"], R, B, start=B)
    assert survivors(result) == {(0, 0): "r1"}
    step = result.turns[1]
    assert (step.card.token, step.outcome, step.removed_by) == ("b2", Outcome.REMOVED_BEFORE,
                                                                 P(0, 0))
    assert step.event.code == "battle.skipped" and step.event.clause == "BAT-3"


def test_bat_3_official_battle_example():
    # EX-BATTLE: green[0]; blue[1] beside red[3] and green[1]; red[2] in blue[1]'s row.
    rows = ["11 13:r3 22 14", "15 16:b1 23 24:r2", "26 33 34:g1 35", "36:g0 44 45 46"]
    result = battle(rows, R, B, G)
    assert [(s.card.token, s.outcome) for s in result.turns] == [
        ("g0", Outcome.NO_EFFECT), ("b1", Outcome.ACTS), ("g1", Outcome.REMOVED_BEFORE),
        ("r2", Outcome.ACTS), ("r3", Outcome.REMOVED_BEFORE)]
    assert survivors(result) == {(3, 0): "g0", (1, 3): "r2"}


def test_bat_4_boarding_melee_range_centre_and_corner():
    board = Board.parse(PLAIN_4x4)
    assert board.range_of(AttackKind.BOARDING_MELEE, P(1, 1)) == positions(
        (0, 0), (0, 1), (0, 2), (1, 0), (1, 2), (2, 0), (2, 1), (2, 2))
    assert board.range_of(AttackKind.BOARDING_MELEE, P(0, 0)) == positions((0, 1), (1, 0), (1, 1))
    assert board.range_of(AttackKind.BOARDING_MELEE, P(3, 3)) == positions((2, 2), (2, 3), (3, 2))


def test_bat_4_boarding_melee_clears_all_eight_neighbours():
    rows = ["11:r5 12:r5 13:r5 14:r3", "15:r5 16:b1 22:g5 23", "24:g5 25:g5 26:g5 33",
            "34 35 36 44"]
    result = battle(rows, R, B, G)
    assert survivors(result) == {(1, 1): "b1", (0, 3): "r3"}
    assert set(result.removals[0][1]) == positions(
        (0, 0), (0, 1), (0, 2), (1, 0), (1, 2), (2, 0), (2, 1), (2, 2))


def test_bat_4_broadside_hits_its_whole_row():
    board = Board.parse(PLAIN_4x4)
    assert board.range_of(AttackKind.BROADSIDE, P(1, 2)) == positions((1, 0), (1, 1), (1, 3))
    result = battle(["11 12 13 14", "15:b5 16 22:r2 23:g5", "24:b4 25 26 33"], R, B, G)
    assert survivors(result) == {(1, 2): "r2", (2, 0): "b4"}


def test_bat_4_cannon_hits_its_whole_column():
    board = Board.parse(PLAIN_4x4)
    assert board.range_of(AttackKind.CANNON, P(1, 2)) == positions((0, 2), (2, 2), (3, 2))
    result = battle(["11 12 13:b5 14", "15 16 22:r3 23:b5", "24 25 26 33", "34 35 36:g4 44"],
                    R, B, G)
    # g4 (speed 4) acts after r3 and is removed first; b5 in r3's row stays
    assert survivors(result) == {(1, 2): "r3", (1, 3): "b5"}


def test_bat_4_kraken_hits_both_full_diagonals():
    board = Board.parse(PLAIN_4x4)
    assert board.range_of(AttackKind.KRAKENS_WRATH, P(1, 2)) == positions(
        (0, 1), (0, 3), (2, 3), (2, 1), (3, 0))
    assert board.range_of(AttackKind.KRAKENS_WRATH, P(0, 0)) == positions((1, 1), (2, 2), (3, 3))
    result = battle(["11 12 13 14:w5", "15 16 22:g4 23", "24 25 26 33", "34:w5 35 36 44"],
                    G, W, start=W)
    assert survivors(result) == {(1, 2): "g4"}


def test_bat_4_hostage_and_scout_have_no_effect():
    board = Board.parse(PLAIN_4x4)
    assert board.range_of(AttackKind.HOSTAGE_GAMBIT, P(1, 1)) == frozenset()
    assert board.range_of(AttackKind.SCOUT_SHIP, P(1, 1)) == frozenset()
    rows = ["11:b5 12:b5 13:b5", "14:b5 15:r0 16:r5", "22:g5 23 24"]
    result = battle(rows, R, B, G)
    assert result.removals == []
    assert len(survivors(result)) == 7
    assert {s.outcome for s in result.turns} == {Outcome.NO_EFFECT}


def test_bat_4_own_cards_are_never_removed():
    rows = ["11 12 13 14", "15:r2 16:r5 22:b5 23:r5", "24 25 26 33"]
    result = battle(rows, R, B)
    assert survivors(result) == {(1, 0): "r2", (1, 1): "r5", (1, 3): "r5"}


def test_bat_4_hostage_gambit_is_never_removed():
    rows = ["11:b1 12 13 14", "15 16:r0 22 23:b2", "24 25 26 33", "34 35:b3 36 44:b4"]
    result = battle(rows, R, B)
    assert (1, 1) in survivors(result)
    assert result.removals == []
    immune = {s.card.token: s.immune for s in result.turns}
    assert immune == {"r0": (), "b1": (P(1, 1),), "b2": (P(1, 1),), "b3": (P(1, 1),),
                      "b4": (P(1, 1),)}


def test_bat_5_ranges_reach_through_positions_without_treasure():
    board = Board.parse(["11:r2 -- -- 14:b5"])
    assert board.range_of(AttackKind.BROADSIDE, P(0, 0)) == positions((0, 1), (0, 2), (0, 3))
    assert survivors(battle(["11:r2 -- -- 14:b5"], R, B)) == {(0, 0): "r2"}
    rows = ["11:g4 12 13 14", "15 -- 22 23", "24 25 -- 33", "34 35 36 44:w5"]
    assert survivors(battle(rows, G, W)) == {(0, 0): "g4"}


def test_var_1_reversed_order_0_5_4_3_2_1():
    board = Board.parse(["11:r5 12:b4 13:r3", "14:b2 15:r1 16:b0"])
    reversed_ = RuleSet(speed_order=SpeedOrder.REVERSED)
    order = [c.token for _, c in resolution_order(board, seats(R, B), reversed_)]
    assert order == ["b0", "r5", "b4", "r3", "b2", "r1"]


def test_var_1_reversed_speed_changes_who_wins():
    rows = ["11:r1 12:b2 13 14"]
    assert survivors(battle(rows, R, B)) == {(0, 0): "r1"}
    assert survivors(battle(rows, R, B, speed_order=SpeedOrder.REVERSED)) == {(0, 1): "b2"}


# --- TRE: Treasure Time ---------------------------------------------------------------------

def test_tre_1_card_under_a_surviving_attack_card():
    result = treasure(["11:r2 12:b5 13 14", "15 16:b5 22 23"], R, B)
    # r2 removes b5 at (0,1); b5 at (1,1) survives.
    assert winnings(result) == {"red": {(0, 0)}, "blue": {(1, 1)}}
    assert result.board.at(P(0, 1)).treasure == Treasure(1, 2)     # stays on the board


def test_tre_2_row_sandwich():
    result = treasure(["11:r5 12 13 14:r5", "15 16 22 23"], R, B)
    assert winnings(result)["red"] == {(0, 0), (0, 1), (0, 2), (0, 3)}


def test_tre_2_column_sandwich():
    result = treasure(["11 12:b5 13 14", "15 16 22 23", "24 25 26 33", "34 35:b5 36 44"], R, B)
    assert winnings(result)["blue"] == {(0, 1), (1, 1), (2, 1), (3, 1)}


def test_tre_2_diagonal_sandwiches():
    result = treasure(["11:g5 12 13 14:w5", "15 16 22 23", "24 25 26 33",
                       "34:w5 35 36 44:g5"], G, W)
    # green holds the ends of one long diagonal, white of the other; nothing lies between
    assert winnings(result) == {"green": {(0, 0), (1, 1), (2, 2), (3, 3)},
                                "white": {(0, 3), (1, 2), (2, 1), (3, 0)}}


def test_tre_2_three_own_cards_in_a_line():
    result = treasure(["11:r5 12 13 14", "15 16 22 23", "24 25 26:r5 33",
                       "34 35 36 44:r4"], R, B)
    assert winnings(result)["red"] == {(0, 0), (1, 1), (2, 2), (3, 3)}


def test_tre_2_own_card_between_does_not_block():
    result = treasure(["11:r5 12:r5 13 14:r5"], R, B)
    assert winnings(result)["red"] == {(0, 0), (0, 1), (0, 2), (0, 3)}


def test_tre_2_another_players_card_between_blocks():
    # EX-BLOCK: red collects first, blue's [0] sits between red's two scouts.
    result = treasure(["11 12 13 14", "15:r5 16:b0 22 23:r5", "24 25 26 33"], R, B)
    assert winnings(result) == {"red": {(1, 0), (1, 3)}, "blue": {(1, 1)}}
    assert result.board.at(P(1, 2)).treasure == Treasure(2, 2)
    blocked = [e for e in result.events if e.code == "treasure.blocked"]
    assert len(blocked) == 1 and blocked[0].params["blocked_by"] == ((1, 1),)


def test_tre_2_only_surviving_cards_block():
    # r2 removes b5 at (1,0) in Battle Time; red's column sandwich then holds.
    rows = ["11:r5 12 13 14", "15:b5 16 22 23:r2", "24 25 26 33", "34:r5 35 36 44"]
    result = treasure(rows, R, B)
    assert winnings(result)["red"] == {(0, 0), (1, 0), (2, 0), (3, 0), (1, 3)}


def test_tre_2_cards_off_a_common_line_sandwich_nothing():
    result = treasure(["11:r5 12 13 14", "15 16 22:r5 23", "24 25 26 33"], R, B)
    assert winnings(result)["red"] == {(0, 0), (1, 2)}


@pytest.mark.parametrize("collection", list(Collection))
def test_tre_3_start_player_has_priority(collection):
    # Red sandwiches (1,1) vertically, blue horizontally.
    rows = ["11 12:r5 13 14", "15:b5 16 22:b5 23", "24 25:r0 26 33"]
    result = treasure(rows, R, B, G, start=R, collection=collection)
    assert winnings(result) == {"red": {(0, 1), (1, 1), (2, 1)}, "blue": {(1, 0), (1, 2)},
                                "green": set()}
    result = treasure(rows, R, B, G, start=B, collection=collection)
    assert winnings(result) == {"red": {(0, 1), (2, 1)}, "blue": {(1, 0), (1, 1), (1, 2)},
                                "green": set()}
    priority = [e for e in result.events if e.code == "treasure.priority"]
    assert len(priority) == 1
    assert priority[0].params["colour"] == "red" and priority[0].params["winner"] == "blue"
    assert priority[0].clause == "TRE-3"


def test_tre_4_no_attack_cards_left_after_treasure_time():
    rows = ["11:r5 12 13 14", "15:b0 16 22:b5 23", "24 25:r2 26 33"]
    result = treasure(rows, R, B)
    assert result.board.cards() == {}
    # red: (0,0) and (2,1); blue: (1,0), (1,2) and (1,1) between them.
    assert {tuple(p) for p, cell in result.board if cell.treasure is None} == {
        (0, 0), (2, 1), (1, 0), (1, 1), (1, 2)}
    discard = [e for e in result.events if e.code == "treasure.discard"]
    assert discard and discard[0].clause == "TRE-4"


INT1_ROWS = ["11:r5 12:b5 13 14:r5", "15 16 22 23"]


def test_int_1_sequential_later_sandwich_holds_when_blocker_leaves():
    # Blue (start player) collects first: (0,1) and its b5 leave the board; then red's
    # two scouts have nothing of another player between them and win (0,2).
    result = treasure(INT1_ROWS, R, B, start=B)
    assert result.reading is Collection.SEQUENTIAL
    assert winnings(result) == {"red": {(0, 0), (0, 2), (0, 3)}, "blue": {(0, 1)}}
    assert {c.value: {tuple(p) for p in ps} for c, ps in result.other_reading.items()} == {
        "red": {(0, 0), (0, 3)}, "blue": {(0, 1)}}
    matters = [e for e in result.events if e.code == "treasure.reading_matters"]
    assert len(matters) == 1 and matters[0].interpretation == "INT-1"
    sandwich = [e for e in result.events if e.code == "treasure.sandwich"]
    assert len(sandwich) == 1 and sandwich[0].interpretation == "INT-1"
    # nothing was claimed by two sandwiches, so TRE-3 does not come into it
    assert not [e for e in result.events if e.code == "treasure.priority"]


def test_int_1_simultaneous_blocker_still_counts():
    result = treasure(INT1_ROWS, R, B, start=B, collection=Collection.SIMULTANEOUS)
    assert winnings(result) == {"red": {(0, 0), (0, 3)}, "blue": {(0, 1)}}
    assert {c.value: {tuple(p) for p in ps} for c, ps in result.other_reading.items()} == {
        "red": {(0, 0), (0, 2), (0, 3)}, "blue": {(0, 1)}}
    matters = [e for e in result.events if e.code == "treasure.reading_matters"]
    assert len(matters) == 1 and matters[0].interpretation == "INT-1"
    assert result.board.at(P(0, 2)).treasure == Treasure(1, 3)


def test_int_1_readings_agree_when_the_blocked_player_collects_first():
    result = treasure(INT1_ROWS, R, B, start=R)
    assert winnings(result) == {"red": {(0, 0), (0, 3)}, "blue": {(0, 1)}}
    assert result.other_reading is None
    assert not [e for e in result.events if e.code == "treasure.reading_matters"]


def test_int_2_gap_between_sandwich_ends_does_not_break_it():
    result = treasure(["11:r5 -- 13 14:r5", "15 16 22 23"], R, B)
    assert winnings(result)["red"] == {(0, 0), (0, 2), (0, 3)}
    sandwich = [e for e in result.events if e.code == "treasure.sandwich"]
    assert len(sandwich) == 1
    assert sandwich[0].interpretation == "INT-2" and sandwich[0].params["gap"] is True


def test_int_2_no_interpretation_without_a_gap():
    result = treasure(["11:r5 12 13 14:r5"], R, B)
    sandwich = [e for e in result.events if e.code == "treasure.sandwich"]
    assert sandwich[0].interpretation is None


# --- TRE-5, END: end of the round -----------------------------------------------------------

def end(cards_left, deck, *players, won_before=None, won_now=None):
    return end_round(cards_left=cards_left, deck=deck, seating=seats(*players),
                     won_before=won_before or {}, won_now=won_now or {})


def test_tre_5_refill_to_16():
    result = end(6, 20, R, B, G)
    assert (result.board_after, result.deck_after, result.shape) == (16, 10, (4, 4))
    assert not result.rearranged and not result.game_over
    assert result.events[0].code == "round.refill" and result.events[0].params["drawn"] == 10


def test_tre_5_refill_to_9_with_two_players():
    result = end(2, 20, R, B)
    assert (result.board_after, result.deck_after, result.shape) == (9, 13, (3, 3))
    assert not result.game_over


def test_tre_5_int_5_rearranged_when_the_deck_runs_short():
    result = end(5, 7, R, B, G)
    assert (result.board_after, result.deck_after) == (12, 0)
    assert result.rearranged and result.shape == (3, 4)
    assert not result.game_over
    rearrange = [e for e in result.events if e.code == "round.rearrange"]
    assert rearrange[0].interpretation == "INT-5"


@pytest.mark.parametrize("n, shape", [(9, (3, 3)), (10, (3, 4)), (11, (3, 4)), (12, (3, 4)),
                                      (13, (4, 4)), (14, (4, 4)), (15, (4, 4))])
def test_int_5_rearranged_shape(n, shape):
    assert rearranged_shape(n) == shape


def test_end_1_game_ends_at_8_with_an_empty_deck():
    result = end(8, 0, R, B, G)
    assert result.game_over
    over = [e for e in result.events if e.code == "round.game_over"]
    assert over[0].clause == "END-1" and over[0].interpretation == "INT-4"


def test_end_1_game_ends_when_refilling_empties_the_deck_below_9():
    result = end(4, 3, R, B, G)
    assert (result.board_after, result.deck_after, result.game_over) == (7, 0, True)


def test_end_1_int_4_game_continues_at_9():
    result = end(9, 0, R, B, G)
    assert not result.game_over and result.winner is None and result.standings == ()
    assert [e.code for e in result.events][-1] == "round.continue"


def test_end_1_game_continues_while_the_deck_has_cards():
    result = end(8, 1, R, B)
    assert (result.board_after, result.deck_after, result.game_over) == (9, 0, False)


def test_end_2_most_cards_wins_whatever_the_faces():
    result = end(0, 0, R, B, G,
                 won_before={R: cards("12", "13", "14"), B: cards("11", "22")},
                 won_now={R: cards("15"), G: cards("33")})
    assert result.winner is R
    assert [(s.player, s.cards, s.doubles) for s in result.standings] == [
        (R, 4, 0), (B, 2, 2), (G, 1, 1)]


def test_end_3_doubles_break_a_tie():
    result = end(0, 0, R, B, won_before={R: cards("12", "13", "14"), B: cards("11", "23", "24")})
    assert result.winner is B
    assert [(s.player, s.cards, s.doubles) for s in result.standings] == [(B, 3, 1), (R, 3, 0)]
    assert result.events[-1].clause == "END-3"


def test_end_3_full_tie_has_no_winner():
    result = end(0, 0, R, B, G, won_before={R: cards("11", "12"), B: cards("22", "13"),
                                            G: cards("14")})
    assert result.game_over and result.winner is None
    assert {(s.player, s.cards, s.doubles) for s in result.standings[:2]} == {(R, 2, 1),
                                                                              (B, 2, 1)}
    assert result.events[-1].params["tied"] == ("red", "blue")


def test_end_2_through_solve_counts_this_rounds_winnings():
    # Two players: red wins row 0 by sandwich (4 cards), blue wins (1,1); 11 cards are
    # left, more than 8, so the game goes on although the deck is empty.
    rows = ["11:r5 12 13 14:r5", "15 16:b5 22 23", "24 25 26 33", "34 35 36 44"]
    solution = solve(situation(rows, R, B, deck=0))
    outcome = solution.outcome()
    assert (outcome["board_after"], outcome["game_over"]) == (11, False)
    # Two cards left and an empty deck: the game is over. Red 4 + 1 cards (11, 33 doubles),
    # blue 1 + 2 cards (44, 55 doubles).
    rows = ["11:r5 12 13 14:r5", "15:b5 16 22 --", "-- -- -- --", "-- -- -- --"]
    outcome = solve(situation(rows, R, B, deck=0, won={R: cards("33"), B: cards("44", "55")}
                              )).outcome()
    assert outcome["board_after"] == 2
    assert outcome["game_over"] is True
    assert outcome["standings"] == [{"player": "red", "cards": 5, "doubles": 2},
                                    {"player": "blue", "cards": 3, "doubles": 2}]
    assert outcome["winner"] == "red"


def test_int_2_position_missing_from_a_short_row_does_not_break_it():
    # The diagonal (0,0)-(3,3) passes where row 1 has no position (1,1) at all.
    result = treasure(["11:r5 12 13 14", "15", "16 22 23 24", "25 26 33 34:r5"], R, B)
    assert winnings(result)["red"] == {(0, 0), (2, 2), (3, 3)}
    sandwich = [e for e in result.events if e.code == "treasure.sandwich"]
    assert len(sandwich) == 1 and sandwich[0].interpretation == "INT-2"
