"""Every statement a hint or an explanation makes is true of its moment, with the engine as
the judge.

Positions come from whole games the computer captains play with fixed seeds (both modes,
2-4 players, with and without variants): every step of every game's log, every round's board as the analyzer
explains it, every Dice Time board the analyzer could be asked about, plus the shared
cases (tests/cases) and random situations.

A hint states facts the engine worked out and carries them; they are checked in
tests/site/test_hint_facts.py (a few fixed positions stay here). An explanation's facts
come from its event's fields; the English sentence must carry them too. Every sentence
checked must be translated into Japanese and German.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from dataclasses import replace
from functools import cache

import pytest
from django.utils import translation
from hypothesis import HealthCheck, given, settings

from captain.rules import (
    AttackCard,
    AttackKind,
    Board,
    Collection,
    Colour,
    Event,
    Mode,
    Position,
    RuleSet,
    Seating,
    Situation,
    collect_treasure,
    may_ring,
    notation,
    situation_from_json,
)
from captain.rules.captains.facts import Fact, move_facts
from captain.rules.game import Claim, Phase, PlaceAttackCard, RingStartBell, apply, new_game
from captain.rules.model import cell_of
from captain.rules.resolve.bell import bell_lines, bell_status
from play_helpers import captain_game
from profiles import examples
from test_explanations_property import situations
from test_hint_facts import check_fact
from tests.engine.test_game import setting_time
from tutorials.play.hints import hint_pair
from tutorials.walkthrough import Walkthrough
from tutorials.wording.events import explain
from tutorials.wording.glossary import COLUMN_LETTERS
from wording_helpers import ROOT, english_forms, message_pattern, source_messages, translated_everywhere

R, B, G, W = Colour.RED, Colour.BLUE, Colour.GREEN, Colour.WHITE

#: (rule flags, seats, seed): both modes, 2-4 players, with and without variants
GAMES = [
    ("", (R, B), 1), ("", (R, B, G), 2), ("", (R, B, G, W), 3), ("v1", (G, W, R), 4),
    ("v2", (R, B, G, W), 5), ("v3", (B, R, G), 6), ("v4", (R, B, G, W), 7), ("i", (W, R), 8),
    ("v1v2", (R, G), 9),
    ("s", (R, B), 11), ("s", (R, B, G), 12), ("s", (R, B, G, W), 13), ("sp", (B, G, R), 14),
    ("v1v2s", (R, B, G, W), 15), ("si", (G, R), 16), ("v2sp", (R, W, B, G), 17), ("v1s", (W, B), 18),
]


def _rules(flags: str) -> RuleSet:
    return RuleSet.from_flags([f for f in ("v1", "v2", "v3", "v4", "s", "p", "i") if f in flags])


def _game_id(game) -> str:
    flags, seats, seed = game
    return f"{flags or 'plain'}-{len(seats)}p-{seed}"


@cache
def _played(game) -> tuple:
    flags, seats, seed = game
    return tuple(captain_game(seats, _rules(flags), seed))


# --- reading facts back from the English text ----------------------------------------------------
def _cell(label: str) -> Position:
    return Position(int(label[1:]) - 1, COLUMN_LETTERS.index(label[0]))


def _items(text: str) -> list[str]:
    return [t for part in text.split(", ") for t in part.split(" and ")]


def _cells(text: str) -> list[Position]:
    return [_cell(t) for t in _items(text)]


def _numbers(text: str) -> list[int]:
    return [int(t) for t in _items(text)]


def _card_kind(text: str) -> AttackKind:
    assert text.startswith("[") and text[2] == "]", text
    return AttackKind(int(text[1]))


def _match(text: str, source: str) -> tuple[str, dict[str, str]]:
    """The source message of ``source`` that gave ``text`` (its singular or plural) and
    the values of its placeholders; fails when none or several match."""
    found = []
    for entry in source_messages(source):
        sources = filter(None, (entry.msgid, entry.plural))
        for message, shown in zip(sources, english_forms(entry), strict=True):
            m = message_pattern(shown).match(text)
            if m:
                found.append((message, m.groupdict()))
    assert len({m for m, _g in found}) == 1, (text, [m for m, _g in found])
    return found[0]


def _between(board: Board, a: Position, b: Position) -> list[Position] | None:
    """The positions strictly between ``a`` and ``b`` on one of the grid's lines, or ``None``."""
    for line in board.geometry.lines:
        if a in line and b in line:
            i, j = sorted((line.index(a), line.index(b)))
            return list(line[i + 1:j])
    return None


#: at most about this many moments of each game: Dice Time boards for the analyzer
MOMENTS_PER_GAME = 55


# --- the explanations ----------------------------------------------------------------------------
EVENTS = "tutorials/wording/events.py"
_CARD = r"(red|blue|green|white) \[(\d)\] [^()]+? \(([A-Z]\d+)\)"


def _colour(name: str) -> Colour:
    return Colour(name.lower())


def _card_list(text: str) -> list[tuple[Colour, AttackKind, Position]]:
    found = re.findall(_CARD, text, re.I)
    assert found, text
    return [(Colour(c.lower()), AttackKind(int(v)), _cell(p)) for c, v, p in found]


def _sentences(text: str) -> list[tuple[str, dict[str, str]]]:
    """Each sentence of an explanation with its message and placeholders: an explanation
    may be two or three messages one after another."""
    out, rest = [], text
    while rest:
        best = None
        for message, shown, pattern in _event_messages():
            m = pattern.match(rest)
            # the longest sentence that fits; of two, the one with more words of its own
            if m and (best is None or (m.end(), len(shown)) > (best[2].end(), len(best[1]))):
                best = (message, shown, m)
        assert best is not None, (text, rest)
        out.append((best[0], best[2].groupdict()))
        rest = rest[best[2].end():].lstrip()
    return out


@cache
def _event_messages() -> tuple[tuple[str, str, re.Pattern[str]], ...]:
    """(source message, English wording, its pattern up to the next sentence) of every
    sentence events.py words: not the phrases (a card, a list) sentences are built from."""
    out = []
    for entry in source_messages(EVENTS):
        sources = filter(None, (entry.msgid, entry.plural))
        for message, shown in zip(sources, english_forms(entry), strict=True):
            if len(re.findall(r"[A-Za-z]{2,}", re.sub(r"%\(\w+\)s", "", shown))) >= 2:
                ahead = message_pattern(shown).pattern.removesuffix(r"\Z") + r"(?= |\Z)"
                out.append((message, shown, re.compile(ahead, re.S)))
    return tuple(out)


class RoundJudge:
    """What the engine says one round's Battle and Treasure Time did, step by step."""

    def __init__(self, board: Board, seating, rules: RuleSet, battle, treasure) -> None:
        self.board, self.seating, self.rules = board, seating, rules
        self.battle, self.treasure = battle, treasure
        cards = board.cards()
        self.alive_before: dict[Position, set[Position]] = {}
        alive = set(cards)
        for turn in battle.turns:
            self.alive_before[turn.position] = set(alive)
            alive -= set(turn.removed)
        assert alive == set(battle.board.cards()), "the steps' removals are not Battle Time's"
        self.survivors = battle.board.cards()

    def reach(self, pos: Position, kind: AttackKind) -> set[Position]:
        geo = self.board.geometry
        return set(geo.to_positions(geo.reach[int(kind)][geo.index[pos]]))

    def targets(self, pos: Position) -> tuple[set[Position], set[Position]]:
        """What the card at ``pos`` may remove when its turn comes, and the [0]s in range."""
        card = self.board.at(pos).card
        cards = self.board.cards()
        others = {p for p in self.alive_before[pos] & self.reach(pos, card.kind)
                  if cards[p].colour is not card.colour}
        zeros = {p for p in others if cards[p].kind == AttackKind(0)}
        return others - zeros, zeros


def _check_battle(event, judge: RoundJudge, sentences) -> None:
    p = event.params
    cards = judge.board.cards()
    pos = Position(*p["position"]) if "position" in p else None
    for message, g in sentences:
        if "acts and removes" in message:
            named = _card_list(g["removed"])
            hit, _zeros = judge.targets(pos)
            assert {q for _c, _k, q in named} == hit, (g, hit)
            for colour, kind, q in named:
                assert cards[q] == AttackCard(colour, kind) and kind != AttackKind(0), (g, cards[q])
        elif "no other player's card is in its range" in message:
            assert judge.targets(pos) == (set(), set()), judge.targets(pos)
        elif "are Hostage Gambits" in message or "is in range but can never be removed" in message:
            assert set(_cells(g["pos"])) == judge.targets(pos)[1], (g, judge.targets(pos))
        elif "was removed by the card at" in message:
            by = _cell(g["by"])
            assert pos not in judge.alive_before[pos] and pos in judge.alive_before.get(by, ()), g
            assert pos in judge.targets(by)[0], g
        elif "attacks nothing" in message or "it has no attack" in message:
            assert cards[pos].kind in (AttackKind(0), AttackKind(5)), cards[pos]
        elif "Still on the board" in message:
            named = _card_list(g["cards"])
            assert {q: AttackCard(c, k) for c, k, q in named} == judge.survivors, (g, judge.survivors)
        elif "No attack card survived" in message:
            assert not judge.survivors
        elif "which has the same speed" in message:
            _check_tie(pos, judge, g, message)


def _check_tie(pos: Position, judge: RoundJudge, g, message) -> None:
    card = judge.board.cards()[pos]
    order = [t.position for t in judge.battle.turns]
    seats = judge.seating.order()
    colour = _colour(g["colour"])
    assert colour is card.colour, g
    for other_colour, kind, q in _card_list(g["cards"]):
        assert kind == card.kind and other_colour is not colour and order.index(q) > order.index(pos), g
        assert seats.index(colour) < seats.index(other_colour), (g, seats)
    if "is the start player" in message:
        assert judge.seating.start_player is colour, g


def _counts(text: str) -> dict[Colour, int]:
    return {Colour(c): int(n) for c, n in (item.rsplit(" ", 1) for item in _items(text))}


def _check_treasure(event, judge: RoundJudge, sentences) -> None:
    won = judge.treasure.winnings
    order = list(judge.treasure.order)
    for message, g in sentences:
        colour = _colour(g["colour"]) if "colour" in g else None
        if "wins the treasure card at" in message:
            at = _cell(g["at"])
            assert at in won[colour], (g, won)
            if "card" in g:
                (c, k, _q), = _card_list(g["card"] + f" ({g['at']})")
                assert judge.survivors.get(at) == AttackCard(c, k) and c is colour, g
        elif "so wins nothing this round" in message:
            assert not won[colour] and all(c.colour is not colour for c in judge.survivors.values()), g
        elif "wins them too" in message:
            a, b = _cell(g["a"]), _cell(g["b"])
            assert judge.survivors[a].colour is colour and judge.survivors[b].colour is colour, g
            assert set(_cells(g["won"])) <= set(_between(judge.board, a, b)) & set(won[colour]), g
        elif "do not sandwich anything" in message:
            a, b = _cell(g["a"]), _cell(g["b"])
            for q in _cells(g["at"]):
                assert q in _between(judge.board, a, b) and judge.survivors[q].colour is not colour, g
        elif "collects before them and has already taken it" in message:
            winner = _colour(g["winner"])
            assert order.index(winner) < order.index(colour), (g, order)
            assert set(_cells(g["at"])) <= set(won[winner]), (g, won)
        elif "already collected by an earlier player" in message:
            assert judge.treasure.reading is Collection.SEQUENTIAL
            for q in _cells(g["pos"]):
                assert order.index(judge.survivors[q].colour) < order.index(Colour(event.params["colour"]))
        elif "the cards won would be" in message:
            _check_readings(judge, g, message)


def _check_readings(judge: RoundJudge, g, message: str) -> None:
    """"If …, the cards won would be: red 2, blue 1": the engine's winnings under that
    other reading."""
    if "judged at once instead" in message:
        _check_other_reading(judge, g, Collection.SIMULTANEOUS)
    elif "collected one after another instead" in message:
        _check_other_reading(judge, g, Collection.SEQUENTIAL)
    else:
        assert "If it did" in message, message
        assert _counts(g["other"]) == {c: len(ps) for c, ps in judge.treasure.gap_reading.items()}, g


def _check_other_reading(judge: RoundJudge, g, reading: Collection) -> None:
    assert judge.treasure.reading is not reading
    other = collect_treasure(judge.battle.board, judge.seating, replace(judge.rules, collection=reading))
    assert _counts(g["other"]) == {c: len(ps) for c, ps in other.winnings.items()}, (g, other.winnings)
    assert {c: len(ps) for c, ps in other.winnings.items()} != {
        c: len(ps) for c, ps in judge.treasure.winnings.items()}, "the reading changes nothing"


def check_walkthrough(situation: Situation) -> int:
    """Every explanation of every step of the analyzer's answer for ``situation`` is true of
    the board before and after its step; returns how many were checked."""
    walk = Walkthrough(situation)
    sol = walk.solution
    judge = None
    if sol.battle is not None:
        judge = RoundJudge(situation.board, situation.seating, situation.rules, sol.battle, sol.treasure)
    checked = 0
    for k, step in enumerate(walk.steps):
        for event in walk.events_of(step):
            check_event(event, judge, situation)
            checked += 1
        for row in walk.winnings(k):
            assert [_cell(c) for c in row["cards"]] == list(sol.treasure.winnings[row["colour"]]), row
    return checked


def _check_bell(event, situation: Situation, sentences) -> None:
    board, seating, rules = situation.board, situation.seating, situation.rules
    rings = may_ring(board, seating, rules)
    for message, g in sentences:
        if message.startswith(("The bell may ring", "Dice Time is over")):
            assert rings, g
        if message.startswith(("Not yet", "Dice Time goes on")):
            assert not rings, g
        if "holds dice" in message and "line" in g:
            line = _cells(g["line"])
            assert tuple(line) in set(bell_lines(board)), g
            assert all(board.at(p).dice is not None for p in line if board.at(p).treasure), g
        if "has dice on %(held)s" in message:
            line, held = _cells(g["line"]), set(_cells(g["held"]))
            assert tuple(line) in set(bell_lines(board)), g
            assert held == {p for p in line if board.at(p).dice is not None}, g
        if "has placed all" in message or "nobody has placed all" in message:
            _check_all_dice(board, g)
        if "cards hold dice" in message:
            assert int(g["count"]) == len(_cells(g["held"])) == len(board.dice()), g
        if "needs dice on" in message and "line" in g:
            _check_needed(board, seating, rules, _cells(g["line"]), int(g["needed"]))
        if "no card holds dice so far" in message:
            assert not board.dice()
        if "has dice on any of its cards so far" in message:
            assert not any(board.at(q).dice for line in bell_lines(board) for q in line), g
        if "no line can" in message:
            assert not bell_lines(board)


def _check_all_dice(board: Board, g) -> None:
    """VAR-3: "red has placed all 6 dice", or "nobody has …; red needs dice on 1 more card"."""
    pairs = Counter(d.colour for d in board.dice().values())
    cards = int(g["dice"]) // 2
    if "needed" in g:
        assert max(pairs.values(), default=0) == pairs[_colour(g["colour"])] == cards - int(g["needed"]), g
    else:
        assert pairs[_colour(g["colour"])] == cards, (g, pairs)


def _check_needed(board: Board, seating, rules: RuleSet, line: list[Position], needed: int) -> None:
    """"the closest line L needs dice on N more cards": dice on N more of L's cards let
    Dice Time end, and no line gets there with N - 1."""
    assert tuple(line) in set(bell_lines(board)), line

    def with_dice(cells: list[Position], n: int) -> Board:
        free = [p for p in cells if board.at(p).treasure is not None and board.at(p).occupant is None]
        out = board
        for p in free[:n]:
            out = out.with_cell(p, cell_of(out.at(p).treasure, seating.start_player))
        return out
    assert may_ring(with_dice(line, needed), seating, rules), (line, needed)
    for other in bell_lines(board):
        assert not may_ring(with_dice(list(other), needed - 1), seating, rules), (other, needed)


def check_event(event, judge: RoundJudge | None, situation: Situation | None) -> None:
    """Fails unless the explanation of ``event`` states only what is true."""
    with translation.override("en"):
        text = explain(event).text
    sentences = _sentences(text)
    for message, _g in sentences:
        assert not translated_everywhere(message), message
    try:
        if event.code.startswith("battle."):
            _check_battle(event, judge, sentences)
        elif event.code.startswith("treasure."):
            _check_treasure(event, judge, sentences)
        elif event.code.startswith("bell.") and situation is not None:
            _check_bell(event, situation, sentences)
    except AssertionError as error:
        raise AssertionError(f"{text!r}: {error}") from None


def _check_log_step(state, action, after) -> int:
    """The game log's explanations of one step, against the states before and after it."""
    checked = 0
    record = after.last_round if after.last_round is not state.last_round else None
    judge = RoundJudge(record.board, state.seating, state.rules, record.battle, record.treasure) \
        if record is not None else None
    if record is not None:
        _analyzer_agrees(state, after)
    for event in after.log:
        check_event(event, judge, _bell_moment(state, action) if event.code.startswith("bell.") else None)
        with translation.override("en"):
            sentences = _sentences(explain(event).text)
        for message, g in sentences:
            if "becomes the start player" in message:
                assert state.start_player is not after.start_player, (message, "no change")
            for phrase, check in LOG_CHECKS.items():
                if phrase in message:
                    check(g, state, action, after)
        checked += 1
    return checked


def round_situation(state, after) -> Situation:
    """The round ``state`` -> ``after`` resolved, as the analyzer is asked about it: the board
    Setting Time left, the seats, the rules, the deck and the cards won before."""
    return Situation(after.last_round.board, state.seating, state.rules, len(state.deck),
                     {p.colour: p.won for p in state.players if p.won})


def _analyzer_agrees(state, after) -> None:
    """The analyzer's answer for the round just played states what the game did: the
    cards each player won and the end of the round, word for word."""
    solution = Walkthrough(round_situation(state, after)).solution
    for colour, won in solution.won_treasures().items():
        assert after.player(colour).won == state.player(colour).won + tuple(won), colour
    with translation.override("en"):
        said = [explain(e).text for e in solution.round_end.events]
        done = [explain(e).text for e in after.log if e.code.startswith("round.")]
    assert said == done, (said, done)


def _bell_moment(state, action) -> Situation:
    """The board the bell was judged on: as it stood when the bell rang, or with the pair
    that filled a line (STRAT-3)."""
    board = state.board
    if isinstance(action, Claim):
        board = board.with_cell(action.position, cell_of(board.at(action.position).treasure, action.player))
    return Situation(board, state.seating, state.rules)


def _ended_by(g, state, action, after) -> None:
    assert after.start_player is _colour(g["start"]) is action.player, (g, after.start_player)


def _stays(g, state, action, after) -> None:
    assert after.start_player is _colour(g["start"]) is state.start_player, g


def _placed_last_starts(g, state, action, after) -> None:
    assert after.start_player is action.player, (action, after.start_player)


def _recycled(g, state, action, after) -> None:
    colour = _colour(g["colour"])
    hand = list(state.player(colour).hand)
    if isinstance(action, PlaceAttackCard) and action.player is colour:
        hand.remove(action.kind)  # the last card went down on this very move
    assert not hand and len(state.player(colour).discard) == int(g["cards"]), (g, hand)
    assert len(after.player(colour).hand) == int(g["cards"]), g


def _now_holds(g, state, action, after) -> None:
    ps = after.player(_colour(g["colour"]))
    assert ps.dice == tuple(int(f) for f in g["faces"].split()), (g, ps.dice)
    if "rerolled" in g:
        assert sorted(int(f) for f in g["rerolled"].split()) == sorted(action.dice), (g, action)


def _put_dice(g, state, action, after) -> None:
    at = _cell(g["at"])
    assert action == Claim(_colour(g["colour"]), at), (g, action)
    assert state.board.at(at).treasure.faces == (int(g["low"]), int(g["high"])), g


def _rolls(g, state, action, after) -> None:
    for item in _items(g["rolls"]):
        colour, *faces = item.split()
        assert after.player(_colour(colour)).dice == tuple(int(f) for f in faces), (item, after.players)


def _face_down(g, state, action, after) -> None:
    at, colour = _cell(g["at"]), _colour(g["colour"])
    assert state.board.at(at).dice is not None and state.board.at(at).dice.colour is colour, g
    board = after.last_round.board if after.last_round is not state.last_round else after.board
    assert board.at(at).card is not None and board.at(at).card.colour is colour, g


def _sits_out(g, state, action, after) -> None:
    colour = _colour(g["colour"])
    assert action.player is colour and not may_ring(state.board, state.seating, state.rules), g
    assert after.player(colour).false_bell or not any(p.false_bell for p in after.players), g


def _refilled(g, state, action, after) -> None:
    assert len(state.deck) - len(after.deck) == int(g["drawn"]), (g, len(state.deck), len(after.deck))


def _rearranged(g, state, action, after) -> None:
    rows = [r for r in after.board.rows if r]
    assert (len(rows), max(len(r) for r in rows)) == (int(g["rows"]), int(g["columns"])), (g, after.board)
    assert after.board.treasure_count() == int(g["cards"]), g


def _next_round(g, state, action, after) -> None:
    assert not after.is_over and after.board.treasure_count() == int(g["board_after"]), g


def _game_over(g, state, action, after) -> None:
    assert after.is_over and not after.deck and after.board.treasure_count() == int(g["board_after"]), g


def _most_cards(g, state, action, after) -> None:
    standings, winner = after.standings()
    assert winner is _colour(g["winner"]) and standings[0].cards > standings[1].cards, (g, standings)


def _more_doubles(g, state, action, after) -> None:
    standings, winner = after.standings()
    first, second = standings[0], standings[1]
    assert winner is _colour(g["winner"]) and first.cards == second.cards, (g, standings)
    assert first.doubles > second.doubles, (g, standings)


def _tied(g, state, action, after) -> None:
    standings, winner = after.standings()
    tied = [s.player for s in standings if (s.cards, s.doubles) == (standings[0].cards, standings[0].doubles)]
    assert winner is None and set(tied) == {_colour(c) for c in _items(g["players"])}, (g, standings)


#: a phrase of a game-log sentence → what checks it against the states before and after the step
LOG_CHECKS = {
    "rings the bell: Dice Time is over": _ended_by,
    "fills a line: Dice Time is over": _ended_by,
    "stays the start player": _stays,
    "Whoever placed the last of those dice": _placed_last_starts,
    "takes back": _recycled,
    "and now holds": _now_holds,
    "on the treasure card at": _put_dice,
    "everyone rolls:": _rolls,
    "puts an attack card face down": _face_down,
    "rings a false bell": _sits_out,
    "refills the empty positions": _refilled,
    "as close to a square as possible": _rearranged,
    "the next round begins": _next_round,
    "the game ends": _game_over,
    "wins with the most treasure cards": _most_cards,
    "level on cards, but with more doubles": _more_doubles,
    "Still level on cards and doubles": _tied,
}


def analyzer_positions(game):
    """The situations of ``game`` the analyzer could be asked about: each round's board as
    Setting Time left it, and Dice Time boards holding dice (a sample spread over the game)."""
    rounds, dice = [], []
    for state, _action, after in _played(game):
        if after.last_round is not state.last_round:
            rounds.append(round_situation(state, after))
        elif state.phase is Phase.DICE and state.board.dice():
            dice.append(state.situation())
    return rounds + dice[::max(1, len(dice) // MOMENTS_PER_GAME)]


@pytest.mark.parametrize("game", GAMES, ids=_game_id)
def test_every_explanation_of_a_game_is_true(game):
    """The game's log (what the practice page and its replay word), each round as the
    analyzer explains it, and the analyzer's answer at Dice Time moments."""
    checked = sum(_check_log_step(*step) for step in _played(game))
    positions = analyzer_positions(game)
    checked += sum(check_walkthrough(situation) for situation in positions)
    assert len(positions) >= 20 and checked >= 100, (len(positions), checked)


CASES = sorted((ROOT / "tests" / "cases").glob("*.json"))


@pytest.mark.parametrize("case", CASES, ids=lambda p: p.stem)
def test_every_explanation_of_a_shared_case_is_true(case):
    data = json.loads(case.read_text(encoding="utf-8"))
    situation = situation_from_json(data)
    assert check_walkthrough(situation)


@settings(max_examples=examples(100), suppress_health_check=[HealthCheck.too_slow])
@given(situations())
def test_every_explanation_of_a_random_situation_is_true(situation):
    """Any shape, holes, every rule set (the engine tests' strategy): the analyzer's answer."""
    check_walkthrough(situation)


def test_the_sample_holds_500_positions_in_each_mode():
    """Analyzer positions of the games: at least 500 in each mode (the hints have their own
    sample, tests/site/test_hint_facts.py)."""
    counted = Counter()
    for game in GAMES:
        counted[_rules(game[0]).mode] += len(analyzer_positions(game))
    assert min(counted[Mode.ACTION], counted[Mode.STRATEGY]) >= 500, counted


# --- fixed positions: the statements found false, and the test catching a false one --------------
def _strategy_turn(rows: list[str], dice: tuple[int, ...], start: Colour):
    """Strategy-mode Dice Time of red and blue on ``rows``, red on turn holding ``dice``."""
    state = new_game((R, B), rules=RuleSet(mode=Mode.STRATEGY), seed=1, start_player=start)
    state = apply(state, RingStartBell(start))
    players = tuple(replace(p, dice=dice if p.colour is R else p.dice) for p in state.players)
    return replace(state, board=Board.parse(rows), players=players, turn=R)


def _hint(state, move):
    facts = move_facts(state, move.player, move)
    with translation.override("en"):
        return facts, hint_pair(state, move, facts)[1]


@pytest.mark.parametrize("start, says", [(R, "You stay the start player"),
                                         (B, "You become the start player")])
def test_filling_a_line_tells_the_start_player_they_stay(start, says):
    """The learner review heard "you become the start player" said to the start player."""
    state = _strategy_turn(["11:R 12:R 13", "14 15 16", "22 23 24"], (1, 3), start)
    move = Claim(R, Position(0, 2))
    facts, claim = _hint(state, move)
    assert says in claim.text, claim.text
    for fact in facts:
        check_fact(fact, state, R, move)
    # and the game's log of that claim ("… is now the start player")
    assert _check_log_step(state, move, apply(state, move))


def test_a_hint_on_a_face_down_card_promises_no_removal():
    """Blue's face-down card on B1 is a [0]: the learner cannot know, and it will not go;
    the hint says what the placed card reaches and when it acts, never that it removes."""
    state = setting_time(["11:R 12:b0 13 14", "15 16 22 23", "24 25 26 33", "34 35 36 44"])
    move = PlaceAttackCard(R, Position(0, 0), AttackKind(2))
    facts, place = _hint(state, move)
    assert "speed.first" in {f.code for f in facts} and "remov" not in place.text, place.text
    for fact in facts:
        check_fact(fact, state, R, move)


@pytest.mark.parametrize("rows, says", [
    (["11:R 12", "13 14"], "holds 3 treasure cards"),  # no line at all: the bell never rings
    (["11 12 13", "14:R"], "has dice on any of its cards"),  # A2 lies on no line of 3 cards
])
def test_dice_off_every_line_are_not_called_no_dice(rows, says):
    """User-built boards may have any shape (INT-5): dice can lie where no line counts them."""
    for rules in (RuleSet(), RuleSet(mode=Mode.STRATEGY)):
        situation = Situation(Board.parse(rows), Seating((R, B, G), R), rules)
        assert check_walkthrough(situation)
        with translation.override("en"):
            text = explain(Walkthrough(situation).solution.bell.event).text
        assert says in text and "no card holds dice" not in text, text


def test_a_false_statement_is_caught():
    """The checks themselves: each wrong fact below, made by hand, must fail."""
    state = _strategy_turn(["11:R 12:R 13", "14 15 16", "22 23 24"], (1, 3), R)
    move = Claim(R, Position(0, 2))
    line = (Position(0, 0), Position(0, 1), Position(0, 2))
    wrong = [
        Fact("start.player", "STRAT-3", {"colour": R, "stays": False}),  # red already is
        Fact("line.fills", "STRAT-3", {"position": move.position, "mode": "strategy", "short": False,
                                       "line": (Position(0, 0), Position(1, 0), Position(2, 0))}),
        Fact("line.fills", "STRAT-3", {"position": move.position, "mode": "strategy", "short": True,
                                       "line": line}),  # a whole row, no reading needed
        Fact("claim.wins", "TRE-1", {"position": move.position, "low": 1, "high": 4}),
    ]
    for fact in wrong:
        with pytest.raises(AssertionError):
            check_fact(fact, state, R, move)
    hostage = setting_time(["11:R 12:b0 13 14", "15 16 22 23", "24 25 26 33", "34 35 36 44"])
    place = PlaceAttackCard(R, Position(0, 0), AttackKind(2))
    with pytest.raises(AssertionError):  # its row holds blue's B1 only: not B2
        check_fact(Fact("speed.first", "BAT-1", {"position": place.position, "kind": 2,
                                                 "targets": [Position(1, 1)], "before": [3, 4]}),
                   hostage, R, place)
    # an explanation that lists a [0] among the removed cards
    board = Board.parse(["11:r2 12:b0 13:b1 14", "15 16 22 23", "24 25 26 33", "34 35 36 44"])
    situation = Situation(board, Seating((R, B, G), R), RuleSet())
    walk = Walkthrough(situation)
    judge = RoundJudge(board, situation.seating, situation.rules, walk.solution.battle,
                       walk.solution.treasure)
    act = next(t.event for t in walk.solution.battle.turns if t.event.code == "battle.act"
               and t.event.params["removed"])
    forged = Event("battle.act", "BAT-4", {**act.params, "removed": [[0, 1], *act.params["removed"]],
                                           "removed_cards": ["b0", *act.params["removed_cards"]]})
    check_event(act, judge, situation)
    with pytest.raises(AssertionError):
        check_event(forged, judge, situation)


def test_dice_on_a_longer_line_are_not_called_no_dice():
    """Strategy mode counts every card of a line (STRAT-3): a 3-card row and a 4-card row
    holding one die need as many more; the closest line named is the one with dice, so
    the answer never says that no line has dice (found by the random situations)."""
    situation = notation.parse("Rbgw_66.66.56-56.55.55.46W_rs")
    assert check_walkthrough(situation)
    with translation.override("en"):
        text = explain(Walkthrough(situation).solution.bell.event).text
    assert "has dice on any of its cards" not in text and "D2" in text, text


@pytest.mark.parametrize("notation_", ["Rbg_x.x.66-66.56.56.55.55G-46_rs", "Rbg_x.x.66-66.56.56.55.55-46_rs"])
def test_no_dice_is_said_only_when_no_line_holds_any(notation_):
    """The closest line of a strategy-mode board may hold no dice while a longer one
    does (a 3-card diagonal against a 5-card row with one die, found by the random
    situations): the engine says whether any line holds dice, the answer follows it."""
    situation = notation.parse(notation_)
    check_walkthrough(situation)  # raises on a false sentence
    event = bell_status(situation.board, situation.seating, situation.rules).event
    on_lines = any(situation.board.at(p).dice for line in bell_lines(situation.board) for p in line)
    assert event.code == "bell.not_yet" and event.params["lines_held"] is on_lines
    with translation.override("en"):
        text = explain(event).text
    assert ("has dice on any of its cards" in text) is not on_lines, text
