"""End of a round: refill (TRE-5, INT-5), end check (END-1, INT-4), standings (END-2, END-3).

:func:`end_round` is the one implementation, for the analyzer (which knows only how
many cards the deck holds) and for whole games (which lay the real cards out as
:func:`lay_out` says, following the :class:`RoundEnd` it returns).

>>> from captain.rules.model import Colour
>>> from captain.rules.situation import Seating
>>> seats = Seating((Colour.RED, Colour.BLUE, Colour.GREEN), Colour.RED)
>>> end = end_round(cards_left=11, deck=3, seating=seats, won_before={}, won_now={})
>>> end.board_after, end.deck_after, end.shape, end.rearranged, end.game_over
(14, 0, (4, 4), True, False)
>>> [e.code for e in end.events]
['round.refill', 'round.rearrange', 'round.continue']
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from ..clauses import implements
from ..events import Event
from ..model import Board, Cell, Colour, Treasure, cell_of
from ..situation import END_AT, Seating, table_setup


@dataclass(frozen=True)
class Standing:
    """One player's score: ``cards`` won in all (END-2) and ``doubles`` among them (END-3)."""

    player: Colour
    cards: int
    doubles: int

    def to_json(self) -> dict[str, object]:
        """``{"player", "cards", "doubles"}`` as in the case format."""
        return {"player": self.player.value, "cards": self.cards, "doubles": self.doubles}


@dataclass(frozen=True)
class Refill:
    """How the start player refills the grid after Treasure Time (:func:`refill_plan`).

    Attributes:
        drawn: cards drawn from the deck.
        board_after: treasure cards on the board afterwards.
        deck_after: cards left in the deck.
        shape: ``(rows, columns)`` of the board afterwards.
        rearranged: True when every card is laid out again as close to a square as
            possible (INT-5), because the deck could not fill the full grid.
        in_place: True when the drawn cards simply fill the empty positions of the full
            grid (otherwise every card is laid out again in ``shape``).
        events: ``round.refill`` and ``round.rearrange`` as they apply.
    """

    drawn: int
    board_after: int
    deck_after: int
    shape: tuple[int, int]
    rearranged: bool
    in_place: bool
    events: tuple[Event, ...]


@dataclass(frozen=True)
class RoundEnd:
    """What happens after Treasure Time.

    Attributes:
        board_after: treasure cards on the board after refilling.
        deck_after: cards left in the deck.
        shape: ``(rows, columns)`` of the refilled or rearranged board (INT-5).
        rearranged: True when the deck could not refill the full grid.
        game_over: END-1 (with INT-4: the game ends at 8 or fewer cards).
        standings: best first (END-2, END-3; equal players in seat order); empty while the
            game goes on.
        winner: the winner, or ``None`` while the game goes on or when END-3 leaves a tie.
        events: the explanation: the refill's, then the end check's and the standings'.
        refill: the refill itself.
    """

    board_after: int
    deck_after: int
    shape: tuple[int, int]
    rearranged: bool
    game_over: bool
    standings: tuple[Standing, ...]
    winner: Colour | None
    events: tuple[Event, ...]
    refill: Refill


@implements("INT-5")
def rearranged_shape(n: int) -> tuple[int, int]:
    """Rows and columns for ``n`` cards laid as close to a square as possible (INT-5):
    ``ceil(√n)`` columns, rows filled top to bottom, the last one possibly short.

    >>> rearranged_shape(12), rearranged_shape(9), rearranged_shape(10)
    ((3, 4), (3, 3), (3, 4))
    """
    if n <= 0:
        return (0, 0)
    cols = math.ceil(math.sqrt(n))
    return (math.ceil(n / cols), cols)


@implements("END-2", "END-3")
def rank_players(seating: Seating, won: Mapping[Colour, Sequence[Treasure]]
                 ) -> tuple[tuple[Standing, ...], Colour | None]:
    """Standings best first and the winner (END-2, END-3).

    Most cards first; equal cards: more doubles first; still equal: seat order, and
    ``winner`` is ``None`` when the best two are level on both (the players settle it).
    """
    table = [Standing(c, len(won.get(c, ())), sum(1 for t in won.get(c, ()) if t.is_double))
             for c in seating.players]
    standings = tuple(sorted(table, key=lambda s: (-s.cards, -s.doubles,
                                                   seating.players.index(s.player))))
    best = standings[0]
    tied = [s for s in standings if (s.cards, s.doubles) == (best.cards, best.doubles)]
    return standings, (best.player if len(tied) == 1 else None)


@implements("TRE-5")
def refill_plan(*, cards_left: int, deck: int, players: int, start_player: Colour,
                standard: bool = True) -> Refill:
    """TRE-5: the start player refills the empty positions from the deck to 4×4 (3×3 with
    two players); when the deck cannot fill the grid, every card is laid out as close to a
    square as possible (:func:`rearranged_shape`, INT-5).

    Args:
        cards_left: treasure cards on the board after Treasure Time (≥ 0).
        deck: treasure cards in the deck (≥ 0).
        players: 2, 3 or 4.
        start_player: who refills (named in the event).
        standard: False when the board is not the full grid any more (an earlier round
            rearranged it): then its cards are laid out again whatever their number.
    """
    full = table_setup(players).side ** 2
    side = math.isqrt(full)
    draw = min(deck, max(0, full - cards_left))
    after = cards_left + draw
    events: list[Event] = []
    if draw:
        events.append(Event.of("round.refill", "TRE-5", {
            "drawn": draw, "board_after": after, "deck_after": deck - draw,
            "start_player": start_player.value}))
    # with 8 or fewer cards the game ends (END-1): nothing is rearranged for that
    rearranged = after > END_AT and (after < full or not standard)
    if rearranged:
        shape = rearranged_shape(after)
        events.append(Event("round.rearrange", "TRE-5", {"cards": after, "rows": shape[0],
                                                         "columns": shape[1]},
                            interpretation="INT-5"))
    else:
        shape = (side, side) if after == full and standard else rearranged_shape(after)
    return Refill(draw, after, deck - draw, shape, rearranged, after == full and standard,
                  tuple(events))


@implements("END-1", "INT-4")
def end_round(*, cards_left: int, deck: int, seating: Seating,
              won_before: Mapping[Colour, Sequence[Treasure]],
              won_now: Mapping[Colour, Sequence[Treasure]], standard: bool = True) -> RoundEnd:
    """Refill (:func:`refill_plan`), check for the end of the game and rank the players.

    END-1 with INT-4: the game ends when, after refilling, the deck is empty and 8 or
    fewer cards lie on the board (one line of the official text says "8 or more" go on;
    the rest say 8 or fewer end it). Then the standings (:func:`rank_players`).
    Arguments as for :func:`refill_plan`; ``won_before`` and ``won_now`` are the cards
    each colour won in earlier rounds and in this Treasure Time.
    """
    refill = refill_plan(cards_left=cards_left, deck=deck, players=len(seating.players),
                         start_player=seating.start_player, standard=standard)
    after, deck_after = refill.board_after, refill.deck_after
    events = list(refill.events)
    game_over = deck_after == 0 and after <= END_AT
    standings: tuple[Standing, ...] = ()
    winner: Colour | None = None
    if game_over:
        events.append(Event("round.game_over", "END-1", {"board_after": after},
                            interpretation="INT-4" if after == END_AT else None))
        won_all = {c: tuple(won_before.get(c, ())) + tuple(won_now.get(c, ()))
                   for c in seating.players}
        standings, winner = rank_players(seating, won_all)
        best = standings[0]
        tied = [s for s in standings if (s.cards, s.doubles) == (best.cards, best.doubles)]
        level_on_cards = [s for s in standings if s.cards == best.cards]
        events.append(Event("round.standings", "END-3" if len(level_on_cards) > 1 else "END-2", {
            "standings": [s.to_json() for s in standings],
            "winner": winner.value if winner else None,
            "tied": [s.player.value for s in tied] if len(tied) > 1 else [],
            "doubles_decided": len(level_on_cards) > 1 and winner is not None}))
    else:
        events.append(Event.of("round.continue", "END-1", {
            "board_after": after, "deck_after": deck_after,
            "start_player": seating.start_player.value},
            interpretation="INT-4" if after == END_AT else None))
    return RoundEnd(after, deck_after, refill.shape, refill.rearranged, game_over, standings,
                    winner, tuple(events), refill)


def lay_out(board: Board, deck: Sequence[Treasure], end: Refill) -> tuple[Board, tuple[Treasure, ...]]:
    """The real board and deck after :func:`refill_plan` decided ``end`` for them.

    ``board`` holds treasure cards only. Refilling puts the top ``end.drawn`` cards of
    ``deck`` into the empty positions, row by row; otherwise the board's cards (row by
    row) and then the drawn ones are laid into ``end.shape``, the last row possibly
    short. Returns ``(board, deck left)``.
    """
    drawn, rest = tuple(deck[:end.drawn]), tuple(deck[end.drawn:])
    if end.board_after == 0:
        return Board(((Cell(),),)), rest
    if end.in_place:
        cards = iter(drawn)
        rows = tuple(tuple(cell if cell.treasure is not None else _plain(next(cards)) for cell in row)
                     for row in board.rows)
        return Board(rows), rest
    dealt = [cell.treasure for row in board.rows for cell in row if cell.treasure is not None] + list(drawn)
    n_rows, n_cols = end.shape
    rows = tuple(tuple(_plain(t) for t in dealt[r * n_cols:(r + 1) * n_cols]) for r in range(n_rows))
    return Board(rows), rest


def _plain(treasure: Treasure) -> Cell:
    return cell_of(treasure)
