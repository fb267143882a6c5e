"""Dealing a new game (SETUP-1..4) and the game's random source (rolls, shuffles).

Randomness comes from ``(seed, draws)`` held in the state, so every state — and every
answer the engine gives about it — is reproducible from the state and its rule set alone.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Sequence

from ..clauses import implements
from ..errors import InvalidSituation
from ..events import Event
from ..model import FULL_DECK, AttackKind, Board, Colour, Treasure, cell_of
from ..situation import RuleSet, Seating, table_setup
from .state import GameState, PlayerState


def _rng(state_seed: int, draws: int) -> random.Random:
    return random.Random(state_seed * 1_000_003 + draws)


def rolled_faces(seed: int, draws: int, n: int) -> tuple[tuple[int, ...], int]:
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
def _without_layout(deck: list[Treasure], layout: Board, players: int) -> list[Treasure]:
    """The deck less the cards of ``layout``, after checking the layout (see new_game)."""
    side = table_setup(players).side
    if len(layout.rows) != side or any(len(row) != side for row in layout.rows):
        raise InvalidSituation(f"the grid must be {side}×{side} for {players} players",
                              where="layout", clause="SETUP-4" if players == 2 else "SETUP-3",
                              code="layout-shape")
    left = list(deck)
    for pos, cell in layout:
        if cell.treasure is None or cell.occupant is not None:
            raise InvalidSituation("a starting grid holds one treasure card on every position and "
                                  "nothing on them", where=f"position {pos}", clause="SETUP-3",
                                  code="layout-square", position=list(pos))
        if cell.treasure not in left:
            raise InvalidSituation(f"treasure card {cell.treasure} is there more than twice",
                                  where=f"position {pos}", clause="SETUP-2",
                                  code="too-many-copies", position=list(pos))
        left.remove(cell.treasure)
    return left


def starting_hand(rules: RuleSet, player_count: int) -> tuple[AttackKind, ...]:
    """Attack cards a player starts with, sorted (:func:`~captain.rules.situation.table_setup`)."""
    copies = table_setup(player_count, rules.no_scouts).copies
    return tuple(k for k in AttackKind for _ in range(copies[int(k)]))


@implements("SETUP-3")
def new_game(players: Sequence[Colour], *, rules: RuleSet = RuleSet(), seed: int = 0,
             start_player: Colour | None = None, layout: Board | None = None) -> GameState:
    """Deal a new game: shuffle the treasure cards, lay the grid face up, pick the start
    player (SETUP-3); with two players box ten cards unseen first (SETUP-4); every player
    holds their starting hand (SETUP-1, VAR-2).

    Args:
        players: 2-4 distinct colours, clockwise.
        rules: the rule set.
        seed: the random source for shuffling, rolls and (if not given) the start player.
        start_player: who starts; random from ``seed`` when ``None`` (SETUP-3).
        layout: a grid to start from instead of a dealt one (worked examples, the
            tutorial): the full grid's shape, treasure cards only; the deck (and box)
            are the other cards, shuffled.

    Raises :class:`~captain.rules.errors.InvalidSituation` for a bad player list or a
    layout that is not the full grid of treasure cards the game can hold.
    """
    players = tuple(players)
    rng = _rng(seed, 0)
    deck = list(FULL_DECK)
    if layout is not None:
        deck = _without_layout(deck, layout, len(players))
    rng.shuffle(deck)
    if start_player is None:
        start_player = players[rng.randrange(len(players))] if players else Colour.RED
    seating = Seating(players, start_player)
    table = table_setup(len(players), rules.no_scouts)
    side = table.side
    box, deck = deck[:table.boxed], deck[table.boxed:]  # SETUP-4: unseen, back to the box
    if layout is None:
        cards, deck = deck[: side * side], deck[side * side:]
        board = Board(tuple(tuple(cell_of(cards[r * side + c]) for c in range(side))
                            for r in range(side)))
    else:
        board = layout
    hand = starting_hand(rules, len(players))
    return GameState(rules, seating, board, tuple(deck), tuple(box),
                     tuple(PlayerState(c, hand) for c in players), seed=seed, draws=1,
                     log=(Event("game.setup", "SETUP-4" if len(players) == 2 else "SETUP-3", {
                         "players": [c.value for c in players], "start_player": start_player.value,
                         "grid": [side, side], "deck": len(deck), "box": len(box),
                         "hand": [int(k) for k in hand]}),))


