"""Facts about one player's move that a hint may state, each worked out by the engine.

A hint says why a move is good in terms a player can check on the table. This module
works those facts out for a move of ``colour`` in a state; a hint words them
(``tutorials.play.hints``) and states nothing else. Every fact is computed by the
engine's own functions (:func:`~captain.rules.game.apply`,
:func:`~captain.rules.resolve.bell.may_ring`,
:func:`~captain.rules.resolve.treasure.resolve_round`, the board's geometry), from what
``colour`` may see only: the board with everyone's dice and the positions of the cards
lying face down (never another player's face-down value), every player's dice in hand,
``colour``'s own hand and discard pile, the rules. So the facts of two states ``colour``
cannot tell apart are the same.

Each :class:`Fact` has a stable ``code``, the clause that makes it matter and its
parameters (positions as ``(row, col)``, colours and card kinds by value):

``claim.wins`` (TRE-1) ``position``, ``low``, ``high``
    the claim puts the player's dice on that card: if their attack card there survives
    Battle Time, the card is theirs.
``place.wins`` (TRE-1) ``position``, ``kind``
    the same for the attack card placed.
``sandwich`` (TRE-2) ``position``, ``partner``, ``between``
    the move and the player's dice or card on ``partner`` lie on one line with only free
    treasure cards ``between``: if both attack cards survive they win those cards too
    (unless a sandwich with priority takes one, TRE-3: checked on the board as it stands).
``line.fills`` (STRAT-3, or DICE-4/DICE-5 in action mode) ``position``, ``line``, ``short``
    strategy mode: the claim leaves dice on every card of ``line`` and Dice Time ends;
    action mode: the bell may ring once it is made (``line`` empty for DICE-5's count).
    ``short``: a 3-card diagonal of a 4×4 grid, a line by the site's reading (INT-3).
``line.opens`` (STRAT-3) ``colour``, ``position``, ``low``, ``high``, ``line``
    after the move, another player whose dice in hand show ``low`` and ``high`` could
    fill ``line`` on their next turn by claiming ``position``, which they could not
    before the move.
``start.player`` (STRAT-1, STRAT-3, DICE-4) ``colour``, ``stays``
    the move makes ``colour`` the start player (``stays``: who already was).
``speed.first`` (BAT-1) ``position``, ``kind``, ``targets``, ``before``
    the card placed reaches the other players' dice or cards on ``targets`` and acts
    before any card of the kinds ``before`` (the attacking kinds after it in the speed
    order in force, VAR-1 included) could act.
``immune`` (BAT-4) ``position``
    a [0] placed there: no card can remove it.
``dice.none-match`` (DICE-2) ``dice``
    no two of these dice in hand show the faces of a free card: nothing to claim now.
``dice.keep`` (STRAT-2) ``kept``, ``position``, ``low``, ``high``, ``rolled``
    after the re-roll the kept die ``kept`` still shows one face of that free card.
``hand.count`` (DICE-7) ``cards``, ``hand``
    the move leaves dice on ``cards`` cards while ``hand`` attack cards are in hand: the
    hand will run out in Setting Time, and SET-4 brings the discard pile back.
``hand.recycle`` (SET-4) ``cards``
    the hand is empty and the player must place: the ``cards`` cards of the discard pile
    come back first.
``lookahead.best`` (TRE-1) ``position``, ``kind``, ``value``, ``runner``, ``runner_kind``,
``runner_value``, ``deals``
    the round played out on ``deals`` deals drawn from what the player sees: the move left
    the player ``value`` treasure cards ahead of the others' average (behind when
    negative); the best other move of its kind (a claim, a placement), ``runner``, left
    ``runner_value`` (both ``None`` when there is no other).
``lookahead.survives`` (BAT-3) ``position``, ``survived``, ``deals``
    on the same deals: in ``survived`` of them no card of the others removed the
    player's card on ``position`` before Treasure Time.

>>> from captain.rules.model import Colour
>>> from captain.rules.game import new_game, legal_actions, apply
>>> state = new_game((Colour.RED, Colour.BLUE), seed=5)
>>> [f.code for f in move_facts(state, Colour.RED, legal_actions(state, Colour.RED)[0])]
['start.player']
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from ..game import (
    Action,
    Claim,
    GameState,
    Pass,
    PlaceAttackCard,
    RingBell,
    RingStartBell,
    Roll,
    apply,
    legal_actions,
    pairs_shown,
)
from ..game.state import Phase
from ..game.view import determinize
from ..model import AttackKind, Board, Colour, Position, cell_of
from ..resolve.battle import resolve_battle
from ..resolve.bell import bell_lines, bell_status, may_ring
from ..resolve.treasure import resolve_round
from ..situation import Mode, Seating
from .strengths import fill_round, hands_of

#: the kinds of card that remove others (BAT-4): [0] and [5] have no attack
ATTACKING = (AttackKind(1), AttackKind(2), AttackKind(3), AttackKind(4))

#: deals the look-ahead plays out for :data:`lookahead.survives`
DEALS = 10


@dataclass(frozen=True)
class Fact:
    """One fact a hint may state (see the module docstring for the codes)."""

    code: str
    clause: str
    params: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        object.__setattr__(self, "params", MappingProxyType(dict(self.params)))

    def __hash__(self) -> int:
        return hash(json.dumps(self.to_json(), sort_keys=True))

    def to_json(self) -> dict[str, Any]:
        return {"code": self.code, "clause": self.clause, "params": _plain(dict(self.params))}

    @property
    def positions(self) -> tuple[Position, ...]:
        """Every position the fact names, the move's own first: where a hint points."""
        out: list[Position] = []
        for key in ("position", "partner", "between", "line", "targets", "held"):
            value = self.params.get(key)
            if value is None:
                continue
            items = value if key in ("between", "line", "targets", "held") else [value]
            out += [Position(*p) for p in items if Position(*p) not in out]
        return tuple(out)


def _plain(value):
    if isinstance(value, Position):
        return [value.row, value.col]
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, (Colour, AttackKind)):
        return value.value
    return value


def move_facts(state: GameState, colour: Colour, move: Action, *,
               lookahead: str | None = None) -> tuple[Fact, ...]:
    """The facts of ``colour``'s ``move`` in ``state``, most telling first (see the module
    docstring). ``lookahead``, a seed, adds what the round played out on re-drawn deals
    shows (:func:`lookahead_facts`) for a claim or a placement."""
    if isinstance(move, RingStartBell):
        return (Fact("start.player", "STRAT-1" if state.rules.mode is Mode.STRATEGY else "DICE-1",
                     {"colour": colour, "stays": True}),)
    if isinstance(move, RingBell):
        return _ring_facts(state, colour)
    if isinstance(move, Claim):
        return _claim_facts(state, colour, move.position, lookahead)
    if isinstance(move, PlaceAttackCard):
        return _place_facts(state, colour, move.position, move.kind, lookahead)
    if isinstance(move, Roll):
        return _roll_facts(state, colour, move)
    if isinstance(move, Pass):
        return (Fact("dice.none-match", "DICE-2", {"dice": state.player(colour).dice}),)
    return ()


# --- what the public board shows ------------------------------------------------------------------
def owner(board: Board, pos: Position) -> Colour | None:
    """Whose dice or attack card lie on ``pos`` (a face-down card's owner is public)."""
    cell = board.at(pos)
    occupant = cell.occupant
    return occupant.colour if occupant is not None else None


def _free_cards(board: Board) -> set[Position]:
    return set(board.free_faces())


def _line_filled(board: Board, line: Sequence[Position]) -> bool:
    return all(board.at(p).occupant is not None for p in line)


def _short(board: Board, line: Sequence[Position]) -> bool:
    """A line the bell counts only by INT-3: a diagonal shorter than the grid's side."""
    g = board.geometry
    index = g.lines.index(tuple(line)) if tuple(line) in g.lines else -1
    return index >= 0 and not g.full_lines[index]


def _filled_lines(board: Board, pos: Position) -> list[tuple[Position, ...]]:
    """The bell lines (INT-3) through ``pos`` on which every card holds dice or a card."""
    return [line for line in bell_lines(board) if pos in line and _line_filled(board, line)]


# --- Dice Time ------------------------------------------------------------------------------------
def _claim_facts(state: GameState, colour: Colour, pos: Position,
                 lookahead: str | None) -> tuple[Fact, ...]:
    board = state.board
    faces = board.at(pos).treasure.faces  # type: ignore[union-attr]
    after = apply(state, Claim(colour, pos))
    placed = board.with_cell(pos, cell_of(board.at(pos).treasure, colour))  # type: ignore[arg-type]
    facts: list[Fact] = []
    strategy = state.rules.mode is Mode.STRATEGY
    if strategy and after.phase is not Phase.DICE and after.start_player is colour:
        lines = _filled_lines(placed, pos)
        if lines:
            facts.append(Fact("line.fills", "STRAT-3", {
                "position": pos, "line": lines[0], "short": _short(placed, lines[0]), "mode": "strategy"}))
            facts.append(Fact("start.player", "STRAT-3", {"colour": colour,
                                                          "stays": state.start_player is colour}))
    elif not strategy and not may_ring(board, state.seating, state.rules) \
            and may_ring(placed, state.seating, state.rules):
        status = bell_status(placed, state.seating, state.rules)
        line = status.line or ()
        facts.append(Fact("line.fills", status.clause, {
            "position": pos, "line": line, "short": bool(line) and _short(placed, line), "mode": "action"}))
    facts += _sandwich_facts(state, colour, placed, pos)
    if lookahead is not None:
        facts += lookahead_facts(state, colour, Claim(colour, pos), lookahead)
    facts.append(Fact("claim.wins", "TRE-1", {"position": pos, "low": faces[0], "high": faces[1]}))
    if strategy and after.phase is Phase.DICE:
        facts += _opened_lines(state, after, colour)
    cards, hand = len(after.dice_cards(colour)), len(after.player(colour).hand)
    if cards > hand:
        facts.append(Fact("hand.count", "DICE-7", {"cards": cards, "hand": hand}))
    return tuple(facts)


def _opened_lines(before: GameState, after: GameState, colour: Colour) -> list[Fact]:
    """Lines another player could fill with one claim on their next turn after the move
    (STRAT-3) that they could not fill before it: who, where and with which faces.

    At most one, for the first such player in turn order after ``colour``."""
    order = after.seating.order()
    start = order.index(colour)
    for other in order[start + 1:] + order[:start]:
        dice = after.player(other).dice
        if len(dice) < 2:
            continue
        shown = pairs_shown(dice)
        for p, faces in after.board.free_faces().items():
            if faces not in shown:
                continue
            theirs = after.board.with_cell(p, cell_of(after.board.at(p).treasure, other))  # type: ignore[arg-type]
            lines = _filled_lines(theirs, p)
            if not lines or not may_ring(theirs, after.seating, after.rules):
                continue
            earlier = before.board.with_cell(p, cell_of(before.board.at(p).treasure, other))  # type: ignore[arg-type]
            if before.board.at(p).occupant is None and may_ring(earlier, before.seating, before.rules):
                continue  # open already: the move did not open it
            return [Fact("line.opens", "STRAT-3", {"colour": other, "position": p, "low": faces[0],
                                                   "high": faces[1], "line": lines[0]})]
    return []


def _ring_facts(state: GameState, colour: Colour) -> tuple[Fact, ...]:
    status = bell_status(state.board, state.seating, state.rules)
    if not status.may_ring:
        return ()
    line = status.line or ()
    return (Fact("line.fills", status.clause, {"position": None, "line": line,
                                               "short": bool(line) and _short(state.board, line),
                                               "mode": "action", "held": status.held}),
            Fact("start.player", "DICE-4", {"colour": colour, "stays": state.start_player is colour}))


def _roll_facts(state: GameState, colour: Colour, move: Roll) -> tuple[Fact, ...]:
    hand = state.player(colour).dice
    rolled = tuple(move.dice) if move.dice is not None else hand
    kept = list(hand)
    for d in rolled:
        kept.remove(d)
    facts: list[Fact] = []
    free = state.board.free_faces()
    shown = pairs_shown(hand)
    if not any(faces in shown for faces in free.values()):
        facts.append(Fact("dice.none-match", "DICE-2", {"dice": hand}))
    for pos, (low, high) in free.items():
        one = (low in kept) != (high in kept) or (low == high and kept.count(low) == 1)
        if kept and one:
            die = low if low in kept else high
            facts.append(Fact("dice.keep", "STRAT-2", {"kept": die, "position": pos, "low": low,
                                                       "high": high, "rolled": rolled}))
            break
    return tuple(facts)


# --- Setting Time ---------------------------------------------------------------------------------
def _place_facts(state: GameState, colour: Colour, pos: Position, kind: AttackKind,
                 lookahead: str | None) -> tuple[Fact, ...]:
    board = state.board
    me = state.player(colour)
    facts: list[Fact] = []
    if not me.hand:
        facts.append(Fact("hand.recycle", "SET-4", {"cards": len(me.discard)}))
    placed = board.with_cell(pos, cell_of(board.at(pos).treasure, colour, kind))  # type: ignore[arg-type]
    if kind is AttackKind(0):
        facts.append(Fact("immune", "BAT-4", {"position": pos}))
    targets = reached(placed, pos, kind, colour)
    if targets:
        facts.append(Fact("speed.first", "BAT-1", {
            "position": pos, "kind": kind, "targets": targets,
            "before": acting_after(state, kind)}))
    facts += _sandwich_facts(state, colour, placed, pos)
    if lookahead is not None:
        facts += lookahead_facts(state, colour, PlaceAttackCard(colour, pos, kind), lookahead)
    facts.append(Fact("place.wins", "TRE-1", {"position": pos, "kind": kind}))
    return tuple(facts)


def reached(board: Board, pos: Position, kind: AttackKind, colour: Colour) -> tuple[Position, ...]:
    """The other players' dice and cards that a card of ``kind`` on ``pos`` reaches (BAT-4)."""
    g = board.geometry
    mask = g.reach[int(kind)][g.index[pos]]
    return tuple(p for p in g.to_positions(mask) if owner(board, p) not in (None, colour))


def acting_after(state: GameState, kind: AttackKind) -> tuple[AttackKind, ...]:
    """The attacking kinds that act after ``kind`` in the speed order in force (BAT-1,
    VAR-1), read from the engine's own resolution order."""
    order = _speed_order(state)
    return tuple(k for k in order[order.index(kind) + 1:] if k in ATTACKING)


def _speed_order(state: GameState) -> list[AttackKind]:
    """The kinds in the order Battle Time resolves them under ``state``'s rules (BAT-1,
    VAR-1)."""
    return sorted(AttackKind, key=state.rules.speed_rank)


# --- both phases ----------------------------------------------------------------------------------
def _sandwich_facts(state: GameState, colour: Colour, placed: Board, pos: Position) -> list[Fact]:
    """A sandwich the move's position makes with another of ``colour``'s (TRE-2): the first
    line in board order whose free cards between would go to ``colour`` if every card on
    the board survived, and would not without the move's position, Treasure Time judging
    (TRE-2, TRE-3, INT-1, INT-2)."""
    g = placed.geometry
    survive = _all_survive(placed, state)
    # what the other positions win without this one: a placement's own dice count for nothing
    without = _all_survive(state.board.with_occupant(pos, None), state)
    won_now = set(resolve_round(without, state.seating, state.rules)[1].winnings.get(colour, ()))
    won = set(resolve_round(survive, state.seating, state.rules)[1].winnings.get(colour, ()))
    for line in g.lines:
        if pos not in line:
            continue
        i = line.index(pos)
        for j, other in enumerate(line):
            if j == i or owner(placed, other) is not colour:
                continue
            between = line[min(i, j) + 1:max(i, j)]
            if any(owner(placed, b) not in (None, colour) for b in between):
                continue
            cards = tuple(b for b in between if owner(placed, b) is None
                          and placed.at(b).treasure is not None and b in won and b not in won_now)
            if cards:
                return [Fact("sandwich", "TRE-2", {"position": pos, "partner": other, "between": cards})]
    return []


def _all_survive(board: Board, state: GameState) -> Board:
    """``board`` with every dice-holding card given a [5] and every attack card turned
    into a [5] of its owner: nothing is removed, so Treasure Time shows what sandwiches
    the positions alone make (no face-down value is read)."""
    out = board
    for p, cell in board:
        occupant = cell.occupant
        if occupant is not None and cell.treasure is not None:
            out = out.with_cell(p, cell_of(cell.treasure, occupant.colour, AttackKind(5)))
    return out


def _after_move(world: GameState, colour: Colour, move: Claim | PlaceAttackCard):
    """The board, the hands and the seating of ``world`` once ``move`` is made (a claim
    that fills a strategy-mode line makes its player start player, STRAT-3)."""
    pos = move.position
    hands = hands_of(world)
    seating = world.seating
    treasure = world.board.at(pos).treasure
    if isinstance(move, PlaceAttackCard):
        board = world.board.with_cell(pos, cell_of(treasure, colour, move.kind))  # type: ignore[arg-type]
        hands[colour] = _without(hands[colour], move.kind)
    else:
        board = world.board.with_cell(pos, cell_of(treasure, colour))  # type: ignore[arg-type]
        if world.rules.mode is Mode.STRATEGY and may_ring(board, seating, world.rules):
            seating = Seating(seating.players, colour)
    return board, hands, seating


def _deals(state: GameState, colour: Colour, seed: str, deals: int):
    """The re-drawn deals of a look-ahead, each with the random source of its play-out:
    the same for every move compared (so the moves meet the same chances)."""
    for d in range(deals):
        yield determinize(state, colour, random.Random(f"{seed}:deal:{d}")), f"{seed}:play:{d}"


def compare(state: GameState, colour: Colour, moves: Sequence[Claim | PlaceAttackCard], seed: str,
            deals: int = DEALS) -> dict[Claim | PlaceAttackCard, float]:
    """Each move's average result over ``deals`` deals re-drawn from what ``colour`` sees:
    the round played out after the move (every card holding dice gets an attack card as a
    greedy captain would choose, :func:`~captain.rules.captains.strengths.fill_round`),
    then Battle and Treasure Time; the result is ``colour``'s treasure cards won less the
    others' average (the strong captain's measure)."""
    totals = dict.fromkeys(moves, 0.0)
    for world, play in _deals(state, colour, seed, deals):
        for move in moves:
            board, hands, seating = _after_move(world, colour, move)
            filled = fill_round(world, colour, board, hands, random.Random(play))
            won = resolve_round(filled, seating, world.rules)[1].winnings
            others = [len(won[c]) for c in seating.players if c is not colour]
            totals[move] += len(won[colour]) - sum(others) / len(others)
    return {move: total / deals for move, total in totals.items()}


def best_move(state: GameState, colour: Colour, moves: Sequence[Claim | PlaceAttackCard], seed: str,
              prefer: Action | None = None) -> Claim | PlaceAttackCard:
    """The move of ``moves`` with the best :func:`compare` result (``prefer`` on a tie)."""
    values = compare(state, colour, moves, seed)
    return max(moves, key=lambda m: (round(values[m], 6), m == prefer))


def lookahead_facts(state: GameState, colour: Colour, move: Claim | PlaceAttackCard,
                    seed: str, deals: int = DEALS) -> list[Fact]:
    """``lookahead.best`` (the move's result against the best other move of its kind, by
    :func:`compare`) and ``lookahead.survives``, from the same deals."""
    kind = type(move)
    others = [a for a in legal_actions(state, colour) if type(a) is kind and a != move]
    values = compare(state, colour, [move, *others], seed, deals)
    runner = max(others, key=lambda m: values[m]) if others else None
    best = Fact("lookahead.best", "TRE-1", {
        "position": move.position, "kind": getattr(move, "kind", None), "value": round(values[move], 2),
        "runner": runner.position if runner else None,
        "runner_kind": getattr(runner, "kind", None) if runner else None,
        "runner_value": round(values[runner], 2) if runner else None, "deals": deals})
    return [best, survival(state, colour, move, seed, deals)]


def survival(state: GameState, colour: Colour, move: Claim | PlaceAttackCard, seed: str,
             deals: int = DEALS) -> Fact:
    """``lookahead.survives``: on the deals of :func:`compare`, in how many ``colour``'s
    card on the move's position survived Battle Time."""
    pos = move.position
    survived = 0
    for world, play in _deals(state, colour, seed, deals):
        board, hands, seating = _after_move(world, colour, move)
        filled = fill_round(world, colour, board, hands, random.Random(play))
        card = resolve_battle(filled, seating, world.rules).board.at(pos).card
        survived += card is not None and card.colour is colour
    return Fact("lookahead.survives", "BAT-3", {"position": pos, "survived": survived, "deals": deals})


def _without(hand: list[AttackKind], kind: AttackKind) -> list[AttackKind]:
    left = list(hand)
    if kind in left:
        left.remove(kind)
    return left
