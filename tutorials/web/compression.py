"""gzip for the site's own answers (pages, fragments, JSON), and the pages it must not touch.

Static files come compressed from collectstatic (WhiteNoise, or nginx's ``gzip_static``);
this compresses what the views write, in the worker, so the development server, gunicorn
alone and gunicorn behind nginx send the same bytes.

BREACH reads a secret out of compressed answers when the victim's browser sends the
request with its cookies, the attacker controls text reflected in the same answer and can
watch the answers' sizes. Only what the victim's cookies add to an answer can leak:

- the CSRF token, the one cookie-derived value on public pages, is masked anew for every
  answer (Django), so no two answers hold the same bytes of it;
- the per-object secrets (a presenter's key and handover link, a guest's seat and hand, a
  learner's game) are read from their cookies only by the pages of a table or a game
  (``tutorials.teach``, ``tutorials.play``): those are not compressed (:data:`UNCOMPRESSED_VIEWS`)
  unless the view knows an answer holds none of them (:func:`precompressed`: the section a
  table's guests share, whose seat and hand come apart; :func:`compress`: the page of a
  guest who holds no seat);
- the API's game key travels in a header (``X-Game-Key``) that no other site can make a
  browser send.

Django's middleware also pads every compressed answer by 0–100 random bytes in the gzip
header, which hides any length difference smaller than that behind many more requests.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.middleware.gzip import GZipMiddleware, re_accepts_gzip
from django.utils.cache import patch_vary_headers

#: Media types worth compressing: text the views write. Server-sent events are left out, as
#: a compressor may hold an event back until it has more to write.
COMPRESSED_TYPES = frozenset({
    "text/html", "text/plain", "application/json", "application/problem+json", "image/svg+xml",
})

#: Views (by module) whose answers carry a secret read from the visitor's cookies.
UNCOMPRESSED_VIEWS = ("tutorials.teach", "tutorials.play")


def carries_cookie_secret(request: HttpRequest) -> bool:
    """Whether the view that answered ``request`` may put a cookie's secret in its body."""
    match = getattr(request, "resolver_match", None)
    module = getattr(match.func, "__module__", "") if match else ""
    return module.startswith(UNCOMPRESSED_VIEWS)


class CompressionMiddleware(GZipMiddleware):
    """Django's ``GZipMiddleware`` for :data:`COMPRESSED_TYPES`, except answers of the
    views in :data:`UNCOMPRESSED_VIEWS`."""

    def process_response(self, request: HttpRequest, response: HttpResponse) -> HttpResponse:
        media_type = response.get("Content-Type", "").partition(";")[0].strip().lower()
        if media_type not in COMPRESSED_TYPES or carries_cookie_secret(request):
            return response
        return super().process_response(request, response)


def precompressed(request: HttpRequest, body: bytes, packed: bytes) -> HttpResponse:
    """An answer of ``body``, sent as ``packed`` (``body`` gzipped once for everyone who asks)
    when the client accepts gzip: for a view in :data:`UNCOMPRESSED_VIEWS` whose answer holds
    nothing read from the visitor's cookies or link (the caller's promise), so that the
    same bytes for every visitor give an attacker nothing to compare (as
    ``GZipMiddleware`` reads ``Accept-Encoding``)."""
    response = HttpResponse(content_type="text/html; charset=utf-8")
    patch_vary_headers(response, ("Accept-Encoding",))
    if re_accepts_gzip.search(request.headers.get("Accept-Encoding", "")):
        response.content = packed
        response["Content-Encoding"] = "gzip"
    else:
        response.content = body
    return response


_GZIP = GZipMiddleware(lambda request: None)  # (only its process_response is used)


def compress(request: HttpRequest, response: HttpResponse) -> HttpResponse:
    """``response`` gzipped (and padded, as the middleware does) when the client accepts it,
    for a view in :data:`UNCOMPRESSED_VIEWS` whose answer holds nothing read from the
    visitor's cookies or link this time (the caller's promise: a guest's page without a
    seat, say)."""
    return _GZIP.process_response(request, response)
