"""The actions a player can take in a whole game (immutable values).

Listing them is :func:`~captain.rules.game.legal_actions`; carrying them out is
:func:`~captain.rules.game.apply`.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..caches import ACTIONS, PLACEMENTS
from ..model import AttackKind, Colour, Position


@dataclass(frozen=True)
class RingStartBell:
    """The start player begins Dice Time; everyone rolls all six dice (DICE-1, STRAT-1).

    In action mode the start player rings the bell to do it; strategy mode has no bell
    (STRAT-1): the same action simply begins Dice Time.
    """

    player: Colour


@dataclass(frozen=True)
class Roll:
    """Re-roll dice in hand. ``dice`` = face values to re-roll; ``None`` = all (DICE-3).

    In strategy mode ``dice`` may be any non-empty part of the dice in hand (STRAT-2).
    """

    player: Colour
    dice: tuple[int, ...] | None = None


@dataclass(frozen=True)
class Claim:
    """Put two dice showing exactly the card's faces on the card at ``position`` (DICE-2)."""

    player: Colour
    position: Position


@dataclass(frozen=True)
class RingBell:
    """Ring to end Dice Time (DICE-4/5, VAR-3/4); a false bell when the condition fails (DICE-6)."""

    player: Colour


@dataclass(frozen=True)
class Pass:
    """Strategy mode with STRAT-4: end the turn after a re-roll without placing."""

    player: Colour


@dataclass(frozen=True)
class PlaceAttackCard:
    """Setting Time: put ``kind`` face down on a card holding your dice, take them back (SET-1)."""

    player: Colour
    position: Position
    kind: AttackKind


Action = RingStartBell | Roll | Claim | RingBell | Pass | PlaceAttackCard


def shared(cls: type, *args) -> Action:
    """The one shared instance of ``cls(*args)`` (actions are immutable values)."""
    key = (cls, *args)
    found = ACTIONS.table.get(key)
    return found if found is not None else ACTIONS.fill(key)


@ACTIONS.computes
def _make(key: tuple) -> Action:
    return key[0](*key[1:])


def placements(colour: Colour, position: Position) -> tuple[PlaceAttackCard, ...]:
    """The shared Setting Time actions of ``colour`` at ``position``, indexed by value."""
    key = (colour, position)
    found = PLACEMENTS.table.get(key)
    return found if found is not None else PLACEMENTS.fill(key)


@PLACEMENTS.computes
def _placements(key: tuple[Colour, Position]) -> tuple[PlaceAttackCard, ...]:
    colour, position = key
    return tuple(shared(PlaceAttackCard, colour, position, kind) for kind in AttackKind)
