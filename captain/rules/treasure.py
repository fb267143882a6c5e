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
from .model import AttackCard, Board, Colour, Position
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


class TreasureResult:
    """Treasure Time resolved.

    ``winnings`` come straight from bit masks; the explanation (``under``,
    ``sandwiches``, ``events``), the board after Treasure Time and ``other_reading``
    are worked out the first time they are asked for. The result never changes.

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

    __slots__ = ("reading", "winnings", "order", "_after_battle", "_seating", "_cache")

    def __init__(self, reading: Collection, winnings: dict[Colour, tuple[Position, ...]],
                 order: tuple[Colour, ...], after_battle: Board, seating: Seating) -> None:
        object.__setattr__(self, "reading", reading)
        object.__setattr__(self, "winnings", winnings)
        object.__setattr__(self, "order", order)
        object.__setattr__(self, "_after_battle", after_battle)
        object.__setattr__(self, "_seating", seating)
        object.__setattr__(self, "_cache", {})

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("TreasureResult is immutable")

    def _detail(self) -> dict:
        if not self._cache:
            after = self._after_battle
            if isinstance(after, _Lazy):
                after = after.battle.board
            self._cache.update(_explain(after, self._seating, self.reading, self.winnings))
        return self._cache

    @property
    def under(self) -> dict[Colour, tuple[Position, ...]]:
        return self._detail()["under"]

    @property
    def sandwiches(self) -> tuple[Sandwich, ...]:
        return self._detail()["sandwiches"]

    @property
    def board(self) -> Board:
        return self._detail()["board"]

    @property
    def events(self) -> tuple[Event, ...]:
        return self._detail()["events"]

    @property
    def other_reading(self) -> dict[Colour, tuple[Position, ...]] | None:
        return self._detail()["other_reading"]


def board_masks(board: Board) -> tuple[int, dict[Colour, int]]:
    """``(treasure mask, colour → attack card mask)`` of ``board``."""
    index = board.geometry.index
    treasure = 0
    cards: dict[Colour, int] = {}
    for pos, sq in board:
        bit = 1 << index[pos]
        if sq.treasure is not None:
            treasure |= bit
        card = sq.occupant
        if card is not None and card.__class__ is AttackCard:
            cards[card.colour] = cards.get(card.colour, 0) | bit
    return treasure, cards


def winnings_masks(board: Board, order: tuple[Colour, ...], reading: Collection,
                   masks: tuple[int, dict[Colour, int]] | None = None) -> dict[Colour, int]:
    """Each colour's winnings as a geometry bit mask (TRE-1..3, INT-1, INT-2).

    ``board`` is the board after Battle Time (``masks`` may give its
    :func:`board_masks` directly). Sequential reading: each collection takes the
    player's cards and winnings away before the next player looks; simultaneous:
    sandwiches are judged on the board as it is and earlier players keep priority.
    """
    g = board.geometry
    between = g.between
    treasure, cards = masks if masks is not None else board_masks(board)
    alive = 0
    for m in cards.values():
        alive |= m
    sequential = reading is Collection.SEQUENTIAL
    taken = 0
    won: dict[Colour, int] = {}
    for colour in order:
        own = cards.get(colour, 0)
        others = alive & ~own
        win = own & ~taken
        bits = g.bits(own)
        for x, a in enumerate(bits):
            for b in bits[x + 1:]:
                btw = between.get((a, b))
                if btw is None or btw & own or btw & others:
                    continue
                win |= btw & treasure & ~taken
        taken |= win
        won[colour] = win
        if sequential:
            alive &= ~own
    return won


def collect_treasure(board: Board, seating: Seating, rules: RuleSet = RuleSet()) -> TreasureResult:
    """Resolve Treasure Time on the board Battle Time left.

    Returns a :class:`TreasureResult` with every seated colour's winnings. Applies TRE-1
    (cards under surviving attack cards), TRE-2 (sandwiches, broken only by another
    player's card between), TRE-3 (start player first, then clockwise), TRE-4, INT-1
    (the rule set's reading; the other reading's result is attached when it differs) and
    INT-2 (positions without a treasure card do not break a sandwich).
    """
    order = seating.order()
    won = winnings_masks(board, order, rules.collection)
    g = board.geometry
    winnings = {c: g.to_positions(won.get(c, 0)) for c in seating.players}
    return TreasureResult(rules.collection, winnings, order, board, seating)


def resolve_round(board: Board, seating: Seating, rules: RuleSet = RuleSet()):
    """Battle Time then Treasure Time on a revealed board, sharing their bit masks.

    Returns ``(BattleResult, TreasureResult)``, the same as :func:`resolve_battle`
    followed by :func:`collect_treasure` on its board, without building the board in
    between.
    """
    from .battle import resolve_battle

    battle = resolve_battle(board, seating, rules)
    order = seating.order()
    won = winnings_masks(board, order, rules.collection, (battle._treasure, battle.surviving_masks()))
    g = board.geometry
    winnings = {c: g.to_positions(won.get(c, 0)) for c in seating.players}
    return battle, TreasureResult(rules.collection, winnings, order, _Lazy(battle), seating)


class _Lazy:
    """Stands for the board after Battle Time until the explanation needs it."""

    __slots__ = ("battle",)

    def __init__(self, battle) -> None:
        self.battle = battle


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


def _explain(board: Board, seating: Seating, reading: Collection,
             winnings_fast: dict[Colour, tuple[Position, ...]]) -> dict:
    """The step-by-step account behind the winnings (built on demand)."""
    winnings, under, sandwiches, final = _collect(board, seating, reading)
    assert {c: winnings[c] for c in seating.players} == winnings_fast, "treasure paths disagree"
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
    return {"under": under, "sandwiches": tuple(sandwiches), "board": final,
            "events": tuple(events), "other_reading": other_winnings if differs else None}
