"""Carrying out actions: :func:`apply` and the transitions of a whole game.

:func:`apply` always checks the action first (:func:`~captain.rules.game.legal.check`).
The one way to skip that check is explicit: :meth:`LegalActions.apply` carries out an
action taken from that very listing, for that very state. Ending Setting Time (SET-3)
also resolves Battle Time, Treasure Time, the refill and the end check.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from types import MappingProxyType
from typing import Any

from ..clauses import implements
from ..events import Event, EventLog
from ..model import AttackKind, Board, Colour, Treasure, cell_of
from ..resolve.bell import bell_status, may_ring
from ..resolve.round_end import end_round, lay_out, refill_plan
from ..resolve.treasure import after_treasure_time, resolve_round
from ..situation import DICE_PER_PLAYER, Mode, Seating, table_setup
from .actions import Action, Claim, Pass, PlaceAttackCard, RingBell, RingStartBell, Roll
from .legal import can_place_in_principle, check, listing, pair_left, pairs_shown, without_values
from .setup import rolled_faces
from .state import GameState, Phase, PlayerState, RoundRecord


class LegalActions(tuple):
    """The actions legal in one state, as :func:`legal_actions` listed them.

    A tuple of actions (it also compares equal to a list of the same actions) that
    remembers its ``state``. :meth:`apply` carries out one of them without checking it
    again — the only way to skip the check, and it holds only for actions taken from
    this very listing.
    """

    state: GameState

    def __new__(cls, state: GameState, actions: Sequence[Action]) -> LegalActions:
        listed = tuple.__new__(cls, actions)
        listed.state = state
        return listed

    def __eq__(self, other: object) -> bool:
        if isinstance(other, list):
            other = tuple(other)
        return tuple.__eq__(self, other)

    def __ne__(self, other: object) -> bool:
        return not self == other

    __hash__ = tuple.__hash__

    def __repr__(self) -> str:
        return f"LegalActions({list(self)!r})"

    def apply(self, action: Action) -> GameState:
        """The state after ``action``, which must be one of these very objects; anything
        else is checked as :func:`apply` would (raising :class:`IllegalAction`)."""
        for listed in self:
            if listed is action:
                return transition(self.state, action)
        return apply(self.state, action)


def legal_actions(state: GameState, player: Colour | None = None) -> LegalActions:
    """Every action some player (or only ``player``) may take now, in a stable order
    (:func:`~captain.rules.game.legal.listing`), as :class:`LegalActions`."""
    return LegalActions(state, listing(state, player))


def apply(state: GameState, action: Action) -> GameState:
    """The state after ``action``. Raises :class:`IllegalAction` (naming the forbidding
    clause) if it is not legal now.

    Ending Setting Time (SET-3) also resolves Battle Time, Treasure Time, the refill
    and the end check; their events are in the new state's ``log``.
    """
    check(state, action)
    return transition(state, action)


def transition(state: GameState, action: Action) -> GameState:
    """The state after an action already known to be legal in ``state``."""
    if isinstance(action, RingStartBell):
        return _start_dice_time(state)
    if isinstance(action, PlaceAttackCard):
        return _place_attack_card(state, action)
    if isinstance(action, Roll):
        return _roll_dice(state, action)
    if isinstance(action, Claim):
        return _claim(state, action)
    if isinstance(action, RingBell):
        return _ring(state, action)
    assert isinstance(action, Pass)
    return _next_strategy_turn(_evolve(state, rerolled=False, log=(
        Event("dice.pass", "STRAT-4", {"colour": action.player.value}),)), action.player)


# --- helpers -------------------------------------------------------------------------------------
def _evolve[T](obj: T, **changes: Any) -> T:
    """``dataclasses.replace`` for this package's frozen records, without re-running
    ``__init__`` (the records have no derived fields): the copy is equally immutable."""
    new = _new(obj.__class__)
    _setattr(new, "__dict__", obj.__dict__ | changes)
    return new


_new = object.__new__
_setattr = object.__setattr__


def _set_player(state: GameState, ps: PlayerState) -> tuple[PlayerState, ...]:
    players = state.players
    i = state.seating.players.index(ps.colour)  # players are kept in seating order
    return players[:i] + (ps,) + players[i + 1:]


def _seat_after(state: GameState, colour: Colour) -> tuple[Colour, ...]:
    """Players clockwise after ``colour``, ending with ``colour`` itself."""
    order = state.seating.players
    i = order.index(colour)
    return order[i + 1:] + order[: i + 1]


# --- Dice Time ----------------------------------------------------------------------------------
@implements("DICE-1", "STRAT-1")
def _start_dice_time(state: GameState) -> GameState:
    """DICE-1: the start player rings the bell and everyone rolls all six dice at once;
    then everybody acts in real time. STRAT-1: Dice Time simply begins with everyone
    rolling all six dice (no bell), then turns go clockwise from the start player."""
    players = []
    draws = state.draws
    for p in state.players:
        dice, draws = rolled_faces(state.seed, draws, DICE_PER_PLAYER)
        players.append(_evolve(p, dice=dice, rolled=True, false_bell=False))
    strategy = state.rules.mode is Mode.STRATEGY
    new = _evolve(state, players=tuple(players), draws=draws, phase=Phase.DICE,
                  turn=state.start_player if strategy else None, rerolled=False,
                  log=(Event.of("dice.start", "STRAT-1" if strategy else "DICE-1", {
                      "start_player": state.start_player.value,
                      "rolls": MappingProxyType({p.colour.value: p.dice for p in players})}),))
    if strategy and not can_place_in_principle(new, new.player(state.start_player)):
        return _next_strategy_turn(new, state.start_player)
    return new


@implements("DICE-3", "STRAT-2", "STRAT-4")
def _roll_dice(state: GameState, action: Roll) -> GameState:
    """DICE-3: a re-roll rolls every die still in hand; dice on cards stay. STRAT-2: on a
    turn, re-roll any chosen part of the dice in hand once, which ends the turn — unless
    STRAT-4 is in force, which lets the player place (or pass) right after."""
    ps = state.player(action.player)
    strategy = state.rules.mode is Mode.STRATEGY
    if strategy:
        keep = without_values(ps.dice, action.dice or ())
        assert keep is not None
        fresh, draws = rolled_faces(state.seed, state.draws, len(action.dice or ()))
        dice = tuple(sorted(keep + fresh))
    else:
        dice, draws = rolled_faces(state.seed, state.draws, len(ps.dice))
    could_claim = not pairs_shown(ps.dice).isdisjoint(state.board.free_faces().values())
    new = _evolve(state, players=_set_player(state, _evolve(ps, dice=dice)), draws=draws,
                  log=(Event.of("dice.roll", "STRAT-2" if strategy else "DICE-3", {
                      "colour": ps.colour.value, "dice": dice,
                      "rerolled": tuple(action.dice or ()) if strategy else None},
                      # INT-8: no card could be claimed, and nothing forces a pass: re-roll
                      interpretation=None if could_claim else "INT-8"),))
    if strategy:
        if state.rules.place_after_reroll:
            return _evolve(new, rerolled=True)
        return _next_strategy_turn(new, action.player)
    return new


@implements("DICE-7")
def _claim(state: GameState, action: Claim) -> GameState:
    """Put the pair on the card (DICE-2, :func:`~captain.rules.game.legal.pair_left`). No
    limit ties the number of claimed cards to the attack cards in hand (DICE-7; Setting
    Time's SET-4 handles an empty hand). In strategy mode a placement that completes a
    line ends Dice Time at once (STRAT-3)."""
    ps = state.player(action.player)
    cell = state.board.at(action.position)
    treasure = cell.treasure
    assert treasure is not None
    left = pair_left(ps.dice, treasure.faces)
    assert left is not None
    board = state.board.with_cell(action.position, cell_of(treasure, ps.colour))
    strategy = state.rules.mode is Mode.STRATEGY
    new = _evolve(state, board=board, players=_set_player(state, _evolve(ps, dice=left)),
                  rerolled=False, log=(Event.of("dice.claim", "DICE-2", {
                      "colour": ps.colour.value, "position": tuple(action.position),
                      "faces": treasure.faces}),))
    if strategy:
        if may_ring(board, state.seating, state.rules):  # STRAT-3: a full line ends Dice Time
            return _end_dice_time(new, action.player, _bell_event(new))
        return _next_strategy_turn(new, action.player)
    return _maybe_stuck(new)


@implements("DICE-6", "INT-7")
def _ring(state: GameState, action: RingBell) -> GameState:
    """Ring the bell: Dice Time ends when the condition holds (DICE-4/5, VAR-3/4). A
    false bell (DICE-6) bars that player from rolling, placing and ringing for the rest
    of this Dice Time; when every player is barred, the penalties are lifted (INT-7)."""
    if may_ring(state.board, state.seating, state.rules):
        return _end_dice_time(_evolve(state, log=()), action.player, _bell_event(state))
    ps = state.player(action.player)
    players = _set_player(state, _evolve(ps, false_bell=True))
    events = [Event("dice.false_bell", "DICE-6", {"colour": ps.colour.value})]
    if all(p.false_bell for p in players):  # INT-7: everyone false-belled: penalties lifted
        players = tuple(_evolve(p, false_bell=False) for p in players)
        events.append(Event("dice.penalties_lifted", "DICE-6", {}, interpretation="INT-7"))
    return _maybe_stuck(_evolve(state, players=players, log=tuple(events)))


def _maybe_stuck(state: GameState) -> GameState:
    """Action mode: Dice Time goes on while someone may still place or ring (INT-6)."""
    for p in state.players:
        if can_place_in_principle(state, p):
            return state
    if may_ring(state.board, state.seating, state.rules) and any(not p.false_bell for p in state.players):
        return state
    return _stuck(state)


def _next_strategy_turn(state: GameState, after: Colour) -> GameState:
    """Pass the turn clockwise to the next player who can act (INT-6 when nobody can)."""
    for colour in _seat_after(state, after):
        if can_place_in_principle(state, state.player(colour)):
            return _evolve(state, turn=colour, rerolled=False)
    return _stuck(state)


@implements("INT-6")
def _stuck(state: GameState) -> GameState:
    """INT-6: nobody can act any more and Dice Time has not ended by a bell (action mode)
    or a full line (strategy mode): Dice Time ends and the start player stays."""
    clause = "STRAT-3" if state.rules.mode is Mode.STRATEGY else "DICE-1"
    return _end_dice_time(state, None, Event("dice.stuck", clause, {
        "start_player": state.start_player.value,
        "all_placed": all(not p.dice for p in state.players)}, interpretation="INT-6"))


def _bell_event(state: GameState) -> Callable[[], tuple[Event]]:
    """The bell's explanation (DICE-4/5, STRAT-3, VAR-3/4) for ``state``'s board, built
    when the log is read: explaining which line qualified costs more than deciding."""
    board, seating, rules = state.board, state.seating, state.rules
    return lambda: (bell_status(board, seating, rules).event,)


def _end_dice_time(state: GameState, ringer: Colour | None,
                   why: Event | Callable[[], tuple[Event]]) -> GameState:
    """Dice Time ends; whoever ended it (the ringer, or the placer in strategy mode)
    becomes start player (DICE-4, STRAT-3); Setting Time begins."""
    start = ringer or state.start_player
    seating = Seating(state.seating.players, start)
    tail: tuple[Event, ...] = ()
    if ringer is not None:
        tail = (Event.of("dice.end", "STRAT-3" if state.rules.mode is Mode.STRATEGY
                         else "DICE-4", {"start_player": start.value,
                                         "rang": state.rules.mode is Mode.ACTION}),)
    log = EventLog(state.log, why if callable(why) else (why,), tail)
    new = _evolve(state, seating=seating, phase=Phase.SETTING, turn=None, rerolled=False,
                  log=log)
    return _next_setting_turn(new, None)


# --- Setting Time -----------------------------------------------------------------------------
@implements("SET-2", "SET-3", "SET-4")
def _next_setting_turn(state: GameState, after: Colour | None) -> GameState:
    """The next player clockwise (from the start player at first) with dice on the
    board places next; players without dice there are skipped (SET-2). With no dice left
    Setting Time ends (SET-3) and the round resolves. A player who must place with an
    empty hand takes the whole discard pile back first (SET-4)."""
    order = state.seating.order() if after is None else _seat_after(state, after)
    holding = state.board.occupancy().dice_of
    for colour in order:
        if colour in holding:
            ps = state.player(colour)
            if not ps.hand:
                ps = _evolve(ps, hand=tuple(sorted(ps.discard)), discard=())
                return _evolve(state, turn=colour, players=_set_player(state, ps),
                               log=state.log + (Event("setting.recycle", "SET-4", {
                                   "colour": colour.value, "cards": len(ps.hand)}),))
            return _evolve(state, turn=colour)
    return _resolve_round(_evolve(state, turn=None))


@implements("SET-1")
def _place_attack_card(state: GameState, action: PlaceAttackCard) -> GameState:
    """SET-1: put one attack card from hand face down on a card holding your dice and take
    those dice back (they keep the faces they showed until the next roll)."""
    ps = state.player(action.player)
    if not ps.hand:  # SET-4 (normally done when the turn began, see _next_setting_turn)
        ps = _evolve(ps, hand=tuple(sorted(ps.discard)), discard=())
    hand = list(ps.hand)
    hand.remove(action.kind)
    cell = state.board.at(action.position)
    treasure = cell.treasure
    assert treasure is not None
    ps = _evolve(ps, hand=tuple(hand), dice=tuple(sorted(ps.dice + treasure.faces)))
    board = state.board.with_cell(action.position,
                                    cell_of(treasure, action.player, action.kind))
    new = _evolve(state, board=board, players=_set_player(state, ps), log=(
        Event.of("setting.place", "SET-1", {"colour": action.player.value,
                                            "position": tuple(action.position)}),))
    return _next_setting_turn(new, action.player)


# --- Battle Time, Treasure Time, the end of the round ------------------------------------------
def _resolve_round(state: GameState) -> GameState:
    """Battle Time and Treasure Time (:func:`~captain.rules.resolve.treasure.resolve_round`),
    every attack card to its owner's discard (BAT-4, TRE-4), the refill and the end
    check (:func:`~captain.rules.resolve.round_end.end_round`)."""
    board = state.board
    battle, treasure = resolve_round(board, state.seating, state.rules)
    g = board.geometry
    index = g.index
    cells = [cell for row in board.rows for cell in row]  # in bit order
    won_all = 0
    won_now: dict[Colour, tuple[Treasure, ...]] = {}
    for colour, positions in treasure.winnings.items():
        if positions:
            won_now[colour] = tuple([cells[index[p]].treasure for p in positions])  # type: ignore[misc]
            for p in positions:
                won_all |= 1 << index[p]
    played: dict[Colour, list[AttackKind]] = {}
    for i in g.bits(board.occupancy().cards):
        card = cells[i].occupant
        played.setdefault(card.colour, []).append(card.kind)  # type: ignore[union-attr]
    players = []
    for ps in state.players:
        kinds = played.get(ps.colour)  # removed in Battle Time or left after Treasure Time
        discard = tuple(sorted(ps.discard + tuple(kinds))) if kinds else ps.discard
        players.append(_evolve(ps, discard=discard, won=ps.won + won_now.get(ps.colour, ()),
                               dice=(), rolled=False, false_bell=False))
    remaining = after_treasure_time(board, won_all)
    end = end_round(cards_left=(battle.treasure_mask & ~won_all).bit_count(), deck=len(state.deck),
                    seating=state.seating, won_before={p.colour: p.won for p in state.players},
                    won_now=won_now, standard=_is_full_grid(remaining, len(state.players)))
    layout, deck = lay_out(remaining, state.deck, end.refill)
    # the explanations of Battle and Treasure Time are built only if somebody reads the log
    log = EventLog(state.log, lambda: battle.events, lambda: treasure.events, end.events)
    record = RoundRecord(state.round, board, battle, treasure)
    if end.game_over:
        return _evolve(state, board=layout, deck=deck, players=tuple(players), log=log,
                       last_round=record, phase=Phase.OVER)
    return _evolve(state, board=layout, deck=deck, players=tuple(players), log=log,
                   last_round=record, phase=Phase.AWAIT_START_BELL, round=state.round + 1)


def refill(board: Board, deck: Sequence[Treasure], player_count: int, start_player: Colour
           ) -> tuple[Board, tuple[Treasure, ...], list[Event]]:
    """TRE-5 with INT-5 on a whole game's real cards: :func:`~captain.rules.resolve.round_end.refill_plan`
    decides and :func:`~captain.rules.resolve.round_end.lay_out` lays the cards.

    ``board`` holds treasure cards only. Returns ``(board, deck left, events)``.
    """
    plan = refill_plan(cards_left=board.treasure_count(), deck=len(deck), players=player_count,
                       start_player=start_player, standard=_is_full_grid(board, player_count))
    layout, rest = lay_out(board, deck, plan)
    return layout, rest, list(plan.events)


def _is_full_grid(board: Board, players: int) -> bool:
    """True when ``board`` has the shape of the full grid (SETUP-3, SETUP-4)."""
    side = table_setup(players).side
    return len(board.rows) == side and all(len(row) == side for row in board.rows)


def attack_cards_of(state: GameState, colour: Colour) -> Counter[AttackKind]:
    """Every attack card of ``colour`` wherever it is (hand + discard + board), by value:
    the conservation law the property tests check."""
    ps = state.player(colour)
    counts = Counter(ps.hand) + Counter(ps.discard)
    counts.update(c.kind for c in state.board.cards().values() if c.colour == colour)
    return counts
