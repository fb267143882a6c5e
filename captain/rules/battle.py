"""Battle Time (BAT-1..5): reveal, then resolve attack cards one at a time by speed.

>>> from captain.rules.model import Board, Colour
>>> from captain.rules.situation import Seating
>>> board = Board.parse(["11 13:r3 22 14", "15 16:b1 23 24:r2", "26 33 34:g1 35", "36:g0 44 45 46"])
>>> seats = Seating((Colour.RED, Colour.BLUE, Colour.GREEN), Colour.RED)
>>> result = resolve_battle(board, seats)
>>> [(s.card.token, s.outcome.value) for s in result.steps]
[('g0', 'no-effect'), ('b1', 'acts'), ('g1', 'removed-before'), ('r2', 'acts'), ('r3', 'removed-before')]
>>> sorted(c.token for c in result.board.cards().values())
['g0', 'r2']
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from .events import Event
from .model import AttackCard, AttackKind, Board, Colour, Position
from .situation import RuleSet, Seating, SpeedOrder


class Outcome(enum.Enum):
    """What a card did on its turn."""

    ACTS = "acts"                      # BAT-4: it removed what its range held (maybe nothing)
    NO_EFFECT = "no-effect"            # [0] and [5] have no effect
    REMOVED_BEFORE = "removed-before"  # BAT-3: taken off before its turn, does nothing


@dataclass(frozen=True)
class BattleStep:
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
        tie_break: True when a card of the same speed went before it because of seating
            order (BAT-2).
        event: the explanation of this step.
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


@dataclass(frozen=True)
class BattleResult:
    """Battle Time resolved.

    Attributes:
        before: the board as revealed.
        board: the board after Battle Time (removed cards gone, treasure untouched).
        steps: every card's turn in order.
        events: ``battle.reveal``, one event per step, ``battle.done``.
    """

    before: Board
    board: Board
    steps: tuple[BattleStep, ...]
    events: tuple[Event, ...]

    @property
    def removals(self) -> list[tuple[Position, tuple[Position, ...]]]:
        """``(acting position, removed positions)`` for every action that removed a card."""
        return [(s.position, s.removed) for s in self.steps if s.removed]

    @property
    def survivors(self) -> dict[Position, AttackCard]:
        """Attack cards left on the board after Battle Time."""
        return self.board.cards()

    def discarded(self) -> dict[Colour, list[AttackCard]]:
        """Cards sent to each owner's discard during Battle Time (BAT-4)."""
        out: dict[Colour, list[AttackCard]] = {}
        for step in self.steps:
            for pos in step.removed:
                card = self.before.at(pos).card
                assert card is not None
                out.setdefault(card.colour, []).append(card)
        return out


def resolution_order(board: Board, seating: Seating, rules: RuleSet = RuleSet()
                     ) -> list[tuple[Position, AttackCard]]:
    """Cards in the order they take their turns (BAT-1, BAT-2, VAR-1).

    Sorted by speed rank, then seat from the start player clockwise, then position.
    """
    cards = board.cards()
    return sorted(cards.items(), key=lambda pc: (rules.speed_rank(pc[1].kind),
                                                 seating.rank(pc[1].colour), pc[0]))


def resolve_battle(board: Board, seating: Seating, rules: RuleSet = RuleSet()) -> BattleResult:
    """Resolve Battle Time on ``board`` (attack cards revealed; no dice).

    Returns a :class:`BattleResult`. Applies BAT-1 (speed order; VAR-1 when the rule
    set reverses it), BAT-2 (ties: start player, then clockwise), BAT-3 (a removed card
    does not act), BAT-4 (ranges; own cards and [0] are never removed) and BAT-5.
    """
    order = resolution_order(board, seating, rules)
    speed_clause = "VAR-1" if rules.speed_order is SpeedOrder.REVERSED else "BAT-1"
    events: list[Event] = [Event("battle.reveal", "BAT-1", {
        "cards": [[list(p), c.token] for p, c in order],
        "order": [int(k) for k in sorted(AttackKind, key=rules.speed_rank)],
        "order_clause": speed_clause,
    })]
    current = board
    removed_by: dict[Position, Position] = {}
    steps: list[BattleStep] = []
    seen_speed: dict[int, list[Colour]] = {}
    for index, (pos, card) in enumerate(order):
        earlier_same_speed = seen_speed.setdefault(card.speed, [])
        tie_break = any(c != card.colour for c in earlier_same_speed)
        earlier_same_speed.append(card.colour)
        base = {"index": index, "position": list(pos), "card": card.token,
                "colour": card.colour.value, "value": card.speed}
        if tie_break:
            base["before"] = sorted({c.value for c in earlier_same_speed if c != card.colour})
        if pos in removed_by:
            event = Event("battle.skipped", "BAT-3", {**base, "removed_by": list(removed_by[pos])})
            steps.append(BattleStep(index, pos, card, Outcome.REMOVED_BEFORE, frozenset(), (), (),
                                    removed_by[pos], tie_break, event))
            events.append(event)
            continue
        if card.kind in (AttackKind.HOSTAGE_GAMBIT, AttackKind.SCOUT_SHIP):
            event = Event("battle.no_effect", "BAT-4", base)
            steps.append(BattleStep(index, pos, card, Outcome.NO_EFFECT, frozenset(), (), (),
                                    None, tie_break, event))
            events.append(event)
            continue
        reach = current.range_of(card.kind, pos)
        removed: list[Position] = []
        immune: list[Position] = []
        for target in sorted(reach):
            other = current.at(target).card
            if other is None or other.colour == card.colour:
                continue
            if other.kind is AttackKind.HOSTAGE_GAMBIT:
                immune.append(target)
            else:
                removed.append(target)
        for target in removed:
            removed_by[target] = pos
        current = current.without(removed)
        clause = "BAT-2" if tie_break else speed_clause
        event = Event("battle.act", "BAT-4", {**base, "range": sorted(list(p) for p in reach),
                                              "removed": [list(p) for p in removed],
                                              "removed_cards": [board.at(p).card.token for p in removed],  # type: ignore[union-attr]
                                              "immune": [list(p) for p in immune],
                                              "order_clause": clause})
        steps.append(BattleStep(index, pos, card, Outcome.ACTS, reach, tuple(removed),
                                tuple(immune), None, tie_break, event))
        events.append(event)
    events.append(Event("battle.done", "BAT-1", {
        "survivors": [[list(p), c.token] for p, c in sorted(current.cards().items())]}))
    return BattleResult(board, current, tuple(steps), tuple(events))
