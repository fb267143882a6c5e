"""The site's answer when a view fails (``handler500``): a page in the reader's language with
the site's header, the language switch and a way back; under ``/api/`` the API's problem JSON.

The page is what shows when a part of the site has failed, so it depends on none that may
be the failing part: no database, no shared cache, nothing of the view that failed; only
settings, translations, the URL configuration and static files. Should even that fail, a
few lines of HTML built here stand in for it.
"""

from __future__ import annotations

import logging
import sys

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import translation
from django.utils.html import format_html
from django.utils.translation import gettext as _

from tutorials.web import database
from tutorials.web.language import page_language
from tutorials.web.problem_json import api_problem, mark_problem

logger = logging.getLogger(__name__)

#: The code an htmx request finds in the ``Problem-Code`` header (static/js/site.js says it
#: in the page's language).
CODE = "server-error"


def _bare_page(lang: str) -> str:
    """The page without templates or static files: a title, one sentence, a way back."""
    return format_html(
        '<!DOCTYPE html><html lang="{}"><head><meta charset="utf-8"><title>{}</title></head>'
        '<body><h1>{}</h1><p>{}</p><p><a href="/">{}</a></p></body></html>',
        lang, _("Something went wrong"), _("Something went wrong"),
        _("The site could not answer this request because of an error on our side. Please try "
          "again in a moment."), _("Captain Dice"))


def server_error(request: HttpRequest) -> HttpResponse:
    """500: ``templates/500.html`` in the reader's language (the address's prefix, else the
    language cookie or ``Accept-Language``); under ``/api/`` the problem ``server-error``. A
    failure to reach the database (raised before any view) is answered as a view's would be,
    503 (:func:`tutorials.web.database.unavailable`)."""
    failure = sys.exc_info()[1]  # Django calls this while it handles the request's exception
    if isinstance(failure, database.ERRORS):
        return database.unavailable(request, failure)
    if request.path_info.startswith("/api/"):
        return api_problem(request, 500, CODE)
    lang = page_language(request)
    with translation.override(lang):
        try:
            response = render(request, "500.html", {"retry": request.method in ("GET", "HEAD")},
                              status=500)
        except Exception:  # the page must answer whatever else failed: say so, then the bare one
            logger.exception("the 500 page could not be rendered; answering the bare one")
            response = HttpResponse(_bare_page(lang), status=500)
    response["Content-Language"] = lang
    mark_problem(response, CODE)
    return response
