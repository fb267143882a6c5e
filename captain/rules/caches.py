"""Every module-level memo table of the engine, in one place.

A memo table remembers the answer of a pure function of *values* (never of object
identities: ``id()`` is reused once an object is freed). Each table is bounded — it is
emptied when it reaches ``maxsize`` — and says in one sentence why it exists. The
function that fills a table lives beside the rule it computes and is bound with
:meth:`Memo.computes`; :func:`every_memo` lists the tables so that a property test can
check that every cached answer equals a fresh computation.

>>> cells = Memo("example", maxsize=2, why="doctest")
>>> @cells.computes
... def cell(n):
...     return n * n
>>> cells(3), cells(3), len(cells)
(9, 9, 1)
>>> cells(4), cells(5), len(cells)   # full at 2 entries: emptied, then filled again
(16, 25, 1)
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterator
from typing import Any

_MISSING = object()


class Memo:
    """A bounded memo table ``key -> compute(key)`` for one pure function of values.

    Attributes:
        name: short identifier (for tests and reports).
        why: one sentence: what would be recomputed without it.
        maxsize: the table is emptied when it holds this many entries.
        table: the plain dict, for hot loops that look up with ``table.get(key)`` and
            call :meth:`fill` on a miss.
    """

    __slots__ = ("name", "why", "maxsize", "compute", "table")

    def __init__(self, name: str, *, maxsize: int, why: str) -> None:
        self.name = name
        self.why = why
        self.maxsize = maxsize
        self.compute: Callable[[Any], Any] | None = None
        self.table: dict[Hashable, Any] = {}

    def computes(self, function: Callable[[Any], Any]) -> Callable[[Any], Any]:
        """Decorator: ``function(key)`` fills this table. Returns ``function`` unchanged."""
        if self.compute is not None:
            raise RuntimeError(f"memo {self.name!r} already has a function")
        self.compute = function
        return function

    def __call__(self, key: Hashable) -> Any:
        found = self.table.get(key, _MISSING)
        if found is _MISSING:
            found = self.fill(key)
        return found

    def fill(self, key: Hashable) -> Any:
        """Compute the answer for ``key`` and remember it (emptying a full table first)."""
        value = self.compute(key)  # type: ignore[misc]
        table = self.table
        if len(table) >= self.maxsize:
            table.clear()
        table[key] = value
        return value

    def fresh(self, key: Hashable) -> Any:
        """The answer computed again, without the table (for tests)."""
        return self.compute(key)  # type: ignore[misc]

    def items(self) -> Iterator[tuple[Hashable, Any]]:
        """The remembered ``(key, answer)`` pairs (a snapshot)."""
        return iter(list(self.table.items()))

    def __len__(self) -> int:
        return len(self.table)

    def __repr__(self) -> str:
        return f"<Memo {self.name}: {len(self.table)}/{self.maxsize}>"


def _memo(name: str, *, maxsize: int, why: str) -> Memo:
    memo = Memo(name, maxsize=maxsize, why=why)
    _ALL[name] = memo
    return memo


_ALL: dict[str, Memo] = {}


def every_memo() -> tuple[Memo, ...]:
    """All of the engine's module-level memo tables."""
    return tuple(_ALL.values())


# --- board shapes ----------------------------------------------------------------------------
GEOMETRY = _memo("geometry", maxsize=1024, why=(
    "Lines, attack ranges and between-masks of a board shape cost a few hundred "
    "microseconds to build and every board of that shape shares them."))

BITS = _memo("bits", maxsize=1 << 16, why=(
    "Splitting a bit mask into bit indexes runs for every card in Battle and Treasure Time; "
    "the same masks come back all game."))

POSITIONS = _memo("positions", maxsize=1 << 16, why=(
    "Turning a (shape, mask) into positions runs on every listing of a player's dice cards; "
    "a game reuses a few hundred masks."))

BELL_LINES = _memo("bell-lines", maxsize=4096, why=(
    "The bell lines (INT-3) of a shape depend only on where treasure cards lie, which "
    "changes once a round, while the bell is asked after every claim."))

# --- whole games ----------------------------------------------------------------------------
PAIRS = _memo("pairs", maxsize=1 << 16, why=(
    "Which treasure faces a hand of dice can show (DICE-2) is asked for every free card on "
    "every listing of legal actions; there are only 924 hands of up to six dice."))

ACTIONS = _memo("actions", maxsize=1 << 14, why=(
    "Actions are immutable values; listing legal actions would otherwise build the same "
    "few hundred objects again after every action."))

PLACEMENTS = _memo("placements", maxsize=1 << 12, why=(
    "Setting Time lists, for every card holding a player's dice, one action per attack card "
    "in hand; the (colour, position) pairs repeat all game."))

CELLS = _memo("cells", maxsize=1 << 12, why=(
    "A cell is an immutable (treasure card, occupant) value; games place and clear "
    "occupants hundreds of times with only 21 faces and a few occupants."))
