"""Whole games, clause by clause: setup, Dice Time, Setting Time and the end of a round.

Every test starts from :func:`new_game` with a fixed seed and start player and then drives
the game with :func:`apply`. Where a clause needs an exact situation (dice showing
chosen faces, dice on chosen cards, a short deck), the state is adjusted with
``dataclasses.replace``. Expected values are worked out by hand from RULES.md.

Boards are case-format rows; positions are ``(row, col)``, zero-based, row 0 at the top.
The plain board used most often::

    (0,0)=11 (0,1)=12 (0,2)=13 (0,3)=14
    (1,0)=15 (1,1)=16 (1,2)=22 (1,3)=23
    (2,0)=24 (2,1)=25 (2,2)=26 (2,3)=33
    (3,0)=34 (3,1)=35 (3,2)=36 (3,3)=44
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

import pytest

from captain.rules import (
    FULL_DECK,
    AttackCard,
    AttackKind,
    Board,
    Colour,
    Dice,
    IllegalAction,
    InvalidSituation,
    Mode,
    Outcome,
    Position,
    RuleSet,
    Treasure,
)
from captain.rules.game import (
    Claim,
    GameState,
    Pass,
    Phase,
    PlaceAttackCard,
    RingBell,
    RingStartBell,
    Roll,
    apply,
    attack_cards_of,
    legal_actions,
    new_game,
    refill,
)

R, B, G, W = Colour.RED, Colour.BLUE, Colour.GREEN, Colour.WHITE
K0, K1, K2, K3, K4, K5 = AttackKind

PLAIN = ["11 12 13 14", "15 16 22 23", "24 25 26 33", "34 35 36 44"]
STRATEGY = {"mode": Mode.STRATEGY}


# --- helpers ---------------------------------------------------------------------------------

def P(row: int, col: int) -> Position:
    return Position(row, col)


def T(text: str) -> Treasure:
    return Treasure.parse(text)


def cards(*texts: str) -> tuple[Treasure, ...]:
    return tuple(T(t) for t in texts)


def codes(state: GameState) -> list[str]:
    return [e.code for e in state.log]


def event(state: GameState, code: str):
    found = [e for e in state.log if e.code == code]
    assert found, f"no {code} event in {codes(state)}"
    return found[0]


def illegal(state: GameState, action, clause: str, code: str | None = None) -> IllegalAction:
    """Apply ``action``, expect it refused by ``clause`` (and ``code``), return the error."""
    with pytest.raises(IllegalAction) as info:
        apply(state, action)
    assert info.value.clause == clause, str(info.value)
    if code is not None:
        assert info.value.code == code, str(info.value)
    return info.value


def game(players=(R, B, G), start=R, seed=1, **rules) -> GameState:
    return new_game(players, rules=RuleSet(**rules), seed=seed, start_player=start)


def set_player(state: GameState, colour: Colour, **changes) -> GameState:
    players = tuple(replace(p, **changes) if p.colour == colour else p for p in state.players)
    return replace(state, players=players)


def dice_cards(board: Board, colour: Colour) -> int:
    return sum(1 for d in board.dice().values() if d.colour == colour)


def dice_time(rows=PLAIN, players=(R, B, G), start=R, dice=None, seed=1, turn=None,
              **rules) -> GameState:
    """Dice Time, just after the start bell, on the board ``rows``.

    ``dice`` maps colours to the faces they hold in hand; by default each player keeps
    as many rolled dice as their dice on the board leave them (6 - 2 per card).
    """
    state = apply(game(players, start, seed, **rules), RingStartBell(start))
    board = Board.parse(rows)
    for p in state.players:
        values = (dice or {}).get(p.colour, p.dice[: 6 - 2 * dice_cards(board, p.colour)])
        state = set_player(state, p.colour, dice=tuple(values))
    state = replace(state, board=board)
    return replace(state, turn=turn) if turn is not None else state


def setting_time(rows, players=(R, B, G), start=R, turn=R, deck=None, seed=1,
                 **rules) -> GameState:
    """Setting Time with ``turn`` to place, on the board ``rows`` (dice on cards)."""
    state = game(players, start, seed, **rules)
    board = Board.parse(rows)
    for p in state.players:
        state = set_player(state, p.colour, rolled=True,
                           dice=(6,) * (6 - 2 * dice_cards(board, p.colour)))
    state = replace(state, board=board, phase=Phase.SETTING, turn=turn)
    return replace(state, deck=deck) if deck is not None else state


def place(state: GameState, player: Colour, pos: tuple[int, int], kind: AttackKind) -> GameState:
    return apply(state, PlaceAttackCard(player, P(*pos), kind))


# --- SETUP ------------------------------------------------------------------------------------

@pytest.mark.parametrize("players", [(R, B, G), (R, B, G, W), (W, G)])
def test_setup_1_every_player_starts_with_the_full_hand_and_nothing_else(players):
    state = game(players, start=players[0])
    per_player = 7 if len(players) == 2 else 9
    for p in state.players:
        assert len(p.hand) == per_player
        assert Counter(p.hand) == Counter({K0: 1, K1: 1, K2: 1, K3: 1, K4: 1,
                                           K5: 2 if len(players) == 2 else 4})
        assert p.discard == () and p.won == () and p.dice == () and not p.false_bell
    assert [p.colour for p in state.players] == list(players)
    assert state.phase is Phase.AWAIT_START_BELL and state.round == 1


def test_setup_1_everyone_rolls_six_dice_at_the_start_bell():
    state = apply(game((R, B, G, W), start=B), RingStartBell(B))
    for p in state.players:
        assert len(p.dice) == 6 and all(1 <= d <= 6 for d in p.dice) and p.rolled


@pytest.mark.parametrize("players", [(R, B, G), (R, B, G, W)])
def test_setup_3_four_by_four_grid_and_26_in_the_deck(players):
    state = game(players, start=players[-1], seed=11)
    assert state.board.shape == (4, 4)
    assert all(len(row) == 4 for row in state.board.rows)
    assert all(cell.treasure is not None and cell.occupant is None for _, cell in state.board)
    assert len(state.deck) == 26 and state.box == ()
    on_board = [cell.treasure for _, cell in state.board]
    assert Counter(on_board) + Counter(state.deck) == Counter(FULL_DECK)
    assert state.start_player == players[-1]
    assert event(state, "game.setup").clause == "SETUP-3"


def test_setup_3_shuffles_by_seed_and_picks_a_seated_start_player():
    a, b = new_game((R, B, G), seed=3), new_game((R, B, G), seed=3)
    assert a == b
    assert a.start_player in (R, B, G)
    layouts = {tuple(str(cell.treasure) for _, cell in new_game((R, B, G), seed=s).board)
               for s in range(5)}
    assert len(layouts) == 5  # different seeds, different shuffles
    starts = {new_game((R, B, G), seed=s).start_player for s in range(30)}
    assert starts == {R, B, G}


def test_setup_3_rejects_a_bad_player_list():
    with pytest.raises(InvalidSituation) as info:
        new_game((R,), seed=1)
    assert info.value.clause == "SETUP-3"
    with pytest.raises(InvalidSituation) as info:
        new_game((R, R, B), seed=1)
    assert info.value.clause == "SETUP-1"


def test_setup_4_two_players():
    state = game((R, B), start=B, seed=5)
    for p in state.players:
        assert len(p.hand) == 7 and p.hand.count(K5) == 2
    assert state.board.shape == (3, 3) and state.board.treasure_count() == 9
    assert len(state.box) == 10 and len(state.deck) == 23
    everything = [cell.treasure for _, cell in state.board] + list(state.deck) + list(state.box)
    assert Counter(everything) == Counter(FULL_DECK)
    assert event(state, "game.setup").clause == "SETUP-4"


@pytest.mark.parametrize("players", [(R, B), (R, B, G), (R, B, G, W)])
def test_var_2_no_scouts_five_cards_each(players):
    state = game(players, start=R, no_scouts=True)
    for p in state.players:
        assert p.hand == (K0, K1, K2, K3, K4)


# --- DICE-1 -------------------------------------------------------------------------------------

def test_dice_1_only_the_start_player_rings_the_start_bell():
    state = game((R, B, G), start=G)
    err = illegal(state, RingStartBell(R), "DICE-1", "not-start-player")
    assert "green" in str(err)
    assert legal_actions(state) == [RingStartBell(G)]
    assert legal_actions(state, R) == []
    after = apply(state, RingStartBell(G))
    assert after.phase is Phase.DICE
    assert all(len(p.dice) == 6 for p in after.players)
    assert event(after, "dice.start").clause == "DICE-1"
    illegal(after, RingStartBell(G), "DICE-1", "wrong-phase")


def test_dice_1_nothing_is_rolled_or_claimed_before_the_start_bell():
    state = game((R, B, G), start=R)
    illegal(state, Roll(R), "DICE-1", "wrong-phase")
    illegal(state, Claim(B, P(0, 0)), "DICE-1", "wrong-phase")
    illegal(state, RingBell(B), "DICE-1", "wrong-phase")


def test_a_colour_not_seated_cannot_act():
    state = dice_time()
    illegal(state, Roll(W), "SETUP-1", "not-seated")


def test_dice_1_action_mode_has_no_turns():
    state = dice_time(dice={R: (1, 1, 2, 2, 3, 3), B: (1, 2, 1, 2, 1, 2), G: (4, 4, 4, 4, 5, 5)})
    assert state.turn is None
    movers = {a.player for a in legal_actions(state)}
    assert movers == {R, B, G}
    # anyone may move in any order
    state = apply(state, Claim(G, P(3, 3)))
    state = apply(state, Claim(R, P(0, 0)))
    state = apply(state, Roll(B))
    assert state.phase is Phase.DICE
    assert state.board.dice() == {P(3, 3): Dice(G), P(0, 0): Dice(R)}


# --- DICE-2 -------------------------------------------------------------------------------------

def test_dice_2_a_claim_takes_exactly_the_two_faces():
    state = dice_time(dice={R: (1, 5, 6, 3, 2, 6)})
    after = apply(state, Claim(R, P(3, 1)))  # {3,5}
    assert after.board.at(P(3, 1)).occupant == Dice(R)
    assert sorted(after.player(R).dice) == [1, 2, 6, 6]
    assert after.player(B) == state.player(B)
    assert event(after, "dice.claim").clause == "DICE-2"


def test_dice_2_faces_that_do_not_match_are_refused():
    state = dice_time(dice={R: (3, 4, 1, 1, 2, 6)})
    err = illegal(state, Claim(R, P(3, 1)), "DICE-2", "no-pair")  # {3,5}: no 5
    assert err.params["position"] == [3, 1]
    illegal(state, Claim(R, P(3, 3)), "DICE-2", "no-pair")  # {4,4}: only one 4
    assert Claim(R, P(3, 3)) not in legal_actions(state, R)
    doubled = set_player(state, R, dice=(4, 4, 1, 1, 2, 6))
    assert apply(doubled, Claim(R, P(3, 3))).board.at(P(3, 3)).occupant == Dice(R)


def test_dice_2_a_card_holding_dice_cannot_be_claimed():
    rows = ["11 12 13 14", "15 16 22 23:B", "24 25 26 33", "34 35 36 44"]
    state = dice_time(rows, dice={R: (2, 3, 1, 1, 5, 6)})
    illegal(state, Claim(R, P(1, 3)), "DICE-2", "occupied")
    assert Claim(R, P(1, 3)) not in legal_actions(state, R)
    # own dice too: a card holds one player's dice once
    mine = dice_time(["11:R 12 13 14"] + PLAIN[1:], dice={R: (1, 1, 2, 2)})
    illegal(mine, Claim(R, P(0, 0)), "DICE-2", "occupied")


def test_dice_2_no_treasure_card_no_claim():
    rows = ["11 -- 13 14", "15 16 22 23", "24 25 26 33", "34 35 36 44"]
    state = dice_time(rows, dice={R: (1, 2, 1, 1, 5, 6)})
    illegal(state, Claim(R, P(0, 1)), "DICE-2", "no-card")
    illegal(state, Claim(R, P(4, 0)), "DICE-2", "no-card")


# --- DICE-3 -------------------------------------------------------------------------------------

def test_dice_3_action_mode_refuses_a_partial_reroll():
    state = dice_time(dice={R: (1, 2, 3, 4, 5, 6)})
    illegal(state, Roll(R, (1, 2)), "DICE-3", "partial-reroll")
    illegal(state, Roll(R, (1, 2, 3, 4, 5, 6, 6)), "DICE-3", "partial-reroll")
    # naming every die in hand (in any order) is the same as re-rolling all
    assert len(apply(state, Roll(R, (6, 5, 4, 3, 2, 1))).player(R).dice) == 6
    assert all(a.dice is None for a in legal_actions(state, R) if isinstance(a, Roll))


def test_dice_3_a_reroll_changes_only_the_dice_in_hand():
    rows = ["11:R 12 13 14", "15 16:B 22 23", "24 25 26 33", "34 35 36 44"]
    state = dice_time(rows, dice={R: (6, 6, 6, 6), B: (1, 2, 3, 4)})
    after = apply(state, Roll(R))
    assert after.board == state.board  # dice on cards stay
    assert len(after.player(R).dice) == 4
    assert after.player(B) == state.player(B)
    assert after.draws == state.draws + 1
    assert event(after, "dice.roll").clause == "DICE-3"
    rolls = {apply(replace(state, draws=d), Roll(R)).player(R).dice for d in range(20)}
    assert len(rolls) > 1  # the re-roll is random


def test_dice_3_no_dice_in_hand_nothing_to_roll():
    rows = ["11:R 12:R 13:R 14", "15 16 22 23", "24 25 26 33", "34 35 36 44"]
    state = dice_time(rows, dice={R: ()})
    illegal(state, Roll(R), "DICE-3", "no-dice")
    assert not any(isinstance(a, Roll) for a in legal_actions(state, R))


# --- DICE-4 / DICE-5 ----------------------------------------------------------------------------

def test_dice_4_ringing_ends_dice_time_and_makes_the_ringer_start_player():
    rows = ["11:R 12 13 14", "15 16:B 22 23", "24 25 26:G 33", "34 35 36 44"]  # diagonal, 3 colours
    state = dice_time(rows, players=(R, B, G, W), start=R)
    assert RingBell(W) in legal_actions(state, W)
    after = apply(state, RingBell(W))
    assert after.phase is Phase.SETTING
    assert after.start_player == W
    assert event(after, "bell.line").clause == "DICE-4"
    end = event(after, "dice.end")
    assert end.clause == "DICE-4" and end.params["start_player"] == "white"
    # white holds no dice on the board: Setting Time goes on clockwise from white (SET-2)
    assert after.turn == R


def test_dice_4_the_ringer_stays_start_player_for_the_rest_of_the_round():
    rows = ["11:G 12 13 14", "15 16:R 22 23", "24 25 26:B 33", "34 35 36 44"]
    state = apply(dice_time(rows, start=R), RingBell(B))
    assert state.turn == B
    for _ in range(3):
        state = apply(state, legal_actions(state)[0])
    assert state.phase is Phase.AWAIT_START_BELL and state.round == 2
    assert state.start_player == B
    assert legal_actions(state) == [RingStartBell(B)]


def test_dice_5_two_players_three_cards_anywhere():
    rows = ["11:R 12 13", "14 15 16:B", "22 23:R 24"]  # no line of three
    state = dice_time(rows, players=(R, B), start=R)
    after = apply(state, RingBell(B))
    assert after.phase is Phase.SETTING and after.start_player == B
    assert event(after, "bell.count").clause == "DICE-5"


# --- DICE-6 / INT-7 -----------------------------------------------------------------------------

def test_dice_6_a_false_bell_blocks_rolling_claiming_and_ringing():
    state = dice_time(dice={R: (1, 1, 2, 2, 3, 3)})
    after = apply(state, RingBell(R))
    assert after.phase is Phase.DICE and after.start_player == R
    assert after.player(R).false_bell
    assert event(after, "dice.false_bell").clause == "DICE-6"
    illegal(after, Roll(R), "DICE-6", "false-bell")
    illegal(after, Claim(R, P(0, 0)), "DICE-6", "false-bell")  # {1,1}: the pair is there
    illegal(after, RingBell(R), "DICE-6", "false-bell")
    assert legal_actions(after, R) == []
    # the others play on
    assert apply(after, Roll(B)).phase is Phase.DICE


def test_dice_6_a_false_bell_lasts_only_this_dice_time():
    rows = ["11:R 12 13 14", "15 16 22 23", "24 25 26 33", "34 35 36 44"]
    state = set_player(setting_time(rows, turn=R), B, false_bell=True)
    after = place(state, R, (0, 0), K5)
    assert after.phase is Phase.AWAIT_START_BELL
    assert not any(p.false_bell for p in after.players)
    again = apply(set_player(after, B, false_bell=True), RingStartBell(R))
    assert not again.player(B).false_bell


def test_int_7_everyone_false_belled_lifts_the_penalties():
    state = dice_time(players=(R, B, G))
    state = apply(state, RingBell(R))
    state = apply(state, RingBell(B))
    assert state.player(R).false_bell and state.player(B).false_bell
    assert "dice.penalties_lifted" not in codes(state)
    state = apply(state, RingBell(G))
    assert not any(p.false_bell for p in state.players)
    lifted = event(state, "dice.penalties_lifted")
    assert lifted.interpretation == "INT-7"
    assert state.phase is Phase.DICE
    assert apply(state, Roll(R)).phase is Phase.DICE


# --- DICE-7 / SET-4 -----------------------------------------------------------------------------

def test_dice_7_more_dice_cards_than_attack_cards_in_hand():
    state = dice_time(dice={R: (1, 1, 2, 1, 3, 1)})
    state = set_player(state, R, hand=(K5,), discard=(K0, K1, K2, K3, K4, K5, K5, K5))
    for pos in ((0, 0), (0, 1), (0, 2)):  # {1,1} {1,2} {1,3}
        state = apply(state, Claim(R, P(*pos)))
    assert len(state.dice_cards(R)) == 3 > state.player(R).hand_size == 1
    state = apply(state, RingBell(B))  # row 0 holds three cards with dice
    assert state.phase is Phase.SETTING and state.turn == R
    assert "setting.recycle" not in codes(state)
    state = place(state, R, (0, 0), K5)
    # red's hand is empty and red still has dice on the board: the discard comes back (SET-4)
    assert state.turn == R
    recycle = event(state, "setting.recycle")
    assert recycle.clause == "SET-4" and recycle.params["cards"] == 8
    assert state.player(R).hand == (K0, K1, K2, K3, K4, K5, K5, K5)
    assert state.player(R).discard == ()
    assert {a.kind for a in legal_actions(state)} == {K0, K1, K2, K3, K4, K5}
    state = place(state, R, (0, 1), K0)
    state = place(state, R, (0, 2), K5)
    assert state.phase is Phase.AWAIT_START_BELL
    assert attack_cards_of(state, R) == Counter({K0: 1, K1: 1, K2: 1, K3: 1, K4: 1, K5: 4})


def test_set_4_an_empty_hand_takes_the_discard_back_when_setting_time_begins():
    rows = ["11:R 12:B 13:G 14", "15 16 22 23", "24 25 26 33", "34 35 36 44"]
    state = set_player(dice_time(rows), R, hand=(), discard=(K5, K2, K0))
    assert legal_actions(state, R)  # red may still ring
    after = apply(state, RingBell(R))
    assert after.turn == R
    assert event(after, "setting.recycle").params == {"colour": "red", "cards": 3}
    assert after.player(R).hand == (K0, K2, K5) and after.player(R).discard == ()
    illegal(after, PlaceAttackCard(R, P(0, 0), K1), "SET-1", "not-in-hand")


# --- strategy mode ------------------------------------------------------------------------------

def test_strat_1_everyone_rolls_once_then_turns_go_clockwise_from_the_start_player():
    state = apply(game((R, B, G), start=B, seed=5, **STRATEGY), RingStartBell(B))
    assert all(len(p.dice) == 6 for p in state.players)
    assert event(state, "dice.start").clause == "STRAT-1"
    seen = []
    for _ in range(6):
        seen.append(state.turn)
        assert {a.player for a in legal_actions(state)} == {state.turn}
        state = apply(state, Roll(state.turn, state.player(state.turn).dice[:1]))
    assert seen == [B, G, R, B, G, R]


def test_strat_1_acting_out_of_turn_is_refused():
    state = dice_time(dice={R: (1, 1, 2, 3, 4, 5), B: (1, 1, 2, 3, 4, 5)}, turn=R, **STRATEGY)
    assert state.turn == R
    illegal(state, Roll(B, (1,)), "STRAT-1", "not-your-turn")
    illegal(state, Claim(B, P(0, 0)), "STRAT-1", "not-your-turn")
    assert legal_actions(state, B) == []


def test_strat_2_reroll_any_subset_once_a_turn():
    state = dice_time(dice={R: (1, 1, 2, 3, 4, 5)}, turn=R, **STRATEGY)
    after = apply(state, Roll(R, (1, 4)))
    kept = Counter(after.player(R).dice) - Counter({1: 1, 2: 1, 3: 1, 5: 1})
    assert len(after.player(R).dice) == 6 and sum(kept.values()) == 2  # 1, 2, 3, 5 kept
    assert list(event(after, "dice.roll").params["rerolled"]) == [1, 4]
    assert after.turn == B  # without STRAT-4 the re-roll is the whole turn
    assert after.board == state.board
    # every distinct subset is offered once
    rolls = [a.dice for a in legal_actions(state) if isinstance(a, Roll)]
    assert len(rolls) == len(set(rolls)) and (1, 1, 2, 3, 4, 5) in rolls and (1,) in rolls
    assert len(rolls) == 2 * 2 * 2 * 2 * 3 - 1  # faces 2,3,4,5 in or out; none, one or two 1s


def test_strat_2_bad_rerolls_are_refused():
    state = dice_time(dice={R: (1, 1, 2, 3, 4, 5)}, turn=R, **STRATEGY)
    illegal(state, Roll(R, (6,)), "STRAT-2", "not-in-hand")
    illegal(state, Roll(R, (1, 1, 1)), "STRAT-2", "not-in-hand")
    illegal(state, Roll(R, ()), "STRAT-2", "empty-reroll")
    illegal(state, RingBell(R), "STRAT-3", "no-bell-in-strategy")


def test_strat_2_placing_a_pair_is_the_whole_turn():
    state = dice_time(dice={R: (1, 1, 2, 3, 4, 5)}, turn=R, **STRATEGY)
    after = apply(state, Claim(R, P(0, 0)))
    assert after.board.at(P(0, 0)).occupant == Dice(R)
    assert sorted(after.player(R).dice) == [2, 3, 4, 5]
    assert after.turn == B


def test_strat_3_a_full_line_ends_dice_time_and_the_placer_starts():
    # the 3-card diagonal (0,1) (1,2) (2,3) counts (INT-3); blue places its last card
    rows = ["11 12:R 13 14", "15 16 22:G 23", "24 25 26 33", "34 35 36 44"]
    state = dice_time(rows, dice={B: (3, 3, 1, 2, 4, 5)}, turn=B, **STRATEGY)
    after = apply(state, Claim(B, P(2, 3)))
    assert after.phase is Phase.SETTING
    assert after.start_player == B and after.turn == B
    assert event(after, "dice.end").clause == "STRAT-3"
    line = event(after, "bell.line")
    assert line.clause == "STRAT-3" and line.interpretation == "INT-3"


def test_strat_3_three_dice_on_a_four_card_row_is_not_full():
    rows = ["11:R 12:G 13 14", "15 16 22 23", "24 25 26 33", "34 35 36 44"]
    state = dice_time(rows, dice={B: (1, 3, 1, 2, 4, 5)}, turn=B, **STRATEGY)
    after = apply(state, Claim(B, P(0, 2)))
    assert after.phase is Phase.DICE and after.turn == G and after.start_player == R


def test_strat_4_after_a_reroll_the_same_player_may_claim():
    rules = {"mode": Mode.STRATEGY, "place_after_reroll": True}
    state = dice_time(dice={R: (1, 1, 2, 3, 4, 5)}, turn=R, **rules)
    after = apply(state, Roll(R, (5,)))
    assert after.turn == R and after.rerolled
    actions = legal_actions(after)
    assert Pass(R) in actions and not any(isinstance(a, Roll) for a in actions)
    assert Claim(R, P(0, 0)) in actions  # the 1s were kept
    illegal(after, Roll(R, (1,)), "STRAT-2", "rerolled")
    claimed = apply(after, Claim(R, P(0, 0)))
    assert claimed.board.at(P(0, 0)).occupant == Dice(R)
    assert claimed.turn == B and not claimed.rerolled


def test_strat_4_after_a_reroll_the_player_may_pass():
    rules = {"mode": Mode.STRATEGY, "place_after_reroll": True}
    state = dice_time(dice={R: (1, 1, 2, 3, 4, 5)}, turn=R, **rules)
    illegal(state, Pass(R), "STRAT-4", "no-pass")  # nothing re-rolled yet
    after = apply(apply(state, Roll(R, (5,))), Pass(R))
    assert after.turn == B and not after.rerolled
    assert event(after, "dice.pass").clause == "STRAT-4"


def test_strat_4_passing_needs_the_option():
    state = dice_time(dice={R: (1, 1, 2, 3, 4, 5)}, turn=R, **STRATEGY)
    illegal(state, Pass(R), "STRAT-4", "no-pass")
    assert apply(state, Roll(R, (5,))).turn == B
    action_mode = dice_time()
    illegal(action_mode, Pass(R), "STRAT-4", "no-pass")


# --- INT-6 --------------------------------------------------------------------------------------

def test_int_6_strategy_nobody_can_act_and_no_line_is_full():
    rows = ["11:G 12:R 13:G 14", "15 16:R 22:B 23", "24 25 26 33", "34:B 35 36:B 44:R"]
    state = dice_time(rows, dice={R: (), B: (), G: (1, 5)}, turn=G, **STRATEGY)
    after = apply(state, Claim(G, P(1, 0)))  # {1,5}: green's last dice
    assert after.phase is Phase.SETTING
    assert after.start_player == R  # nobody rang: the start player stays
    stuck = event(after, "dice.stuck")
    assert stuck.interpretation == "INT-6"
    assert "dice.end" not in codes(after)
    assert after.turn == R


def test_int_6_strategy_a_player_who_cannot_act_is_skipped():
    rows = ["11:R 12:R 13:R 14", "15 16 22 23", "24 25 26 33", "34 35 36 44"]
    state = dice_time(rows, dice={R: (), B: (1, 2, 3, 4, 5, 6), G: (1, 2, 3, 4, 5, 6)},
                      turn=G, **STRATEGY)
    after = apply(state, Roll(G, (6,)))
    assert after.turn == B  # red has no dice in hand: skipped


def test_int_6_action_mode_too():
    rows = ["11 12 13 14:G", "15:B 16 22 23", "24:B 25 26:G 33", "34 35 36 44:B"]
    state = dice_time(rows, dice={R: (1, 2, 3, 4, 5, 6), B: (), G: (3, 6)})
    state = apply(state, RingBell(R))  # false bell: red sits out
    assert state.phase is Phase.DICE
    after = apply(state, Claim(G, P(3, 2)))  # {3,6}: nobody can place any more
    assert after.phase is Phase.SETTING and after.start_player == R
    assert event(after, "dice.stuck").interpretation == "INT-6"


# --- Setting Time -------------------------------------------------------------------------------

def test_set_1_turns_from_the_start_player_clockwise_and_set_2_skips_players_without_dice():
    # green rings on row 0 (green, green, white); red has one card, blue none
    rows = ["11:G 12:G 13:W 14", "15 16 22 23", "24 25 26 33", "34 35 36 44:R"]
    state = dice_time(rows, players=(R, B, G, W), start=R)
    state = apply(state, RingBell(G))
    order = []
    placements = {G: [(0, 0), (0, 1)], W: [(0, 2)], R: [(3, 3)]}
    while state.phase is Phase.SETTING:
        order.append(state.turn)
        assert {a.player for a in legal_actions(state)} == {state.turn}
        assert {a.position for a in legal_actions(state)} == set(map(lambda p: P(*p),
                                                                     placements[state.turn]))
        state = place(state, state.turn, placements[state.turn].pop(0), K5)
    assert order == [G, W, R, G]


def test_set_1_placing_puts_the_card_face_down_and_returns_the_dice():
    rows = ["11:R 12 13:R 14", "15 16:B 22 23", "24 25 26 33", "34 35 36 44"]
    state = setting_time(rows, turn=R)
    assert state.player(R).dice == (6, 6)
    after = place(state, R, (0, 2), K3)
    cell = after.board.at(P(0, 2))
    assert cell.occupant == AttackCard(R, K3) and cell.treasure == T("13")
    assert after.board.at(P(0, 0)).occupant == Dice(R)  # the other card keeps its dice
    assert after.player(R).hand.count(K3) == 0 and after.player(R).hand_size == 8
    assert sorted(after.player(R).dice) == [1, 3, 6, 6]  # the two dice showing {1,3} are back
    assert event(after, "setting.place").clause == "SET-1"
    assert after.turn == B


def test_set_1_illegal_placements():
    rows = ["11:R 12 13 14", "15 16:B 22 23", "24 25 26 33", "34 35 36 44"]
    state = setting_time(rows, turn=R)
    illegal(state, PlaceAttackCard(B, P(1, 1), K5), "SET-1", "not-your-turn")
    illegal(state, PlaceAttackCard(R, P(1, 1), K5), "SET-1", "no-own-dice")
    illegal(state, PlaceAttackCard(R, P(0, 1), K5), "SET-1", "no-own-dice")
    without_four = set_player(state, R, hand=(K0, K1, K2, K3, K5, K5, K5, K5), discard=(K4,))
    illegal(without_four, PlaceAttackCard(R, P(0, 0), K4), "SET-1", "not-in-hand")
    # a Dice Time move in Setting Time lost the race to whatever ended Dice Time
    illegal(state, Roll(R), "DICE-4", "dice-time-over")
    illegal(state, Claim(R, P(0, 1)), "DICE-4", "dice-time-over")
    illegal(setting_time(rows, players=(R, B), turn=R), RingBell(B), "DICE-5", "dice-time-over")
    illegal(setting_time(rows, turn=R, mode=Mode.STRATEGY), Roll(R), "STRAT-3", "dice-time-over")
    assert legal_actions(state) == [PlaceAttackCard(R, P(0, 0), k) for k in (K0, K1, K2, K3, K4, K5)]
    illegal(dice_time(), PlaceAttackCard(R, P(0, 0), K5), "SET-1", "wrong-phase")


def test_set_2_a_player_with_dice_on_the_board_must_place():
    rows = ["11:R 12 13 14", "15 16 22 23", "24 25 26 33", "34 35 36 44"]
    state = setting_time(rows, turn=R)
    assert all(isinstance(a, PlaceAttackCard) for a in legal_actions(state))
    assert legal_actions(state, B) == [] and legal_actions(state, G) == []


def test_set_3_battle_and_treasure_resolve_when_the_last_card_is_placed():
    rows = ["11:R 12 13 14:B", "15 16 22 23", "24 25 26 33", "34 35 36 44:G"]
    state = setting_time(rows, turn=R, deck=cards("45", "46", "55", "56", "66"))
    state = place(state, R, (0, 0), K2)
    assert state.turn == B and state.last_round is None
    state = place(state, B, (0, 3), K5)
    assert state.turn == G and state.phase is Phase.SETTING
    state = place(state, G, (3, 3), K3)

    assert state.phase is Phase.AWAIT_START_BELL and state.round == 2 and state.turn is None
    record = state.last_round
    assert record is not None and record.round == 1
    assert record.board.cards() == {P(0, 0): AttackCard(R, K2), P(0, 3): AttackCard(B, K5),
                                    P(3, 3): AttackCard(G, K3)}
    steps = [(s.card.token, s.outcome, s.removed) for s in record.battle.turns]
    assert steps == [("r2", Outcome.ACTS, (P(0, 3),)), ("g3", Outcome.ACTS, ()),
                     ("b5", Outcome.REMOVED_BEFORE, ())]
    assert record.treasure.winnings == {R: (P(0, 0),), B: (), G: (P(3, 3),)}
    # TRE-4 / BAT-4: every attack card placed this round is in its owner's discard
    assert state.player(R).discard == (K2,) and K2 not in state.player(R).hand
    assert state.player(B).discard == (K5,) and state.player(B).hand.count(K5) == 3
    assert state.player(G).discard == (K3,)
    assert [p.won for p in state.players] == [cards("11"), (), cards("44")]
    # TRE-5: the two emptied positions refilled from the top of the deck, in row order
    assert not state.board.cards() and not state.board.dice()
    assert state.board.at(P(0, 0)).treasure == T("45")
    assert state.board.at(P(3, 3)).treasure == T("46")
    assert state.deck == cards("55", "56", "66")
    assert state.board.shape == (4, 4) and state.board.treasure_count() == 16
    assert all(p.dice == () and not p.rolled for p in state.players)
    assert state.start_player == R
    for code in ("setting.place", "battle.reveal", "treasure.card", "treasure.discard",
                 "round.refill", "round.continue"):
        assert code in codes(state)
    assert event(state, "round.refill").params["drawn"] == 2


def test_set_3_next_round_begins_with_the_start_bell():
    rows = ["11:R 12 13 14", "15 16 22 23", "24 25 26 33", "34 35 36 44"]
    state = place(setting_time(rows, turn=R), R, (0, 0), K5)
    assert legal_actions(state) == [RingStartBell(R)]
    state = apply(state, RingStartBell(R))
    assert state.phase is Phase.DICE and all(len(p.dice) == 6 for p in state.players)
    assert state.player(R).hand_size == 8


# --- TRE-5 / INT-5: refill ----------------------------------------------------------------------

def test_tre_5_refill_fills_the_holes_from_the_top_of_the_deck():
    board = Board.parse(["11 -- 13 14", "15 16 22 --", "24 25 26 33", "-- 35 36 44"])
    layout, deck, events = refill(board, cards("55", "56", "66", "45", "46"), 3, R)
    assert layout.to_rows() == ["11 55 13 14", "15 16 22 56", "24 25 26 33", "66 35 36 44"]
    assert deck == cards("45", "46")
    assert [e.code for e in events] == ["round.refill"]
    assert events[0].clause == "TRE-5"
    assert events[0].params == {"drawn": 3, "board_after": 16, "deck_after": 2,
                                "start_player": "red"}


def test_tre_5_a_full_board_needs_nothing():
    board = Board.parse(PLAIN)
    layout, deck, events = refill(board, cards("55"), 4, B)
    assert layout == board and deck == cards("55") and events == []


def test_tre_5_two_players_refill_to_three_by_three():
    board = Board.parse(["11 -- 13", "-- 16 22", "24 25 26"])
    layout, deck, events = refill(board, cards("55", "56", "66"), 2, B)
    assert layout.to_rows() == ["11 55 13", "56 16 22", "24 25 26"]
    assert deck == cards("66")


def test_int_5_a_short_deck_rearranges_as_close_to_a_square_as_possible():
    board = Board.parse(["11 -- 13 14", "15 -- 22 --", "24 25 -- 33", "-- 35 36 --"])
    layout, deck, events = refill(board, cards("55", "56"), 3, R)  # 10 + 2 = 12 cards
    assert deck == ()
    assert layout.to_rows() == ["11 13 14 15", "22 24 25 33", "35 36 55 56"]
    assert [e.code for e in events] == ["round.refill", "round.rearrange"]
    rearrange = events[1]
    assert rearrange.interpretation == "INT-5"
    assert rearrange.params == {"cards": 12, "rows": 3, "columns": 4}


@pytest.mark.parametrize("n, lengths", [(9, (3, 3, 3)), (10, (4, 4, 2)), (12, (4, 4, 4)),
                                        (13, (4, 4, 4, 1)), (15, (4, 4, 4, 3)), (8, (3, 3, 2))])
def test_int_5_shapes(n, lengths):
    """c = ceil(sqrt(n)) columns, rows top to bottom, the last possibly short."""
    treasures = list(FULL_DECK[::2])[:n]
    rows = [" ".join(str(t) for t in treasures[i:i + 4]) for i in range(0, n, 4)]
    layout, deck, events = refill(Board.parse(rows), (), 4, R)
    assert tuple(len(r) for r in layout.rows) == lengths
    assert [cell.treasure for _, cell in layout] == treasures  # order kept
    assert deck == ()
    # with 8 or fewer cards the game ends (END-1): nothing to explain a rearrangement for
    assert [e.code for e in events] == (["round.rearrange"] if n >= 9 else [])


def test_int_5_rearranges_in_a_game_when_the_deck_runs_short():
    rows = ["11:R 12 13 14", "15 16 22 23", "24 25 26 33", "34 35 36 44:B"]
    state = setting_time(rows, turn=R, deck=cards("45"))
    state = place(place(state, R, (0, 0), K5), B, (3, 3), K5)
    assert state.board.to_rows() == ["12 13 14 15", "16 22 23 24", "25 26 33 34", "35 36 45"]
    assert state.deck == ()
    assert event(state, "round.rearrange").interpretation == "INT-5"
    assert state.phase is Phase.AWAIT_START_BELL  # 15 cards: the game goes on


# --- END ----------------------------------------------------------------------------------------

def test_end_1_int_4_eight_cards_and_an_empty_deck_end_the_game():
    rows = ["11:R 12 13 14:R", "15 16 22 23", "24 25 26 33"]  # a rearranged 3x4 board
    state = setting_time(rows, turn=R, deck=())
    state = place(state, R, (0, 0), K5)
    assert state.turn == R  # blue and green hold no dice on the board
    state = place(state, R, (0, 3), K5)  # red wins the row: 4 cards, 8 left
    assert state.player(R).won == cards("11", "12", "13", "14")
    assert state.board.treasure_count() == 8
    assert state.phase is Phase.OVER and state.is_over
    over = event(state, "round.game_over")
    assert over.clause == "END-1" and over.interpretation == "INT-4"
    standings = event(state, "round.standings")
    assert standings.params["winner"] == "red"
    assert legal_actions(state) == []
    illegal(state, RingStartBell(R), "END-1", "game-over")
    illegal(state, Roll(B), "END-1", "game-over")


def test_end_1_nine_cards_go_on():
    rows = ["11:R 12 13:R 14", "15 16 22 23", "24 25 26 33"]
    state = setting_time(rows, turn=R, deck=())
    state = place(place(state, R, (0, 0), K5), R, (0, 2), K5)  # red wins 3, 9 left
    assert state.phase is Phase.AWAIT_START_BELL and state.round == 2
    assert state.board.shape == (3, 3) and state.board.treasure_count() == 9
    assert event(state, "round.continue").clause == "END-1"


def test_end_1_the_deck_must_be_empty():
    rows = ["11:R 12 13 14:R", "15 16 22 23", "24 25 26 33"]
    state = setting_time(rows, turn=R, deck=cards("66"))
    state = place(place(state, R, (0, 0), K5), R, (0, 3), K5)  # 8 left + 1 from the deck
    assert state.phase is Phase.AWAIT_START_BELL
    assert state.board.treasure_count() == 9 and state.deck == ()


def test_end_1_a_full_board_with_an_empty_deck_goes_on():
    rows = ["11:R 12 13 14", "15 16 22 23", "24 25 26 33", "34 35 36 44"]
    state = setting_time(rows, turn=R, deck=cards("66"))
    state = place(state, R, (0, 0), K5)
    assert state.deck == () and state.board.treasure_count() == 16
    assert state.phase is Phase.AWAIT_START_BELL


def test_end_2_most_cards_wins():
    state = game((R, B, G), start=G)
    state = set_player(state, R, won=cards("12", "13", "14"))
    state = set_player(state, B, won=cards("11", "22", "33", "44"))  # four doubles, one card more
    state = set_player(state, G, won=cards("15", "16", "23", "24", "25"))
    standings, winner = state.standings()
    assert winner == G
    assert [(s.player, s.cards, s.doubles) for s in standings] == [(G, 5, 0), (B, 4, 4),
                                                                   (R, 3, 0)]


def test_end_3_doubles_break_a_tie():
    state = game((R, B, G), start=R)
    state = set_player(state, R, won=cards("11", "12", "13"))
    state = set_player(state, B, won=cards("22", "33", "14"))
    standings, winner = state.standings()
    assert winner == B
    assert [(s.player, s.cards, s.doubles) for s in standings][:2] == [(B, 3, 2), (R, 3, 1)]


def test_end_3_still_tied_the_players_settle_it():
    state = game((R, B, G), start=G)
    state = set_player(state, R, won=cards("11", "12"))
    state = set_player(state, B, won=cards("22", "14"))
    standings, winner = state.standings()
    assert winner is None
    assert [s.player for s in standings] == [R, B, G]  # level players in seat order


def test_fast_bell_answer_agrees_with_the_explained_one():
    """bell.may_ring (masks, used for legal actions) == bell_status(...).may_ring everywhere."""
    import random

    from captain.rules.model import Board, Dice, Position
    from captain.rules.resolve.bell import bell_status, may_ring
    from captain.rules.situation import BellRule, Mode, RuleSet, Seating

    rng = random.Random(5)
    for trial in range(400):
        players = tuple(Colour)[: rng.choice((2, 3, 4))]
        seating = Seating(players, players[0])
        rules = rng.choice([RuleSet(), RuleSet(mode=Mode.STRATEGY), RuleSet(bell=BellRule.ALL_DICE),
                            RuleSet(bell=BellRule.FIRST_EDITION)])
        board = Board.parse([" ".join(rng.choice(["11", "12", "--"]) for _ in range(4)) for _ in range(4)])
        for _ in range(rng.randrange(0, 8)):
            pos = Position(rng.randrange(4), rng.randrange(4))
            if board.at(pos).treasure is not None:
                board = board.with_occupant(pos, Dice(rng.choice(players)))
        assert may_ring(board, seating, rules) == bell_status(board, seating, rules).may_ring, trial


# --- dealing on a given grid (worked examples, the tutorial) -------------------------------------

def test_a_game_can_be_dealt_on_a_given_grid():
    layout = Board.parse(["12 35 44", "15 33 24", "11 46 23"])
    state = new_game((R, B), seed=5, start_player=R, layout=layout)
    assert state.board == layout
    assert state.treasure_total() == 42 and len(state.box) == 10 and len(state.deck) == 23
    again = new_game((R, B), seed=5, start_player=R, layout=layout)
    assert again == state


@pytest.mark.parametrize("rows", [["12 35", "15 33"], ["12 35 44", "15 33:R 24", "11 46 23"],
                                  ["11 11 11", "15 33 24", "12 46 23"]])
def test_a_given_grid_must_be_the_full_grid_of_cards_the_game_has(rows):
    with pytest.raises(InvalidSituation):
        new_game((R, B), seed=1, layout=Board.parse(rows))
