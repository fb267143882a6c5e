"""The case JSON format of ``tests/cases/README.md``: read a situation, write an outcome.

The same JSON is what ``python -m captain.rules solve`` and the JSON API accept.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from .errors import InvalidInput, InvalidSituation
from .model import MAX_COLUMNS, MAX_ROWS, Board, Colour, Treasure
from .situation import RuleSet, Seating, Situation

#: Keys a case may carry. Descriptive keys are ignored; ``expect`` is the answer.
SITUATION_KEYS = ("players", "start_player", "board", "rules", "deck", "won")
META_KEYS = ("id", "source", "question", "expect", "title", "note", "notes", "comment",
             "description")

#: Largest board the engine accepts from outside (rows, positions per row).
MAX_ROW_LENGTH = MAX_COLUMNS


def situation_from_json(data: object) -> Situation:
    """Build and validate a :class:`Situation` from a decoded case object.

    Raises :class:`InvalidInput` (malformed) or :class:`InvalidSituation` (against the
    rules), each naming the field or board position.
    """
    if not isinstance(data, Mapping):
        raise InvalidInput("a case must be a JSON object", where="top level", field="",
                           code="not-object")
    unknown = sorted(set(data) - set(SITUATION_KEYS) - set(META_KEYS))
    if unknown:
        raise InvalidInput(f"unknown key(s) {', '.join(unknown)}", where="top level",
                           field=unknown[0], code="unknown-key", keys=unknown)
    for key in ("players", "start_player", "board"):
        if key not in data:
            raise InvalidInput(f"missing required key {key!r}", where=key, field=key,
                               code="missing-key", key=key)
    players_raw = data["players"]
    if not isinstance(players_raw, list) or not players_raw:
        raise InvalidInput("players must be a list of colours", where="players", field="players",
                           code="bad-players")
    players = tuple(Colour.from_name(p, where=f"players[{i}]", field=f"players[{i}]")
                    for i, p in enumerate(players_raw))
    start = Colour.from_name(data["start_player"], where="start_player", field="start_player")
    seating = Seating(players, start)
    board = _board_from_json(data["board"])
    rules = RuleSet.from_json(data.get("rules"))
    deck = data.get("deck")
    if deck is not None and (not isinstance(deck, int) or isinstance(deck, bool) or deck < 0):
        raise InvalidInput("deck must be a whole number, 0 or more", where="deck", field="deck",
                           code="bad-deck")
    won = _won_from_json(data.get("won"), players)
    return Situation(board, seating, rules, deck, won).validate()


def _board_from_json(board_raw: object) -> Board:
    """``board``: a list of row strings (``"35 35r1 x"``), within the size limits."""
    if not isinstance(board_raw, list) or not board_raw:
        raise InvalidInput("board must be a non-empty list of row strings", where="board",
                           field="board", code="bad-board")
    if len(board_raw) > MAX_ROWS:
        raise InvalidInput(f"at most {MAX_ROWS} rows", where="board", field="board",
                           code="board-too-large")
    for r, row in enumerate(board_raw):
        if isinstance(row, str) and len(row.split()) > MAX_ROW_LENGTH:
            raise InvalidInput(f"at most {MAX_ROW_LENGTH} positions a row", where=f"board row {r}",
                               field=f"board[{r}]", code="board-too-large")
    return Board.parse(board_raw)


def _won_from_json(won_raw: object,
                   players: tuple[Colour, ...]) -> dict[Colour, tuple[Treasure, ...]]:
    """``won``: seated colour -> list of treasure cards like ``"35"``."""
    won: dict[Colour, tuple[Treasure, ...]] = {}
    if won_raw is None:
        return won
    if not isinstance(won_raw, Mapping):
        raise InvalidInput("won must map colours to lists of cards like \"35\"", where="won",
                           field="won", code="bad-won")
    for name, cards in won_raw.items():
        colour = Colour.from_name(name, where=f"won key {name!r}", field="won")
        if colour not in players:
            raise InvalidSituation(f"{colour.value} has won cards but is not seated",
                                  where=f"won.{colour.value}", field=f"won.{colour.value}",
                                  clause="SETUP-1", code="colour-not-seated",
                                  colour=colour.value)
        if not isinstance(cards, list) or not all(isinstance(c, str) for c in cards):
            raise InvalidInput("won cards must be a list of strings like \"35\"",
                               where=f"won.{name}", field=f"won.{name}", code="bad-won")
        won[colour] = tuple(Treasure.parse(c, where=f"won.{name}[{i}]", field=f"won.{name}[{i}]")
                            for i, c in enumerate(cards))
    return won


def situation_to_json(situation: Situation) -> dict[str, Any]:
    """The case-format object for ``situation`` (no ``expect``)."""
    out: dict[str, Any] = {
        "players": [c.value for c in situation.players],
        "start_player": situation.seating.start_player.value,
        "board": situation.board.to_rows(),
    }
    rules = situation.rules.to_json()
    if rules:
        out["rules"] = rules
    if situation.deck is not None:
        out["deck"] = situation.deck
    if situation.won:
        out["won"] = {c.value: [str(t) for t in ts] for c, ts in situation.won.items()}
    return out


def load_case(path: Path) -> Situation:
    """Read a case file. Raises :class:`InvalidInput` for unreadable or non-JSON files."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise InvalidInput(f"cannot read file: {exc.strerror}", where=str(path),
                           code="unreadable") from None
    except UnicodeDecodeError:
        raise InvalidInput("file is not UTF-8 text", where=str(path), code="not-utf8") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise InvalidInput(f"not valid JSON: {exc.msg}", where=f"line {exc.lineno} column {exc.colno}",
                           code="bad-json") from None
    except RecursionError:
        raise InvalidInput("not valid JSON: nested too deeply", where=str(path),
                           code="bad-json") from None
    except ValueError as exc:  # e.g. a number with thousands of digits
        raise InvalidInput(f"not valid JSON: {exc}", where=str(path), code="bad-json") from None
    return situation_from_json(data)
