"""The API's problem shape for answers no endpoint worded: an unknown route, a wrong method, a
request Django refused before any endpoint, a view that failed (``handler500``,
:mod:`tutorials.web.server_error`). The endpoints' own problems are built in
:mod:`tutorials.api.problems`; both have the same keys, and both take their sentences from
:mod:`tutorials.wording.problems`.
"""

from __future__ import annotations

from django.http import HttpRequest, JsonResponse
from django.utils import translation
from django.utils.cache import patch_vary_headers

from captain.rules.errors import InvalidInput
from tutorials.wording.problems import is_worded, problem

#: The problem code of an API answer that no endpoint worded, by HTTP status (any other
#: status: ``http-<status>``).
STATUS_CODES = {400: "bad-request", 403: "forbidden", 404: "not-found", 405: "method-not-allowed",
                413: "too-large", 429: "rate-limited", 500: "server-error", 502: "unavailable",
                503: "unavailable", 504: "unavailable"}


def mark_problem(response, code: str) -> None:
    """Headers every error answer carries, page or problem JSON: its code in
    ``Problem-Code`` (what a failed htmx request's notice says, static/js/site.js), and
    no caching of a failure of the server (it is over when the next request comes)."""
    response["Problem-Code"] = code
    if response.status_code >= 500:
        response["Cache-Control"] = "no-store"


def api_problem(request: HttpRequest, status: int, code: str | None = None, *,
                allowed: str = "", **params: object) -> JsonResponse:
    """An answer in the API's problem shape for ``status``, with ``code`` (default: by
    :data:`STATUS_CODES`) and its sentence in the request's language, from ``params``;
    ``allowed`` is the ``Allow`` header of a 405."""
    lang = translation.get_language()  # the request's (tutorials.api.middleware.APILanguageMiddleware)
    code = code or STATUS_CODES.get(status, f"http-{status}")
    worded = code if is_worded(code) else "http-status"
    params = {"what": "route", **params} if code == "not-found" else params
    error = InvalidInput(code, code=worded, method=request.method, allowed=allowed, status=status, **params)
    body = {**problem(error), "code": code, "offset": None}
    response = JsonResponse({"detail": [body], "message": body["message"]}, status=status,
                            json_dumps_params={"ensure_ascii": False})
    response["Content-Language"] = lang
    mark_problem(response, code)
    if allowed:
        response["Allow"] = allowed
    patch_vary_headers(response, ("Accept-Language", "Cookie"))
    return response
