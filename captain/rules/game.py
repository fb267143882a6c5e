"""Whole games: setup, every action with its legality, automatic resolution, the end.

A :class:`GameState` is an immutable snapshot of a whole game. :func:`new_game`
deals one (SETUP-1..4) from a seed; :func:`legal_actions` lists what each player may
do; :func:`apply` returns the next state or raises :class:`IllegalAction` naming the
clause that forbids the action. Battle Time, Treasure Time, refilling and the end
check run by themselves when Setting Time ends (SET-3).

Randomness (shuffling, rolls) comes from ``(seed, draws)`` held in the state, so every
state — and every answer the engine gives about it — is reproducible from the state
and its rule set alone.

>>> g = new_game((Colour.RED, Colour.BLUE, Colour.GREEN), seed=7, start_player=Colour.RED)
>>> g.phase, g.board.shape, len(g.deck), g.player(Colour.RED).hand_size
(<Phase.AWAIT_START_BELL: 'await-start-bell'>, (4, 4), 26, 9)
>>> g = apply(g, RingStartBell(Colour.RED))
>>> g.phase, len(g.player(Colour.BLUE).dice)
(<Phase.DICE: 'dice'>, 6)
"""

from __future__ import annotations

import enum
import hashlib
import random
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from itertools import combinations
from types import MappingProxyType

from .battle import BattleResult
from .bell import bell_status, may_ring
from .errors import IllegalAction, InvalidInput
from .events import Event, EventLog
from .model import FULL_DECK, AttackCard, AttackKind, Board, Colour, Dice, Position, Square, Treasure
from .round_end import Standing, rank_players, rearranged_shape
from .situation import Mode, RuleSet, Seating, Situation
from .treasure import TreasureResult, resolve_round


class Phase(enum.Enum):
    """Where a game stands. Battle and Treasure Time resolve inside :func:`apply`."""

    AWAIT_START_BELL = "await-start-bell"  # the start player rings to begin Dice Time
    DICE = "dice"
    SETTING = "setting"
    OVER = "over"


# --- actions --------------------------------------------------------------------------------
@dataclass(frozen=True)
class RingStartBell:
    """The start player rings to begin Dice Time; everyone rolls all six dice (DICE-1, STRAT-1)."""

    player: Colour


@dataclass(frozen=True)
class Roll:
    """Re-roll dice in hand. ``dice`` = face values to re-roll; ``None`` = all (DICE-3).

    In strategy mode ``dice`` may be any non-empty part of the dice in hand (STRAT-2).
    """

    player: Colour
    dice: tuple[int, ...] | None = None


@dataclass(frozen=True)
class Claim:
    """Put two dice showing exactly the card's faces on the card at ``position`` (DICE-2)."""

    player: Colour
    position: Position


@dataclass(frozen=True)
class RingBell:
    """Ring to end Dice Time (DICE-4/5, VAR-3/4); a false bell when the condition fails (DICE-6)."""

    player: Colour


@dataclass(frozen=True)
class Pass:
    """Strategy mode with STRAT-4: end the turn after a re-roll without placing."""

    player: Colour


@dataclass(frozen=True)
class PlaceAttackCard:
    """Setting Time: put ``kind`` face down on a card holding your dice, take them back (SET-1)."""

    player: Colour
    position: Position
    kind: AttackKind


Action = RingStartBell | Roll | Claim | RingBell | Pass | PlaceAttackCard


# --- state ----------------------------------------------------------------------------------
@dataclass(frozen=True)
class PlayerState:
    """One player's private and public belongings.

    Attributes:
        colour: the player.
        hand: attack cards in hand, sorted by value.
        discard: attack cards in the discard pile, sorted (hidden from others in play).
        won: treasure cards won so far, in the order won.
        dice: face values of the dice in hand (not on the board), ascending; empty
            before rolling.
            Dice taken back in Setting Time (SET-1) keep the faces they showed on the card.
        rolled: True once this Dice Time's first roll happened.
        false_bell: DICE-6 applies for the rest of this Dice Time.
    """

    colour: Colour
    hand: tuple[AttackKind, ...]
    discard: tuple[AttackKind, ...] = ()
    won: tuple[Treasure, ...] = ()
    dice: tuple[int, ...] = ()
    rolled: bool = False
    false_bell: bool = False

    @property
    def hand_size(self) -> int:
        return len(self.hand)

    @property
    def doubles(self) -> int:
        return sum(1 for t in self.won if t.is_double)


@dataclass(frozen=True)
class RoundRecord:
    """What Battle and Treasure Time did at the end of a round (for transcripts and UIs)."""

    round: int
    board: Board
    battle: BattleResult
    treasure: TreasureResult


@dataclass(frozen=True)
class GameState:
    """An immutable snapshot of a whole game.

    Attributes:
        rules: the rule set.
        seating: colours clockwise and the current start player.
        board: treasure cards with dice or attack cards on them.
        deck: the treasure deck, top card first.
        box: treasure cards out of play (two players: 10 unseen cards, SETUP-4).
        players: one :class:`PlayerState` per seat, in seating order.
        round: 1 for the first round.
        phase: see :class:`Phase`.
        turn: whose turn it is (strategy-mode Dice Time, Setting Time), else ``None``.
        rerolled: strategy mode with STRAT-4: the player on turn has re-rolled and may
            still place (or pass).
        seed, draws: the random source: ``draws`` counts the random calls made so far.
        log: events of the last transition, in order (a sequence; explanations of Battle
            and Treasure Time are built when first read).
        last_round: the most recent Battle/Treasure resolution, if any.
    """

    rules: RuleSet
    seating: Seating
    board: Board
    deck: tuple[Treasure, ...]
    box: tuple[Treasure, ...]
    players: tuple[PlayerState, ...]
    round: int = 1
    phase: Phase = Phase.AWAIT_START_BELL
    turn: Colour | None = None
    rerolled: bool = False
    seed: int = 0
    draws: int = 0
    log: Sequence[Event] = ()
    last_round: RoundRecord | None = field(default=None, compare=False)

    # --- look-ups --------------------------------------------------------------------------
    def player(self, colour: Colour) -> PlayerState:
        """The state of ``colour``. Raises :class:`InvalidInput` if not seated."""
        for p in self.players:
            if p.colour == colour:
                return p
        raise InvalidInput(f"{colour.value} is not seated", where="player", code="colour-not-seated")

    @property
    def start_player(self) -> Colour:
        return self.seating.start_player

    @property
    def is_over(self) -> bool:
        return self.phase is Phase.OVER

    def dice_cards(self, colour: Colour) -> list[Position]:
        """Positions holding ``colour``'s dice, in board order."""
        board = self.board
        return list(board.geometry.to_positions(board.occupancy().dice_of.get(colour, 0)))

    def standings(self) -> tuple[tuple[Standing, ...], Colour | None]:
        """Current standings (END-2, END-3) and the winner if the game were scored now."""
        return rank_players(self.seating, {p.colour: p.won for p in self.players})

    def situation(self) -> Situation:
        """The analyzer's view of this moment: board, seats, rules, deck size, won cards."""
        return Situation(self.board, self.seating, self.rules, len(self.deck),
                         {p.colour: p.won for p in self.players if p.won})

    def treasure_total(self) -> int:
        """Treasure cards in board + deck + won + box (always 42: conservation)."""
        return (self.board.treasure_count() + len(self.deck) + len(self.box)
                + sum(len(p.won) for p in self.players))


# --- randomness ---------------------------------------------------------------------------
def _rng(state_seed: int, draws: int) -> random.Random:
    return random.Random(state_seed * 1_000_003 + draws)


def _roll(seed: int, draws: int, n: int) -> tuple[tuple[int, ...], int]:
    """``n`` dice (ascending) for roll number ``draws`` of the game with ``seed``, and
    the next draw number.

    The faces come from BLAKE2b of (seed, draw, block): uniform (bytes >= 252 are
    skipped), reproducible from the state alone, and ten times cheaper than seeding a
    Mersenne Twister for every roll.
    """
    if n == 0:
        return (), draws + 1
    out: list[int] = []
    block = 0
    while True:
        digest = hashlib.blake2b(b"%d:%d:%d" % (seed, draws, block), digest_size=32).digest()
        for byte in digest:
            if byte < 252:
                out.append(byte % 6 + 1)
                if len(out) == n:
                    out.sort()  # dice in hand are kept sorted: only the faces matter
                    return tuple(out), draws + 1
        block += 1


# --- setup ----------------------------------------------------------------------------------
def starting_hand(rules: RuleSet, player_count: int) -> tuple[AttackKind, ...]:
    """Attack cards a player starts with (SETUP-1, SETUP-4, VAR-2)."""
    return tuple(k for k in AttackKind for _ in range(rules.copies(k, player_count)))


def new_game(players: Sequence[Colour], *, rules: RuleSet = RuleSet(), seed: int = 0,
             start_player: Colour | None = None) -> GameState:
    """Deal a new game (SETUP-1..4).

    Args:
        players: 2-4 distinct colours, clockwise.
        rules: the rule set.
        seed: the random source for shuffling, rolls and (if not given) the start player.
        start_player: who starts; random from ``seed`` when ``None`` (SETUP-3).

    Raises :class:`~captain.rules.errors.InvalidPosition` for a bad player list.
    """
    players = tuple(players)
    rng = _rng(seed, 0)
    deck = list(FULL_DECK)
    rng.shuffle(deck)
    if start_player is None:
        start_player = players[rng.randrange(len(players))] if players else Colour.RED
    seating = Seating(players, start_player)
    box: list[Treasure] = []
    side = 4
    if len(players) == 2:
        box, deck, side = deck[:10], deck[10:], 3  # SETUP-4: 10 cards back to the box unseen
    layout, deck = deck[: side * side], deck[side * side:]
    board = Board(tuple(tuple(Square(layout[r * side + c]) for c in range(side)) for r in range(side)))
    hand = starting_hand(rules, len(players))
    return GameState(rules, seating, board, tuple(deck), tuple(box),
                     tuple(PlayerState(c, hand) for c in players), seed=seed, draws=1,
                     log=(Event("game.setup", "SETUP-4" if len(players) == 2 else "SETUP-3", {
                         "players": [c.value for c in players], "start_player": start_player.value,
                         "grid": [side, side], "deck": len(deck), "box": len(box),
                         "hand": [int(k) for k in hand]}),))


# --- helpers ----------------------------------------------------------------------------------
def _evolve(obj, **changes):
    """``dataclasses.replace`` for this module's frozen records, without re-running
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


def _without_values(hand: Sequence[int], values: Iterable[int]) -> tuple[int, ...] | None:
    left = list(hand)
    for v in values:
        if v not in left:
            return None
        left.remove(v)
    return tuple(left)


def _pair_left(dice: Sequence[int], treasure: Treasure) -> tuple[int, ...] | None:
    """Dice left after using a pair showing ``treasure``'s faces, or None (DICE-2)."""
    if not _has_pair(dice, treasure):
        return None
    return _without_values(dice, treasure.faces)


def _has_pair(dice: Sequence[int], treasure: Treasure) -> bool:
    low, high = treasure.low, treasure.high
    if low == high:
        return dice.count(low) >= 2
    return low in dice and high in dice


def _free_cards(board: Board) -> list[Position]:
    return list(board.free_faces())


def _can_place_in_principle(state: GameState, ps: PlayerState) -> bool:
    """Has two dice in hand, may act, and a card without dice exists (INT-6, INT-8)."""
    return (not ps.false_bell and len(ps.dice) >= 2 and bool(state.board.free_faces()))


def _seat_after(state: GameState, colour: Colour) -> tuple[Colour, ...]:
    """Players clockwise after ``colour``, ending with ``colour`` itself."""
    order = state.seating.players
    i = order.index(colour)
    return order[i + 1:] + order[: i + 1]


_ACTIONS: dict[tuple, Action] = {}


def _action(cls: type, *args) -> Action:
    """The one shared instance of ``cls(*args)``. Actions are immutable values, and
    :func:`legal_actions` would otherwise build the same few objects on every call."""
    key = (cls, *args)
    found = _ACTIONS.get(key)
    if found is None:
        found = _ACTIONS[key] = cls(*args)
        if cls is Claim:
            _CLAIMS[args] = found  # the hottest look-up gets its own table
    return found


def _illegal(message: str, clause: str, code: str, **params) -> IllegalAction:
    return IllegalAction(message, clause=clause, code=code, **params)


# --- legality ------------------------------------------------------------------------------------
def legal_actions(state: GameState, player: Colour | None = None) -> list[Action]:
    """Every action some player (or only ``player``) may take now, in a stable order.

    Action mode Dice Time lists actions of all players (there are no turns); strategy
    mode and Setting Time list only the player on turn. Strategy-mode re-rolls are listed
    once per distinct choice of face values.
    """
    global _LAST_LISTED
    if player is None:
        actions = _legal_actions(state)
    elif state.phase is Phase.DICE and state.rules.mode is Mode.ACTION:
        actions = _action_mode_dice_actions(state, (state.player(player),))
    else:  # one player may act: the start player before Dice Time, else the player on turn
        mover = state.start_player if state.phase is Phase.AWAIT_START_BELL else state.turn
        actions = _legal_actions(state) if player is mover and state.phase is not Phase.OVER else []
    # remembered so that apply() need not re-check an action listed for this very state
    _LAST_LISTED = (state, tuple(actions))
    return actions


#: ``(state, the actions listed)`` of the latest legal_actions() call: one tuple,
#: replaced whole, so concurrent readers always see a consistent entry.
_LAST_LISTED: tuple = (None, ())


def _listed(state: GameState, action: Action) -> bool:
    """True if ``action`` is one of the very objects legal_actions() just listed for
    ``state`` (actions are shared instances, see :func:`_action`)."""
    last_state, actions = _LAST_LISTED
    if last_state is state:
        for a in actions:
            if a is action:
                return True
    return False


def _legal_actions(state: GameState) -> list[Action]:
    out: list[Action] = []
    if state.phase is Phase.OVER:
        return out
    if state.phase is Phase.AWAIT_START_BELL:
        return [_action(RingStartBell, state.start_player)]
    if state.phase is Phase.SETTING:
        colour = state.turn
        assert colour is not None
        hand = state.player(colour).hand or state.player(colour).discard  # SET-4
        board = state.board
        positions = board.geometry.to_positions(board.occupancy().dice_of.get(colour, 0))
        kinds = dict.fromkeys(hand)  # hands are sorted: distinct kinds, ascending
        for pos in positions:  # board order: sorted
            by_kind = _PLACEMENTS.get((colour, pos))
            if by_kind is None:
                by_kind = _PLACEMENTS[(colour, pos)] = tuple(
                    _action(PlaceAttackCard, colour, pos, kind) for kind in AttackKind)
            out += [by_kind[kind] for kind in kinds]
        return out
    free = _free_cards(state.board)
    if state.rules.mode is Mode.STRATEGY:
        assert state.turn is not None
        ps = state.player(state.turn)
        for pos in free:
            if _pair_left(ps.dice, state.board.at(pos).treasure) is not None:  # type: ignore[arg-type]
                out.append(_action(Claim, ps.colour, pos))
        if state.rerolled:
            out.append(_action(Pass, ps.colour))
        else:
            seen: set[tuple[int, ...]] = set()
            for n in range(1, len(ps.dice) + 1):
                for combo in combinations(sorted(ps.dice), n):
                    if combo not in seen:
                        seen.add(combo)
                        out.append(_action(Roll, ps.colour, combo))
        return out
    return _action_mode_dice_actions(state, state.players)


def _action_mode_dice_actions(state: GameState, players: Sequence[PlayerState]) -> list[Action]:
    out: list[Action] = []
    free = state.board.free_faces()
    condition = None
    for ps in players:
        if ps.false_bell:
            continue
        colour = ps.colour
        dice = ps.dice
        if dice:
            out.append(_action(Roll, colour))
            pairs = _PAIRS.get(dice)
            if pairs is None:
                pairs = _pairs(dice)
            for pos, faces in free.items():  # DICE-2: exactly the card's two faces
                if faces in pairs:
                    claim = _CLAIMS.get((colour, pos))
                    out.append(claim if claim is not None else _action(Claim, colour, pos))
        if condition is None:
            condition = may_ring(state.board, state.seating, state.rules)
        if condition:
            out.append(_action(RingBell, colour))
    return out


_PAIRS: dict[tuple[int, ...], frozenset[tuple[int, int]]] = {}
#: Setting Time choices of a colour at a position, indexed by attack value.
_PLACEMENTS: dict[tuple[Colour, Position], tuple[Action, ...]] = {}
_CLAIMS: dict[tuple[Colour, Position], Claim] = {}


def _pairs(dice: tuple[int, ...]) -> frozenset[tuple[int, int]]:
    """Treasure cards ``(low, high)`` a pair of ``dice`` shows (DICE-2; memoised)."""
    faces = sorted(set(dice))
    found = frozenset([(a, b) for i, a in enumerate(faces) for b in faces[i + 1:]]
                      + [(a, a) for a in faces if dice.count(a) >= 2])
    if len(_PAIRS) > 65536:
        _PAIRS.clear()
    _PAIRS[dice] = found
    return found


def check(state: GameState, action: Action) -> None:
    """Raise :class:`IllegalAction` (with the forbidding clause) unless ``action`` is legal."""
    player = action.player
    if player not in state.seating.players:
        raise _illegal(f"{player.value} is not seated", "SETUP-1", "not-seated", colour=player.value)
    ps = state.player(player)
    phase = state.phase
    if phase is Phase.OVER:
        raise _illegal("the game is over", "END-1", "game-over")
    if isinstance(action, RingStartBell):
        if phase is not Phase.AWAIT_START_BELL:
            raise _illegal("Dice Time is already under way or over", "DICE-1", "wrong-phase")
        if player != state.start_player:
            raise _illegal(f"only the start player ({state.start_player.value}) rings to begin "
                           "Dice Time", "DICE-1", "not-start-player")
        return
    if isinstance(action, PlaceAttackCard):
        if phase is not Phase.SETTING:
            raise _illegal("attack cards are placed in Setting Time", "SET-1", "wrong-phase")
        if player != state.turn:
            raise _illegal(f"it is {state.turn.value if state.turn else 'nobody'}'s turn",
                           "SET-1", "not-your-turn")
        dice = state.board.get(action.position)
        if dice is None or dice.dice is None or dice.dice.colour != player:
            raise _illegal(f"no {player.value} dice on {action.position}", "SET-1",
                           "no-own-dice", position=list(action.position))
        hand = ps.hand or ps.discard
        if action.kind not in hand:
            raise _illegal(f"[{int(action.kind)}] is not in {player.value}'s hand", "SET-1",
                           "not-in-hand", value=int(action.kind))
        return
    if phase is not Phase.DICE:
        raise _illegal("dice are rolled and placed in Dice Time", "DICE-1", "wrong-phase")
    strategy = state.rules.mode is Mode.STRATEGY
    if ps.false_bell:
        raise _illegal(f"{player.value} rang a false bell and sits out this Dice Time",
                       "DICE-6", "false-bell")
    if strategy and player != state.turn:
        raise _illegal(f"it is {state.turn.value if state.turn else 'nobody'}'s turn",
                       "STRAT-1", "not-your-turn")
    if isinstance(action, Roll):
        if not ps.dice:
            raise _illegal("no dice in hand to roll", "DICE-3", "no-dice")
        if strategy:
            if state.rerolled:
                raise _illegal("one re-roll a turn; now place or pass", "STRAT-2", "rerolled")
            if not action.dice:
                raise _illegal("choose at least one die to re-roll", "STRAT-2", "empty-reroll")
            if _without_values(ps.dice, action.dice) is None:
                raise _illegal(f"dice {list(action.dice)} are not all in hand", "STRAT-2",
                               "not-in-hand")
        elif action.dice is not None and sorted(action.dice) != sorted(ps.dice):
            raise _illegal("re-roll all dice in hand at once, never only some", "DICE-3",
                           "partial-reroll")
        return
    if isinstance(action, Claim):
        sq = state.board.get(action.position)
        if sq is None or sq.treasure is None:
            raise _illegal(f"no treasure card at {action.position}", "DICE-2", "no-card",
                           position=list(action.position))
        if sq.occupant is not None:
            raise _illegal(f"the card at {action.position} already holds dice", "DICE-2",
                           "occupied", position=list(action.position))
        if _pair_left(ps.dice, sq.treasure) is None:
            raise _illegal(f"{player.value}'s dice in hand do not show {sq.treasure.low} and "
                           f"{sq.treasure.high}", "DICE-2", "no-pair",
                           position=list(action.position))
        return
    if isinstance(action, RingBell):
        if strategy:
            raise _illegal("in strategy mode Dice Time ends by itself when a line is full",
                           "STRAT-3", "no-bell-in-strategy")
        return  # ringing is always allowed; a wrong ring is a false bell (DICE-6)
    if isinstance(action, Pass):
        if not (strategy and state.rules.place_after_reroll and state.rerolled):
            raise _illegal("passing is only possible after a re-roll with the STRAT-4 option",
                           "STRAT-4", "no-pass")
        return
    raise InvalidInput(f"unknown action {action!r}", code="unknown-action")


# --- transitions ---------------------------------------------------------------------------------
def apply(state: GameState, action: Action) -> GameState:
    """The state after ``action``. Raises :class:`IllegalAction` if it is not legal.

    Ending Setting Time (SET-3) also resolves Battle Time, Treasure Time, the refill
    and the end check; their events are in the new state's ``log``. An action that the
    latest :func:`legal_actions` call listed for this very ``state`` object is not
    checked a second time.
    """
    if not _listed(state, action):
        check(state, action)
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


def _start_dice_time(state: GameState) -> GameState:
    players = []
    draws = state.draws
    for p in state.players:
        dice, draws = _roll(state.seed, draws, 6)
        players.append(_evolve(p, dice=dice, rolled=True, false_bell=False))
    strategy = state.rules.mode is Mode.STRATEGY
    new = _evolve(state, players=tuple(players), draws=draws, phase=Phase.DICE,
                  turn=state.start_player if strategy else None, rerolled=False,
                  log=(Event.of("dice.start", "STRAT-1" if strategy else "DICE-1", {
                      "start_player": state.start_player.value,
                      "rolls": MappingProxyType({p.colour.value: p.dice for p in players})}),))
    if strategy and not _can_place_in_principle(new, new.player(state.start_player)):
        return _next_strategy_turn(new, state.start_player)
    return new


def _roll_dice(state: GameState, action: Roll) -> GameState:
    ps = state.player(action.player)
    strategy = state.rules.mode is Mode.STRATEGY
    if strategy:
        keep = _without_values(ps.dice, action.dice or ())
        assert keep is not None
        fresh, draws = _roll(state.seed, state.draws, len(action.dice or ()))
        dice = tuple(sorted(keep + fresh))
    else:
        dice, draws = _roll(state.seed, state.draws, len(ps.dice))
    new = _evolve(state, players=_set_player(state, _evolve(ps, dice=dice)), draws=draws,
                  log=(Event.of("dice.roll", "STRAT-2" if strategy else "DICE-3", {
                      "colour": ps.colour.value, "dice": dice,
                      "rerolled": tuple(action.dice or ()) if strategy else None}),))
    if strategy:
        if state.rules.place_after_reroll:
            return _evolve(new, rerolled=True)
        return _next_strategy_turn(new, action.player)
    return new


def _claim(state: GameState, action: Claim) -> GameState:
    ps = state.player(action.player)
    sq = state.board.at(action.position)
    left = _pair_left(ps.dice, sq.treasure)  # type: ignore[arg-type]
    assert left is not None
    board = state.board.with_square(action.position, _occupied(sq, Dice, ps.colour))
    strategy = state.rules.mode is Mode.STRATEGY
    new = _evolve(state, board=board, players=_set_player(state, _evolve(ps, dice=left)),
                  rerolled=False, log=(Event.of("dice.claim", "DICE-2", {
                      "colour": ps.colour.value, "position": tuple(action.position),
                      "faces": sq.treasure.faces}),))  # type: ignore[union-attr]
    if strategy:
        if may_ring(board, state.seating, state.rules):  # STRAT-3: a full line ends Dice Time
            return _end_dice_time(new, action.player, _bell_event(new))
        return _next_strategy_turn(new, action.player)
    return _maybe_stuck(new)


def _ring(state: GameState, action: RingBell) -> GameState:
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
    """INT-6 (applied to action mode as well): nobody can place and no bell may ring."""
    if state.board.free_faces():
        for p in state.players:
            if not p.false_bell and len(p.dice) >= 2:  # _can_place_in_principle
                return state
    if may_ring(state.board, state.seating, state.rules) and any(not p.false_bell for p in state.players):
        return state
    return _end_dice_time(state, None, Event("dice.stuck", "DICE-1", {
        "start_player": state.start_player.value}, interpretation="INT-6"))


def _next_strategy_turn(state: GameState, after: Colour) -> GameState:
    """Pass the turn clockwise to the next player who can act; INT-6 if nobody can."""
    for colour in _seat_after(state, after):
        if _can_place_in_principle(state, state.player(colour)):
            return _evolve(state, turn=colour, rerolled=False)
    return _end_dice_time(state, None, Event("dice.stuck", "STRAT-3", {
        "start_player": state.start_player.value}, interpretation="INT-6"))


def _bell_event(state: GameState) -> Callable[[], tuple[Event]]:
    """The bell's explanation (DICE-4/5, STRAT-3, VAR-3/4) for ``state``'s board, built
    when the log is read: explaining which line qualified costs more than deciding."""
    board, seating, rules = state.board, state.seating, state.rules
    return lambda: (bell_status(board, seating, rules).event,)


def _end_dice_time(state: GameState, ringer: Colour | None,
                   why: Event | Callable[[], tuple[Event]]) -> GameState:
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


def _next_setting_turn(state: GameState, after: Colour | None) -> GameState:
    """SET-1/SET-2: next player clockwise with dice on the board; SET-3 when none."""
    order = state.seating.order() if after is None else _seat_after(state, after)
    holding = state.board.occupancy().dice_of
    for colour in order:
        if colour in holding:
            ps = state.player(colour)
            if not ps.hand:  # SET-4: take the whole discard pile back first
                ps = _evolve(ps, hand=tuple(sorted(ps.discard)), discard=())
                return _evolve(state, turn=colour, players=_set_player(state, ps),
                               log=state.log + (Event("setting.recycle", "SET-4", {
                                   "colour": colour.value, "cards": len(ps.hand)}),))
            return _evolve(state, turn=colour)
    return _resolve_round(_evolve(state, turn=None))


def _place_attack_card(state: GameState, action: PlaceAttackCard) -> GameState:
    ps = state.player(action.player)
    if not ps.hand:
        ps = _evolve(ps, hand=tuple(sorted(ps.discard)), discard=())
    hand = list(ps.hand)
    hand.remove(action.kind)
    # SET-1: take back its dice; they still show the card's faces (DICE-2) until the next roll
    faces = state.board.at(action.position).treasure.faces  # type: ignore[union-attr]
    ps = _evolve(ps, hand=tuple(hand), dice=tuple(sorted(ps.dice + faces)))
    board = state.board.with_square(action.position, _occupied(
        state.board.at(action.position), AttackCard, action.player, action.kind))
    new = _evolve(state, board=board, players=_set_player(state, ps), log=(
        Event.of("setting.place", "SET-1", {"colour": action.player.value,
                                         "position": tuple(action.position)}),))
    return _next_setting_turn(new, action.player)


def _resolve_round(state: GameState) -> GameState:
    """Battle Time, Treasure Time, TRE-4 discards, TRE-5 refill, END-1 check."""
    board = state.board
    battle, treasure = resolve_round(board, state.seating, state.rules)
    # explanations are built only if somebody reads the log
    events = EventLog(state.log, lambda: battle.events, lambda: treasure.events)
    index = board.geometry.index
    squares = [sq for row in board.rows for sq in row]  # in bit order
    played: dict[Colour, list[AttackKind]] = {}
    for i in board.geometry.bits(board.occupancy().cards):
        card = squares[i].occupant
        played.setdefault(card.colour, []).append(card.kind)  # type: ignore[union-attr]
    won_all = 0
    players = []
    for ps in state.players:
        won: tuple[Treasure, ...] = ()
        positions = treasure.winnings[ps.colour]
        if positions:
            won = tuple([squares[index[p]].treasure for p in positions])  # type: ignore[misc]
            for p in positions:
                won_all |= 1 << index[p]
        kinds = played.get(ps.colour)  # TRE-4, BAT-4: survivors and removed cards alike
        discard = tuple(sorted(ps.discard + tuple(kinds))) if kinds else ps.discard
        players.append(_evolve(ps, discard=discard, won=ps.won + won, dice=(),
                               rolled=False, false_bell=False))
    # treasure cards only: attack cards to the discards (TRE-4), won cards off the board
    rows = []
    bit = 1
    for row in board.rows:
        kept = []
        for sq in row:
            t = sq.treasure
            kept.append(_EMPTY if t is None or won_all & bit else
                        sq if sq.occupant is None else _plain(t))
            bit <<= 1
        rows.append(tuple(kept))
    remaining = Board(tuple(rows))
    layout, deck, refill_events = refill(remaining, state.deck, len(state.players),
                                         state.start_player)
    events = events + refill_events
    record = RoundRecord(state.round, board, battle, treasure)
    new = _evolve(state, board=layout, deck=deck, players=tuple(players), log=events,
                  last_round=record)
    count = layout.occupancy().treasure.bit_count()
    if not deck and count <= 8:  # END-1 with INT-4
        standings, winner = rank_players(new.seating, {p.colour: p.won for p in players})
        return _evolve(new, phase=Phase.OVER, log=new.log + (
            Event("round.game_over", "END-1", {"board_after": count},
                  interpretation="INT-4" if count == 8 else None),
            Event("round.standings", "END-2", {
                "standings": [s.to_json() for s in standings],
                "winner": winner.value if winner else None})))
    return _evolve(new, phase=Phase.AWAIT_START_BELL, round=state.round + 1, log=new.log + (
        Event.of("round.continue", "END-1", {"board_after": count, "deck_after": len(deck),
                                          "start_player": state.start_player.value}),))


_EMPTY = Square()
_OCCUPIED: dict[tuple, Square] = {}


def _occupied(square: Square, kind: type, *args) -> Square:
    """The (shared) square holding ``square``'s treasure card and ``kind(*args)``:
    dice of a colour or an attack card."""
    t = square.treasure
    assert t is not None
    key = (t.low * 8 + t.high, kind, *args)
    found = _OCCUPIED.get(key)
    if found is None:
        found = _OCCUPIED[key] = Square(t, kind(*args))
    return found
_PLAIN: dict[int, Square] = {}


def _plain(treasure: Treasure) -> Square:
    """The (shared, immutable) square holding just ``treasure``."""
    key = treasure.low * 8 + treasure.high  # faster to hash than the card itself
    sq = _PLAIN.get(key)
    if sq is None:
        sq = _PLAIN[key] = Square(treasure)
    return sq


def refill(board: Board, deck: tuple[Treasure, ...], player_count: int, start_player: Colour
           ) -> tuple[Board, tuple[Treasure, ...], list[Event]]:
    """TRE-5 with INT-5: fill empty positions of the full grid from the deck, or, when the
    deck cannot, lay every card as close to a square as possible.

    Returns ``(board, deck left, events)``; the board holds treasure cards only.
    """
    side = 3 if player_count == 2 else 4
    cards = [sq.treasure for row in board.rows for sq in row if sq.treasure is not None]
    full = side * side
    standard = len(board.rows) == side and all(len(r) == side for r in board.rows)
    if standard and len(cards) + len(deck) >= full:
        need = full - len(cards)
        drawn, rest = deck[:need], deck[need:]
        it = iter(drawn)
        rows = tuple(tuple(sq if sq.treasure is not None else _plain(next(it)) for sq in row)
                     for row in board.rows)
        events = [Event.of("round.refill", "TRE-5", {"drawn": need, "board_after": full,
                                                  "deck_after": len(rest),
                                                  "start_player": start_player.value})] if need else []
        return Board(rows), tuple(rest), events
    all_cards = cards + list(deck)
    n = len(all_cards)
    if n == 0:
        return Board(((Square(),),)), (), []
    n_rows, n_cols = rearranged_shape(n)
    rows = tuple(tuple(_plain(t) for t in all_cards[r * n_cols:(r + 1) * n_cols])
                 for r in range(n_rows))
    events = []
    if deck:
        events.append(Event("round.refill", "TRE-5", {"drawn": len(deck), "board_after": n,
                                                      "deck_after": 0,
                                                      "start_player": start_player.value}))
    if n >= 9:  # with 8 or fewer the game ends (END-1): nothing to rearrange for
        events.append(Event("round.rearrange", "TRE-5", {"cards": n, "rows": n_rows,
                                                         "columns": n_cols},
                            interpretation="INT-5"))
    return Board(rows), (), events


def attack_cards_of(state: GameState, colour: Colour) -> Counter[AttackKind]:
    """Every attack card of ``colour`` wherever it is (hand + discard + board): conservation."""
    ps = state.player(colour)
    counts = Counter(ps.hand) + Counter(ps.discard)
    counts.update(c.kind for c in state.board.cards().values() if c.colour == colour)
    return counts

