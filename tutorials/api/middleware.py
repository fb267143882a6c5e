"""Request guards that must run before any view reads the body."""

from __future__ import annotations

import io

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils import translation
from django.utils.cache import patch_vary_headers
from django.utils.translation import gettext as _

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
        lang = translation.get_language()  # the request's (APILanguageMiddleware)
        message = _("The request is too large: at most %(limit)s KiB.") % {"limit": API_MAX_BODY // 1024}
        problem = {"field": "", "position": None, "offset": None, "code": "too-large",
                   "clause": None, "message": message}
        response = JsonResponse({"detail": [problem], "message": message}, status=413,
                                content_type="application/json; charset=utf-8",
                                json_dumps_params={"ensure_ascii": False})
        response["Content-Language"] = lang
        patch_vary_headers(response, ("Accept-Language", "Cookie"))
        return response


class APIJsonErrorsMiddleware:
    """Answer 404 and 405 under ``/api/`` in the API's problem shape, not as HTML pages.

    Unknown routes and wrong methods never reach an API view, so Django would answer
    them with its HTML error pages; API clients get JSON like every other API error.
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if (request.path_info.startswith("/api/") and response.status_code in (404, 405)
                and not response.get("Content-Type", "").startswith("application/json")):
            lang = translation.get_language()  # the request's (APILanguageMiddleware)
            if response.status_code == 404:
                code, message = "not-found", _("There is no API endpoint at this address.")
            else:
                code = "method-not-allowed"
                message = _("This endpoint does not accept %(method)s; allowed: %(allowed)s.") % {
                    "method": request.method, "allowed": response.get("Allow", "")}
            problem = {"field": "", "position": None, "offset": None, "code": code,
                       "clause": None, "message": message}
            new = JsonResponse({"detail": [problem], "message": message}, status=response.status_code,
                               json_dumps_params={"ensure_ascii": False})
            if response.has_header("Allow"):
                new["Allow"] = response["Allow"]
            new["Content-Language"] = lang
            return new
        return response
