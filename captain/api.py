"""The public JSON API (django-ninja), mounted at ``/api/`` outside ``i18n_patterns``.

Routes (``/api/v1/…``)::

    POST /api/v1/solve              a case object → outcome, events, notation
    GET  /api/v1/positions/{code}   a notation or a saved short code → the position
    POST /api/v1/positions          save a notation → short code and ``/p/<code>/`` link

Every error comes out in one shape, whatever produced it (the rules engine, the JSON
decoder, ninja's own schema validation, the size limit in
:mod:`captain.middleware`)::

    {"detail": [{"field", "position", "offset", "code", "clause", "message"}, ...],
     "message": "<the first problem's message>"}

``code`` is stable; ``message`` is a sentence in the request's language
(``Accept-Language``: ja, de or en). The rules engine is the only judge of what a
valid position is: request bodies for ``solve`` are decoded as JSON but checked by no
schema first, so its own errors (with board positions and rule clauses) reach the client.

The API is public and unauthenticated: no session auth, so ninja does not check CSRF
and non-browser clients can POST freely.
"""

from __future__ import annotations

import json
import re
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.utils import translation
from django.utils.translation import gettext as _
from ninja import Field, NinjaAPI, Schema, Status
from ninja.errors import HttpError, ValidationError
from ninja.parser import Parser
from ninja.renderers import JSONRenderer
from pydantic import ConfigDict

from captain.rules import RulesError, situation_from_json, situation_to_json, solve
from captain.rules.errors import InvalidInput
from captain.rules.notation import MAX_LENGTH as NOTATION_MAX_LENGTH
from captain.rules.notation import format as format_notation
from captain.rules.notation import parse as parse_notation
from tutorials.limits import RateLimited, check_misses, hit, miss
from tutorials.models import CODE_ALPHABET, SavedPosition
from tutorials.problems import describe

TITLE_MAX_LENGTH = 120

#: A path segment that can only be a saved short code: code letters, no ``_`` (every
#: notation has one between the seats and the board).
SHORT_CODE = re.compile(rf"^[{CODE_ALPHABET}]{{1,16}}$")


# --- problems ---------------------------------------------------------------------


def language(request: HttpRequest) -> str:
    """The request's language (language cookie, then ``Accept-Language``), e.g. ``"ja"``."""
    return translation.get_language_from_request(request)


def make_problem(code: str, message: str, *, field: str = "", position: list[int] | None = None,
                 offset: int | None = None, clause: str | None = None) -> dict[str, Any]:
    """One problem in the API's shape (the same keys as :func:`tutorials.problems.problem`)."""
    return {"field": field, "position": position, "offset": offset, "code": code,
            "clause": clause, "message": message}


def problems_body(problems: list[dict[str, Any]]) -> dict[str, Any]:
    """The error body: every problem, and the first one's message on its own."""
    return {"detail": problems, "message": problems[0]["message"] if problems else ""}


_WHERE_POSITION = re.compile(r"^position \[(\d+), (\d+)\]")
_WHERE_ROW = re.compile(r"^board row (\d+)")
_WHERE_PATH = re.compile(r"^[a-z_]+(\[\d+\]|\.[a-z_]+)*$")


def _empty_body_message() -> str:
    return _("The request body is empty; send a JSON object.")


def _not_object_message() -> str:
    return _("The request body must be a JSON object.")


def _api_message(error: RulesError) -> str | None:
    """Sentences for the codes only the API produces (the engine's go through describe)."""
    p = error.params
    if error.code == "bad-json":
        return _("The request body is not valid JSON (line %(line)s, column %(column)s).") % {
            "line": p.get("line", "?"), "column": p.get("column", "?")}
    if error.code == "empty-body":
        return _empty_body_message()
    if error.code == "not-utf8":
        return _("The request body must be JSON text in UTF-8.")
    if error.code == "unknown-key":
        return _("Unknown key: %(keys)s.") % {"keys": ", ".join(p.get("keys", ()))}
    if error.code == "missing-key":
        return _("The key %(key)s is required.") % {"key": p.get("key", "?")}
    return None


def rules_problem(error: RulesError, *, field: str | None = None) -> dict[str, Any]:
    """A :class:`RulesError` as a problem, worded in the active language.

    ``field`` is a JSON path into the request (``"board"``, ``"players[1]"``,
    ``"rules.speed_order"``, ``"notation"``); ``position`` is ``[row, column]`` when the
    problem is on the board. The engine names the position in ``params`` for most codes
    but only in ``where`` for malformed tokens, so that is read too.
    """
    where = error.where or ""
    position = error.params.get("position")
    if not (isinstance(position, (list, tuple)) and len(position) == 2):
        m = _WHERE_POSITION.match(where)
        position = [int(m[1]), int(m[2])] if m else None
    if field is None:
        row = _WHERE_ROW.match(where)
        if position is not None or where.startswith("position "):
            field = "board"
        elif row:
            field = f"board[{row[1]}]"
        elif error.code == "unknown-key" and error.params.get("keys"):
            field = str(error.params["keys"][0])
        elif where.startswith("won key"):
            field = "won"
        elif _WHERE_PATH.match(where) and where != "body":
            field = where
        else:
            field = ""
    offset = error.params.get("offset")
    return make_problem(error.code, _api_message(error) or describe(error), field=field,
                        position=list(position) if position is not None else None,
                        offset=offset if isinstance(offset, int) else None, clause=error.clause)


class Problems(Exception):
    """Raised by the views: answer ``status`` with these problems."""

    def __init__(self, status: int, problems: list[dict[str, Any]]) -> None:
        super().__init__(problems)
        self.status = status
        self.problems = problems


def decode_json(request: HttpRequest) -> object:
    """The request body decoded as JSON; :class:`InvalidInput` (``bad-json``) if it is not."""
    if not request.body:
        raise InvalidInput("empty body", where="body", code="empty-body")
    try:
        text = request.body.decode("utf-8")
    except UnicodeDecodeError:
        raise InvalidInput("body is not UTF-8", where="body", code="not-utf8") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise InvalidInput(f"not valid JSON: {exc.msg}",
                           where=f"line {exc.lineno} column {exc.colno}", code="bad-json",
                           line=exc.lineno, column=exc.colno) from None
    except (ValueError, RecursionError) as exc:  # e.g. an integer of 5000 digits, deep nesting
        raise InvalidInput(f"not valid JSON: {exc}", where="body", code="bad-json") from None


class EngineJSONParser(Parser):
    """Decodes bodies like :func:`decode_json`, so a schema-typed body reports bad JSON alike.

    ninja wraps whatever ``parse_body`` raises in ``HttpError(400)``; the handler below
    finds our :class:`InvalidInput` as its ``__cause__`` and answers 422 ``bad-json``.
    """

    def parse_body(self, request: HttpRequest) -> object:
        return decode_json(request)


class UnicodeJSONRenderer(JSONRenderer):
    """JSON with Japanese and German text as is (UTF-8), not as ``\\uXXXX`` escapes."""

    json_dumps_params = {"ensure_ascii": False}


# --- the API ----------------------------------------------------------------------

api = NinjaAPI(
    title="Captain Dice rules API",
    version="1",
    description=(
        "Ask the Captain Dice rules engine what happens in a position, read position "
        "notation and save short links. Errors are HTTP 422 (413 for bodies over 64 KiB) "
        "with `{\"detail\": [problem, ...], \"message\": ...}`; each problem has `field`, "
        "`position`, `offset`, `code`, `clause` and `message` (in the `Accept-Language` "
        "language: ja, de or en)."
    ),
    urls_namespace="api",
    docs_url="/docs",
    openapi_url="/openapi.json",
    parser=EngineJSONParser(),
    renderer=UnicodeJSONRenderer(),
    # No CSP relaxation for /api/docs: with "ninja" in INSTALLED_APPS its Swagger page
    # loads everything from /static/ninja/, its settings sit in a JSON data block (not
    # executed), and Swagger UI sets styles through the DOM, not style="" text; checked
    # in headless chromium (no violations, Try it out included). See tests/api.
)


def _respond(request: HttpRequest, status: int, problems: list[dict[str, Any]]) -> HttpResponse:
    response = api.create_response(request, problems_body(problems), status=status)
    response["Content-Language"] = translation.get_language()
    return response


@api.exception_handler(Problems)
def _on_problems(request: HttpRequest, exc: Problems) -> HttpResponse:
    return _respond(request, exc.status, exc.problems)


@api.exception_handler(RateLimited)
def _on_rate_limited(request: HttpRequest, exc: RateLimited) -> HttpResponse:
    """429 ``rate-limited`` with ``Retry-After`` (seconds), like the site's wait page."""
    with translation.override(language(request)):
        response = _respond(request, 429, [make_problem("rate-limited", exc.message)])
    response["Retry-After"] = str(exc.retry_after)
    return response


@api.exception_handler(RulesError)
def _on_rules_error(request: HttpRequest, exc: RulesError) -> HttpResponse:
    with translation.override(language(request)):
        return _respond(request, 422, [rules_problem(exc)])


_SCHEMA_CODES = {"missing": "missing-key", "extra_forbidden": "unknown-key",
                 "string_too_long": "too-long"}


@api.exception_handler(ValidationError)
def _on_validation_error(request: HttpRequest, exc: ValidationError) -> HttpResponse:
    """ninja's own schema errors (pydantic) in the same problem shape."""
    with translation.override(language(request)):
        problems = []
        for error in exc.errors:
            loc = [str(part) for part in error.get("loc", ())]
            # loc is ("body", "<parameter name>", key, ...) for bodies; ("path", name) …
            if loc[:1] == ["body"]:
                loc = loc[2:]
            elif loc:
                loc = loc[1:]
            field = ".".join(loc)
            kind = error.get("type", "")
            code = _SCHEMA_CODES.get(kind, "bad-type" if kind.endswith("_type") else "bad-value")
            if not field and code == "missing-key":  # no body at all
                code, message = "empty-body", _empty_body_message()
            elif not field and code == "bad-type":
                code, message = "not-object", _not_object_message()
            elif code == "missing-key":
                message = _("The key %(key)s is required.") % {"key": field}
            elif code == "unknown-key":
                message = _("Unknown key: %(keys)s.") % {"keys": field}
            elif code == "too-long":
                message = _("Too long: %(field)s takes at most %(max)s characters.") % {
                    "field": field, "max": error.get("ctx", {}).get("max_length", "?")}
            elif code == "bad-type":
                message = _("Wrong type for %(field)s.") % {"field": field or "body"}
            else:
                message = _("Value not allowed for %(field)s.") % {"field": field or "body"}
            problems.append(make_problem(code, message, field=field))
        return _respond(request, 422, problems)


@api.exception_handler(HttpError)
def _on_http_error(request: HttpRequest, exc: HttpError) -> HttpResponse:
    with translation.override(language(request)):
        if isinstance(exc.__cause__, RulesError):  # from EngineJSONParser
            return _respond(request, 422, [rules_problem(exc.__cause__)])
        return _respond(request, exc.status_code,
                        [make_problem(f"http-{exc.status_code}", str(exc))])


# --- schemas (documentation and the small bodies) -----------------------------------


class Problem(Schema):
    field: str = Field(description="JSON path of the bad input ('board', 'players[1]', "
                                   "'notation', …), or '' for the whole body")
    position: list[int] | None = Field(description="[row, column] when on the board")
    offset: int | None = Field(description="0-based character offset in a notation")
    code: str = Field(description="stable machine-readable code, e.g. 'too-many-cards'")
    clause: str | None = Field(description="RULES.md clause that forbids it, e.g. 'SETUP-1'")
    message: str = Field(description="one sentence in the request's language")


class ProblemsOut(Schema):
    detail: list[Problem]
    message: str


class SolveOut(Schema):
    outcome: dict[str, Any] = Field(description="the outcome keys of the case format: "
                                                "removals, survivors, treasure, bell, "
                                                "board_after, game_over, standings, winner")
    events: list[dict[str, Any]] = Field(description="explanation events in order: "
                                                     "{code, clause, params[, interpretation]}")
    notation: str = Field(description="the position in short notation")


class SavedOut(Schema):
    code: str
    title: str
    created_at: str


class PositionOut(Schema):
    notation: str
    situation: dict[str, Any] = Field(description="the position as a case object")
    saved: SavedOut | None = Field(None, description="present when read from a short code")


class PositionIn(Schema):
    model_config = ConfigDict(extra="forbid")

    notation: str = Field(max_length=NOTATION_MAX_LENGTH,
                          description="position notation, e.g. 'Rb_11r1.12-13b2.14'")
    title: str = Field("", max_length=TITLE_MAX_LENGTH)


class SavedPositionOut(Schema):
    code: str
    url: str = Field(description="the short link, /p/<code>/")
    notation: str
    title: str


_COLOURS = ["red", "blue", "green", "white"]
CASE_SCHEMA = {
    "type": "object",
    "required": ["players", "start_player", "board"],
    "properties": {
        "players": {"type": "array", "minItems": 2, "maxItems": 4,
                    "items": {"type": "string", "enum": _COLOURS},
                    "description": "seated colours in clockwise order"},
        "start_player": {"type": "string", "enum": _COLOURS},
        "board": {"type": "array", "items": {"type": "string"},
                  "description": "rows top to bottom, tokens separated by spaces: '35', "
                                 "'--', '35:b1' (attack card), '35:B' (dice)"},
        "rules": {"type": "object", "properties": {
            "speed_order": {"type": "string", "enum": ["ascending", "reversed"]},
            "collection": {"type": "string", "enum": ["sequential", "simultaneous"]},
            "mode": {"type": "string", "enum": ["action", "strategy"]}}},
        "deck": {"type": "integer", "minimum": 0},
        "won": {"type": "object", "additionalProperties": {
            "type": "array", "items": {"type": "string"}}},
    },
    "example": {"players": ["red", "blue", "green", "white"], "start_player": "red",
                "board": ["12:b4 25 36 44:b5", "11 13 14 15", "16 22 23 24",
                          "26 33 34:r5 35"]},
}


# --- endpoints --------------------------------------------------------------------

ERRORS = {413: ProblemsOut, 422: ProblemsOut}


@api.post("/v1/solve", response={200: SolveOut, **ERRORS}, operation_id="solve",
          summary="What happens in this position?",
          openapi_extra={"requestBody": {"required": True, "content": {
              "application/json": {"schema": CASE_SCHEMA}}}})
def solve_case(request: HttpRequest):
    """Resolve a position given as a case object (the format of the shared rules cases).

    The body is a case object: `players`, `start_player`, `board`, and optionally
    `rules`, `deck` and `won`; descriptive keys (`id`, `source`, `question`,
    `expect`, …) are ignored. The answer holds the same `outcome` keys as
    `python -m captain.rules solve`, the explanation `events` (each with its
    RULES.md `clause`) and the position's `notation`.

    Input the rules do not allow (an unseated colour, too many cards of a kind, two
    occupants on a card, …), malformed JSON and unknown keys give 422 with one
    problem naming the field, board position and rule clause.
    """
    situation = situation_from_json(decode_json(request))
    solution = solve(situation)
    return {"outcome": solution.outcome(),
            "events": [event.to_json() for event in solution.events],
            "notation": format_notation(situation)}


@api.get("/v1/positions/{code}", response={200: PositionOut, 404: ProblemsOut, 422: ProblemsOut},
         operation_id="read_position", summary="Read a notation or a saved short code")
def read_position(request: HttpRequest, code: str):
    """Decode a position notation, or the position saved under a short code.

    `code` is either a notation (always contains `_`, e.g. `Rb_11r1.12-13b2.14`) or a
    short code from `POST /api/v1/positions` (letters and digits only, e.g. `k3m9xqa`).
    A saved code answers with its notation, the position and `saved`
    (`code`, `title`, `created_at`).

    Errors: a segment that looks like a short code (only short-code letters, no `_`) but
    is not saved gives 404 with code `not-found`; anything else that cannot be read as
    a notation gives 422 with code `bad-notation` and the character `offset`, or the
    rule the position breaks.
    """
    short = bool(SHORT_CODE.match(code))
    if short:
        check_misses(request, "code-miss")
    saved = SavedPosition.objects.filter(code=code).first()
    if saved is None and short:
        miss(request, "code-miss")
        with translation.override(language(request)):
            raise Problems(404, [make_problem(
                "not-found", _("No position is saved under this code."), field="code")])
    text = saved.notation if saved else code
    try:
        situation = parse_notation(text)
    except RulesError as exc:
        with translation.override(language(request)):
            raise Problems(422, [rules_problem(exc, field="code")]) from None
    out: dict[str, Any] = {"notation": format_notation(situation),
                           "situation": situation_to_json(situation)}
    if saved:
        out["saved"] = {"code": saved.code, "title": saved.title,
                        "created_at": saved.created_at.isoformat()}
    return out


@api.post("/v1/positions", response={201: SavedPositionOut, **ERRORS},
          operation_id="save_position", summary="Save a position as a short link")
def save_position(request: HttpRequest, payload: PositionIn):
    """Save a position and get a short code and link (`/p/<code>/`) that never change.

    The notation is checked by the rules engine first (422 `bad-notation` with the
    character `offset`, or the rule the position breaks) and saved in its canonical
    form. `title` is optional, at most 120 characters. Saved positions are never
    changed or deleted through the API.

    Saves are rate-limited per client (form and API together, see the README): over
    the limit the answer is 429 with code `rate-limited` and `Retry-After`.
    """
    hit(request, "save")
    if any(ord(ch) < 32 or ord(ch) == 127 for ch in payload.title):
        with translation.override(language(request)):
            raise Problems(422, [rules_problem(InvalidInput("control characters in the title",
                                                            code="bad-title"), field="title")])
    try:
        situation = parse_notation(payload.notation)
    except RulesError as exc:
        with translation.override(language(request)):
            raise Problems(422, [rules_problem(exc, field="notation")]) from None
    saved = SavedPosition(notation=format_notation(situation), title=payload.title)
    saved.save()
    return Status(201, {"code": saved.code, "url": f"/p/{saved.code}/",
                        "notation": saved.notation, "title": saved.title})
