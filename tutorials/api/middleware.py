"""Request guards that must run before any view reads the body."""

from __future__ import annotations

import io

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.utils import translation

from tutorials.web.problem_json import api_problem

#: Largest request body the JSON API accepts (bytes). A case object of the largest
#: board the engine accepts (12 × 12) is well under 4 KiB.
API_MAX_BODY = 64 * 1024

class APILanguageMiddleware:
    """Under ``/api/``, the request's language, set once for everything after it (the API's
    size and routing refusals, every endpoint and its error handlers): an explicit
    ``Accept-Language`` wins over the site's language cookie.

    The cookie records a language picked in the site's switcher and is what pages without
    a language prefix follow; an API client that names its language in the header gets
    that language even when it also sends the cookie (a browser on ``/api/docs``). Without
    the header, the cookie applies; without either, English. The cookie is hidden from the
    rest of the request, so every ``get_language_from_request`` of the API reads the header.
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        name = settings.LANGUAGE_COOKIE_NAME
        if (request.path_info.startswith("/api/") and request.headers.get("Accept-Language", "").strip()
                and name in request.COOKIES):
            request.COOKIES = {key: value for key, value in request.COOKIES.items() if key != name}
        if not request.path_info.startswith("/api/"):
            return self.get_response(request)
        with translation.override(translation.get_language_from_request(request)):
            return self.get_response(request)


class APIHeadMiddleware:
    """``HEAD`` on the API: the answer ``GET`` would give (status and headers, its
    ``Content-Length`` too) without the body. ninja routes each method to an operation, so
    without this ``HEAD`` answered 405; a ``HEAD`` operation per route would double every
    read in the OpenAPI schema."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.method != "HEAD" or not request.path_info.startswith("/api/"):
            return self.get_response(request)
        request.method = "GET"
        try:
            response = self.get_response(request)
        finally:
            request.method = "HEAD"
        if not response.streaming:
            response["Content-Length"] = str(len(response.content))
            response.content = b""
        return response


class APIBodySizeLimitMiddleware:
    """Refuse ``/api/`` requests whose body exceeds :data:`API_MAX_BODY` bytes.

    Answers 413 in the API's problem shape (code ``too-large``) from ``Content-Length``
    alone, before the body is read, parsed or handed to the engine. A chunked body
    (``Transfer-Encoding: chunked``, no length) is read here, at most one byte past the
    limit, when the server marks the input as terminated (gunicorn does); Django alone
    would read such a body as empty. ``DATA_UPLOAD_MAX_MEMORY_SIZE`` caps everything
    else on the site.
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.path_info.startswith("/api/"):
            try:
                length = int(request.META.get("CONTENT_LENGTH") or 0)
            except ValueError:
                length = 0  # Django reads no body for an unreadable length either
            if length > API_MAX_BODY:
                return self._too_large(request)
            if not length and self._chunked(request):
                data = request.META["wsgi.input"].read(API_MAX_BODY + 1)
                if len(data) > API_MAX_BODY:
                    return self._too_large(request)
                request._stream = io.BytesIO(data)  # what request.body reads
                request.META["CONTENT_LENGTH"] = str(len(data))
        return self.get_response(request)

    @staticmethod
    def _chunked(request: HttpRequest) -> bool:
        return ("chunked" in request.META.get("HTTP_TRANSFER_ENCODING", "").lower()
                and bool(request.META.get("wsgi.input_terminated")))

    def _too_large(self, request: HttpRequest) -> HttpResponse:
        return api_problem(request, 413, "too-large", limit=API_MAX_BODY // 1024)


class APIJsonErrorsMiddleware:
    """Answer every error under ``/api/`` in the API's problem shape, not as an HTML page.

    Unknown routes (404), wrong methods (405), requests Django refuses before any endpoint
    (400: a host not allowed, too many fields) and failures outside the endpoints (500,
    ``handler500``) never reach the API's own error handlers, so Django would answer them
    with its HTML pages; API clients get JSON like every other API error
    (:func:`api_problem`, the code by status).
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if (request.path_info.startswith("/api/") and response.status_code >= 400
                and not response.get("Content-Type", "").startswith("application/json")):
            new = api_problem(request, response.status_code, allowed=response.get("Allow", ""))
            if response.has_header("Retry-After"):
                new["Retry-After"] = response["Retry-After"]
            return new
        return response
