"""The API's request and response bodies as bytes: JSON in, strictly; JSON out, in UTF-8.

A body must be declared ``application/json`` (UTF-8); it may not be empty, send a key of
an object twice, or hold text that is not Unicode (a lone surrogate such as
``"\\ud800"``, which ``json.loads`` accepts but no answer could repeat). Each refusal is an
engine-style :class:`~captain.rules.errors.InvalidInput` with its code, answered in the
problem shape by :mod:`tutorials.api.problems`.
"""

from __future__ import annotations

import json
from typing import Any

from django.http import HttpRequest
from ninja.parser import Parser
from ninja.renderers import JSONRenderer

from captain.rules import RulesError
from captain.rules.errors import InvalidInput
from tutorials.api.problems import Problems, refusal


def _lone_surrogate(text: str) -> bool:
    return any("\ud800" <= ch <= "\udfff" for ch in text)


def _surrogate_path(value: object, path: str = "") -> tuple[str, bool] | None:
    """Where the first text holding a lone UTF-16 surrogate is: its JSON path and whether
    it is a key (then the path of the object holding it), or None."""
    if isinstance(value, str):
        return (path, False) if _lone_surrogate(value) else None
    if isinstance(value, dict):
        for key, item in value.items():
            if _lone_surrogate(key):
                return path, True
            found = _surrogate_path(item, f"{path}.{key}" if path else str(key))
            if found is not None:
                return found
    if isinstance(value, list):
        for i, item in enumerate(value):
            found = _surrogate_path(item, f"{path}[{i}]")
            if found is not None:
                return found
    return None


def _object_once(pairs: list[tuple[str, object]]) -> dict[str, object]:
    """A JSON object whose keys are each sent once: a key sent twice is refused
    (``duplicate-field``, like a form field sent twice), never silently the last value."""
    out: dict[str, object] = {}
    for key, value in pairs:
        if key in out:
            shown = repr(key) if _lone_surrogate(key) else key
            raise InvalidInput(f"key {shown!r} sent twice", where="body", field=shown,
                               code="duplicate-field", key=shown)
        out[key] = value
    return out


def decode_json(request: HttpRequest) -> object:
    """The request body decoded as JSON.

    Raises :class:`InvalidInput` when it is empty (``empty-body``), :class:`Problems`
    (415) unless it is declared ``application/json`` (UTF-8, the default), and
    :class:`InvalidInput` when it is not UTF-8 (``not-utf8``), not JSON (``bad-json``
    with line and column), nested deeper than Python can read (``too-deep``), sends a key
    of an object twice (``duplicate-field``) or holds text that is not Unicode
    (``bad-text``, with the JSON path where, e.g. ``players[1]``).
    """
    if not request.body:
        raise InvalidInput("empty body", where="body", code="empty-body")
    if request.content_type != "application/json" or \
            request.content_params.get("charset", "utf-8").lower() not in ("utf-8", "utf8"):
        raise Problems(415, [refusal("unsupported-media-type")])
    try:
        text = request.body.decode("utf-8")
    except UnicodeDecodeError:
        raise InvalidInput("body is not UTF-8", where="body", code="not-utf8") from None
    try:
        data = json.loads(text, object_pairs_hook=_object_once)
    except json.JSONDecodeError as exc:
        raise InvalidInput(f"not valid JSON: {exc.msg}",
                           where=f"line {exc.lineno} column {exc.colno}", code="bad-json",
                           line=exc.lineno, column=exc.colno) from None
    except RulesError:
        raise
    except RecursionError:  # valid JSON, but arrays in arrays past the interpreter's stack
        raise InvalidInput("nested too deeply", where="body", code="too-deep") from None
    except ValueError as exc:  # e.g. an integer of 5000 digits
        raise InvalidInput(f"not valid JSON: {exc}", where="body", code="bad-json") from None
    try:
        found = _surrogate_path(data)
    except RecursionError:  # nesting json.loads took but we cannot walk: refuse it too
        raise InvalidInput("nested too deeply", where="body", code="too-deep") from None
    if found is not None:
        where, in_key = found
        raise InvalidInput("lone UTF-16 surrogate in a text", where=where or "body", code="bad-text",
                           field=where, path=where, in_key=in_key)
    return data


class EngineJSONParser(Parser):
    """Decodes bodies like :func:`decode_json`, so a schema-typed body reports bad JSON alike.

    ninja wraps whatever ``parse_body`` raises in ``HttpError(400)``; the API's handler
    finds our :class:`InvalidInput` as its ``__cause__`` and answers 422 ``bad-json``.
    """

    def parse_body(self, request: HttpRequest) -> object:
        return decode_json(request)


class UnicodeJSONRenderer(JSONRenderer):
    """JSON with Japanese and German text as is (UTF-8), not as ``\\uXXXX`` escapes.

    Returns UTF-8 bytes. Text that cannot be UTF-8 (a lone surrogate that slipped through)
    is written as its JSON escape ``\\udXXX`` instead of failing the whole answer.
    """

    json_dumps_params = {"ensure_ascii": False}

    def render(self, request: HttpRequest, data: Any, *, response_status: int) -> bytes:
        return super().render(request, data, response_status=response_status).encode(
            "utf-8", "backslashreplace")
