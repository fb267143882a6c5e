"""Battle Time (BAT-1..5): reveal, then resolve attack cards one at a time by speed.

>>> from captain.rules.model import Board, Colour
>>> from captain.rules.situation import Seating
>>> board = Board.parse(["11 13:r3 22 14", "15 16:b1 23 24:r2", "26 33 34:g1 35", "36:g0 44 45 46"])
>>> seats = Seating((Colour.RED, Colour.BLUE, Colour.GREEN), Colour.RED)
>>> result = resolve_battle(board, seats)
>>> [(s.card.token, s.outcome.value) for s in result.turns]
[('g0', 'no-effect'), ('b1', 'acts'), ('g1', 'removed-before'), ('r2', 'acts'), ('r3', 'removed-before')]
>>> sorted(c.token for c in result.board.cards().values())
['g0', 'r2']
"""

from __future__ import annotations

import enum
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from ..clauses import implements
from ..events import Event
from ..model import AttackCard, AttackKind, Board, Colour, Position
from ..situation import RuleSet, Seating, SpeedOrder


class Outcome(enum.Enum):
    """What a card did on its turn."""

    ACTS = "acts"                      # BAT-4: it removed what its range held (maybe nothing)
    NO_EFFECT = "no-effect"            # [0] and [5] have no effect
    REMOVED_BEFORE = "removed-before"  # BAT-3: taken off before its turn, does nothing


@dataclass(frozen=True)
class CardTurn:
    """One card's turn in Battle Time.

    Attributes:
        index: 0-based turn number in resolution order.
        position: where the card lies.
        card: the attack card.
        outcome: see :class:`Outcome`.
        range: positions its effect reaches (empty unless it acts).
        removed: positions of other players' cards it removed, sorted.
        immune: positions of other players' [0] cards in range (never removed).
        removed_by: for ``REMOVED_BEFORE``, the position of the card that removed it.
        tie_break: True when this card's place among cards of its speed decided something
            (see :meth:`BattleResult.ties_that_matter`; BAT-2).
        event: the explanation of this turn.
    """

    index: int
    position: Position
    card: AttackCard
    outcome: Outcome
    range: frozenset[Position]
    removed: tuple[Position, ...]
    immune: tuple[Position, ...]
    removed_by: Position | None
    tie_break: bool
    event: Event


class BattleResult:
    """Battle Time resolved.

    The outcome is computed at once as bit masks (see :mod:`captain.rules.geometry`);
    the turns, events and the board after Battle Time are built the first time
    they are asked for, from that compact trace. The result never changes.

    Attributes:
        before: the board as revealed.
        board: the board after Battle Time (removed cards gone, treasure untouched).
        turns: every card's turn in order (:class:`CardTurn`).
        events: ``battle.reveal``, one event per turn, ``battle.done``.
    """

    __slots__ = ("before", "_keyed", "_trace", "_alive", "_rules", "_cache", "_own", "_treasure",
                 "_hostage")
    before: Board
    _keyed: list[tuple[Any, ...]]
    _trace: list[tuple[int, int, int, int]]
    _alive: int
    _rules: RuleSet
    _cache: dict[str, Any]
    _own: dict[Colour, int]
    _treasure: int
    _hostage: int

    def __init__(self, before: Board, order: list[tuple],
                 trace: list[tuple[int, int, int, int]], alive: int, rules: RuleSet,
                 own: dict[Colour, int], treasure: int, hostage: int) -> None:
        setattr_ = object.__setattr__
        setattr_(self, "before", before)
        setattr_(self, "_keyed", order)  # (sort key, card, bit index, value) in resolution order
        setattr_(self, "_trace", trace)  # (outcome, removed mask, immune mask, removed-by)
        setattr_(self, "_alive", alive)
        setattr_(self, "_rules", rules)
        setattr_(self, "_own", own)
        setattr_(self, "_cache", {})
        setattr_(self, "_treasure", treasure)
        setattr_(self, "_hostage", hostage)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("BattleResult is immutable")

    def __repr__(self) -> str:
        return f"<BattleResult: {len(self._keyed)} cards, {self._alive.bit_count()} survive>"

    @property
    def treasure_mask(self) -> int:
        """Mask (board geometry bits) of the positions holding a treasure card."""
        return self._treasure

    @property
    def _order(self) -> list[tuple[Position, AttackCard]]:
        """``(position, card)`` in resolution order."""
        found = self._cache.get("order")
        if found is None:
            positions = self.before.geometry.positions
            found = self._cache["order"] = [(positions[k[2]], k[1]) for k in self._keyed]
        return found

    @property
    def alive_mask(self) -> int:
        """Mask (board geometry bits) of the cards still on the board after Battle Time."""
        return self._alive

    def surviving_masks(self) -> dict[Colour, int]:
        """Each colour's surviving cards as a geometry bit mask."""
        return {c: m & self._alive for c, m in self._own.items()}

    @property
    def survivors(self) -> dict[Position, AttackCard]:
        """Attack cards left on the board after Battle Time."""
        if "survivors" not in self._cache:
            g = self.before.geometry
            self._cache["survivors"] = {p: c for p, c in self._order
                                        if self._alive >> g.index[p] & 1}
        return self._cache["survivors"]

    @property
    def board(self) -> Board:
        if "board" not in self._cache:
            g = self.before.geometry
            gone = [p for p, _c in self._order if not self._alive >> g.index[p] & 1]
            self._cache["board"] = self.before.without(gone)
        return self._cache["board"]

    @property
    def removals(self) -> list[tuple[Position, tuple[Position, ...]]]:
        """``(acting position, removed positions)`` for every action that removed a card."""
        g = self.before.geometry
        return [(self._order[i][0], g.to_positions(t[1]))
                for i, t in enumerate(self._trace) if t[1]]

    @property
    def turns(self) -> tuple[CardTurn, ...]:
        """Every card's turn, in resolution order (BAT-1, BAT-2)."""
        if "turns" not in self._cache:
            self._build()
        return self._cache["turns"]

    @property
    def events(self) -> tuple[Event, ...]:
        if "events" not in self._cache:
            self._build()
        return self._cache["events"]

    def discarded(self) -> dict[Colour, list[AttackCard]]:
        """Cards sent to each owner's discard during Battle Time (BAT-4)."""
        out: dict[Colour, list[AttackCard]] = {}
        for turn in self.turns:
            for pos in turn.removed:
                card = self.before.at(pos).card
                assert card is not None
                out.setdefault(card.colour, []).append(card)
        return out

    def ties_that_matter(self) -> tuple[tuple[int, int], ...]:
        """Pairs ``(i, j)`` of turn numbers, ``i < j``: cards of equal speed and different
        colours whose order decided something between them. With their two turns
        exchanged, what one does to the other changes: the earlier removes the later in
        one order and not in the other, or the later would remove the earlier. The
        earlier card went first because of BAT-2 (the start player first, then clockwise).
        Ties where neither card can touch the other change nothing and are not listed."""
        found = self._cache.get("ties")
        if found is None:
            found = self._cache["ties"] = tuple(self._ties())
        return found

    def _ties(self) -> Iterator[tuple[int, int]]:
        keyed = self._keyed
        reach = self.before.geometry.reach
        everyone = 0
        for mask in self._own.values():
            everyone |= mask
        for i, (_k, card_i, _a, value) in enumerate(keyed):
            if value in (0, 5):
                continue  # no effect either way
            for j in range(i + 1, len(keyed)):
                _k2, card_j, _b, value_j = keyed[j]
                if value_j != value:
                    break  # one speed's cards are next to each other
                if card_j.colour is card_i.colour:
                    continue
                swapped = list(keyed)
                swapped[i], swapped[j] = swapped[j], swapped[i]
                trace, _alive = fight(swapped, reach, self._own, self._hostage, everyone)
                if (_between(keyed, self._trace, i, j)
                        != _between(swapped, trace, j, i)):
                    yield (i, j)

    def _build(self) -> None:
        rules = self._rules
        g = self.before.geometry
        reversed_order = rules.speed_order is SpeedOrder.REVERSED
        speed_clause = "VAR-1" if reversed_order else "BAT-1"
        events: list[Event] = [Event("battle.reveal", speed_clause, {
            "cards": [[list(p), c.token] for p, c in self._order],
            "order": [int(k) for k in sorted(AttackKind, key=rules.speed_rank)],
            "order_clause": speed_clause,
        })]
        ties = self.ties_that_matter()
        turns: list[CardTurn] = []
        for index, ((pos, card), (outcome, removed_m, immune_m, by)) in enumerate(
                zip(self._order, self._trace, strict=True)):
            went_before = [self._tie_entry(index, j) for i, j in ties if i == index]
            went_after = [self._tie_entry(index, i) for i, j in ties if j == index]
            tie_break = bool(went_before or went_after)
            base = {"index": index, "position": list(pos), "card": card.token,
                    "colour": card.colour.value, "value": card.speed,
                    "order_clause": "BAT-2" if tie_break else speed_clause}
            if went_before:
                base["went_before"] = went_before
            if went_after:
                base["went_after"] = went_after
            if outcome == _SKIPPED:
                by_pos = self._order[by][0]
                event = Event("battle.skipped", "BAT-3", {**base, "removed_by": list(by_pos)})
                turns.append(CardTurn(index, pos, card, Outcome.REMOVED_BEFORE, frozenset(), (), (),
                                        by_pos, tie_break, event))
            elif outcome == _NO_EFFECT:
                event = Event("battle.no_effect", "BAT-4", base)
                turns.append(CardTurn(index, pos, card, Outcome.NO_EFFECT, frozenset(), (), (),
                                        None, tie_break, event))
            else:
                reach = frozenset(g.to_positions(g.reach[card.speed][g.index[pos]]))
                removed = g.to_positions(removed_m)
                immune = g.to_positions(immune_m)
                event = Event("battle.act", "BAT-4", {
                    **base, "range": sorted(list(p) for p in reach),
                    "removed": [list(p) for p in removed],
                    "removed_cards": [self.before.at(p).card.token for p in removed],  # type: ignore[union-attr]
                    "immune": [list(p) for p in immune]})
                turns.append(CardTurn(index, pos, card, Outcome.ACTS, reach, removed, immune,
                                        None, tie_break, event))
            events.append(event)
        events.append(Event("battle.done", "BAT-1", {
            "survivors": [[list(p), c.token] for p, c in sorted(self.survivors.items())]}))
        self._cache["turns"] = tuple(turns)
        self._cache["events"] = tuple(events)

    def _tie_entry(self, index: int, other: int) -> dict:
        """The other card of a tie that mattered, and why the earlier of the two went
        first: its owner is the start player, or sits earlier clockwise (BAT-2)."""
        first = min(index, other)
        seat_of_first = (self._keyed[first][0] >> 8) & 0xFF
        pos, card = self._order[other]
        return {"position": list(pos), "card": card.token, "colour": card.colour.value,
                "reason": "start-player" if seat_of_first == 0 else "seat-order"}


def _between(order: list[tuple], trace: list[tuple[int, int, int, int]], first: int,
             second: int) -> tuple[bool, bool]:
    """(the card at turn ``first`` removed the one at turn ``second``, and the other way
    round), for two cards given by their turn numbers in ``order``."""
    a, b = order[first][2], order[second][2]
    return (bool(trace[first][1] >> b & 1), bool(trace[second][1] >> a & 1))


_ACTS, _NO_EFFECT, _SKIPPED = 0, 1, 2
_NO_EFFECT_ROW = (_NO_EFFECT, 0, 0, -1)


def resolution_order(board: Board, seating: Seating, rules: RuleSet = RuleSet()
                     ) -> list[tuple[Position, AttackCard]]:
    """Cards in the order they take their turns (BAT-1, BAT-2, VAR-1): the order
    :func:`resolve_battle` uses — by speed rank, then seat from the start player
    clockwise, then position."""
    return list(resolve_battle(board, seating, rules)._order)


@implements("BAT-1", "BAT-2")
def resolve_battle(board: Board, seating: Seating, rules: RuleSet = RuleSet()) -> BattleResult:
    """Resolve Battle Time on ``board`` (attack cards revealed; no dice).

    Returns a :class:`BattleResult`. Cards take their turns by speed, 0 to 5 (BAT-1;
    VAR-1 when the rule set reverses it, :func:`~captain.rules.situation.speed_ranks`);
    cards of equal speed in seat order from the start player clockwise (BAT-2). Each turn
    is :func:`fight`'s (BAT-3, BAT-4).
    """
    census = board.census()  # one pass over the cells, shared with Situation.validate
    seat = seating.ranks
    speed = rules.speed_ranks
    # one int orders the turns: speed rank, then seat, then board order (BAT-1, BAT-2)
    keyed = [(speed[value] << 16 | seat[colour] << 8 | at, card, at, value)
             for at, card, colour, value in census.cards]
    own: dict[Colour, int] = dict.fromkeys(seat, 0)
    own.update(census.own)
    occupancy = census.occupancy
    treasure, alive, hostage = occupancy.treasure, occupancy.cards, census.hostage
    keyed.sort()  # the keys are distinct: only the int is ever compared
    trace, survivors = fight(keyed, board.geometry.reach, own, hostage, alive)
    return BattleResult(board, keyed, trace, survivors, rules, own, treasure, hostage)


@implements("BAT-3", "BAT-4")
def fight(order: list[tuple], reach: tuple[tuple[int, ...], ...], own: dict[Colour, int],
          hostage: int, alive: int) -> tuple[list[tuple[int, int, int, int]], int]:
    """The cards' turns in ``order`` (rows ``(key, card, bit index, value)``): a card
    removed before its turn does nothing (BAT-3); an acting card removes every other
    player's card in its range (``reach``, BAT-4/BAT-5) except [0] cards (``hostage``
    mask), never its owner's (``own`` masks). [0] and [5] have no effect.

    Returns ``(trace, survivors)``: per card ``(outcome, removed mask, immune mask,
    index of the card that removed it or -1)``, and the mask of cards left.
    """
    removed_by: dict[int, int] = {}
    trace: list[tuple[int, int, int, int]] = []
    append = trace.append
    for i, (_key, card, at, value) in enumerate(order):
        bit = 1 << at
        if not alive & bit:
            append((_SKIPPED, 0, 0, removed_by[bit]))
            continue
        if value == 0 or value == 5:
            append(_NO_EFFECT_ROW)
            continue
        hit = reach[value][at] & ~own[card.colour]
        targets = hit & alive & ~hostage
        if targets:
            alive &= ~targets
            t = targets
            while t:
                low = t & -t
                removed_by[low] = i
                t ^= low
        append((_ACTS, targets, hit & hostage, -1))
    return trace, alive


