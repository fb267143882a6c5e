"""The public JSON API (django-ninja), mounted at ``/api/`` outside ``i18n_patterns``.

Routes (``/api/v1/…``)::

    POST /api/v1/solve              a case object → outcome, events, notation
    GET  /api/v1/positions/{code}   a notation or a saved short code → the position
    POST /api/v1/positions          save a notation → short code and ``/p/<code>/`` link

Every error comes out in one shape, whatever produced it (the rules engine, the JSON
decoder, ninja's own schema validation, the size limit in
:mod:`tutorials.api.middleware`)::

    {"detail": [{"field", "position", "offset", "code", "clause", "message"}, ...],
     "message": "<the first problem's message>"}

``code`` is stable; ``message`` is a sentence in the request's language: ``Accept-Language``
(ja, de or en) when the request sends it, else the site's language cookie (a language
picked in the site's switcher), else English
(:class:`tutorials.api.middleware.APILanguageMiddleware`). The rules engine is the only
judge of what a valid position is: request bodies for ``solve`` are decoded as JSON but checked by no
schema first, so its own errors (with board positions and rule clauses) reach the client.

The API is public and unauthenticated: no session auth, so ninja does not check CSRF
and non-browser clients can POST freely. What a browser form on another site could send
is refused: bodies must be declared ``application/json`` (415 otherwise), which a form
cannot declare without a CORS preflight. Saves and failed short-code lookups are
rate-limited per client (429, :mod:`tutorials.http.limits`).
"""

from __future__ import annotations

import json
import logging
from typing import Annotated, Any

from django.http import HttpRequest, HttpResponse
from django.utils import translation
from django.utils.translation import gettext as _
from ninja import NinjaAPI, Path, Status
from ninja.errors import HttpError, ValidationError
from ninja.parser import Parser
from ninja.renderers import JSONRenderer
from pydantic import WithJsonSchema

from captain.rules import RulesError, situation_from_json, situation_to_json, solve
from captain.rules.errors import InvalidInput
from captain.rules.notation import MAX_LENGTH as NOTATION_MAX_LENGTH
from captain.rules.notation import parse as parse_notation
from captain.rules.notation import trim as trim_notation
from tutorials import services
from tutorials.api.schemas import (CASE_SCHEMA, CODE_OR_NOTATION_PATTERN, ActionIn, GameIn, GameOut,
                                   PositionIn, PositionOut, ProblemsOut, SavedPositionOut, SolveOut)
from tutorials.http.limits import RateLimited, check_misses, hit, miss
from tutorials.http.problem_json import api_problem
from tutorials.models import StaleGame
from tutorials.practice import games
from tutorials.services import SHORT_CODE
from tutorials.wording.problems import describe

# --- problems ---------------------------------------------------------------------


def make_problem(code: str, message: str, *, field: str = "", position: list[int] | None = None,
                 offset: int | None = None, clause: str | None = None) -> dict[str, Any]:
    """One problem in the API's shape (the same keys as :func:`tutorials.wording.problems.problem`)."""
    return {"field": field, "position": position, "offset": offset, "code": code,
            "clause": clause, "message": message}


def problems_body(problems: list[dict[str, Any]]) -> dict[str, Any]:
    """The error body: every problem, and the first one's message on its own."""
    return {"detail": problems, "message": problems[0]["message"] if problems else ""}




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
    if error.code == "bad-text":
        if p.get("field"):
            return _("Text in %(field)s holds a lone surrogate (like \\ud800), which is not a "
                     "character: send valid Unicode.") % {"field": p["field"]}
        return _("A key of the request body holds a lone surrogate (like \\ud800), which is not a "
                 "character: send valid Unicode.")
    if error.code == "unknown-key":
        return _("Unknown key: %(keys)s.") % {"keys": ", ".join(p.get("keys", ()))}
    if error.code == "missing-key":
        return _("The key %(key)s is required.") % {"key": p.get("key", "?")}
    return None


def rules_problem(error: RulesError, *, field: str | None = None) -> dict[str, Any]:
    """A :class:`RulesError` as a problem, worded in the active language.

    ``field`` (default: the error's own :attr:`~captain.rules.errors.RulesError.field`) is
    a JSON path into the request (``"board"``, ``"players[1]"``, ``"rules.speed_order"``,
    ``"notation"``); ``position`` is ``[row, column]`` when the problem is on the board.
    """
    offset = error.params.get("offset")
    return make_problem(error.code, _api_message(error) or describe(error),
                        field=field if field is not None else (error.field or ""),
                        position=list(error.position) if error.position is not None else None,
                        offset=offset if isinstance(offset, int) else None, clause=error.clause)


class Problems(Exception):
    """Raised by the views: answer ``status`` with these problems."""

    def __init__(self, status: int, problems: list[dict[str, Any]]) -> None:
        super().__init__(problems)
        self.status = status
        self.problems = problems


def _unsupported_media_type(request: HttpRequest) -> Problems:
    message = _("Send the request body as JSON, with the header Content-Type: application/json.")
    return Problems(415, [make_problem("unsupported-media-type", message)])


def _surrogate_path(value: object, path: str = "") -> str | None:
    """JSON path of the first text (value or key) holding a lone UTF-16 surrogate, or None.

    ``json.loads`` accepts ``"\\ud800"``, but such text cannot be encoded as UTF-8: it
    would break every answer that repeats it (an error message naming an unknown key).
    """
    if isinstance(value, str):
        return path if any("\ud800" <= ch <= "\udfff" for ch in value) else None
    if isinstance(value, dict):
        for key, item in value.items():
            where = f"{path}.{key}" if path else str(key)
            if _surrogate_path(key) is not None:
                return path
            found = _surrogate_path(item, where)
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
            shown = key if not any("\ud800" <= ch <= "\udfff" for ch in key) else repr(key)
            raise InvalidInput(f"key {shown!r} sent twice", where="body", field=shown,
                               code="duplicate-field", key=shown)
        out[key] = value
    return out


def decode_json(request: HttpRequest) -> object:
    """The request body decoded as JSON.

    Raises :class:`InvalidInput` when it is empty (``empty-body``), :class:`Problems`
    (415) unless it is declared ``application/json`` (UTF-8, the default), and
    :class:`InvalidInput` when it is not UTF-8 (``not-utf8``), not JSON (``bad-json``
    with line and column), sends a key of an object twice (``duplicate-field``) or holds
    text that is not Unicode (``bad-text``: a lone surrogate such as ``"\\ud800"``, with
    the JSON path where, e.g. ``players[1]``).
    """
    if not request.body:
        raise InvalidInput("empty body", where="body", code="empty-body")
    if request.content_type != "application/json" or \
            request.content_params.get("charset", "utf-8").lower() not in ("utf-8", "utf8"):
        raise _unsupported_media_type(request)
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
    except (ValueError, RecursionError) as exc:  # e.g. an integer of 5000 digits, deep nesting
        raise InvalidInput(f"not valid JSON: {exc}", where="body", code="bad-json") from None
    try:
        where = _surrogate_path(data)
    except RecursionError:  # nesting json.loads took but we cannot walk: refuse it too
        raise InvalidInput("nested too deeply", where="body", code="bad-json") from None
    if where is not None:
        raise InvalidInput("lone UTF-16 surrogate in a text", where=where or "body", code="bad-text",
                           field=where)
    return data


class EngineJSONParser(Parser):
    """Decodes bodies like :func:`decode_json`, so a schema-typed body reports bad JSON alike.

    ninja wraps whatever ``parse_body`` raises in ``HttpError(400)``; the handler below
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


# --- the API ----------------------------------------------------------------------

class EngineAPI(NinjaAPI):
    """The API, with the engine's refusals kept whole where a schema's validator raised
    one (:mod:`tutorials.api.schemas`): ninja would turn them into text."""

    def validation_error_from_error_contexts(self, error_contexts):
        for context in error_contexts:
            for error in context.pydantic_validation_error.errors(include_url=False):
                found = (error.get("ctx") or {}).get("error")
                if isinstance(found, RulesError):
                    raise found
        return super().validation_error_from_error_contexts(error_contexts)


api = EngineAPI(
    title="Captain Dice rules API",
    version="1",
    description=(
        "Ask the Captain Dice rules engine what happens in a position, read position "
        "notation and save short links. Request bodies are JSON (`Content-Type: "
        "application/json`, else 415), at most 64 KiB (else 413). Errors are HTTP 422 "
        "(429 over a rate limit, with `Retry-After`) "
        "with `{\"detail\": [problem, ...], \"message\": ...}`, as is every other error status "
        "(404, 405, 500 `server-error`, …); each problem has `field`, "
        "`position`, `offset`, `code`, `clause` and `message` (in the `Accept-Language` "
        "language: ja, de or en). An explicit `Accept-Language` header wins over the site's "
        "language cookie (`captain_language`, set when a visitor picks a language on the "
        "site); without the header the cookie applies, and without either, English."
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
    response = _respond(request, 429, [make_problem("rate-limited", exc.message)])
    response["Retry-After"] = str(exc.retry_after)
    return response


@api.exception_handler(RulesError)
def _on_rules_error(request: HttpRequest, exc: RulesError) -> HttpResponse:
    return _respond(request, 422, [rules_problem(exc)])


_SCHEMA_CODES = {"missing": "missing-key", "extra_forbidden": "unknown-key",
                 "string_too_long": "too-long"}


@api.exception_handler(ValidationError)
def _on_validation_error(request: HttpRequest, exc: ValidationError) -> HttpResponse:
    """ninja's own schema errors (pydantic) in the same problem shape."""
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


@api.exception_handler(Exception)
def _on_failure(request: HttpRequest, exc: Exception) -> HttpResponse:
    """500 ``server-error`` for whatever else an endpoint raised (the database gone, a bug),
    logged as Django logs a failed request."""
    logging.getLogger("django.request").error(
        "Internal Server Error: %s", request.path, exc_info=exc,
        extra={"status_code": 500, "request": request})
    return api_problem(request, 500, "server-error")


@api.exception_handler(HttpError)
def _on_http_error(request: HttpRequest, exc: HttpError) -> HttpResponse:
    if isinstance(exc.__cause__, RulesError):  # from EngineJSONParser
        return _respond(request, 422, [rules_problem(exc.__cause__)])
    if isinstance(exc.__cause__, Problems):  # from EngineJSONParser (415)
        return _respond(request, exc.__cause__.status, exc.__cause__.problems)
    return _respond(request, exc.status_code,
                    [make_problem(f"http-{exc.status_code}", str(exc))])


# --- endpoints --------------------------------------------------------------------

#: Every error an endpoint with a body can answer, in the problem shape.
ERRORS = {413: ProblemsOut, 415: ProblemsOut, 422: ProblemsOut}


@api.post("/v1/solve", response={200: SolveOut, **ERRORS}, operation_id="solve",
          summary="What happens in this position?",
          openapi_extra={"requestBody": {"required": True, "content": {
              "application/json": {"schema": CASE_SCHEMA}}}})
def solve_case(request: HttpRequest):
    """Resolve a position given as a case object (the format of the shared rules cases).

    The body is a case object: `players`, `start_player`, `board`, and optionally
    `rules`, `deck` and `won`; descriptive keys (`id`, `source`, `question`,
    `expect`, …) are ignored. The answer holds the same `outcome` keys as
    `python -m captain.rules solve`, the explanation `events` (each with the `clause`
    of the rules it applies, as on `/en/rules/`) and the position's `notation`.

    Input the rules do not allow (an unseated colour, too many cards of a kind, two
    occupants on a card, …), malformed JSON and unknown keys give 422 with one
    problem naming the field, board position and rule clause.
    """
    situation = situation_from_json(decode_json(request))
    solution = solve(situation)
    return {"outcome": solution.outcome(),
            "events": [event.to_json() for event in solution.events],
            "notation": situation.to_notation()}


@api.get("/v1/positions/{code}", response={200: PositionOut, 404: ProblemsOut, 422: ProblemsOut,
                                           429: ProblemsOut},
         operation_id="read_position", summary="Read a notation or a saved short code")
def read_position(request: HttpRequest,
                  code: Annotated[str, WithJsonSchema({
                      "type": "string", "pattern": CODE_OR_NOTATION_PATTERN,
                      "description": "a short code, or a notation of at most 2000 characters"})
                  ] = Path(..., max_length=NOTATION_MAX_LENGTH)):
    """Decode a position notation, or the position saved under a short code.

    `code` is either a notation (always contains `_`, e.g. `Rb_11r1.12-13b2.14`) or a
    short code from `POST /api/v1/positions` (letters and digits only, e.g. `k3m9xqa`).
    A saved code answers with its notation, the position and `saved`
    (`code`, `title`, `created_at`). White space and invisible characters around either
    (a pasted newline, a no-break or full-width space, a byte order mark) are trimmed.

    Errors: a segment that looks like a short code (only short-code letters, no `_`) but
    is not saved gives 404 with code `not-found`; anything else that cannot be read as
    a notation gives 422 with code `bad-notation` and the character `offset`, or the
    rule the position breaks.
    """
    # white space around a pasted code is no part of it; a notation is read as sent (the
    # reader trims it too, and counts an error's offset in what the client sent)
    trimmed = trim_notation(code)
    short = bool(SHORT_CODE.match(trimmed))
    if short:
        check_misses(request, "code-miss")
    saved = services.find_saved(trimmed)
    if saved is None and short:
        miss(request, "code-miss")
        raise Problems(404, [make_problem(
            "not-found", _("No position is saved under this code."), field="code")])
    text = saved.notation if saved else code
    try:
        situation = parse_notation(text)
    except RulesError as exc:
        raise Problems(422, [rules_problem(exc, field="code")]) from None
    out: dict[str, Any] = {"notation": situation.to_notation(),
                           "situation": situation_to_json(situation)}
    if saved:
        out["saved"] = {"code": saved.code, "title": saved.title,
                        "created_at": saved.created_at.isoformat()}
    return out


@api.post("/v1/positions", response={201: SavedPositionOut, **ERRORS, 429: ProblemsOut},
          operation_id="save_position", summary="Save a position as a short link")
def save_position(request: HttpRequest, payload: PositionIn):
    """Save a position and get a short code and link (`/p/<code>/`) that never change.

    The notation is checked by the rules engine first (422 `bad-notation` with the
    character `offset`, or the rule the position breaks) and saved in its canonical
    form. `title` is optional, at most 120 characters. Saved positions are never
    changed or deleted through the API.

    Saves are rate-limited per client (form and API together, see docs/production.md): over
    the limit the answer is 429 with code `rate-limited` and `Retry-After`.
    """
    hit(request, "save")
    try:
        saved, _situation = services.save_position(payload.notation, payload.title)
    except RulesError as exc:
        raise Problems(422, [rules_problem(exc)]) from None
    return Status(201, {"code": saved.code, "url": services.short_link(saved.code),
                        "notation": saved.notation, "title": saved.title})


# --- practice games -------------------------------------------------------------------------
def _game_not_found() -> Problems:
    return Problems(404, [make_problem("not-found", _("No game is open under this id and key; "
                                                      "games expire 24 hours after they start."),
                                       field="id")])


def _open(request: HttpRequest, game_id: str, *, share: bool = False):
    """The game opened by the learner's key (header ``X-Game-Key``) or, where ``share``
    allows it, the share token (``?share=``). Wrong keys count as failed lookups: over
    the limit they get 429, while the right key still opens its game."""
    key = request.headers.get("X-Game-Key") or None
    token = request.GET.get("share") or None if share else None
    try:
        game, learner = games.open_game(game_id, key, share=token)
    except games.GameNotFound:
        check_misses(request, "game-miss")
        miss(request, "game-miss")
        raise _game_not_found() from None
    practice = games.practice_of(game)
    if not learner and not practice.state.is_over:
        raise _game_not_found()
    return game, learner, practice


@api.post("/v1/games", response={201: GameOut, **ERRORS, 429: ProblemsOut}, operation_id="start_game",
          summary="Start a practice game against computer captains")
def start_game(request: HttpRequest, payload: GameIn):
    """Deal a game for one learner against computer captains of a chosen strength.

    The answer holds the game `id`, the learner's `key` (send it as `X-Game-Key`; it is
    shown only here) and the `state` as the learner may see it. Games expire 24 hours
    after they start. Starting games is rate-limited with the other write requests
    (429 with `Retry-After`). Rule sets a table of that size may not play (a bell rule in
    strategy mode, the first-edition bell with two players) are refused, as by the site's
    start form.
    """
    hit(request, "game")
    game, key, practice = games.start_game(payload.setup)
    return Status(201, {"id": game.code, "key": key, "share_token": game.share_token,
                        "state": games.learner_view(game, practice)})


@api.get("/v1/games/{game_id}", response={200: dict[str, Any], 404: ProblemsOut, 422: ProblemsOut,
                                          429: ProblemsOut},
         operation_id="read_game", summary="The game as the learner may see it")
def read_game(request: HttpRequest, game_id: str = Path(..., max_length=16),
              since: int | None = None):
    """The game with the learner's key (`X-Game-Key`), after the captains' actions due by
    now: board, dice, every player's won cards, the learner's own hand, the learner's
    `legal_actions`, and the explanation `events` since version `since` (all without it).
    Never another player's hand or face-down card, the deck order or the seed. With
    `?share=<token>` instead of the key, a finished game read-only. Unknown id or wrong
    key: 404.
    """
    if since is not None and since < 0:
        raise InvalidInput("since must be a version, 0 or more", where="since", field="since",
                           code="bad-version")
    game, learner, practice = _open(request, game_id, share=True)
    if learner:
        practice = games.catch_up(game, practice)
    return games.learner_view(game, practice, since=since, shared=not learner)


@api.post("/v1/games/{game_id}/actions",
          response={200: dict[str, Any], 404: ProblemsOut, 409: ProblemsOut, **ERRORS, 429: ProblemsOut},
          operation_id="play_action", summary="The learner's action")
def play_action(request: HttpRequest, payload: ActionIn, game_id: str = Path(..., max_length=16)):
    """Play one of the state's `legal_actions` (or `{"type": "continue"}` between rounds),
    chosen at `version`. The captains' actions due by now come first: an action they made
    impossible meanwhile (a card claimed a moment earlier) is refused with 422, the rule's
    `clause` and a message in the request's language. 409 when the game moved on since
    `version` (another window); 404 for an unknown game or a wrong key.
    """
    game, learner, practice = _open(request, game_id)
    if not learner:
        raise _game_not_found()
    version = payload.version
    try:
        practice = games.play(game, practice, payload.action, version)
    except InvalidInput as exc:  # the action cannot be read: say where in it
        if not exc.field or not exc.field.startswith("action"):
            exc.field = "action"
        raise
    except StaleGame:
        raise Problems(409, [make_problem(
            "stale-version", _("The game has moved on since you chose this action: read it "
                               "again and choose anew."), field="version")]) from None
    return games.learner_view(game, practice, since=version)
