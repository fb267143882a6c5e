"""End of a round: refill (TRE-5, INT-5), end check (END-1, INT-4), standings (END-2, END-3)."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from .events import Event
from .model import Colour, Treasure
from .situation import Seating


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
class RoundEnd:
    """What happens after Treasure Time.

    Attributes:
        board_after: treasure cards on the board after refilling.
        deck_after: cards left in the deck.
        shape: ``(rows, columns)`` of the refilled or rearranged board (INT-5).
        rearranged: True when the deck could not refill the full grid.
        game_over: END-1 (with INT-4: the game ends at 8 or fewer cards).
        standings: best first (END-2, END-3; equal players in seat order).
        winner: the winner, or ``None`` while the game goes on or when END-3 leaves a tie.
        events: the explanation.
    """

    board_after: int
    deck_after: int
    shape: tuple[int, int]
    rearranged: bool
    game_over: bool
    standings: tuple[Standing, ...]
    winner: Colour | None
    events: tuple[Event, ...]


def rearranged_shape(n: int) -> tuple[int, int]:
    """Rows and columns for ``n`` cards laid as close to a square as possible (INT-5).

    >>> rearranged_shape(12), rearranged_shape(9), rearranged_shape(10)
    ((3, 4), (3, 3), (3, 4))
    """
    if n <= 0:
        return (0, 0)
    cols = math.ceil(math.sqrt(n))
    return (math.ceil(n / cols), cols)


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


def end_round(*, cards_left: int, deck: int, seating: Seating,
              won_before: Mapping[Colour, tuple[Treasure, ...]],
              won_now: Mapping[Colour, tuple[Treasure, ...]]) -> RoundEnd:
    """Refill, check for the end of the game and rank the players.

    Args:
        cards_left: treasure cards on the board after Treasure Time (≥ 0).
        deck: treasure cards in the deck (≥ 0).
        seating: players and start player (the start player refills, TRE-5).
        won_before: cards won in earlier rounds, by colour.
        won_now: cards won this Treasure Time, by colour.
    """
    full = 9 if len(seating.players) == 2 else 16
    side = 3 if full == 9 else 4
    draw = min(deck, max(0, full - cards_left))
    after = cards_left + draw
    deck_after = deck - draw
    events: list[Event] = []
    if draw:
        events.append(Event("round.refill", "TRE-5", {
            "drawn": draw, "board_after": after, "deck_after": deck_after,
            "start_player": seating.start_player.value}))
    rearranged = 9 <= after < full  # at 8 or fewer the game ends instead (END-1)
    if rearranged:
        shape = rearranged_shape(after)
        events.append(Event("round.rearrange", "TRE-5", {"cards": after, "rows": shape[0],
                                                         "columns": shape[1]},
                            interpretation="INT-5"))
    else:
        shape = (side, side) if after == full else rearranged_shape(after)
    game_over = deck_after == 0 and after <= 8
    standings: tuple[Standing, ...] = ()
    winner: Colour | None = None
    if game_over:
        events.append(Event("round.game_over", "END-1", {"board_after": after},
                            interpretation="INT-4" if after == 8 else None))
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
        events.append(Event("round.continue", "END-1", {
            "board_after": after, "deck_after": deck_after,
            "start_player": seating.start_player.value},
            interpretation="INT-4" if after == 8 else None))
    return RoundEnd(after, deck_after, shape, rearranged, game_over, standings, winner,
                    tuple(events))
