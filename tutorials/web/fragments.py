"""What the site renders once and serves again: HTML fragments in the shared cache (the
analyzer's board, panels and answers, and its what-if panel), and the ``ETag`` of its pages.

Rendering the board, its palette and its answers through the template engine is most of a
page's cost; they depend only on the page's state (position, tool, view, step, history,
refusal, saved link), the language and the code. Their cache key holds exactly that, hashed,
and nothing from the request (the CSRF token and the language links stay outside, rendered
each time). A cache that cannot be reached costs nothing but the saving: the fragment is
rendered as if it had never been cached (:mod:`tutorials.web.shared_cache`).
"""

from __future__ import annotations

import contextlib
import hashlib
from collections.abc import Callable, Iterable

from django.apps import apps
from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest
from django.utils.translation import get_language

from tutorials.web import shared_cache

#: How long a rendered fragment is kept (seconds). The code version is part of its key, so a
#: release never reads an older one; this only bounds what unvisited positions hold.
TIMEOUT = 24 * 3600


def code_version() -> str:
    """The code, templates, static files and catalogs this process runs with, as a hash
    (the sheet cache's key, fixed when the app starts: ``TutorialsConfig.ready``)."""
    return apps.get_app_config("tutorials").code_version


def digest(parts: Iterable[str]) -> str:
    """A hash of ``parts`` (each kept apart from its neighbours), with the code version and
    the active language in front: the inputs every analyzer answer depends on."""
    hashed = hashlib.sha256()
    for part in (code_version(), get_language() or "", *parts):
        hashed.update(part.encode())
        hashed.update(b"\0")
    return hashed.hexdigest()[:32]


def cached_html(name: str, key: str, build: Callable[[], str]) -> str:
    """The fragment ``name`` whose inputs hash to ``key`` (see :func:`digest`): from the
    shared cache, or ``build()`` and stored there."""
    full_key = f"fragment:{name}:{key}"
    try:
        html = shared_cache.call(cache.get, full_key)
    except shared_cache.Unavailable:
        return build()
    if html is None:
        html = str(build())
        with contextlib.suppress(shared_cache.Unavailable):
            shared_cache.call(cache.set, full_key, html, TIMEOUT)
    return html


def request_etag(request: HttpRequest, *_args, **_kwargs) -> str:
    """The ``ETag`` of an analyzer GET: everything its answer depends on. The address
    (language prefix and query), htmx or not, the scheme and host (the short link is
    absolute), the language and code version (:func:`digest`), and the CSRF cookie, since the
    page's form carries a token made from it: a new cookie must not revive a page with the
    old token. The cookie enters only hashed."""
    query = sorted((name, value) for name, values in request.GET.lists() for value in values)
    csrf = hashlib.sha256(request.COOKIES.get(settings.CSRF_COOKIE_NAME, "").encode()).hexdigest()
    htmx = request.headers.get("HX-Request") == "true"  # as django-htmx reads it
    return digest((request.scheme or "", request.get_host(), request.path, repr(query),
                   "htmx" if htmx else "page", csrf))
