"""The public JSON API (django-ninja), mounted at ``/api/`` outside ``i18n_patterns``.

Routes (``/api/v1/…``)::

    POST /api/v1/solve                    a case object → outcome, events, notation
    GET  /api/v1/positions/{code}         a notation or a saved short code → the position
    POST /api/v1/positions                save a notation → short code and ``/p/<code>/`` link
    POST /api/v1/games                    deal a practice game (:mod:`tutorials.api.games`)
    GET  /api/v1/games/{id}               the game as the learner may see it
    POST /api/v1/games/{id}/actions       the learner's action

Request bodies are read by :mod:`tutorials.api.bodies`; every error, whatever produced it,
is answered in one shape by :mod:`tutorials.api.problems`, its ``message`` in the request's
language: ``Accept-Language`` (ja, de or en) when the request sends it, else the site's
language cookie (a language picked in the site's switcher), else English
(:class:`tutorials.api.middleware.APILanguageMiddleware`). The rules engine is the only
judge of what a valid position is: request bodies for ``solve`` are decoded as JSON but
checked by no schema first, so its own errors (with board positions and rule clauses)
reach the client.

The API is public and unauthenticated: no session auth, so ninja does not check CSRF
and non-browser clients can POST freely. What a browser form on another site could send
is refused: bodies must be declared ``application/json`` (415 otherwise), which a form
cannot declare without a CORS preflight. Saves and failed short-code lookups are
rate-limited per client (429, :mod:`tutorials.web.limits`).
"""

from __future__ import annotations

from typing import Annotated, Any

from django.http import HttpRequest
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_safe
from ninja import NinjaAPI, Path, Query, Status
from pydantic import WithJsonSchema

from captain.rules import RulesError, situation_from_json, situation_to_json, solve
from captain.rules.notation import MAX_LENGTH as NOTATION_MAX_LENGTH
from captain.rules.notation import parse as parse_notation
from captain.rules.typed import normalize_typed
from tutorials import services
from tutorials.api import games
from tutorials.api.bodies import EngineJSONParser, UnicodeJSONRenderer, decode_json
from tutorials.api.problems import Problems, answer_errors, refusal, rules_problem
from tutorials.api.schemas import (
    CASE_SCHEMA,
    CODE_OR_NOTATION_PATTERN,
    ERRORS,
    PositionIn,
    PositionOut,
    ProblemsOut,
    RuleSearchOut,
    SavedPositionOut,
    SolveOut,
)
from tutorials.models import normalize_code
from tutorials.search.answers import MAX_QUESTION, answer
from tutorials.services import SHORT_CODE
from tutorials.web.limits import check_limit, hit, miss
from tutorials.web.link_tokens import SHORT_LINK

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


def _read_only(view):
    return csrf_exempt(require_safe(view))


api = EngineAPI(
    title="Captain Dice rules API",
    version="1",
    description=(
        "Ask the Captain Dice rules engine what happens in a position, read position "
        "notation and save short links. Request bodies are JSON (`Content-Type: "
        "application/json`, else 415), at most 64 KiB (else 413). Errors are HTTP 422 "
        "(429 over a rate limit and 503 `unavailable` while the database cannot be reached, "
        "both with `Retry-After`) "
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
    # the docs page and the schema are read, never sent to: other methods (POST, TRACE,
    # OPTIONS) 405. A view that changes nothing needs no CSRF check, which would otherwise
    # answer a POST first, with 403
    docs_decorator=_read_only,
    parser=EngineJSONParser(),
    renderer=UnicodeJSONRenderer(),
    # No CSP relaxation for /api/docs: with "ninja" in INSTALLED_APPS its Swagger page
    # loads everything from /static/ninja/, its settings sit in a JSON data block (not
    # executed), and Swagger UI sets styles through the DOM, not style="" text; checked
    # in headless chromium (no violations, Try it out included). See tests/api.
)


answer_errors(api)
api.add_router("/v1", games.router)


# --- endpoints --------------------------------------------------------------------

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


@api.get("/v1/rules/search", response={200: RuleSearchOut, 422: ProblemsOut, 429: ProblemsOut},
         operation_id="search_rules", summary="Answer a rules question")
def search_rules(request: HttpRequest,
                 q: str = Query(..., min_length=1, max_length=MAX_QUESTION,
                                description="the question, in Japanese, English or German")):
    """The clauses of the rules that answer a question typed as a player would ask it,
    best first, in the language of `Accept-Language` (whatever the question's language).
    A clause id asked as such (`BAT-3`) is the one answer; when nothing in the rules says
    it, `answered` is false and the results are the closest clauses."""
    found = answer(q)
    return {"query": found.question, "answered": found.answered or bool(found.clause_asked),
            "results": [a.to_json() for a in found.answers]}


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
    (`code`, `title`, `created_at`). Either is read as the site reads every typed text:
    white space around it (a pasted newline, a no-break or full-width space) and invisible
    format characters in it (a byte order mark, a zero-width space) are dropped, and
    full-width letters and digits are folded.

    Errors: a segment that looks like a short code (only short-code letters, no `_`) but
    is not saved gives 404 with code `not-found`; anything else that cannot be read as
    a notation gives 422 with code `bad-notation` and the character `offset`, or the
    rule the position breaks. Unknown short codes are rate-limited per client (429 with
    code `rate-limited`), unless the query carries the code's token `k`, as in the `url`
    that `POST /api/v1/positions` returns.
    """
    # what a paste brings along is no part of a code; a notation is read as sent (the
    # reader reads it the same way, and counts an error's offset in what the client sent)
    try:
        trimmed = normalize_typed(code, where="code")
    except RulesError as exc:
        raise Problems(422, [rules_problem(exc, field="code")]) from None
    short = bool(SHORT_CODE.match(trimmed))
    linked = short and SHORT_LINK.opens(request, normalize_code(trimmed))
    if short and not linked:
        check_limit(request, "code-miss")
    saved = services.find_saved(trimmed)
    if saved is None and short:
        if not linked:
            miss(request, "code-miss")
        raise Problems(404, [refusal("not-found", field="code", what="position")])
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
