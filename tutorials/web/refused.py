"""The site's own pages for requests refused before any view could answer: a malformed or
oversized request (400, ``handler400``), a form without its CSRF token (403,
``CSRF_FAILURE_VIEW``), a form post whose body is not a form (415, :func:`require_form_body`)
and a method an address does not take (405, e.g. opening the address a form posts to). Each
says what was refused and what to do, in the page's language (the address's prefix, else the
visitor's), instead of Django's bare English.
"""

from __future__ import annotations

import functools

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import translation

from tutorials.web.language import page_language

#: the bodies a browser sends a form as; :func:`require_form_body` refuses others (JSON) with 415
FORM_TYPES = ("application/x-www-form-urlencoded", "multipart/form-data")


def refused_page(request: HttpRequest, kind: str, status: int) -> HttpResponse:
    """The page ``templates/refused.html`` for ``kind`` (``bad-request``, ``csrf``,
    ``media-type``, ``method``) with HTTP ``status``, in the page's language."""
    with translation.override(page_language(request)):
        return render(request, "refused.html", {"kind": kind}, status=status)


def bad_request(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """400: a request the site cannot read (too many fields, a body over the limit, a
    host that is not the site's)."""
    return refused_page(request, "bad-request", 400)


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    """403: a form sent without the page's security token (an old page, cookies off); the
    problem code ``csrf`` tells an htmx request's notice to ask for a reload."""
    response = refused_page(request, "csrf", 403)
    response["Problem-Code"] = "csrf"
    return response


def require_form_body(view):
    """Refuse a POST to ``view`` whose body is not a form as browsers send it (JSON, plain
    text) with 415 and the site's page, before the view reads anything or counts towards a
    limit; other methods go through. The problem code ``unsupported-media-type`` is the
    API's for the same refusal."""

    @functools.wraps(view)
    def wrapped(request: HttpRequest, *args, **kwargs) -> HttpResponse:
        if request.method == "POST" and request.content_type not in FORM_TYPES:
            response = refused_page(request, "media-type", 415)
            response["Problem-Code"] = "unsupported-media-type"
            return response
        return view(request, *args, **kwargs)

    return wrapped


class MethodPageMiddleware:
    """Give a GET answered 405 without a body (``require_POST`` and friends: someone opened
    the address a form posts to) the site's page, "this address receives forms only", with
    the ``Allow`` header kept. Other methods (PUT, TRACE, … from scanners) stay empty;
    API answers (JSON problems) and htmx requests are left as they are."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if (response.status_code == 405 and request.method == "GET" and not response.content
                and not request.htmx and not request.path_info.startswith("/api/")):
            page = refused_page(request, "method", 405)
            if response.has_header("Allow"):
                page["Allow"] = response["Allow"]
            return page
        return response
