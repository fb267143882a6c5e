"""Explanations as data: every step of a resolution is an :class:`Event`.

An event never holds English text. It holds a stable ``code`` (templates and the
CLI map codes to sentences in each language), its ``params`` (positions, colours,
card kinds: JSON-friendly values) and the ``clause`` of RULES.md it applies.
``interpretation`` names an INT clause when that reading decided the outcome.

Codes (stable; add new ones, never rename). A test checks that this table lists exactly
the codes the engine can emit:

==============================  ==========================================================
``game.setup``                  a new game is dealt: grid, deck, box, hands (SETUP-3/4)
``dice.start``                  Dice Time begins, everyone rolls six dice (DICE-1; STRAT-1,
                                where no bell rings)
``dice.roll``                   a player re-rolls: all dice in hand (DICE-3) or the chosen
                                ones (STRAT-2)
``dice.claim``                  a player puts a pair on a treasure card (DICE-2)
``dice.pass``                   a player ends the turn after a re-roll (STRAT-4)
``dice.false_bell``             a bell rung while the condition fails (DICE-6)
``dice.penalties_lifted``       everyone false-belled: penalties lifted (DICE-6, INT-7)
``dice.stuck``                  nobody can act any more: Dice Time ends (INT-6; ``all_placed``)
``dice.end``                    Dice Time ended by the bell or a full line; the new start
                                player (DICE-4, STRAT-3)
``setting.recycle``             an empty hand takes its discard pile back (SET-4)
``setting.place``               an attack card is placed face down (SET-1)
``battle.reveal``               all attack cards turned face up (BAT-1)
``battle.act``                  a card acts; ``range`` and ``removed`` positions (BAT-4/5)
``battle.no_effect``            a [0] or [5] card's turn: nothing happens (BAT-4)
``battle.skipped``              a card removed before its turn does not act (BAT-3)
``battle.done``                 survivors listed (BAT-1)
``treasure.card``               a player wins the card under their surviving card (TRE-1)
``treasure.sandwich``           a player wins cards between two of their cards (TRE-2)
``treasure.none``               a player wins nothing this round (TRE-1)
``treasure.blocked``            another player's card breaks a sandwich (TRE-2)
``treasure.priority``           a card claimed by several sandwiches goes to ``winner`` (TRE-3)
``treasure.discard``            the attack cards left go to their owners' discard (TRE-4)
``treasure.reading_matters``    the other INT-1 reading would give other winnings (INT-1)
``treasure.gap_matters``        if a gap broke a sandwich, the winnings would differ (INT-2)
``bell.line``                   a line qualifies; ``line`` and ``held`` positions (DICE-4/STRAT-3)
``bell.count``                  enough cards hold dice anywhere (DICE-5, VAR-4)
``bell.all_dice``               a player has placed all six dice (VAR-3)
``bell.not_yet``                the condition does not hold; the closest ``line`` if any (and
                                ``lines_held``: whether any line that counts holds dice)
``round.refill``                the start player refills empty positions (TRE-5)
``round.rearrange``             the deck ran short; rearranged as close to a square (TRE-5, INT-5)
``round.continue``              next round (END-1)
``round.game_over``             the game ends (END-1, INT-4)
``round.standings``             standings, winner, ``tied`` players, ``doubles_decided``
                                (END-2, END-3)
==============================  ==========================================================
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, overload

_SCALARS = frozenset({str, int, float, bool, type(None)})


def _freeze(value: Any) -> Any:
    """A read-only copy of ``value``: lists become tuples, mappings read-only mappings.

    Tuples (and named tuples such as positions) of scalars are already immutable and
    kept as they are; this runs for every event the engine makes, so the common
    shapes are tested first by exact type.
    """
    t = type(value)
    if t in _SCALARS:
        return value
    if t is dict or t is MappingProxyType:
        return MappingProxyType({k: v if type(v) in _SCALARS else _freeze(v)
                                 for k, v in value.items()})
    if t is tuple or t is list or isinstance(value, tuple):
        for v in value:
            if type(v) not in _SCALARS:
                return tuple([_freeze(v) for v in value])
        return tuple(value) if t is list else value
    if isinstance(value, Mapping):
        return MappingProxyType({k: _freeze(v) for k, v in value.items()})
    return value


def _thaw(value: Any) -> Any:
    if isinstance(value, Mapping):
        return {k: _thaw(v) for k, v in value.items()}
    if isinstance(value, tuple):
        return [_thaw(v) for v in value]
    return value


_EMPTY: Mapping[str, Any] = MappingProxyType({})
_new = object.__new__


def documented_codes() -> tuple[str, ...]:
    """The event codes listed in this module's docstring, in table order."""
    return tuple(re.findall(r"^``([a-z_]+\.[a-z_]+)``", __doc__ or "", re.MULTILINE))


@dataclass(frozen=True, init=False)
class Event:
    """One explained step.

    Attributes:
        code: stable identifier from the table in this module's docstring.
        clause: the RULES.md clause id applied (``"BAT-3"``).
        params: read-only mapping of JSON-friendly values; positions are ``(row, col)``.
        interpretation: an INT clause id when that reading decided this step, else ``None``.
    """

    code: str
    clause: str
    params: Mapping[str, Any] = _EMPTY
    interpretation: str | None = None

    def __init__(self, code: str, clause: str, params: Mapping[str, Any] | None = None,
                 interpretation: str | None = None) -> None:
        # the fields are set through __dict__: a frozen dataclass's own __init__ goes
        # through object.__setattr__ per field, and events are made on every action
        d = self.__dict__
        d["code"] = code
        d["clause"] = clause
        d["params"] = _freeze(params) if params else _EMPTY
        d["interpretation"] = interpretation

    @classmethod
    def of(cls, code: str, clause: str, params: dict[str, Any],
           interpretation: str | None = None) -> Event:
        """An event from ``params`` that already hold only immutable values (scalars,
        tuples and positions of scalars, read-only mappings): they are wrapped, not
        copied. The engine's fast path for events made on every action; anything
        else goes through ``Event(...)``, which makes a frozen copy."""
        event = _new(cls)
        event.__dict__.update(code=code, clause=clause, params=MappingProxyType(params),
                              interpretation=interpretation)
        return event

    def __repr__(self) -> str:
        extra = f", interpretation={self.interpretation!r}" if self.interpretation else ""
        return f"Event({self.code!r}, {self.clause!r}, {_thaw(self.params)!r}{extra})"

    def to_json(self) -> dict[str, Any]:
        """A plain dict for JSON output."""
        out = {"code": self.code, "clause": self.clause, "params": _thaw(self.params)}
        if self.interpretation:
            out["interpretation"] = self.interpretation
        return out

    @property
    def clauses(self) -> tuple[str, ...]:
        """The clause applied, plus the interpretation clause if any."""
        return (self.clause,) + ((self.interpretation,) if self.interpretation else ())


class EventLog(Sequence):
    """An immutable sequence of events whose parts may be worked out when first read.

    Whole-game transitions append Battle and Treasure Time explanations, which cost
    more to build than the resolution itself; a log keeps them as a recipe until
    somebody iterates, indexes or measures it. ``log + (event,)`` and
    ``log + other_log`` give new logs; the events are the same either way.
    """

    __slots__ = ("_parts", "_events")

    def __init__(self, *parts: Iterable[Event] | Callable[[], Iterable[Event]]) -> None:
        self._parts = parts
        self._events: tuple[Event, ...] | None = None

    def _all(self) -> tuple[Event, ...]:
        events = self._events
        if events is None:
            # the parts stay: a second thread building at the same time gets the same events
            out: list[Event] = []
            for part in self._parts:
                out.extend(part() if callable(part) else part)
            events = self._events = tuple(out)
        return events

    @overload
    def __getitem__(self, index: int) -> Event: ...
    @overload
    def __getitem__(self, index: slice) -> tuple[Event, ...]: ...
    def __getitem__(self, index: int | slice) -> Event | tuple[Event, ...]:
        return self._all()[index]

    def __len__(self) -> int:
        return len(self._all())

    def __iter__(self) -> Iterator[Event]:
        return iter(self._all())

    def __add__(self, other: Iterable[Event]) -> EventLog:
        if self._events is not None:
            return EventLog(self._events, tuple(other))
        return EventLog(*self._parts, other if isinstance(other, EventLog) else tuple(other))

    def __radd__(self, other: Iterable[Event]) -> EventLog:
        return EventLog(tuple(other), self)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, (EventLog, tuple)):
            return tuple(self) == tuple(other)
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self._all())

    def __repr__(self) -> str:
        return f"EventLog({list(self._all())!r})"
