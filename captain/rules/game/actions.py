"""The actions a player can take in a whole game (immutable values).

Listing them is :func:`~captain.rules.game.legal_actions`; carrying them out is
:func:`~captain.rules.game.apply`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..caches import ACTIONS, PLACEMENTS
from ..errors import InvalidInput
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


def shared(cls: type[Any], *args: object) -> Action:
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
    # shared() gives an instance of the class it is given: PlaceAttackCards here
    return tuple(shared(PlaceAttackCard, colour, position, kind)  # type: ignore[misc]
                 for kind in AttackKind)


# --- JSON ---------------------------------------------------------------------------------------
_NAMES = {RingStartBell: "begin-dice-time", Roll: "roll", Claim: "claim", RingBell: "ring-bell",
          Pass: "pass", PlaceAttackCard: "place"}
_TYPES = {name: cls for cls, name in _NAMES.items()}
#: The ``type`` of every action in its JSON form.
ACTION_TYPES = tuple(_TYPES)


def action_to_json(action: Action) -> dict:
    """A JSON-friendly dict: ``{"type": "claim", "player": "red", "position": [1, 2]}``.

    Types: ``begin-dice-time``, ``roll`` (``dice``: faces to re-roll, or null for all),
    ``claim`` (``position``), ``ring-bell``, ``pass``, ``place`` (``position``, ``value``).
    """
    out: dict = {"type": _NAMES[type(action)], "player": action.player.value}
    if isinstance(action, Roll):
        out["dice"] = list(action.dice) if action.dice is not None else None
    if isinstance(action, (Claim, PlaceAttackCard)):
        out["position"] = [action.position.row, action.position.col]
    if isinstance(action, PlaceAttackCard):
        out["value"] = int(action.kind)
    return out


def action_from_json(data: object) -> Action:
    """The action :func:`action_to_json` wrote. Raises
    :class:`~captain.rules.errors.InvalidInput` naming the field at fault."""
    if not isinstance(data, dict):
        raise InvalidInput("an action must be an object", where="action", code="bad-action")
    kind = data.get("type")
    cls = _TYPES.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise InvalidInput(f"unknown action type {kind!r}; expected one of {', '.join(_TYPES)}",
                           where="action.type", code="bad-action", value=str(kind))
    expected = {"type", "player"} | {Roll: {"dice"}, Claim: {"position"},
                                     PlaceAttackCard: {"position", "value"}}.get(cls, set())
    unknown = sorted(set(data) - expected)
    if unknown:
        raise InvalidInput(f"unknown key(s) {', '.join(unknown)} for a {kind} action",
                           where="action", code="unknown-key", keys=unknown)
    player = Colour.from_name(data.get("player"), where="action.player")
    if cls is Roll:
        dice = data.get("dice")
        if dice is None:
            return shared(Roll, player)
        if (not isinstance(dice, list) or not 1 <= len(dice) <= 6
                or any(type(d) is not int or not 1 <= d <= 6 for d in dice)):
            raise InvalidInput("dice must be null (all) or a list of 1 to 6 faces 1-6",
                               where="action.dice", code="bad-dice")
        return shared(Roll, player, tuple(sorted(dice)))
    if cls in (Claim, PlaceAttackCard):
        raw = data.get("position")
        if (not isinstance(raw, list) or len(raw) != 2
                or any(type(v) is not int or not 0 <= v < 12 for v in raw)):
            raise InvalidInput("position must be [row, column], each 0-11",
                               where="action.position", code="bad-position")
        position = Position(raw[0], raw[1])
        if cls is Claim:
            return shared(Claim, player, position)
        value = data.get("value")
        if type(value) is not int or not 0 <= value <= 5:
            raise InvalidInput("value must be an attack value 0-5", where="action.value",
                               code="bad-attack-value")
        return shared(PlaceAttackCard, player, position, AttackKind(value))
    return shared(cls, player)
