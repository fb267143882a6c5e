"""Who a request to a table is, and the table it names: the cookies that say who opened
a table (:data:`PRESENTER`, the presenter's key, which the table keeps only hashed, and
:data:`GUEST`), the lookup of a live table by its code (:func:`live_session`, whose query
is :func:`tutorials.teach.selectors.table_by_code`), and the decorator that answers a table
that is gone in the visitor's language.

:func:`live_session` counts failed lookups per client (rate limit ``table-miss``) but never
limits the presenter, a guest who has already opened that table, or the table's own guest
link (the QR code, whose token :data:`~tutorials.web.link_tokens.TABLE_LINK` checks).
"""

from __future__ import annotations

from functools import wraps

from django.http import HttpRequest, HttpResponse, HttpResponseForbidden
from django.shortcuts import render
from django.utils.cache import add_never_cache_headers

from tutorials.models import Table, normalize_code
from tutorials.teach import guests
from tutorials.teach.selectors import table_by_code
from tutorials.web.cookies import SignedCookie
from tutorials.web.limits import check_limit, miss
from tutorials.web.link_tokens import TABLE_LINK
from tutorials.web.not_found import shown_code

#: the presenter's key of each table this browser teaches
PRESENTER = SignedCookie("teach_", "teach-presenter", Table.LIFETIME_HOURS)
#: the guest's key of each table this browser follows (the table keeps only its hash:
#: :mod:`tutorials.teach.seats`); it holds the guest's seat and cards
GUEST = SignedCookie("follow_", "teach-guest", Table.LIFETIME_HOURS)


def is_presenter(request: HttpRequest, session: Table) -> bool:
    return session.presented_by(PRESENTER.read(request, session.code))


def _knows_table(request: HttpRequest, code: str) -> bool:
    """Whether this browser has opened table ``code`` before (presenter or guest cookie)."""
    return any(cookie.read(request, code) is not None for cookie in (PRESENTER, GUEST))


class TableGone(Exception):
    """No live table under ``code``: ``expired`` when it existed and its time is up."""

    def __init__(self, code: str, expired: bool) -> None:
        super().__init__(code)
        self.code = code
        self.expired = expired


def live_session(request: HttpRequest, code: str) -> Table:
    """The live session under ``code`` (normalised, :func:`normalize_code`).

    Raises :class:`TableGone` for an unknown or expired code (a failed lookup, counted),
    and :class:`~tutorials.web.limits.RateLimited` when the client has used up its failed
    lookups, unless it holds a cookie of this very table or its guest link's token. A
    lookup with the token is never counted: only the site can have written that link.
    """
    code = normalize_code(code)
    linked = TABLE_LINK.opens(request, code)
    if not linked and not _knows_table(request, code):
        check_limit(request, "table-miss")
    session = table_by_code(code)
    if session is None or session.expired:
        if not linked:
            miss(request, "table-miss")
        raise TableGone(code, expired=session is not None)
    return session


def _gone_page(request: HttpRequest, gone: TableGone) -> HttpResponse:
    """An ended or unknown table, said in the visitor's language. Full pages answer 410
    (ended) or 404 (never existed); htmx requests get the message as the new section with
    status 200 and no polling attribute, so the page shows it and stops asking."""
    presenter = "/teach/" in request.path
    # the element of the page that asked: the projector's screen, the presenter's or a
    # guest's section
    shown = ("projector-screen" if request.path.endswith("/screen/")
             else "present-section" if presenter else "guest-section")
    ctx = {"code": shown_code(gone.code, 16), "expired": gone.expired, "presenter": presenter, "shown": shown}
    if request.htmx:  # in place of the section, whichever part of the page asked
        response = render(request, "teach/gone.html#message", ctx)
        # the element of the page that asked; for the presenter, the whole screen: its QR code
        # and table code no longer open anything
        response["HX-Retarget"] = ".presenter" if shown == "present-section" else f"#{shown}"
        response["HX-Reswap"] = "outerHTML"
        return response
    return render(request, "teach/gone.html", ctx, status=410 if gone.expired else 404)


def table_view(view):
    """Decorator of the views under ``/teach/<code>/`` and ``/t/<code>/``: a table that is
    gone answers :func:`_gone_page` instead of a bare 404. No answer is kept by a cache:
    each is one person's view of the table as it is now, a player's own hand among them."""
    @wraps(view)
    def wrapped(request: HttpRequest, code: str, *args, **kwargs) -> HttpResponse:
        try:
            response = view(request, code, *args, **kwargs)
        except TableGone as gone:
            response = _gone_page(request, gone)
        add_never_cache_headers(response)
        return response
    return wrapped


def forbidden(message: str) -> HttpResponse:
    """403 with a sentence in the visitor's language (not a bare English string) and the
    problem code ``not-presenter``: this browser does not hold the presenter's cookie (any
    more), which an htmx request says in the page's notice (static/js/site.js)."""
    response = HttpResponseForbidden(message, content_type="text/plain; charset=utf-8")
    response["Problem-Code"] = "not-presenter"
    return response


def guest_of(request: HttpRequest, session: Table):
    """The guest this browser is at ``session`` (its cookie's key), or ``None``."""
    return guests.guest_by_key(session, GUEST.read(request, session.code))
