"""Every error of the API in one shape, whatever produced it (the rules engine, the JSON
decoder of :mod:`tutorials.api.bodies`, ninja's own schema validation, a rate limit)::

    {"detail": [{"field", "position", "offset", "code", "clause", "message"}, ...],
     "message": "<the first problem's message>"}

``code`` is stable; ``message`` is its sentence from :mod:`tutorials.wording.problems`
(the one place the site's refusals are worded) in the request's language.
:func:`answer_errors` gives an API its handlers.
"""

from __future__ import annotations

import logging
from typing import Any

from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse
from django.utils import translation
from ninja import NinjaAPI
from ninja.errors import HttpError, ValidationError

from captain.rules import RulesError
from captain.rules.errors import InvalidInput
from tutorials.web import database
from tutorials.web.limits import RateLimited
from tutorials.web.problem_json import mark_problem
from tutorials.wording.problems import describe


def make_problem(code: str, message: str, *, field: str = "", position: list[int] | None = None,
                 offset: int | None = None, clause: str | None = None) -> dict[str, Any]:
    """One problem in the API's shape (the same keys as :func:`tutorials.wording.problems.problem`)."""
    return {"field": field, "position": position, "offset": offset, "code": code,
            "clause": clause, "message": message}


def problems_body(problems: list[dict[str, Any]]) -> dict[str, Any]:
    """The error body: every problem, and the first one's message on its own."""
    return {"detail": problems, "message": problems[0]["message"] if problems else ""}


def rules_problem(error: RulesError, *, field: str | None = None) -> dict[str, Any]:
    """A :class:`RulesError` as a problem, worded in the active language.

    ``field`` (default: the error's own :attr:`~captain.rules.errors.RulesError.field`) is
    a JSON path into the request (``"board"``, ``"players[1]"``, ``"rules.speed_order"``,
    ``"notation"``); ``position`` is ``[row, column]`` when the problem is on the board.
    """
    offset = error.params.get("offset")
    return make_problem(error.code, describe(error),
                        field=field if field is not None else (error.field or ""),
                        position=list(error.position) if error.position is not None else None,
                        offset=offset if isinstance(offset, int) else None, clause=error.clause)


def refusal(code: str, *, field: str = "", **params: Any) -> dict[str, Any]:
    """The problem ``code`` (with the parameters of its sentence) that only the API raises."""
    return rules_problem(InvalidInput(code, code=code, field=field or None, **params), field=field)


class Problems(Exception):
    """Raised by the views: answer ``status`` with these problems."""

    def __init__(self, status: int, problems: list[dict[str, Any]]) -> None:
        super().__init__(problems)
        self.status = status
        self.problems = problems


#: pydantic's error types -> the API's codes (other ``*_type`` errors are ``bad-type``)
_SCHEMA_CODES = {"missing": "missing-key", "extra_forbidden": "unknown-key",
                 "string_too_long": "too-long"}


def schema_problem(error: dict[str, Any]) -> dict[str, Any]:
    """One of ninja's schema errors (pydantic's dict) as a problem."""
    loc = [str(part) for part in error.get("loc", ())]
    # loc is ("body", "<parameter name>", key, ...) for bodies; ("path", name) …
    loc = loc[2:] if loc[:1] == ["body"] else loc[1:]
    field = ".".join(loc)
    kind = error.get("type", "")
    code = _SCHEMA_CODES.get(kind, "bad-type" if kind.endswith("_type") else "bad-value")
    if not field and code == "missing-key":  # no body at all
        return refusal("empty-body")
    if not field and code == "bad-type":
        return refusal("not-object", body=True)
    params = {"missing-key": {"key": field}, "unknown-key": {"keys": [field]},
              "too-long": {"name": field, "max": error.get("ctx", {}).get("max_length", "?")}}
    return refusal(code, field=field, **params.get(code, {"name": field or "body"}))


def answer_errors(api: NinjaAPI) -> None:
    """Answer every error ``api`` meets in the problem shape, in the request's language."""

    def respond(request: HttpRequest, status: int, problems: list[dict[str, Any]]) -> HttpResponse:
        response = api.create_response(request, problems_body(problems), status=status)
        response["Content-Language"] = translation.get_language()
        if problems:
            mark_problem(response, problems[0]["code"])
        return response

    @api.exception_handler(Problems)
    def on_problems(request: HttpRequest, exc: Problems) -> HttpResponse:
        return respond(request, exc.status, exc.problems)

    @api.exception_handler(RateLimited)
    def on_rate_limited(request: HttpRequest, exc: RateLimited) -> HttpResponse:
        """429 ``rate-limited`` with ``Retry-After`` (seconds), like the site's wait page."""
        response = respond(request, 429, [make_problem("rate-limited", exc.message)])
        response["Retry-After"] = str(exc.retry_after)
        return response

    @api.exception_handler(RulesError)
    def on_rules_error(request: HttpRequest, exc: RulesError) -> HttpResponse:
        return respond(request, 422, [rules_problem(exc)])

    @api.exception_handler(ValidationError)
    def on_validation_error(request: HttpRequest, exc: ValidationError) -> HttpResponse:
        """ninja's own schema errors (pydantic) in the same problem shape."""
        return respond(request, 422, [schema_problem(error) for error in exc.errors])

    @api.exception_handler(OperationalError)
    @api.exception_handler(InterfaceError)
    def on_database_unreachable(request: HttpRequest, exc: Exception) -> HttpResponse:
        """503 ``unavailable`` with ``Retry-After``, as every request that needs the database
        while it cannot be reached (:mod:`tutorials.web.database`)."""
        return database.unavailable(request, exc)

    @api.exception_handler(Exception)
    def on_failure(request: HttpRequest, exc: Exception) -> HttpResponse:
        """500 ``server-error`` for whatever else an endpoint raised (a bug), logged as
        Django logs a failed request."""
        logging.getLogger("django.request").error(
            "Internal Server Error: %s", request.path, exc_info=exc,
            extra={"status_code": 500, "request": request})
        return respond(request, 500, [refusal("server-error")])

    @api.exception_handler(HttpError)
    def on_http_error(request: HttpRequest, exc: HttpError) -> HttpResponse:
        if isinstance(exc.__cause__, RulesError):  # from the body parser
            return respond(request, 422, [rules_problem(exc.__cause__)])
        if isinstance(exc.__cause__, Problems):  # from the body parser (415)
            return respond(request, exc.__cause__.status, exc.__cause__.problems)
        return respond(request, exc.status_code, [make_problem(f"http-{exc.status_code}", str(exc))])
