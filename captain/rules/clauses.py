"""Which function implements which clause of RULES.md.

Every clause id of the rules specification (``BAT-3``, ``INT-1``) is implemented by
exactly one function of the engine, marked with :func:`implements`. Explanations that
need more detail than the rule's answer get it from that same function through an
optional trace, never from a second implementation. A test reads the site's rules reference
(``tutorials/wording/clauses.py``, written from RULES.md) and fails when
a clause has no implementing function, or more than one.

>>> @implements("EX-1")
... def example():
...     "An example rule."
>>> [f.__name__ for f in implementations("EX-1")]
['example']
>>> _forget("EX-1")
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TypeVar

F = TypeVar("F", bound=Callable)

CLAUSE_ID = re.compile(r"^[A-Z]+-[0-9]+$")

_REGISTRY: dict[str, list[Callable]] = {}


def implements(*clause_ids: str) -> Callable[[F], F]:
    """Decorator: the function implements these clauses (``"TRE-2"``, …).

    Returns the function unchanged and records it; the function's
    ``__implements__`` attribute lists the clauses. Raises ``ValueError`` for an id
    that is not of the form ``ABC-1``.
    """
    for clause in clause_ids:
        if not CLAUSE_ID.match(clause):
            raise ValueError(f"not a clause id: {clause!r}")

    def mark(function: F) -> F:
        for clause in clause_ids:
            _REGISTRY.setdefault(clause, []).append(function)
        function.__implements__ = tuple(clause_ids)  # type: ignore[attr-defined]
        return function

    return mark


def implementations(clause: str) -> tuple[Callable, ...]:
    """The functions registered for ``clause`` (normally exactly one)."""
    return tuple(_REGISTRY.get(clause, ()))


def registry() -> dict[str, tuple[Callable, ...]]:
    """Every clause id → its implementing functions, as registered so far."""
    return {clause: tuple(functions) for clause, functions in sorted(_REGISTRY.items())}


def _forget(clause: str) -> None:
    """Drop a clause from the registry (for doctests of this module only)."""
    _REGISTRY.pop(clause, None)
