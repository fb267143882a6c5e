"""Errors raised by the rules engine.

Every error says *what* is wrong and *where* (a position, a field, a character
offset) and, where a rule forbids it, which clause of RULES.md. The message is
English for logs and the CLI; ``code`` and ``params`` are stable so that the web
site can say the same thing in the visitor's language.
"""

from __future__ import annotations

from typing import Any


class RulesError(ValueError):
    """Base class of every error the engine raises on bad input or illegal actions.

    Attributes:
        code: stable machine-readable identifier, e.g. ``"occupant-without-treasure"``.
        clause: the RULES.md clause id that forbids it (``"SETUP-1"``) or ``None``.
        where: a human-readable location (``"board row 2, position [1, 3]"``) or ``None``,
            English, for logs and the command line.
        field: where in the input, as a JSON path of the case format (``"board"``,
            ``"board[2]"``, ``"players[1]"``, ``"rules.speed_order"``, ``"won.red[0]"``,
            ``"deck"``) or ``None``; what programs read (the site's problem lists).
        position: ``(row, col)`` of the board position concerned, or ``None``.
        params: extra values for translated messages (JSON-friendly).
    """

    code = "rules-error"

    def __init__(self, message: str, *, where: str | None = None, clause: str | None = None,
                 code: str | None = None, field: str | None = None, **params: Any) -> None:
        self.message = message
        self.where = where
        self.clause = clause
        if code is not None:
            self.code = code
        self.params = params
        position = params.get("position")
        self.position = (tuple(position) if isinstance(position, (list, tuple)) and len(position) == 2
                         else None)
        self.field = field if field is not None else ("board" if self.position is not None else None)
        super().__init__(str(self))

    def __str__(self) -> str:
        parts = [self.message]
        if self.where:
            parts.append(f"at {self.where}")
        if self.clause:
            parts.append(f"({self.clause})")
        return " ".join(parts)


class InvalidInput(RulesError):
    """Input that cannot be read at all: wrong type, unknown key, malformed token."""

    code = "invalid-input"


class InvalidSituation(RulesError):
    """A situation the rules do not allow: unseated colour, too many cards, two occupants…

    Its code stays ``invalid-position``: the API and the case format call a situation a
    position.
    """

    code = "invalid-position"


class IllegalAction(RulesError):
    """An action a player may not take now; ``clause`` names the rule that forbids it."""

    code = "illegal-action"
