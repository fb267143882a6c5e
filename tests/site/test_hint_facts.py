"""Every hint names at least one fact, and every fact it names is true of its moment, the
engine judging (:mod:`captain.rules.captains.facts`, :mod:`tutorials.play.hints`).

Moments come from whole games the computer captains play with fixed seeds, in both modes,
with 2 to 4 players and with and without variants: every moment the learner (the first
seat) has a move to make, Dice Time of action mode included. Each fact is checked here
another way than :mod:`~captain.rules.captains.facts` works it out: by applying the move
and asking the engine (``apply``, ``legal_actions``, ``bell_status``, ``resolve_battle``,
``collect_treasure``) about the result.
"""

from __future__ import annotations

import random
from dataclasses import replace
from functools import cache

import pytest
from django.utils import translation

from captain.rules import AttackKind, Board, Colour, Mode, Position, RuleSet, collect_treasure, resolve_battle
from captain.rules.captains import facts as facts_module
from captain.rules.captains.facts import DEALS, Fact, move_facts
from captain.rules.captains.practice import start_practice
from captain.rules.game import (
    Claim,
    Phase,
    PlaceAttackCard,
    RingBell,
    RingStartBell,
    Roll,
    apply,
    legal_actions,
    pairs_shown,
)
from captain.rules.game.view import determinize
from captain.rules.model import cell_of
from captain.rules.resolve.bell import bell_lines, bell_status, may_ring
from play_helpers import captain_game
from tutorials.play import hints
from tutorials.play.hints import hint_pair, stated, strong_move

R, B, G, W = Colour.RED, Colour.BLUE, Colour.GREEN, Colour.WHITE

#: (rule flags, seats, seed): both modes, 2-4 players, with and without variants
GAMES = [
    ("", (R, B), 1), ("", (R, B, G), 2), ("", (R, B, G, W), 3), ("v1", (G, W, R), 4),
    ("v2", (R, B, G, W), 5), ("v3", (B, R, G), 6), ("v4", (R, B, G, W), 7), ("i", (W, R), 8),
    ("s", (R, B), 11), ("s", (R, B, G), 12), ("s", (R, B, G, W), 13), ("sp", (B, G, R), 14),
    ("v1v2s", (R, B, G, W), 15), ("si", (G, R), 16), ("v2sp", (R, W, B, G), 17), ("v1s", (W, B), 18),
]
#: the fact kinds the hints may state (the module docstring of captain.rules.captains.facts)
KINDS = {"claim.wins", "place.wins", "sandwich", "line.fills", "line.opens", "start.player",
         "speed.first", "immune", "dice.none-match", "dice.keep", "hand.count", "hand.recycle",
         "lookahead.survives", "lookahead.best"}
#: at most this many moments of each game (a strategy game offers hundreds)
MOMENTS_PER_GAME = 60


def _rules(flags: str) -> RuleSet:
    return RuleSet.from_flags([f for f in ("v1", "v2", "v3", "v4", "s", "p", "i") if f in flags])


def _game_id(game) -> str:
    flags, seats, seed = game
    return f"{flags or 'plain'}-{len(seats)}p-{seed}"


@cache
def moments(game) -> tuple:
    """``(state, learner)`` at every moment the first seat has a move, a sample spread over
    the whole game."""
    flags, seats, seed = game
    found = [(state, seats[0]) for state, _action, _after in captain_game(seats, _rules(flags), seed)
             if legal_actions(state, seats[0])]
    return tuple(found[::max(1, len(found) // MOMENTS_PER_GAME)])


# --- each fact, judged by the engine ---------------------------------------------------------------
def _pos(p) -> Position:
    return Position(*p)


def _owner(board: Board, pos: Position):
    occupant = board.at(pos).occupant
    return occupant.colour if occupant is not None else None


def _survive_all(board: Board) -> Board:
    """Every dice-holding card and attack card as a [5] of its owner: nothing is removed."""
    out = board
    for p, cell in board:
        if cell.occupant is not None and cell.treasure is not None:
            out = out.with_cell(p, cell_of(cell.treasure, cell.occupant.colour, AttackKind(5)))
    return out


def _on(board: Board, pos: Position, colour: Colour, kind: AttackKind | None = None) -> Board:
    return board.with_cell(pos, cell_of(board.at(pos).treasure, colour, kind))


def _reach(board: Board, pos: Position, kind: AttackKind) -> set[Position]:
    g = board.geometry
    return set(g.to_positions(g.reach[int(kind)][g.index[pos]]))


def _claim_wins(p, state, me: Colour, move, after, fact: Fact) -> None:
    board = state.board
    assert isinstance(move, Claim) and move.position == _pos(p["position"])
    assert board.at(move.position).treasure.faces == (p["low"], p["high"])
    assert after.last_round is state.last_round, "a claim never plays the round"
    assert _owner(after.board, move.position) is me and after.board.at(move.position).dice is not None


def _place_wins(p, state, me: Colour, move, after, fact: Fact) -> None:
    board = state.board
    assert isinstance(move, PlaceAttackCard) and move.position == _pos(p["position"])
    assert board.at(move.position).dice is not None and _owner(board, move.position) is me
    assert AttackKind(p["kind"]) in (state.player(me).hand or state.player(me).discard)


def _sandwich(p, state, me: Colour, move, after, fact: Fact) -> None:
    board = state.board
    pos, partner = _pos(p["position"]), _pos(p["partner"])
    between = [_pos(b) for b in p["between"]]
    assert pos == move.position and _owner(board, partner) is me
    line = next(ln for ln in board.geometry.lines if pos in ln and partner in ln)
    i, j = sorted((line.index(pos), line.index(partner)))
    assert set(between) <= set(line[i + 1:j])
    assert all(_owner(board, b) in (None, me) for b in line[i + 1:j])
    moved = _on(board, pos, me, getattr(move, "kind", None))
    won = set(collect_treasure(_survive_all(moved), state.seating, state.rules).winnings[me])
    before = set(collect_treasure(_survive_all(board.with_occupant(pos, None)), state.seating,
                                  state.rules).winnings[me])
    assert set(between) <= won - before, (between, won, before)


def _line_fills(p, state, me: Colour, move, after, fact: Fact) -> None:
    board = state.board
    line = [_pos(x) for x in p["line"]]
    if p["mode"] == "strategy":
        assert state.rules.mode is Mode.STRATEGY and isinstance(move, Claim)
        assert after.phase is Phase.SETTING and after.start_player is me, "STRAT-3 ends Dice Time"
        assert tuple(line) in bell_lines(after.board)
        assert all(after.board.at(x).occupant is not None for x in line)
    else:
        ringing = isinstance(move, RingBell)
        status = bell_status(board if ringing else after.board, state.seating, state.rules)
        assert status.may_ring and status.clause == fact.clause
        assert ringing or not may_ring(board, state.seating, state.rules), "the claim made it so"
        assert list(status.line or ()) == line
    if line:
        g = board.geometry
        full = dict(zip(g.lines, g.full_lines, strict=True))
        assert p["short"] == (not full[tuple(line)]), "INT-3: a short diagonal is labelled"


def _line_opens(p, state, me: Colour, move, after, fact: Fact) -> None:
    board = state.board
    other, pos = Colour(p["colour"]), _pos(p["position"])
    assert other is not me and after.phase is Phase.DICE
    assert (p["low"], p["high"]) in pairs_shown(after.player(other).dice)
    theirs = apply(replace(after, turn=other, rerolled=False), Claim(other, pos))
    assert theirs.phase is Phase.SETTING and theirs.start_player is other, "their claim ends it"
    assert all(theirs.board.at(_pos(x)).occupant is not None for x in p["line"])
    if board.at(pos).occupant is None and (p["low"], p["high"]) in pairs_shown(state.player(other).dice):
        earlier = apply(replace(state, turn=other, rerolled=False), Claim(other, pos))
        assert earlier.phase is Phase.DICE, "open before the move: the move did not open it"


def _start_player(p, state, me: Colour, move, after, fact: Fact) -> None:
    assert Colour(p["colour"]) is me
    if isinstance(move, RingStartBell):
        assert state.start_player is me and p["stays"]
    else:
        assert after.start_player is me and p["stays"] == (state.start_player is me)


def _speed_first(p, state, me: Colour, move, after, fact: Fact) -> None:
    board = state.board
    pos, kind = _pos(p["position"]), AttackKind(p["kind"])
    assert move == PlaceAttackCard(me, pos, kind)
    others = {x for x in _reach(board, pos, kind) if _owner(board, x) not in (None, me)}
    assert {_pos(t) for t in p["targets"]} == others and others
    order = sorted(AttackKind, key=state.rules.speed_rank)
    assert [AttackKind(k) for k in p["before"]] == [
        k for k in order if order.index(k) > order.index(kind) and k not in (0, 5)]
    # the engine agrees: any card of those kinds on a target is removed before it acts
    for k in p["before"]:
        target = _pos(p["targets"][0])
        trial = _on(_on(_survive_all(board), pos, me, kind), target, _owner(board, target), AttackKind(k))
        battle = resolve_battle(trial, state.seating, state.rules)
        assert battle.board.at(target).card is None and battle.board.at(pos).card is not None


def _immune(p, state, me: Colour, move, after, fact: Fact) -> None:
    board = state.board
    pos = _pos(p["position"])
    assert move == PlaceAttackCard(me, pos, AttackKind(0))
    for k in (1, 2, 3, 4):  # every other card an attacker of that kind: the [0] stays
        trial = _on(board, pos, me, AttackKind(0))
        for x, cell in board:
            if cell.occupant is not None and _owner(board, x) is not me and cell.treasure is not None:
                trial = _on(trial, x, _owner(board, x), AttackKind(k))
        assert resolve_battle(trial, state.seating, state.rules).board.at(pos).card is not None


def _dice_none_match(p, state, me: Colour, move, after, fact: Fact) -> None:
    board = state.board
    dice = tuple(p["dice"])
    assert dice == state.player(me).dice or dice == after.player(me).dice
    assert not any(isinstance(a, Claim) for a in legal_actions(replace(state, rerolled=False), me)) \
        or dice != state.player(me).dice
    assert not any(faces in pairs_shown(dice) for faces in board.free_faces().values())


def _dice_keep(p, state, me: Colour, move, after, fact: Fact) -> None:
    board = state.board
    assert isinstance(move, Roll)
    kept = list(state.player(me).dice)
    for d in move.dice or kept[:]:
        kept.remove(d)
    free = board.free_faces()
    assert free[_pos(p["position"])] == (p["low"], p["high"]) and p["kept"] in kept
    assert p["kept"] in (p["low"], p["high"])


def _hand_count(p, state, me: Colour, move, after, fact: Fact) -> None:
    assert len(after.dice_cards(me)) == p["cards"] > p["hand"] == len(after.player(me).hand)


def _hand_recycle(p, state, me: Colour, move, after, fact: Fact) -> None:
    assert state.phase is Phase.SETTING and state.turn is me and not state.player(me).hand
    assert len(state.player(me).discard) == p["cards"] > 0


def _lookahead_survives(p, state, me: Colour, move, after, fact: Fact) -> None:
    board = state.board
    assert p["deals"] == DEALS and 0 <= p["survived"] <= DEALS
    pos = _pos(p["position"])
    assert pos == move.position
    # nothing of the others can reach the position from anywhere: it survived every deal
    g = board.geometry
    threat = 0
    for x, cell in board:
        if cell.occupant is not None and _owner(board, x) is not me:
            for k in (1, 2, 3, 4):
                threat |= g.reach[k][g.index[x]]
    if not threat >> g.index[pos] & 1:
        assert p["survived"] == DEALS


def _lookahead_best(p, state, me: Colour, move, after, fact: Fact) -> None:
    assert p["deals"] == DEALS and p["position"] == move.position
    kind = type(move)
    others = [a for a in legal_actions(state, me) if type(a) is kind and a != move]
    values = facts_module.compare(state, me, [move, *others], SEEDS[move], DEALS)
    assert round(values[move], 2) == p["value"]
    if others:
        runner = max(others, key=lambda m: values[m])
        assert runner.position == p["runner"] and round(values[runner], 2) == p["runner_value"]
        assert getattr(runner, "kind", None) == p["runner_kind"]
    else:
        assert p["runner"] is None
    # each deal's result is treasure cards won less the others' average: within the grid's count
    assert abs(p["value"]) <= state.board.treasure_count()


#: the look-ahead's seed of each move checked (the check plays the same deals again)
SEEDS: dict = {}


#: each kind of fact → its check
CHECKS = {
    "claim.wins": _claim_wins,
    "place.wins": _place_wins,
    "sandwich": _sandwich,
    "line.fills": _line_fills,
    "line.opens": _line_opens,
    "start.player": _start_player,
    "speed.first": _speed_first,
    "immune": _immune,
    "dice.none-match": _dice_none_match,
    "dice.keep": _dice_keep,
    "hand.count": _hand_count,
    "hand.recycle": _hand_recycle,
    "lookahead.survives": _lookahead_survives,
    "lookahead.best": _lookahead_best,
}


def check_fact(fact: Fact, state, me: Colour, move) -> None:
    """Fails unless ``fact`` holds for ``me``'s ``move`` in ``state``."""
    assert fact.code in KINDS, fact.code
    CHECKS[fact.code](fact.params, state, me, move, apply(state, move), fact)


# --- the property --------------------------------------------------------------------------------
def _hint_at(state, me: Colour, n: int):
    practice = start_practice(state.seating.players, learner=me, seed=1, captain_seed=1,
                              rules=state.rules)
    practice = replace(practice, state=state)
    move = strong_move(practice, f"game{n}")
    SEEDS[move] = f"lookahead:game{n}:{len(practice.log)}"
    facts = move_facts(state, me, move, lookahead=SEEDS[move])
    with translation.override("en"):
        return move, facts, hint_pair(state, move, facts)


@pytest.mark.parametrize("game", GAMES, ids=_game_id)
def test_every_hint_states_facts_the_engine_confirms(game):
    checked = 0
    for n, (state, me) in enumerate(moments(game)):
        move, facts, (one, two) = _hint_at(state, me, n)
        assert two.facts, f"no fact for {move} at {state!r}"
        assert set(one.cells) <= set(two.cells)
        assert getattr(move, "position", None) in (None, *two.cells[:1]), "the move's own cell first"
        for fact in facts:  # every fact worked out, stated or not
            try:
                check_fact(fact, state, me, move)
            except AssertionError as error:
                raise AssertionError(f"{fact} for {move} at {state!r}: {error}") from None
        assert set(two.facts) <= set(facts)
        with translation.override("en"):
            said = stated(two.facts, state)
            assert len(said) == len(two.facts) and all(sentence in two.text for sentence in said)
        checked += 1
    assert checked >= 20, checked


def test_the_sample_holds_at_least_500_moments_of_each_mode():
    counts = {Mode.STRATEGY: 0, Mode.ACTION: 0}
    for game in GAMES:
        for state, _me in moments(game):
            counts[state.rules.mode] += 1
    assert counts[Mode.STRATEGY] >= 500 and counts[Mode.ACTION] >= 500, counts


def test_facts_depend_only_on_what_the_player_sees():
    """The facts of a move are the same in every state the player cannot tell apart."""
    checked = 0
    for game in GAMES[::3]:
        for n, (state, me) in enumerate(moments(game)[::5]):
            move = next(iter(legal_actions(state, me)))
            real = move_facts(state, me, move, lookahead=f"seed{n}")
            for k in range(2):
                other = determinize(state, me, random.Random(k))
                assert move_facts(other, me, move, lookahead=f"seed{n}") == real
                checked += 1
    assert checked >= 20


def test_a_game_played_by_following_the_hints_never_meets_a_hint_without_a_fact():
    for mode in ("s", ""):
        practice = start_practice((R, B, G), learner=R, seed=21, captain_seed=22, rules=_rules(mode))
        from captain.rules.captains.practice import learner_acts, learner_continues
        now, asked = 0.0, 0
        for n in range(2000):
            if practice.state.is_over:
                break
            both = hints.hints_for(practice, f"follow{n}")
            if both is None:
                now += 1.0
                practice = learner_continues(practice, now)
                continue
            asked += 1
            assert both[1].facts and both[1].move is not None, practice.state
            practice = learner_acts(practice, both[1].move, now)
        assert practice.state.is_over and asked >= 30, (mode, asked)


def test_a_claim_that_lets_another_player_fill_a_line_says_so():
    """The trap of the learner review: a claim that leaves one card of a column to a
    player whose dice already show its faces."""
    facts_found = [f for game in GAMES if "s" in game[0] for state, me in moments(game)
                   for move in [a for a in legal_actions(state, me) if isinstance(a, Claim)][:3]
                   for f in move_facts(state, me, move) if f.code == "line.opens"]
    assert facts_found, "no claim in the sample opens a line: the check never ran"


def test_the_module_docstring_lists_every_kind():
    for kind in KINDS:
        assert f"``{kind}``" in facts_module.__doc__, kind
