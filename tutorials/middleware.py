"""Keep htmx partials out of the browser's page cache."""

from __future__ import annotations

from django.utils.cache import patch_vary_headers


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
        patch_vary_headers(response, ("HX-Request",))
        return response
