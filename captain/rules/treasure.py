"""Treasure Time (TRE-1..4, INT-1, INT-2): who wins which treasure cards.

Two readings of the official text (INT-1):

* ``sequential`` (default): players collect one at a time from the start player
  clockwise; each collection takes that player's winnings *and attack cards* off the
  board before the next player looks for sandwiches.
* ``simultaneous``: every sandwich is judged on the board as Battle Time left it;
  TRE-3 only settles cards claimed by several players.

Whenever the two readings give different winnings, the result says so
(``treasure.reading_matters`` event, :attr:`TreasureResult.other_reading`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import combinations

from .events import Event
from .model import Board, Colour, Position
from .situation import Collection, RuleSet, Seating


@dataclass(frozen=True)
class Sandwich:
    """Two of a player's cards on one line and what lies strictly between them (TRE-2).

    Attributes:
        colour: the player.
        ends: the two card positions, in line order.
        between: positions strictly between that exist on the grid.
        won: positions whose treasure card this sandwich wins.
        blocked_by: positions of other players' attack cards between (sandwich broken).
        lost_to: ``{position: colour}`` cards an earlier player took first (TRE-3).
        gap: True when a position between holds no treasure card (INT-2 applied).
        int1_unblocked: positions of cards that blocked this sandwich after Battle Time
            but were collected away by an earlier player (sequential INT-1 applied).
    """

    colour: Colour
    ends: tuple[Position, Position]
    between: tuple[Position, ...]
    won: tuple[Position, ...]
    blocked_by: tuple[Position, ...]
    lost_to: dict[Position, Colour] = field(default_factory=dict)
    gap: bool = False
    int1_unblocked: tuple[Position, ...] = ()


@dataclass(frozen=True)
class TreasureResult:
    """Treasure Time resolved.

    Attributes:
        reading: the INT-1 reading used.
        winnings: every seated colour → sorted positions of treasure cards it wins.
        order: colours in collection order (start player clockwise).
        under: colour → positions won under its own surviving cards (TRE-1).
        sandwiches: every sandwich found, in collection order.
        board: the board after Treasure Time: won treasure and all attack cards gone.
        events: the explanation, in order.
        other_reading: winnings under the other INT-1 reading when they differ, else None.
    """

    reading: Collection
    winnings: dict[Colour, tuple[Position, ...]]
    order: tuple[Colour, ...]
    under: dict[Colour, tuple[Position, ...]]
    sandwiches: tuple[Sandwich, ...]
    board: Board
    events: tuple[Event, ...]
    other_reading: dict[Colour, tuple[Position, ...]] | None = None


def _consecutive_pairs(own: list[Position], board: Board) -> list[tuple[Position, Position]]:
    """Pairs of own cards sharing a line with no own card strictly between them."""
    own_set = set(own)
    pairs = []
    for a, b in combinations(sorted(own), 2):
        between = board.between(a, b)
        if between is None:
            continue
        if any(p in own_set for p in between):
            continue  # covered by the shorter pairs it splits into
        pairs.append((a, b))
    return pairs


def _lattice_len(a: Position, b: Position) -> int:
    return max(abs(b.row - a.row), abs(b.col - a.col)) - 1


def _collect(board: Board, seating: Seating, reading: Collection) -> tuple[
        dict[Colour, tuple[Position, ...]], dict[Colour, tuple[Position, ...]],
        list[Sandwich], Board]:
    order = seating.order()
    after_battle = board
    current = board
    taken_by: dict[Position, Colour] = {}
    winnings: dict[Colour, tuple[Position, ...]] = {}
    under: dict[Colour, tuple[Position, ...]] = {}
    sandwiches: list[Sandwich] = []
    # Under the simultaneous reading every sandwich is judged on the board after Battle Time.
    for colour in order:
        look = current if reading is Collection.SEQUENTIAL else after_battle
        own = sorted(p for p, c in look.cards().items() if c.colour == colour)
        mine = [p for p in own if p not in taken_by]
        for p in mine:
            taken_by[p] = colour
        won: set[Position] = set(mine)
        under[colour] = tuple(mine)
        for a, b in _consecutive_pairs(own, look):
            between = look.between(a, b) or []
            blockers = tuple(p for p in between
                             if (c := look.at(p).card) is not None and c.colour != colour)
            unblocked = tuple(p for p in between
                              if (c := after_battle.at(p).card) is not None
                              and c.colour != colour and look.at(p).card is None)
            gap = (len(between) < _lattice_len(a, b)
                   or any(after_battle.at(p).treasure is None for p in between))
            if blockers:
                sandwiches.append(Sandwich(colour, (a, b), tuple(between), (), blockers))
                continue
            # TRE-3 settles cards that several sandwiches claim; a card an earlier player won
            # under their own attack card (TRE-1, gone by now under INT-1) was never contested.
            lost = {p: taken_by[p] for p in between if p in taken_by and taken_by[p] != colour
                    and after_battle.at(p).card is None}
            got = tuple(p for p in between if look.at(p).treasure is not None
                        and look.at(p).card is None and (p not in taken_by or taken_by[p] == colour))
            for p in got:
                taken_by[p] = colour
            won.update(got)
            sandwiches.append(Sandwich(colour, (a, b), tuple(between), got, (), lost, gap, unblocked))
        winnings[colour] = tuple(sorted(won))
        if reading is Collection.SEQUENTIAL:
            current = current.without(winnings[colour], treasure=True)
            current = current.without(p for p, c in current.cards().items() if c.colour == colour)
    # TRE-4: every attack card still on the board goes to its owner's discard.
    final = after_battle.without((p for ps in winnings.values() for p in ps), treasure=True)
    final = final.without(final.cards())
    return winnings, under, sandwiches, final


def collect_treasure(board: Board, seating: Seating, rules: RuleSet = RuleSet()) -> TreasureResult:
    """Resolve Treasure Time on the board Battle Time left.

    Returns a :class:`TreasureResult` with every seated colour's winnings. Applies TRE-1
    (cards under surviving attack cards), TRE-2 (sandwiches, broken only by another
    player's card between), TRE-3 (start player first, then clockwise), TRE-4, INT-1
    (the rule set's reading; the other reading's result is attached when it differs) and
    INT-2 (positions without a treasure card do not break a sandwich).
    """
    reading = rules.collection
    winnings, under, sandwiches, final = _collect(board, seating, reading)
    other = (Collection.SIMULTANEOUS if reading is Collection.SEQUENTIAL
             else Collection.SEQUENTIAL)
    other_winnings = _collect(board, seating, other)[0]
    differs = other_winnings != winnings
    events: list[Event] = []
    order = seating.order()
    for colour in order:
        for p in under[colour]:
            card = board.at(p).card
            events.append(Event("treasure.card", "TRE-1", {
                "colour": colour.value, "position": list(p), "card": card.token if card else None}))
        for s in (s for s in sandwiches if s.colour == colour):
            params = {"colour": colour.value, "ends": [list(p) for p in s.ends],
                      "between": [list(p) for p in s.between]}
            if s.blocked_by:
                events.append(Event("treasure.blocked", "TRE-2", {
                    **params, "blocked_by": [list(p) for p in s.blocked_by],
                    "blockers": [board.at(p).card.token for p in s.blocked_by]}))  # type: ignore[union-attr]
                continue
            if s.won:
                interpretation = None
                if s.int1_unblocked and differs:
                    interpretation = "INT-1"
                elif s.gap:
                    interpretation = "INT-2"
                events.append(Event("treasure.sandwich", "TRE-2", {
                    **params, "won": [list(p) for p in s.won], "gap": s.gap,
                    "unblocked": [list(p) for p in s.int1_unblocked]},
                    interpretation=interpretation))
            if s.lost_to:
                events.append(Event("treasure.priority", "TRE-3", {
                    **params, "positions": [list(p) for p in sorted(s.lost_to)],
                    "winner": s.lost_to[min(s.lost_to)].value}))
    if differs:
        events.append(Event("treasure.reading_matters", "INT-1", {
            "reading": reading.value, "other_reading": other.value,
            "winnings": {c.value: [list(p) for p in winnings[c]] for c in order},
            "other_winnings": {c.value: [list(p) for p in other_winnings[c]] for c in order},
        }, interpretation="INT-1"))
    left = sorted(board.cards().items())
    if left:
        events.append(Event("treasure.discard", "TRE-4", {
            "cards": [[list(p), c.token] for p, c in left]}))
    return TreasureResult(reading, {c: winnings[c] for c in seating.players}, order,
                          under, tuple(sandwiches), final, tuple(events),
                          other_winnings if differs else None)
