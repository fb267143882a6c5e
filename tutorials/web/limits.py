"""Rate limits per client, counted by django-ratelimit in the shared cache.

The groups and their rates are the setting ``RATE_LIMITS`` (see docs/production.md): ``pdf``,
``save``, ``game`` and ``table`` count every request that renders, saves, starts a
practice game or starts a table;
``table-miss`` and ``code-miss`` count only lookups of codes that do not exist, so a
guessing client is stopped while the guests of a real table (and the readers of a real
link) never add to the count, and a link the site wrote (its token,
:mod:`tutorials.web.link_tokens`) is neither counted nor refused. The client is the
address ``tutorials.web.clients.client_ip`` finds behind ``TRUSTED_PROXY_HOPS`` proxies.

Over a limit, :class:`RateLimited` is raised; the site answers it with a 429 page and the
API with its problem list, both with ``Retry-After`` (:mod:`tutorials.web.middleware`,
:mod:`tutorials.api.endpoints`).

While the shared cache cannot be reached the limits fail open: the request goes on,
uncounted, and :mod:`tutorials.web.shared_cache` counts it and says so in the log. A save
or a guest joining a table must not fail because a counter is out of reach; the limits
count again once the cache answers.
"""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext, pgettext
from django_ratelimit.core import get_usage

from tutorials.web import shared_cache

#: What the 429 page and the API say for each group, before how long to wait.
MESSAGES = {
    "pdf": _("Too many PDFs were requested from your network in a short time."),
    "save": _("Too many positions were saved from your network in a short time."),
    "game": _("Too many practice games were started from your network in a short time."),
    "table": _("Too many tables were started from your network in a short time."),
    "table-miss": _("Too many table codes that do not exist were tried from your network, so typed "
                    "codes are not accepted for a while. Scan the QR code on the presenter's screen "
                    "instead: it always opens the table."),
    "code-miss": _("Too many short links that do not exist were tried from your network, so typed "
                   "codes are not accepted for a while. A link copied from the site still opens."),
    "game-miss": _("Too many wrong game keys were tried from your network."),
}


class TryLater(Exception):
    """A request refused for now, answered at once with HTTP ``status``, the problem
    ``code``, :attr:`message` and ``Retry-After: retry_after``
    (:class:`~tutorials.web.middleware.WaitPagesMiddleware`): the limits here."""

    status: int
    code: str
    retry_after: int

    @property
    def message(self) -> str:
        """In the active language: what was refused, then how long to wait."""
        raise NotImplementedError


class RateLimited(TryLater):
    """The client went over the limit of ``group``; it may try again after ``retry_after`` s."""

    status, code = 429, "rate-limited"

    def __init__(self, group: str, retry_after: int) -> None:
        super().__init__(f"rate limit {group} ({settings.RATE_LIMITS[group]}) reached")
        self.group = group
        self.retry_after = max(1, retry_after)

    @property
    def message(self) -> str:
        """In the active language: what was limited, then how long to wait."""
        wait = ngettext("Please try again in %(seconds)s second.", "Please try again in %(seconds)s seconds.",
                        self.retry_after) % {"seconds": self.retry_after}
        # two sentences one after the other: a space between them, none in Japanese
        return pgettext("two sentences", "%(first)s %(second)s") % {
            "first": MESSAGES[self.group], "second": wait}


def _usage(request: HttpRequest, group: str, *, increment: bool, decides: bool = True) -> dict | None:
    """django-ratelimit's usage of ``group`` by this client, or ``None`` (no limit) while the
    shared cache is down; ``decides``: the answer lets a request through or not (counted
    as let through without a limit when the cache is down)."""
    try:
        return shared_cache.call(get_usage, request, group=group, key="ip",
                                 rate=settings.RATE_LIMITS[group], increment=increment)
    except shared_cache.Unavailable:
        if decides:
            shared_cache.degraded("rate-limit")
        return None


def hit(request: HttpRequest, group: str) -> None:
    """Count this request in ``group``; raises :class:`RateLimited` when it is one too many."""
    usage = _usage(request, group, increment=True)
    if usage is not None and usage["should_limit"]:
        raise RateLimited(group, usage["time_left"])


def check_limit(request: HttpRequest, group: str) -> None:
    """Raise :class:`RateLimited` if the client has used up ``group`` (its failed lookups,
    its renders). Counts nothing: call :func:`miss` when the lookup then fails, or
    :func:`hit` once the thing counted is done.
    """
    usage = _usage(request, group, increment=False)
    if usage is not None and usage["count"] >= usage["limit"]:
        raise RateLimited(group, usage["time_left"])


def miss(request: HttpRequest, group: str) -> None:
    """Count one failed lookup in ``group`` (never raises: the next lookup is refused)."""
    _usage(request, group, increment=True, decides=False)
