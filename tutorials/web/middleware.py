"""Response middlewares of the site: ``Vary`` headers (htmx partials, the request's
language), the 503/429 wait pages, and redirects that keep an unsafe request's method."""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest, HttpResponse, HttpResponsePermanentRedirect, HttpResponseRedirect
from django.middleware import common, security
from django.shortcuts import render
from django.templatetags.static import static
from django.urls import reverse
from django.utils.cache import patch_vary_headers
from django.utils.http import escape_leading_slashes
from django.utils.translation import get_language_from_path

from tutorials.web.limits import TryLater
from tutorials.web.render_pool import RenderInPool


def _static(request: HttpRequest) -> bool:
    """Whether ``request`` asks for a static file: the same bytes for every visitor, so a
    ``Vary`` on the language or the cookie would only make shared caches keep one copy per
    visitor (every visitor has a CSRF cookie of their own)."""
    return request.path_info.startswith(settings.STATIC_URL)


class VaryOnHtmxMiddleware:
    """Add ``Vary: HX-Request`` to every response.

    Some pages answer an htmx request with a fragment and a normal request with the
    full page at the same address. Without this header a browser may show the cached
    fragment when the visitor presses Back.
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        if not _static(request):
            patch_vary_headers(response, ("HX-Request",))
        return response


class LanguageVaryMiddleware:
    """Add ``Vary: Accept-Language, Cookie`` where the language came from the request.

    Pages under ``/ja/``, ``/en/``, ``/de/`` take their language from the address. Every
    other response (the API, ``/p/…`` and ``/t/…`` redirects) is worded in the language of
    the language cookie or ``Accept-Language``, so a cache must keep one copy per value;
    static files are worded in no language.
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        if get_language_from_path(request.path_info) is None and not _static(request):
            patch_vary_headers(response, ("Accept-Language", "Cookie"))
        return response


class WaitPagesMiddleware:
    """Answer a request refused for now (a :class:`~tutorials.web.limits.TryLater`: a rate
    limit, 429, ``rate-limited``) at once with a short page in the request's language and
    ``Retry-After``.

    Views and services raise :class:`~tutorials.web.limits.RateLimited`; the JSON API
    answers it itself, in its problem shape (:mod:`tutorials.api.endpoints`). The page stands
    alone (no site header) so that a refusal costs little. It is never delayed: a pause would
    hold one of the worker's few threads per refused request, so a client asking again and
    again would crowd out other readers; slowing such clients down is the proxy's job (its request limit).
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_exception(self, request, exception):
        if not isinstance(exception, TryLater):
            return None
        return wait_page(request, exception.message, exception.status, exception.code, exception.retry_after)


class RenderPoolMiddleware:
    """Hand a render to the render pool: a :class:`~tutorials.rendering.pdf.RenderInPool`
    becomes an empty answer with ``X-Accel-Redirect``, which nginx follows to the pool."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_exception(self, request, exception):
        if not isinstance(exception, RenderInPool):
            return None
        # no charset: nginx would keep it and add it to the pool's own Content-Type
        response = HttpResponse(content_type="application/octet-stream")
        response["X-Accel-Redirect"] = exception.location
        return response


def wait_page(request: HttpRequest, message: str, status: int, code: str, retry_after: int) -> HttpResponse:
    """``templates/wait.html`` saying ``message``, in the active language, as a
    :func:`refusal`: a short page that needs nothing but templates and static files."""
    response = render(request, "wait.html", {
        "message": message, "stylesheet": static("css/site.css"),
        "tutorial_url": reverse("tutorials:index"), "analyzer_url": reverse("tutorials:analyze"),
    }, status=status)
    return refusal(response, retry_after, code)


def refusal(response: HttpResponse, retry_after: int, code: str) -> HttpResponse:
    """``response`` as a refusal to wait for: with ``Retry-After``, never cached, and its
    problem ``code`` (what an htmx request's notice says, static/js/site.js), at once (see
    :class:`WaitPagesMiddleware`). The wait pages and any page that answers a limit in its
    own place (the join form) go through here."""
    response["Retry-After"] = str(retry_after)
    response["Cache-Control"] = "no-store"
    response["Problem-Code"] = code
    return response


class CommonMiddleware(common.CommonMiddleware):
    """Django's ``CommonMiddleware``, except that an unsafe request (POST, PUT, PATCH,
    DELETE) to an address missing its trailing slash (``POST /en/play``) is sent on with
    307: the browser repeats it with its method and body. Django's 301 would be followed
    by an empty GET (the form lost), and under DEBUG it raises instead."""

    def process_response(self, request: HttpRequest, response: HttpResponse) -> HttpResponse:
        if (response.status_code == 404 and request.method not in ("GET", "HEAD")
                and self.should_redirect_with_slash(request)):
            path = escape_leading_slashes(request.get_full_path(force_append_slash=True))
            return HttpResponseRedirect(path, preserve_request=True)
        return super().process_response(request, response)


class KeepMethodSSLRedirectMiddleware:
    """The SSL redirect of an unsafe request (POST, PUT, PATCH, DELETE over plain HTTP), with
    308: the client repeats it over HTTPS with its method and body, where the 301 of Django's
    ``SecurityMiddleware`` (which stays in charge of everything else and must stay in
    ``MIDDLEWARE`` under its own name for ``check --deploy``) is followed by an empty GET.
    Sits just before it."""

    def __init__(self, get_response):
        self.get_response = get_response
        self.security = security.SecurityMiddleware(get_response)

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.method not in ("GET", "HEAD"):
            redirect = self.security.process_request(request)  # None unless it would redirect
            if redirect is not None:
                response = HttpResponsePermanentRedirect(redirect["Location"], preserve_request=True)
                return self.security.process_response(request, response)
        return self.get_response(request)
