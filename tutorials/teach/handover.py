"""Handing a table's presenter role to another device, with a link that works once.

The presenter asks for a link (:func:`teach_handover`): a fresh key of
``secrets.token_urlsafe(24)`` in its address, of which the table keeps only the hash
(:meth:`~tutorials.models.Table.offer_handover`), open for
:attr:`~tutorials.models.Table.HANDOVER_MINUTES`. The device that opens it is asked
to confirm (GET, :func:`teach_take`); its POST gives it a new presenter key, and the
table keeps only that key's hash, so the old device's cookie opens nothing any more and
its next poll or move is refused with ``not-presenter``. The link leaves the language out
of its address, so it opens in the language of whoever opens it.

Views parse and render; :func:`judge` and :func:`take` decide. A key that opens nothing
counts as a failed lookup of the client (``table-miss``, as unknown table codes do), and
every take is refused once the client has used up its failed lookups, so keys cannot be
guessed from one network.
"""

from __future__ import annotations

import segno
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST

from tutorials.models import Table, key_opens
from tutorials.teach.access import PRESENTER, forbidden, is_presenter, live_session, table_view
from tutorials.teach.forms import HandoverKeyForm
from tutorials.teach.views import _context
from tutorials.web.limits import check_limit, miss
from tutorials.web.refused import require_form_body


class HandoverRefused(Exception):
    """A handover link that gives no role: ``wrong`` (no open link has this key: mistyped,
    replaced, or used some time ago), ``expired`` (its minutes are up) or ``used`` (another
    device took it at the same moment)."""

    STATUS = {"wrong": 403, "expired": 410, "used": 410}

    def __init__(self, kind: str) -> None:
        super().__init__(kind)
        self.kind = kind

    @property
    def status(self) -> int:
        return self.STATUS[self.kind]


def judge(session: Table, key: str | None) -> None:
    """Raise :class:`HandoverRefused` unless ``key`` is the table's open handover key
    (compared in constant time, :func:`~tutorials.models.key_opens`)."""
    if not key_opens(session.handover_key_hash, key):
        raise HandoverRefused("wrong")
    if session.handover_until is None or timezone.now() >= session.handover_until:
        raise HandoverRefused("expired")


def take(session: Table, key: str | None) -> str:
    """The new presenter key of the device that took the role with ``key``; raises
    :class:`HandoverRefused` when ``key`` opens nothing, or another device was first."""
    judge(session, key)
    new_key = session.hand_over(key) if key else None
    if new_key is None:
        raise HandoverRefused("used")
    return new_key


def handover_path(code: str, key: str) -> str:
    """The link's address without its language prefix: the site sends whoever opens it to
    that address in their own language (cookie, else ``Accept-Language``)."""
    prefixed = reverse("tutorials:teach-take", args=[code, key])
    return "/" + prefixed.lstrip("/").split("/", 1)[1]


# --- views --------------------------------------------------------------------------------


@require_POST
@require_form_body
@never_cache
@table_view
def teach_handover(request: HttpRequest, code: str) -> HttpResponse:
    """A new handover link (presenter only): the presenter's page again, with the link and
    its QR code in the side panel. The key is in this answer only (never cached)."""
    session = live_session(request, code)
    key = session.offer_handover() if is_presenter(request, session) else None
    if key is None:
        return forbidden(_("Only the person teaching can hand the table over."))
    link = request.build_absolute_uri(handover_path(session.code, key))
    ctx = _context(request, session, presenter=True)
    ctx["qr_svg"] = segno.make(ctx["qr_url"], error="m").svg_inline(scale=4, dark="#11394a")
    ctx["handover_url"] = link
    ctx["handover_qr_svg"] = segno.make(link, error="m").svg_inline(scale=4, dark="#11394a")
    ctx["handover_minutes"] = Table.HANDOVER_MINUTES
    return render(request, "teach/present.html", ctx)


@require_http_methods(["GET", "HEAD", "POST"])
@require_form_body
@never_cache
@table_view
def teach_take(request: HttpRequest, code: str, key: str) -> HttpResponse:
    """GET: ask whether this device takes over teaching the table. POST: take it (the
    presenter's cookie, then the presenter's page). A link that gives no role answers a
    page that says why (403 wrong, 410 expired or just used by another device)."""
    session = live_session(request, code)
    check_limit(request, "table-miss")
    given = HandoverKeyForm.of_address(key).key_given
    try:
        if request.method != "POST":
            judge(session, given)
            return render(request, "teach/take.html", {"session": session})
        new_key = take(session, given)
    except HandoverRefused as refused:
        if refused.kind == "wrong":
            miss(request, "table-miss")
        ctx = {"session": session, "kind": refused.kind, "minutes": Table.HANDOVER_MINUTES}
        return render(request, "teach/handover_refused.html", ctx, status=refused.status)
    response = redirect("tutorials:teach-present", code=session.code)
    PRESENTER.give(request, response, session.code, new_key)
    return response
