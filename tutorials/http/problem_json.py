"""The API's problem shape for answers no endpoint worded: an unknown route, a wrong method, a
request Django refused before any endpoint, a view that failed (``handler500``,
:mod:`tutorials.http.server_error`). The endpoints' own problems are built in
:mod:`tutorials.api.endpoints`; both have the same keys.
"""

from __future__ import annotations

from django.http import HttpRequest, JsonResponse
from django.utils import translation
from django.utils.cache import patch_vary_headers
from django.utils.translation import gettext as _

#: The problem code of an API answer that no endpoint worded, by HTTP status (any other
#: status: ``http-<status>``).
STATUS_CODES = {400: "bad-request", 403: "forbidden", 404: "not-found", 405: "method-not-allowed",
                413: "too-large", 429: "rate-limited", 500: "server-error", 502: "unavailable",
                503: "unavailable", 504: "unavailable"}


def _message(request: HttpRequest, code: str, status: int, allowed: str) -> str:
    """The sentence of problem ``code`` in the active language."""
    if code == "bad-request":
        return _("The request could not be read.")
    if code == "forbidden":
        return _("This request is not allowed.")
    if code == "not-found":
        return _("There is no API endpoint at this address.")
    if code == "method-not-allowed":
        return _("This endpoint does not accept %(method)s; allowed: %(allowed)s.") % {
            "method": request.method, "allowed": allowed}
    if code == "too-large":
        return _("The request is too large.")
    if code == "rate-limited":
        return _("Too many requests came from your network in a short time. Please try again later.")
    if code == "server-error":
        return _("Something went wrong on the server, so this request could not be answered. Please "
                 "try again in a moment.")
    if code == "unavailable":
        return _("The server cannot answer right now. Please try again in a moment.")
    return _("The request failed with HTTP status %(status)s.") % {"status": status}


def api_problem(request: HttpRequest, status: int, code: str | None = None, *,
                message: str | None = None, allowed: str = "") -> JsonResponse:
    """An answer in the API's problem shape (:mod:`tutorials.api.endpoints`) for ``status``,
    with ``code`` (default: by :data:`STATUS_CODES`) and its sentence in the request's
    language (``message``, or the code's own); ``allowed`` is the ``Allow`` header of a 405."""
    lang = translation.get_language()  # the request's (tutorials.api.middleware.APILanguageMiddleware)
    code = code or STATUS_CODES.get(status, f"http-{status}")
    message = message or _message(request, code, status, allowed)
    problem = {"field": "", "position": None, "offset": None, "code": code,
               "clause": None, "message": message}
    response = JsonResponse({"detail": [problem], "message": message}, status=status,
                            json_dumps_params={"ensure_ascii": False})
    response["Content-Language"] = lang
    if allowed:
        response["Allow"] = allowed
    patch_vary_headers(response, ("Accept-Language", "Cookie"))
    return response
