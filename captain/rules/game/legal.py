"""What each player may do now: the listing of legal actions and the check of one action.

:func:`listing` enumerates; :func:`check` says why an action is refused, naming the
clause. Both ask the same rule functions (the dice pair of DICE-2 is
:func:`pair_left`, the bell :func:`~captain.rules.resolve.bell.may_ring`), and a property test
checks that every listed action passes :func:`check`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import combinations
from typing import Any

from ..caches import ACTIONS, PAIRS
from ..clauses import implements
from ..errors import IllegalAction, InvalidInput
from ..model import Colour
from ..resolve.bell import may_ring
from ..situation import Mode
from .actions import Action, Claim, Pass, PlaceAttackCard, RingBell, RingStartBell, Roll, placements, shared
from .state import GameState, Phase, PlayerState


def pairs_shown(dice: tuple[int, ...]) -> frozenset[tuple[int, int]]:
    """The treasure faces ``(low, high)`` some two of ``dice`` show (DICE-2), memoised.

    ``dice`` must be sorted (dice in hand always are).
    """
    found = PAIRS.table.get(dice)
    return found if found is not None else PAIRS.fill(dice)


@PAIRS.computes
def _pairs(dice: tuple[int, ...]) -> frozenset[tuple[int, int]]:
    faces = sorted(set(dice))
    return frozenset([(a, b) for i, a in enumerate(faces) for b in faces[i + 1:]]
                     + [(a, a) for a in faces if dice.count(a) >= 2])


@implements("DICE-2")
def pair_left(dice: tuple[int, ...], faces: tuple[int, int]) -> tuple[int, ...] | None:
    """The dice left in hand after putting two dice showing exactly ``faces`` on a card,
    or ``None`` when no two of ``dice`` do (DICE-2: {3,5} needs a 3 and a 5, {4,4} two
    4s). ``dice`` sorted; the result is sorted too."""
    if faces not in pairs_shown(dice):
        return None
    return without_values(dice, faces)


def without_values(hand: Sequence[int], values: Iterable[int]) -> tuple[int, ...] | None:
    """``hand`` with one die of each of ``values`` taken out, or ``None`` if one is missing."""
    left = list(hand)
    for v in values:
        if v not in left:
            return None
        left.remove(v)
    return tuple(left)


@implements("INT-8")
def can_place_in_principle(state: GameState, ps: PlayerState) -> bool:
    """True when ``ps`` may still act in this Dice Time: no false-bell penalty, two dice
    in hand and a card without dice on the board. Whether the dice match a card does not
    matter: a player who cannot claim any card simply re-rolls (INT-8; such a roll's
    ``dice.roll`` event carries INT-8)."""
    return not ps.false_bell and len(ps.dice) >= 2 and bool(state.board.free_faces())


def listing(state: GameState, player: Colour | None = None) -> list[Action]:
    """Every action some player (or only ``player``) may take now, in a stable order.

    Action mode Dice Time lists actions of all players (there are no turns); strategy
    mode and Setting Time list only the player on turn. Strategy-mode re-rolls are listed
    once per distinct choice of face values.
    """
    if player is None:
        return _listing(state)
    if state.phase is Phase.DICE and state.rules.mode is Mode.ACTION:
        return _action_mode_dice_actions(state, (state.player(player),))
    # one player may act: the start player before Dice Time, else the player on turn
    mover = state.start_player if state.phase is Phase.AWAIT_START_BELL else state.turn
    return _listing(state) if player is mover and state.phase is not Phase.OVER else []


def _listing(state: GameState) -> list[Action]:
    out: list[Action] = []
    if state.phase is Phase.OVER:
        return out
    if state.phase is Phase.AWAIT_START_BELL:
        return [shared(RingStartBell, state.start_player)]
    if state.phase is Phase.SETTING:
        colour = state.turn
        assert colour is not None
        hand = state.player(colour).hand or state.player(colour).discard  # SET-4
        board = state.board
        positions = board.geometry.to_positions(board.occupancy().dice_of.get(colour, 0))
        kinds = dict.fromkeys(hand)  # hands are sorted: distinct kinds, ascending
        for pos in positions:  # board order: sorted
            by_value = placements(colour, pos)
            out += [by_value[kind] for kind in kinds]
        return out
    if state.rules.mode is Mode.STRATEGY:
        assert state.turn is not None
        ps = state.player(state.turn)
        pairs = pairs_shown(ps.dice)
        for pos, faces in state.board.free_faces().items():
            if faces in pairs:
                out.append(shared(Claim, ps.colour, pos))
        if state.rerolled:
            out.append(shared(Pass, ps.colour))
        else:
            seen: set[tuple[int, ...]] = set()
            for n in range(1, len(ps.dice) + 1):
                for combo in combinations(ps.dice, n):
                    if combo not in seen:
                        seen.add(combo)
                        out.append(shared(Roll, ps.colour, combo))
        return out
    return _action_mode_dice_actions(state, state.players)


def _action_mode_dice_actions(state: GameState, players: Sequence[PlayerState]) -> list[Action]:
    out: list[Action] = []
    free = state.board.free_faces()
    condition = None
    actions = ACTIONS.table
    pairs_table = PAIRS.table
    for ps in players:
        if ps.false_bell:
            continue
        colour = ps.colour
        dice = ps.dice
        if dice:
            out.append(shared(Roll, colour))
            pairs = pairs_table.get(dice)
            if pairs is None:
                pairs = PAIRS.fill(dice)
            for pos, faces in free.items():  # DICE-2: exactly the card's two faces
                if faces in pairs:
                    claim = actions.get((Claim, colour, pos))
                    out.append(claim if claim is not None else shared(Claim, colour, pos))
        if condition is None:
            condition = may_ring(state.board, state.seating, state.rules)
        if condition:
            out.append(shared(RingBell, colour))
    return out


def _illegal(message: str, clause: str, code: str, **params: Any) -> IllegalAction:
    return IllegalAction(message, clause=clause, code=code, **params)


def check(state: GameState, action: Action) -> None:
    """Raise :class:`IllegalAction` (with the forbidding clause) unless ``action`` is legal.

    Raises :class:`InvalidInput` for something that is not an action at all.
    """
    player = action.player
    if player not in state.seating.players:
        raise _illegal(f"{player.value} is not seated", "SETUP-1", "not-seated", colour=player.value)
    if state.phase is Phase.OVER:
        raise _illegal("the game is over", "END-1", "game-over")
    if isinstance(action, RingStartBell):
        _check_start_bell(state, action)
    elif isinstance(action, PlaceAttackCard):
        _check_place(state, action)
    elif isinstance(action, Roll | Claim | RingBell | Pass):
        _check_dice_time(state, action)
    else:
        raise InvalidInput(f"unknown action {action!r}", code="unknown-action")


def _check_start_bell(state: GameState, action: RingStartBell) -> None:
    if state.phase is not Phase.AWAIT_START_BELL:
        raise _illegal("Dice Time is already under way or over", "DICE-1", "wrong-phase")
    if action.player != state.start_player:
        raise _illegal(f"only the start player ({state.start_player.value}) begins "
                       "Dice Time", "DICE-1", "not-start-player")


def _check_place(state: GameState, action: PlaceAttackCard) -> None:
    player = action.player
    if state.phase is not Phase.SETTING:
        raise _illegal("attack cards are placed in Setting Time", "SET-1", "wrong-phase")
    if player != state.turn:
        raise _illegal(f"it is {state.turn.value if state.turn else 'nobody'}'s turn",
                       "SET-1", "not-your-turn")
    cell = state.board.get(action.position)
    if cell is None or cell.dice is None or cell.dice.colour != player:
        raise _illegal(f"no {player.value} dice on {action.position}", "SET-1",
                       "no-own-dice", position=list(action.position))
    ps = state.player(player)
    hand = ps.hand or ps.discard
    if action.kind not in hand:
        raise _illegal(f"[{int(action.kind)}] is not in {player.value}'s hand", "SET-1",
                       "not-in-hand", value=int(action.kind))


def _check_dice_time(state: GameState, action: Roll | Claim | RingBell | Pass) -> None:
    player = action.player
    strategy = state.rules.mode is Mode.STRATEGY
    if state.phase is Phase.SETTING:  # a move that lost the race to the bell (or last pair)
        ended_by = "STRAT-3" if strategy else "DICE-5" if len(state.seating.players) == 2 else "DICE-4"
        raise _illegal(f"Dice Time is over; {state.start_player.value} is the start player",
                       ended_by, "dice-time-over", colour=state.start_player.value)
    if state.phase is not Phase.DICE:
        raise _illegal("dice are rolled and placed in Dice Time", "DICE-1", "wrong-phase")
    if state.player(player).false_bell:
        raise _illegal(f"{player.value} rang a false bell and sits out this Dice Time",
                       "DICE-6", "false-bell")
    if strategy and player != state.turn:
        raise _illegal(f"it is {state.turn.value if state.turn else 'nobody'}'s turn",
                       "STRAT-1", "not-your-turn")
    if isinstance(action, Roll):
        _check_roll(state, action, strategy)
    elif isinstance(action, Claim):
        _check_claim(state, action)
    elif isinstance(action, RingBell):
        if strategy:
            raise _illegal("in strategy mode Dice Time ends by itself when a line is full",
                           "STRAT-3", "no-bell-in-strategy")
        # otherwise ringing is always allowed; a wrong ring is a false bell (DICE-6)
    elif not (strategy and state.rules.place_after_reroll and state.rerolled):  # Pass
        raise _illegal("passing is only possible after a re-roll with the STRAT-4 option",
                       "STRAT-4", "no-pass")


def _check_roll(state: GameState, action: Roll, strategy: bool) -> None:
    dice = state.player(action.player).dice
    if not dice:
        raise _illegal("no dice in hand to roll", "DICE-3", "no-dice")
    if strategy:
        if state.rerolled:
            raise _illegal("one re-roll a turn; now place or pass", "STRAT-2", "rerolled")
        if not action.dice:
            raise _illegal("choose at least one die to re-roll", "STRAT-2", "empty-reroll")
        if without_values(dice, action.dice) is None:
            raise _illegal(f"dice {list(action.dice)} are not all in hand", "STRAT-2",
                           "not-in-hand")
    elif action.dice is not None and sorted(action.dice) != sorted(dice):
        raise _illegal("re-roll all dice in hand at once, never only some", "DICE-3",
                       "partial-reroll")


def _check_claim(state: GameState, action: Claim) -> None:
    cell = state.board.get(action.position)
    if cell is None or cell.treasure is None:
        raise _illegal(f"no treasure card at {action.position}", "DICE-2", "no-card",
                       position=list(action.position))
    if cell.occupant is not None:
        raise _illegal(f"the card at {action.position} already holds dice", "DICE-2",
                       "occupied", position=list(action.position))
    if pair_left(state.player(action.player).dice, cell.treasure.faces) is None:
        raise _illegal(f"{action.player.value}'s dice in hand do not show {cell.treasure.low} and "
                       f"{cell.treasure.high}", "DICE-2", "no-pair",
                       position=list(action.position))
