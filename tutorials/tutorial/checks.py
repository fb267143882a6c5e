"""Scored checks for every phase of a round, each answer decided by the engine.

Every board id in :data:`CHECK_KINDS` has a fixed list of kinds of question; each kind
comes in a few fixed positions. The tutorial never works an answer out itself: it sets up
a moment of a game (:class:`~captain.rules.game.GameState` or the end of a round) and asks
the engine what is legal or what happens (``legal_actions``, ``apply``, ``bell_status``,
``end_round``). Battle and Treasure Time keep their one-change questions
(:mod:`tutorials.tutorial.quiz`). :func:`order` walks a board's questions in a fixed
order, kind after kind, so "Another question" shows every kind before any kind comes back
and every question before any question does.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from functools import cache

from captain.rules import (
    AttackKind,
    Board,
    Colour,
    Event,
    Mode,
    Position,
    RuleSet,
    Seating,
    Situation,
    Treasure,
    bell_status,
    end_round,
)
from captain.rules.game import (
    Claim,
    GameState,
    Phase,
    PlaceAttackCard,
    RingBell,
    apply,
    legal_actions,
    new_game,
    starting_hand,
)
from tutorials.tutorial.examples import DICE_BOARD_4
from tutorials.tutorial.quiz import for_examples

R, B, G = Colour.RED, Colour.BLUE, Colour.GREEN
SEATS = (R, B, G)

#: the kinds of question each check asks, by board id, in the order they are introduced
CHECK_KINDS = {
    "quiz-dice": ("claim", "bell", "ring"),
    "quiz-line": ("claim", "line"),
    "quiz-setting": ("place", "next", "recycle"),
    "quiz-battle": ("survivors",),
    "quiz-treasure": ("winnings",),
    "quiz-round": ("start", "refill", "discards"),
    "quiz-end": ("over", "winner"),
}


@dataclass(frozen=True)
class Check:
    """One question: the board shown, what is asked, and the engine's answer.

    ``answer`` holds positions for a kind answered by tapping cells (``choices`` empty),
    or the one right choice key otherwise. ``facts`` are what the prompt names (colours,
    dice, counts); ``events`` the engine's explanation; ``marked`` a position the prompt
    points at (the card a player places on).
    """

    kind: str
    situation: Situation
    answer: frozenset
    choices: tuple[str, ...] = ()
    facts: Mapping[str, object] = field(default_factory=dict)
    events: tuple[Event, ...] = ()
    marked: Position | None = None
    #: the one-change questions name a change; these checks have none
    change: None = None


def _board(marks: str, rows: tuple[str, ...] = DICE_BOARD_4) -> Board:
    """``DICE_BOARD_4`` with occupants added: ``"00R 12b3"`` puts red dice on row 0,
    column 0 and a blue [3] on row 1, column 2 (the case format's tokens)."""
    grid = [row.split() for row in rows]
    for mark in marks.split():
        grid[int(mark[0])][int(mark[1])] += ":" + mark[2:]
    return Board.parse([" ".join(row) for row in grid])


def _holes(cards: int, shape: int = 4) -> Board:
    """A grid after Treasure Time with ``cards`` treasure cards left, the rest taken."""
    rows = [row.split() for row in DICE_BOARD_4][:shape]
    flat = [t for row in rows for t in row[:shape]]
    keep = set(random.Random(cards).sample(range(len(flat)), cards))
    cells = [t if i in keep else "--" for i, t in enumerate(flat)]
    return Board.parse([" ".join(cells[r * shape:(r + 1) * shape]) for r in range(shape)])


def _state(board: Board, *, start: Colour = R, turn: Colour | None = None, phase: Phase = Phase.DICE,
           hands: Mapping[Colour, tuple[int, ...]] = {}, empty_hand: Colour | None = None,
           mode: Mode = Mode.ACTION) -> GameState:
    """A game of red, blue and green at ``board``: dice in hand and attack cards as the
    board implies (each player holds the six dice and nine cards of SETUP-1)."""
    rules = RuleSet(mode=mode)
    game = new_game(SEATS, rules=rules, seed=1, start_player=start, layout=Board.parse(DICE_BOARD_4))
    on_board = board.occupancy().dice_of
    players = []
    for ps in game.players:
        placed = [c.kind for c in board.cards().values() if c.colour == ps.colour]
        hand = list(starting_hand(rules, 3))
        for kind in placed:
            hand.remove(kind)
        discard: tuple[AttackKind, ...] = ()
        if ps.colour == empty_hand:
            hand, discard = [], tuple(hand)
        dice = hands.get(ps.colour, (1, 2, 3, 4, 5, 6)[:6 - 2 * on_board.get(ps.colour, 0).bit_count()])
        players.append(replace(ps, hand=tuple(hand), discard=discard, dice=tuple(sorted(dice)),
                               rolled=True))
    return replace(game, board=board, players=tuple(players), phase=phase, turn=turn)


# --- Dice Time -----------------------------------------------------------------------------
#: red's dice in hand and the dice on the board, for "which cards can red claim?"
CLAIMS = (((1, 2, 4, 5), "00B 11G 20R"), ((3, 3, 4, 6), "01R 22B"), ((4, 4), "00R 13R 02G"),
          ((1, 1, 3, 6, 6, 6), "10B 33G 31B"))
#: dice on the board for "may the bell ring?" (3 players, DICE-4 with INT-3)
BELLS = ("00R 01B 03G", "01B 12R 23G", "00R 12B 31G", "00R 10B 22G", "02R 12B 32G 00B",
         "00R 01B 12G 33R")
#: who rings on which of those boards
RINGS = ((B, 0), (B, 2), (G, 4), (G, 3))
#: strategy mode: the board, the card red places on and red's dice in hand
LINES = (("00B 01G 02R", (0, 3), (2, 3, 5, 6)), ("01B 12G", (2, 3), (1, 3, 4, 4)),
         ("00B 01G 03R", (1, 1), (3, 3, 5, 6)), ("00B 11G 22R", (3, 3), (1, 2, 4, 6)),
         ("02B 12G 32R", (3, 0), (3, 4, 5, 5)))


def _claims(mode: Mode) -> list[Check]:
    out = []
    for dice, marks in CLAIMS:
        state = _state(_board(marks), hands={R: dice}, mode=mode, turn=R if mode is Mode.STRATEGY else None)
        answer = frozenset(a.position for a in legal_actions(state, R) if isinstance(a, Claim))
        out.append(Check("claim", state.situation(), answer, facts={"dice": dice}))
    return out


def _dice_checks() -> list[Check]:
    out = _claims(Mode.ACTION)
    seating = Seating(SEATS, R)
    for marks in BELLS:
        status = bell_status(_board(marks), seating)
        answer = "yes" if status.may_ring else "no"
        out.append(Check("bell", Situation(_board(marks), seating), frozenset({answer}), ("yes", "no"),
                         events=(status.event,)))
    for ringer, index in RINGS:
        before = _state(_board(BELLS[index]))
        after = apply(before, RingBell(ringer))
        answer = "ends" if after.phase is Phase.SETTING else "false"
        events = tuple(e for e in after.log if e.code.startswith(("bell.", "dice.")))
        out.append(Check("ring", before.situation(), frozenset({answer}), ("ends", "false"),
                         {"colour": ringer}, events))
    return out


def _line_checks() -> list[Check]:
    out = _claims(Mode.STRATEGY)
    for marks, at, dice in LINES:
        before = _state(_board(marks), hands={R: dice}, mode=Mode.STRATEGY, turn=R)
        after = apply(before, Claim(R, Position(*at)))
        ended = after.phase is not Phase.DICE
        status = bell_status(after.board, after.seating, after.rules)
        events = (status.event,) + tuple(e for e in after.log if e.code == "dice.end")
        out.append(Check("line", before.situation(), frozenset({"yes" if ended else "no"}), ("yes", "no"),
                         {"dice": dice}, events, Position(*at)))
    return out


# --- Setting Time --------------------------------------------------------------------------
PLACES = ("00R 12R 03B 21G 11r5", "31R 00b3 02B 22G", "10R 11R 13R 33B 02g4")
#: the board, red placing on its first dice card, and the start player
NEXTS = (("00R 11B 22G", R), ("00R 22G 11b2", R), ("00R 02R 11b2 22g3", B), ("00R 11b2 22g3", G))
#: blue's hand is empty: blue with dice on the board, or without
RECYCLES = ("00R 11B 22G", "00R 22G 11b5", "00R 03R 13B 12b4", "00R 02R 31g5 20b3")


def _setting_state(marks: str, start: Colour = R, empty_hand: Colour | None = None) -> GameState:
    return _state(_board(marks), start=start, turn=R, phase=Phase.SETTING, empty_hand=empty_hand)


def _placing(state: GameState) -> tuple[Position, GameState]:
    """Red's first legal placement (its first dice card, its first card in hand), applied."""
    action = next(a for a in legal_actions(state, R) if isinstance(a, PlaceAttackCard))
    return action.position, apply(state, action)


def _setting_checks() -> list[Check]:
    out = []
    for marks in PLACES:
        state = _setting_state(marks)
        answer = frozenset(a.position for a in legal_actions(state, R) if isinstance(a, PlaceAttackCard))
        out.append(Check("place", state.situation(), answer))
    for marks, start in NEXTS:
        before = _setting_state(marks, start)
        at, after = _placing(before)
        answer = after.turn.value if after.phase is Phase.SETTING and after.turn else "over"
        events = tuple(e for e in after.log if e.code.startswith("setting."))
        out.append(Check("next", before.situation(), frozenset({answer}), ("red", "blue", "green", "over"),
                         events=events, marked=at))
    for marks in RECYCLES:
        before = _setting_state(marks, empty_hand=B)
        at, after = _placing(before)
        recycled = [e for e in after.log if e.code == "setting.recycle" and e.params["colour"] == "blue"]
        answer = "recycle" if after.turn is B and recycled else "skip"
        out.append(Check("recycle", before.situation(), frozenset({answer}), ("recycle", "skip", "back"),
                         {"discard": len(before.player(B).discard)}, tuple(recycled), at))
    return out


# --- the next round ------------------------------------------------------------------------
#: who rings the bell on BELLS[0] (red is the start player)
STARTS = (B, G, R)
#: treasure cards left after Treasure Time and cards in the deck (the game goes on)
REFILLS = ((10, 20), (9, 4), (12, 0), (13, 2))
#: Setting Time with red placing the last card: cards on the board, red's last dice card
DISCARDS = ("00r1 01b2 10g3 22R", "11r3 12b1 13r2 30R 02g4", "00r5 33b4 21R 03g2")


def _round_checks() -> list[Check]:
    out = []
    for ringer in STARTS:
        before = _state(_board(BELLS[0]))
        game = apply(before, RingBell(ringer))
        while game.phase is Phase.SETTING:  # the engine plays Setting Time through
            actions = legal_actions(game)
            game = actions.apply(actions[0])
        # the words of the bell differ by mode: the rule note says it for both
        events = tuple(e for e in game.log if e.code == "round.continue")
        out.append(Check("start", before.situation(), frozenset({game.start_player.value}),
                         ("red", "blue", "green"), {"colour": ringer}, events))
    seating = Seating(SEATS, R)
    for left, deck in REFILLS:
        end = end_round(cards_left=left, deck=deck, seating=seating, won_before={}, won_now={})
        choices = tuple(str(n) for n in sorted({16, left, left + 2, min(left + deck, 16), end.board_after}))
        out.append(Check("refill", Situation(_holes(left), seating, deck=deck),
                         frozenset({str(end.board_after)}), choices, {"cards": left, "deck": deck},
                         end.events))
    for marks in DISCARDS:
        board = _board(marks)
        before = _state(board, turn=R, phase=Phase.SETTING)
        red = before.player(R)  # two scouts went to red's discard in an earlier round
        hand = list(red.hand)
        hand.remove(AttackKind.SCOUT_SHIP)
        hand.remove(AttackKind.SCOUT_SHIP)
        red = replace(red, hand=tuple(hand), discard=(AttackKind.SCOUT_SHIP,) * 2)
        before = replace(before, players=(red,) + before.players[1:])
        at, after = _placing(before)
        shown = after.last_round.board if after.last_round else board
        count = len(after.player(R).discard)
        red_cards = sum(1 for c in shown.cards().values() if c.colour is R)
        choices = tuple(str(n) for n in sorted({2, 2 + red_cards, count, count - 1}))
        events = tuple(e for e in after.log if e.code in ("battle.act", "treasure.discard"))
        out.append(Check("discards", Situation(shown, seating), frozenset({str(count)}), choices,
                         {"discard": 2}, events))
    return out


# --- the end of the game -------------------------------------------------------------------
OVERS = ((8, 0), (9, 0), (6, 0), (5, 3), (5, 4), (12, 5))
#: cards and doubles won by red, blue and green
WINNERS = (((12, 1), (10, 4), (9, 2)), ((11, 2), (11, 3), (9, 4)), ((10, 3), (10, 3), (8, 1)),
           ((9, 4), (11, 0), (10, 2)), ((10, 1), (10, 1), (10, 2)))


def _won(cards: int, doubles: int) -> tuple[Treasure, ...]:
    return (Treasure(2, 2),) * doubles + (Treasure(1, 2),) * (cards - doubles)


def _end_checks() -> list[Check]:
    out = []
    seating = Seating(SEATS, R)
    for left, deck in OVERS:
        end = end_round(cards_left=left, deck=deck, seating=seating, won_before={}, won_now={})
        out.append(Check("over", Situation(_holes(left), seating, deck=deck),
                         frozenset({"yes" if end.game_over else "no"}), ("yes", "no"),
                         {"cards": left, "deck": deck},
                         tuple(e for e in end.events if e.code != "round.standings")))
    for scores in WINNERS:
        won = {c: _won(*s) for c, s in zip(SEATS, scores, strict=True)}
        end = end_round(cards_left=6, deck=0, seating=seating, won_before=won, won_now={})
        answer = end.winner.value if end.winner else "tie"
        facts = {c.value: s for c, s in zip(SEATS, scores, strict=True)}
        out.append(Check("winner", Situation(_holes(6), seating, deck=0, won=won), frozenset({answer}),
                         ("red", "blue", "green", "tie"), facts,
                         tuple(e for e in end.events if e.code == "round.standings")))
    return out


_BUILDERS = {"quiz-dice": _dice_checks, "quiz-line": _line_checks, "quiz-setting": _setting_checks,
             "quiz-round": _round_checks, "quiz-end": _end_checks}
_EXAMPLES = {"quiz-battle": ("battle",), "quiz-treasure": ("sandwich", "block", "priority")}


@cache
def pool(board_id: str) -> tuple:
    """Every question of the check ``board_id``, kind by kind (KeyError if unknown)."""
    if board_id in _EXAMPLES:
        return for_examples(_EXAMPLES[board_id])
    return tuple(_BUILDERS[board_id]())


@cache
def order(board_id: str) -> tuple[int, ...]:
    """The fixed order "Another question" walks ``board_id``'s pool in, the same on every
    server: one question of each kind, in the kinds' order of :data:`CHECK_KINDS`, then
    the next of each, so no kind comes back before every kind of the phase has been asked;
    within a kind, shuffled by a seed of the board's own."""
    rng = random.Random(board_id)
    kinds = CHECK_KINDS[board_id]
    by_kind: dict[str, list[int]] = {kind: [] for kind in kinds}
    for i, question in enumerate(pool(board_id)):
        # the one-change questions of Battle and Treasure Time are all of the board's one kind
        by_kind[getattr(question, "kind", None) if len(kinds) > 1 else kinds[0]].append(i)
    for indices in by_kind.values():
        rng.shuffle(indices)
    rounds = max(len(indices) for indices in by_kind.values())
    return tuple(by_kind[kind][n] for n in range(rounds) for kind in kinds if n < len(by_kind[kind]))
