"""The site's 404 page (``handler404``): it says what was not found and what to do next.

Which thing was missing follows from the route the address matched (a view raised
``Http404``): a saved position behind a short link, a tutorial page, a printable sheet;
an address that matches no route is just an unknown address. Tables that are unknown or
have ended answer their own page (``teach/gone.html``, 404 or 410) from the teach views.

The page is worded in the address's language, or for an address without a language prefix
in the visitor's (language cookie, then ``Accept-Language``).
"""

from __future__ import annotations

import unicodedata

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import translation
from django.utils.html import format_html

from tutorials.web.language import page_language

#: Route (``namespace:name``) → what its 404 means and the route argument that names it.
MISSING = {
    "short-link": ("position", "code"),
    "tutorials:lesson": ("lesson", "slug"),
    "tutorials:sheet-pdf": ("sheet", "name"),
    "tutorials:sheet-preview": ("sheet", "name"),
}


def shown_code(text: str, limit: int = 32) -> str:
    """``text`` from an address, safe to put in a sentence: without control or direction
    characters (a NUL, a right-to-left override), at most ``limit`` characters (an ellipsis
    says it was cut) and isolated from the sentence around it (``<bdi>``); "" for nothing."""
    text = "".join(ch for ch in str(text) if unicodedata.category(ch)[0] != "C")
    if len(text) > limit:
        text = text[:limit] + "…"
    return format_html("<bdi>{}</bdi>", text) if text else ""


def page_not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """404 page naming the missing thing (:data:`MISSING`), in the visitor's language."""
    match = getattr(request, "resolver_match", None)
    what, argument = MISSING.get(match.view_name if match else "", ("address", ""))
    name = shown_code(match.kwargs.get(argument, "")) if match and argument else ""
    with translation.override(page_language(request)):
        return render(request, "404.html", {"missing": what, "name": name}, status=404)
