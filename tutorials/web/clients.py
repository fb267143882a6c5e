"""Who the client is, behind the configured number of trusted proxies.

django-ratelimit asks :func:`client_ip` (``RATELIMIT_IP_META_KEY``) for the address it
counts requests by; it then groups IPv6 addresses by /64.
"""

from __future__ import annotations

import ipaddress

from django.conf import settings
from django.http import HttpRequest


def client_ip(request: HttpRequest) -> str:
    """The client's IP address as text, e.g. ``"203.0.113.7"`` or ``"2001:db8::1"``.

    With ``TRUSTED_PROXY_HOPS = 0`` (no proxy) it is ``REMOTE_ADDR``. With ``n`` proxies,
    each of which appends the address it received the request from to
    ``X-Forwarded-For``, it is the ``n``-th entry from the right: entries further left
    were sent by the client and could be anything. A request with fewer entries than
    ``n``, or whose entry is not an IP address, did not come through the proxies as
    configured; it is counted by ``REMOTE_ADDR`` (the nearest proxy), never by a value
    the client chose. Never raises.
    """
    remote = request.META.get("REMOTE_ADDR") or "0.0.0.0"
    hops = settings.TRUSTED_PROXY_HOPS
    if hops <= 0:
        return remote
    entries = [part.strip() for part in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")]
    entries = [part for part in entries if part]
    if len(entries) < hops:
        return remote
    candidate = entries[-hops]
    try:
        return str(ipaddress.ip_address(candidate))
    except ValueError:
        return remote
