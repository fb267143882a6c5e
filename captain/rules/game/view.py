"""What one player may know: a game state with everything hidden from them re-drawn.

At the table a player sees the board, the dice everyone rolled, the cards revealed in
Battle Time so far, who won what, their own hand and their own face-down cards. Hidden
from them: the order and content of the treasure deck and of the box (two players), the
face-down cards the others placed this Setting Time, and every future roll. Discard
piles lie face down (the rules call them private), but every card in them was revealed
in Battle Time first, so a player who remembers knows them; what an opponent holds in
hand *plus* face down on the board is therefore known as a whole — only which of those
cards lie face down is not.

:func:`determinize` gives a :class:`~captain.rules.game.state.GameState` that agrees with
the real one on everything ``colour`` sees and draws everything else at random,
consistently with what ``colour`` sees. Computer captains decide from such states only,
so no hidden fact can change their choice (a test changes hidden facts and checks).
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace

from ..model import FULL_DECK, AttackKind, Colour, Treasure, cell_of
from .setup import starting_hand
from .state import GameState, Phase, PlayerState


def unrevealed(state: GameState, colour: Colour) -> Counter[AttackKind]:
    """The attack cards of ``colour`` that are in hand or face down on the board, as a
    multiset: the starting hand less the (public) discard pile."""
    left = Counter(starting_hand(state.rules, len(state.players)))
    left.subtract(state.player(colour).discard)
    return +left


def unseen_treasure(state: GameState) -> list[Treasure]:
    """Treasure cards nobody at the table has seen: the deck and the box, as a sorted
    list (their order is hidden): the full deck less the board and the won cards."""
    left = Counter(FULL_DECK)
    for _pos, cell in state.board:
        if cell.treasure is not None:
            left[cell.treasure] -= 1
    for p in state.players:
        left.subtract(p.won)
    return sorted(left.elements())


def determinize(state: GameState, colour: Colour, rng: random.Random) -> GameState:
    """A state ``colour`` cannot tell from ``state``, with the hidden facts re-drawn by
    ``rng``: the deck and box (from :func:`unseen_treasure`), the other players' hands
    and face-down cards (from :func:`unrevealed`), and the random seed of future rolls.

    The result depends only on what ``colour`` sees and on ``rng``. Raises
    :class:`~captain.rules.errors.InvalidInput` if ``colour`` is not seated.
    """
    me = state.player(colour)
    unseen = unseen_treasure(state)
    rng.shuffle(unseen)
    deck = tuple(unseen[:len(state.deck)])
    box = tuple(unseen[len(state.deck):len(state.deck) + len(state.box)])
    board = state.board
    players = []
    for p in state.players:
        if p.colour is colour:
            players.append(me)
            continue
        face_down = [pos for pos, card in board.cards().items() if card.colour is p.colour] \
            if state.phase is Phase.SETTING else []
        kinds = sorted(unrevealed(state, p.colour).elements())
        rng.shuffle(kinds)
        # the first len(face_down) of the shuffled kinds lie face down, the rest are in hand
        for pos, kind in zip(face_down, kinds, strict=False):
            board = board.with_cell(pos, cell_of(board.at(pos).treasure, p.colour, kind))  # type: ignore[arg-type]
        players.append(_with_hand(p, tuple(sorted(kinds[len(face_down):]))))
    return replace(state, board=board, deck=deck, box=box, players=tuple(players),
                   seed=rng.getrandbits(62))


def _with_hand(player: PlayerState, hand: tuple[AttackKind, ...]) -> PlayerState:
    return replace(player, hand=hand)
