"""``/healthz``: the cheapest answer the site gives through its whole middleware stack.

No template, no database, no cache: a load balancer can ask it often, and every site
benchmark divides by it (docs/benchmarks.md), so it must stay this trivial.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse


def healthz(request: HttpRequest) -> HttpResponse:
    """``ok``: the worker answers."""
    return HttpResponse(b"ok", content_type="text/plain")
