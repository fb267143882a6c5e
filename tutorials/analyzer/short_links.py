"""Short links ``/p/<code>/`` to saved positions (outside the language prefixes)."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponseRedirect
from django.utils import translation
from django.utils.cache import patch_vary_headers
from django.utils.translation import get_language_from_request
from django.views.decorators.http import require_safe

from tutorials.models import normalize_code
from tutorials.services import find_saved
from tutorials.web.limits import check_limit, miss
from tutorials.web.link_tokens import SHORT_LINK
from tutorials.web.links import analyzer_url


@require_safe
def short_link(request: HttpRequest, code: str) -> HttpResponseRedirect:
    """Redirect to the analyzer in the viewer's language, holding the saved notation.

    ``/p/k3m9xqa/`` → ``/<lang>/analyze/?pos=<notation>``; ``<lang>`` comes from the
    language cookie or ``Accept-Language``. Unknown codes are 404. The redirect is
    temporary (302) because it depends on the viewer. Unknown codes count towards the
    client's failed lookups (rate limit ``code-miss``); past that limit
    :class:`~tutorials.web.limits.RateLimited` is raised for any code, unless the link
    carries its token (``?k=``, as the site gives short links), which is never limited.
    """
    linked = SHORT_LINK.opens(request, normalize_code(code))
    if not linked:
        check_limit(request, "code-miss")
    saved = find_saved(code)
    if saved is None:
        if not linked:
            miss(request, "code-miss")
        raise Http404("no position is saved under this code")
    lang = get_language_from_request(request)
    with translation.override(lang):
        response = HttpResponseRedirect(analyzer_url(saved.notation, saved=saved.code))
    patch_vary_headers(response, ("Accept-Language", "Cookie"))
    return response
