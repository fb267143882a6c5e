"""The visitor's language: an explicit choice kept in the language cookie, and addresses
without a language prefix sent to their language's address without losing a form.

Pages live under ``/ja/``, ``/en/`` and ``/de/``; addresses without a prefix (``/``,
``/p/<code>/``, ``/t/<code>/``, ``/teach/`` typed by hand) take the language of the cookie
``settings.LANGUAGE_COOKIE_NAME``, else of ``Accept-Language`` (Django's
``get_language_from_request``). Only a click in the language switcher writes the cookie:
its links carry ``?language=<code>`` (:func:`chosen_url`), which
:class:`LanguageChoiceMiddleware` turns into the cookie before redirecting to the clean
address. Visiting a page in another language, for example from a link someone shared,
changes nothing. This works without JavaScript, and the switcher's links stay links in
fragments that htmx swaps out of band.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from django.conf import settings
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.middleware import locale
from django.urls import get_script_prefix
from django.utils.cache import add_never_cache_headers, patch_vary_headers
from django.utils.encoding import escape_uri_path, iri_to_uri
from django.utils.http import escape_leading_slashes
from django.utils.translation import get_language, get_language_from_path, get_language_from_request
from django.views.decorators.csrf import csrf_exempt

#: The query parameter of the switcher's links: the language the visitor picked.
CHOICE_PARAMETER = "language"

#: Methods that a redirect may turn into GET (every other one is redirected with 307).
_SAFE_METHODS = ("GET", "HEAD")


def chosen_url(url: str, code: str) -> str:
    """``url`` (a page in language ``code``) as the switcher's link: marked as the
    visitor's choice of ``code``; a ``#fragment`` stays last."""
    address, hash_mark, fragment = url.partition("#")
    joiner = "&" if "?" in address else "?"
    return f"{address}{joiner}{CHOICE_PARAMETER}={code}{hash_mark}{fragment}"


def _clicked_here(request: HttpRequest) -> bool:
    """Whether the request is a click on one of the site's own pages: not a link pasted
    into the address bar, followed from another site, or prefetched.

    Browsers say so in ``Sec-Fetch-Site``; without it, a ``Referer`` (the site sends one
    to itself: ``Referrer-Policy: same-origin``) must not name another origin.
    """
    if "prefetch" in request.headers.get("Sec-Purpose", "").lower():
        return False
    site = request.headers.get("Sec-Fetch-Site")
    if site is not None:
        return site == "same-origin"
    referer = request.headers.get("Referer")
    if not referer:
        return True
    try:
        return urlsplit(referer)[:2] == (request.scheme, request.get_host())
    except ValueError:  # not an address at all ("http://[::1"): not a click on this site
        return False


def _without_choice(request: HttpRequest) -> str:
    """The request's address without :data:`CHOICE_PARAMETER`, the rest of the query
    string exactly as it came."""
    kept = [part for part in request.META.get("QUERY_STRING", "").split("&")
            if part and part.partition("=")[0] != CHOICE_PARAMETER]
    path = escape_leading_slashes(escape_uri_path(request.path))
    return f"{path}?{iri_to_uri('&'.join(kept))}" if kept else path


def page_language(request: HttpRequest) -> str:
    """The language to answer ``request`` in when no view chose it (an error page, a
    refusal): the address's prefix, else the language cookie or ``Accept-Language``."""
    return get_language_from_path(request.path_info) or get_language_from_request(request)


class LanguageChoiceMiddleware:
    """Store the language picked in the switcher (``?language=<code>``) in the language
    cookie and redirect (302) to the same address without the parameter.

    Acts on GET and HEAD of pages in that language (``/<code>/…``) or without a prefix,
    never under ``/api/``. The cookie is written only for a click on the site itself
    (:func:`_clicked_here`); a switcher link that arrives from elsewhere just leads to the
    page. The cookie's age, SameSite and Secure flags come from the ``LANGUAGE_COOKIE_*``
    settings.
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        chosen = request.GET.get(CHOICE_PARAMETER) if request.method in _SAFE_METHODS else None
        if (not chosen or chosen not in dict(settings.LANGUAGES)
                or get_language_from_path(request.path_info) not in (None, chosen)
                or request.path_info.startswith("/api/")):
            return self.get_response(request)
        response = HttpResponseRedirect(_without_choice(request))
        if _clicked_here(request):
            response.set_cookie(
                settings.LANGUAGE_COOKIE_NAME, chosen, max_age=settings.LANGUAGE_COOKIE_AGE,
                path=settings.LANGUAGE_COOKIE_PATH, domain=settings.LANGUAGE_COOKIE_DOMAIN,
                secure=settings.LANGUAGE_COOKIE_SECURE, httponly=settings.LANGUAGE_COOKIE_HTTPONLY,
                samesite=settings.LANGUAGE_COOKIE_SAMESITE)
        add_never_cache_headers(response)
        return response


class LocaleMiddleware(locale.LocaleMiddleware):
    """Django's ``LocaleMiddleware``, except that an unsafe request (POST, PUT, PATCH,
    DELETE, …) to an address that exists only under a language prefix is redirected with
    307, not 302: the browser repeats it with its method and body (and CSRF token), where
    after a 302 it would follow with an empty GET. GET and HEAD still get 302.
    """

    def process_response(self, request: HttpRequest, response: HttpResponse) -> HttpResponse:
        answer = super().process_response(request, response)
        if (answer is not response and request.method not in _SAFE_METHODS
                and isinstance(answer, HttpResponseRedirect)):
            kept = HttpResponseRedirect(answer["Location"], preserve_request=True)
            patch_vary_headers(kept, ("Accept-Language", "Cookie"))
            return kept
        return answer


@csrf_exempt  # it only redirects; the address it sends a form on to checks the token
def language_home(request: HttpRequest) -> HttpResponse:
    """``/``: redirect to the same address under the visitor's language (``/en/``, the query
    string kept), as :class:`LocaleMiddleware` redirects every address that exists only
    under a prefix, without first rendering the 404 page it would redirect from.

    The language is the one LocaleMiddleware activated from the request (the cookie, then
    ``Accept-Language``); the answer varies on both. Unsafe methods get 307, as there.
    """
    prefix = get_script_prefix()
    target = request.get_full_path().replace(prefix, f"{prefix}{get_language()}/", 1)
    response = HttpResponseRedirect(target, preserve_request=request.method not in _SAFE_METHODS)
    patch_vary_headers(response, ("Accept-Language", "Cookie"))
    return response
