"""Treasure Time (TRE-1..4, INT-1, INT-2): who wins which treasure cards.

:func:`winnings_masks` is the one implementation of the collection. Given a
:class:`TreasureTrace` it also records every pair of a player's cards it looked at —
blocked, won, lost to an earlier player — which is what the explanation is built from.

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
from typing import Any, NamedTuple

from ..clauses import implements
from ..events import Event
from ..model import AttackCard, Board, Cell, Colour, Position, cell_of
from ..situation import Collection, RuleSet, Seating
from .battle import BattleResult, resolve_battle


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


class PairLook(NamedTuple):
    """One pair of a player's cards on a line with no own card between, as
    :func:`winnings_masks` judged it (bit masks of the board's geometry).

    ``won`` is what this pair adds; ``lost`` what earlier players took first (TRE-3);
    ``unblocked`` other players' cards that lay between after Battle Time but were
    collected away before this player looked (sequential INT-1).
    """

    colour: Colour
    a: int
    b: int
    between: int
    blockers: int
    won: int
    lost: int
    unblocked: int


class TreasureTrace:
    """What :func:`winnings_masks` did, recorded only when a trace is passed to it.

    Attributes:
        under: colour → mask of treasure won under its own surviving cards (TRE-1).
        pairs: every :class:`PairLook`, in collection order.
    """

    __slots__ = ("under", "pairs")

    def __init__(self) -> None:
        self.under: dict[Colour, int] = {}
        self.pairs: list[PairLook] = []


class TreasureResult:
    """Treasure Time resolved.

    ``winnings`` come straight from bit masks; the explanation (``under``,
    ``sandwiches``, ``events``), the board after Treasure Time and ``other_reading``
    are worked out the first time they are asked for, by running the same collection
    with a trace. The result never changes.

    Attributes:
        reading: the INT-1 reading used.
        winnings: every seated colour → sorted positions of treasure cards it wins.
        order: colours in collection order (start player clockwise).
        under: colour → positions won under its own surviving cards (TRE-1).
        sandwiches: every sandwich found, in collection order.
        board: the board after Treasure Time: won treasure and all attack cards gone.
        events: the explanation, in order.
        other_reading: winnings under the other INT-1 reading when they differ, else None.
        gap_reading: winnings if a gap broke a sandwich (the other reading of INT-2)
            when they differ, else None.
    """

    __slots__ = ("reading", "winnings", "order", "_after_battle", "_seating", "_cache")
    reading: Collection
    winnings: dict[Colour, tuple[Position, ...]]
    order: tuple[Colour, ...]
    _after_battle: Board | BattleResult
    _seating: Seating
    _cache: dict[str, Any]

    def __init__(self, reading: Collection, winnings: dict[Colour, tuple[Position, ...]],
                 order: tuple[Colour, ...], after_battle: Board | BattleResult,
                 seating: Seating) -> None:
        object.__setattr__(self, "reading", reading)
        object.__setattr__(self, "winnings", winnings)
        object.__setattr__(self, "order", order)
        object.__setattr__(self, "_after_battle", after_battle)  # or the battle, until needed
        object.__setattr__(self, "_seating", seating)
        object.__setattr__(self, "_cache", {})

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("TreasureResult is immutable")

    def __repr__(self) -> str:
        won = ", ".join(f"{c.value}: {len(self.winnings[c])}" for c in self.order)
        return f"<TreasureResult {self.reading.value}: {won}>"

    def _detail(self) -> dict:
        if not self._cache:
            after = self._after_battle
            if isinstance(after, BattleResult):
                after = after.board
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

    @property
    def gap_reading(self) -> dict[Colour, tuple[Position, ...]] | None:
        return self._detail()["gap_reading"]


def board_masks(board: Board) -> tuple[int, dict[Colour, int]]:
    """``(treasure mask, colour → attack card mask)`` of ``board``."""
    index = board.geometry.index
    treasure = 0
    cards: dict[Colour, int] = {}
    for pos, cell in board:
        bit = 1 << index[pos]
        if cell.treasure is not None:
            treasure |= bit
        card = cell.occupant
        if card is not None and card.__class__ is AttackCard:
            cards[card.colour] = cards.get(card.colour, 0) | bit
    return treasure, cards


@implements("TRE-1", "TRE-2", "TRE-3", "INT-1", "INT-2")
def winnings_masks(board: Board, order: tuple[Colour, ...], reading: Collection,
                   masks: tuple[int, dict[Colour, int]] | None = None,
                   trace: TreasureTrace | None = None, *, gaps_break: bool = False
                   ) -> dict[Colour, int]:
    """Each colour's winnings as a geometry bit mask.

    ``board`` is the board after Battle Time (``masks`` may give its :func:`board_masks`
    directly); ``order`` the colours from the start player clockwise. Each player wins
    the treasure under their surviving cards (TRE-1) and every card strictly between two
    of their cards on a line with no other player's card between (TRE-2); a position
    without a treasure card does not break the line (INT-2); a card several players'
    sandwiches claim goes to the first in ``order`` (TRE-3). Sequential reading (INT-1):
    each collection takes the player's cards and winnings away before the next player
    looks; simultaneous: sandwiches are judged on the board as it is.

    With a ``trace``, also records every pair of cards looked at (:class:`TreasureTrace`).
    ``gaps_break=True`` is the other reading of INT-2, for explanations only: a position
    without a treasure card (or off the grid) between two cards breaks the sandwich.
    """
    g = board.geometry
    between_rows = g.between_rows
    bits_of = g.bits
    treasure, cards = masks if masks is not None else board_masks(board)
    all_cards = alive = 0
    for m in cards.values():
        alive |= m
    all_cards = alive
    sequential = reading is Collection.SEQUENTIAL
    taken = 0
    won: dict[Colour, int] = {}
    for colour in order:
        own = cards.get(colour, 0)
        others = alive & ~own
        win = own & ~taken
        if trace is not None:
            trace.under[colour] = win
        bits = bits_of(own)
        for x, a in enumerate(bits):
            row = between_rows[a]
            for b in bits[x + 1:]:
                btw = row[b]
                if btw < 0 or btw & own:
                    continue  # no common line, or split into shorter pairs by an own card
                blockers = btw & others
                if gaps_break and ((a, b) in g.lattice_gap or btw & ~treasure):
                    continue  # the other reading of INT-2: a gap breaks the sandwich
                if trace is None:
                    if not blockers:
                        win |= btw & treasure & ~taken
                    continue
                gained = 0 if blockers else btw & treasure & ~taken
                win |= gained
                trace.pairs.append(PairLook(
                    colour, a, b, btw, blockers, gained,
                    0 if blockers else btw & taken & ~all_cards,
                    0 if blockers else btw & all_cards & ~own & ~alive))
        taken |= win
        won[colour] = win
        if sequential:
            alive &= ~own
    return won


def collect_treasure(board: Board, seating: Seating, rules: RuleSet = RuleSet()) -> TreasureResult:
    """Resolve Treasure Time on the board Battle Time left.

    Returns a :class:`TreasureResult` with every seated colour's winnings
    (:func:`winnings_masks` under the rule set's INT-1 reading; the other reading's
    result is attached when it differs).
    """
    order = seating.order()
    won = winnings_masks(board, order, rules.collection)
    g = board.geometry
    winnings = {c: g.to_positions(won.get(c, 0)) for c in seating.players}
    return TreasureResult(rules.collection, winnings, order, board, seating)


def resolve_round(board: Board, seating: Seating, rules: RuleSet = RuleSet()
                  ) -> tuple[BattleResult, TreasureResult]:
    """Battle Time then Treasure Time on a revealed board, sharing their bit masks.

    Returns ``(BattleResult, TreasureResult)``, the same as :func:`resolve_battle`
    followed by :func:`collect_treasure` on its board, without building the board in
    between.
    """
    battle = resolve_battle(board, seating, rules)
    order = seating.order()
    won = winnings_masks(board, order, rules.collection,
                         (battle.treasure_mask, battle.surviving_masks()))
    g = board.geometry
    winnings = {c: g.to_positions(won.get(c, 0)) for c in seating.players}
    return battle, TreasureResult(rules.collection, winnings, order, battle, seating)


@implements("TRE-4")
def after_treasure_time(board: Board, won: int) -> Board:
    """The board after Treasure Time: the won treasure cards (``won``, a mask) are gone
    and every attack card left goes to its owner's discard (TRE-4)."""
    rows = []
    bit = 1
    for row in board.rows:
        kept = []
        for cell in row:
            if won & bit:
                kept.append(_EMPTY)
            elif cell.occupant is not None:
                kept.append(cell_of(cell.treasure))  # type: ignore[arg-type]
            else:
                kept.append(cell)
            bit <<= 1
        rows.append(tuple(kept))
    return Board(tuple(rows))


_EMPTY = Cell()


def _sandwich_events(board: Board, s: Sandwich, differs: bool, gaps_matter: bool) -> list[Event]:
    """One sandwich's events: blocked (TRE-2), or won (TRE-2, naming INT-1 or INT-2 when
    that reading decided it) and the cards an earlier player took first (TRE-3)."""
    params = {"colour": s.colour.value, "ends": [list(p) for p in s.ends],
              "between": [list(p) for p in s.between]}
    if s.blocked_by:
        return [Event("treasure.blocked", "TRE-2", {
            **params, "blocked_by": [list(p) for p in s.blocked_by],
            "blockers": [board.at(p).card.token for p in s.blocked_by]})]  # type: ignore[union-attr]
    events = []
    if s.won:
        interpretation = None
        if s.int1_unblocked and differs:
            interpretation = "INT-1"
        elif s.gap and gaps_matter:
            interpretation = "INT-2"
        events.append(Event("treasure.sandwich", "TRE-2", {
            **params, "won": [list(p) for p in s.won], "gap": s.gap,
            "unblocked": [list(p) for p in s.int1_unblocked]},
            interpretation=interpretation))
    if s.lost_to:
        events.append(Event("treasure.priority", "TRE-3", {
            **params, "positions": [list(p) for p in sorted(s.lost_to)],
            "winner": s.lost_to[min(s.lost_to)].value}))
    return events


def _explain(board: Board, seating: Seating, reading: Collection,
             winnings: dict[Colour, tuple[Position, ...]]) -> dict:
    """The step-by-step account behind the winnings: the same collection with a trace."""
    g = board.geometry
    order = seating.order()
    masks = board_masks(board)
    treasure = masks[0]
    trace = TreasureTrace()
    won = winnings_masks(board, order, reading, masks, trace)
    other = (Collection.SIMULTANEOUS if reading is Collection.SEQUENTIAL
             else Collection.SEQUENTIAL)
    other_won = winnings_masks(board, order, other, masks)
    positions = g.to_positions
    other_winnings = {c: positions(other_won.get(c, 0)) for c in seating.players}
    differs = other_winnings != winnings
    gap_won = winnings_masks(board, order, reading, masks, gaps_break=True)
    gap_winnings = {c: positions(gap_won.get(c, 0)) for c in seating.players}
    gaps_matter = gap_winnings != winnings

    sandwiches: list[Sandwich] = []
    for look in trace.pairs:
        ends = (g.positions[look.a], g.positions[look.b])
        lost_to = {}
        for i in g.bits(look.lost):
            lost_to[g.positions[i]] = next(c for c in order if won.get(c, 0) >> i & 1)
        gap = (look.a, look.b) in g.lattice_gap or bool(look.between & ~treasure)
        sandwiches.append(Sandwich(look.colour, ends, positions(look.between), positions(look.won),
                                   positions(look.blockers), lost_to, gap and not look.blockers,
                                   positions(look.unblocked)))
    under = {c: positions(trace.under.get(c, 0)) for c in order}

    events: list[Event] = []
    for colour in order:
        for p in under[colour]:
            card = board.at(p).card
            events.append(Event("treasure.card", "TRE-1", {
                "colour": colour.value, "position": list(p), "card": card.token if card else None}))
        for s in (s for s in sandwiches if s.colour == colour):
            events.extend(_sandwich_events(board, s, differs, gaps_matter))
        if not won.get(colour, 0):
            # said, not left out: every player's collection is a step of the answer, and a
            # player with no card left wins nothing at all (TRE-1)
            events.append(Event("treasure.none", "TRE-1", {"colour": colour.value}))
    if differs:
        events.append(Event("treasure.reading_matters", "INT-1", {
            "reading": reading.value, "other_reading": other.value,
            "winnings": {c.value: [list(p) for p in winnings[c]] for c in order},
            "other_winnings": {c.value: [list(p) for p in other_winnings[c]] for c in order},
        }, interpretation="INT-1"))
    if gaps_matter:
        events.append(Event("treasure.gap_matters", "TRE-2", {
            "winnings": {c.value: [list(p) for p in winnings[c]] for c in order},
            "other_winnings": {c.value: [list(p) for p in gap_winnings[c]] for c in order},
        }, interpretation="INT-2"))
    left = sorted(board.cards().items())
    if left:
        events.append(Event("treasure.discard", "TRE-4", {
            "cards": [[list(p), c.token] for p, c in left]}))
    won_all = 0
    for m in won.values():
        won_all |= m
    return {"under": under, "sandwiches": tuple(sandwiches),
            "board": after_treasure_time(board, won_all), "events": tuple(events),
            "other_reading": other_winnings if differs else None,
            "gap_reading": gap_winnings if gaps_matter else None}
