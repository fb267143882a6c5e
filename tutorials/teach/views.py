"""Presenter and guest views of a teaching session. Thin: parse, update, render.

Everything that changes a table is a POST with Django's CSRF check (forms without
JavaScript, htmx with the token header). Table codes are looked up through
:func:`_session`, which counts failed lookups per client (rate limit ``table-miss``) but
never limits the presenter or a guest who has already opened that table.
"""

from __future__ import annotations

import random
from urllib.parse import urlencode

import segno
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseForbidden
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import translation
from django.utils.html import conditional_escape, format_html
from django.utils.safestring import mark_safe
from django.utils.translation import get_language_from_request
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST, require_safe
from django_htmx.http import push_url

from tutorials.http.limits import check_misses, hit, miss
from tutorials.models import StaleTable, TeachSession
from tutorials.teach.plan import act_on_board, current_section, load_board, move
from tutorials.tutorial.boards import NOTES
from tutorials.tutorial.comes_up import cards_for
from tutorials.tutorial.reading import RATES, script_timing, taught_clauses
from tutorials.tutorial.teaching import (
    VARIANT_CLAUSES,
    VARIANTS,
    OptionsError,
    parse_options,
    script_context,
    sections,
    stored_options,
)
from tutorials.wording.clauses import clause_summary

COOKIE_SALT = "teach-presenter"
GUEST_SALT = "teach-guest"


def _cookie_name(code: str) -> str:
    return f"teach_{code}"


def _guest_cookie_name(code: str) -> str:
    return f"follow_{code}"


def _is_presenter(request: HttpRequest, session: TeachSession) -> bool:
    key = request.get_signed_cookie(_cookie_name(session.code), default=None, salt=COOKIE_SALT)
    return key is not None and key == session.presenter_key


def _knows_table(request: HttpRequest, code: str) -> bool:
    """Whether this browser has opened table ``code`` before (presenter or guest cookie)."""
    return any(request.get_signed_cookie(name, default=None, salt=salt) is not None
               for name, salt in ((_cookie_name(code), COOKIE_SALT),
                                  (_guest_cookie_name(code), GUEST_SALT)))


def _find(request: HttpRequest, code: str) -> TeachSession | None:
    """The live session under ``code``, or ``None`` (a failed lookup, counted).

    Raises :class:`~tutorials.http.limits.RateLimited` when the client has used up its failed
    lookups, unless it holds a cookie of this very table.
    """
    code = code.lower()
    if not _knows_table(request, code):
        check_misses(request, "table-miss")
    session = TeachSession.objects.filter(code=code).first() if code.isalnum() and len(code) <= 16 else None
    if session is None or session.expired:
        miss(request, "table-miss")
        return None
    return session


def _session(request: HttpRequest, code: str) -> TeachSession:
    """:func:`_find`, with 404 for an unknown or expired code."""
    session = _find(request, code)
    if session is None:
        raise Http404("no table uses this code, or it has expired")
    return session


def _boards(session: TeachSession, section, *, presenter: bool) -> list:
    out = []
    for board_id in section.boards:
        board = load_board(session, section, board_id)
        board.note = ""
        if presenter:
            _presenter_urls(board, session)
        else:
            board.readonly = True
            board.page_base = reverse("tutorials:teach-guest", args=[session.code])
        out.append(board)
    return out


def _presenter_urls(board, session: TeachSession) -> None:
    """Route ``board``'s actions to the presenter's endpoint and its page to the presenter."""
    board.post_url = reverse("tutorials:teach-board", args=[session.code, board.board_id])
    board.page_base = reverse("tutorials:teach-present", args=[session.code])


def _timing(session: TeachSession, index: int) -> dict:
    """Estimated minutes per section from its read-aloud text in the active language
    (:mod:`tutorials.tutorial.reading`), the total, and the timers' starting points."""
    lang = translation.get_language()
    timing = script_timing(session.options, lang if lang in RATES else "en")
    return {"section_minutes": timing[index].minutes,
            "total_minutes": sum(t.minutes for t in timing),
            "minutes_by_section": [t.minutes for t in timing],
            # strings, so that no language's number format (3,5 in German) reaches the script
            "started": f"{session.started_at.timestamp():.3f}" if session.started_at else "",
            "section_started": f"{session.section_since.timestamp():.3f}" if session.section_since else ""}


def _context(request: HttpRequest, session: TeachSession, *, presenter: bool) -> dict:
    options = stored_options(session.options)
    script = sections(options)
    index = min(session.section, len(script) - 1)
    section = script[index]
    guest_path = reverse("teach-join", args=[session.code])
    later = cards_for(options, taught_clauses(options))
    return {
        **script_context(options),
        "session": session, "section": section, "index": index, "count": len(script),
        "script_sections": script, "boards": _boards(session, section, presenter=presenter),
        "options": options, "presenter": presenter,
        "guest_url": request.build_absolute_uri(guest_path),
        # the rules the script leaves for later (all, and those of this section's phase)
        "comes_up_now": [c for c in later if c.phase == section.phase],
        "say_later": later,
        "variants": [(VARIANT_CLAUSES[v], clause_summary(VARIANT_CLAUSES[v])) for v in options["variants"]],
        **(_timing(session, index) if presenter else {}),
    }


def _stale_message() -> str:
    return str(NOTES["stale"])


# --- presenter ------------------------------------------------------------------------------
@require_http_methods(["GET", "HEAD", "POST"])
def teach_start(request: HttpRequest) -> HttpResponse:
    """GET: the choices before starting. POST: create the session and open the presenter."""
    if request.method == "POST":
        hit(request, "table")
        chosen = {"players": request.POST.get("players", "4"), "mode": request.POST.get("mode", "action"),
                  "script": request.POST.get("script", "quick"),
                  "variants": request.POST.getlist("variants"),
                  "first_edition": request.POST.get("first_edition", "")}
        try:
            options = parse_options(chosen)
        except OptionsError as refused:
            # the form again, with every choice kept and the reason beside the field
            return render(request, "teach/start.html",
                          _start_context(chosen=chosen, errors=refused.errors), status=422)
        session = TeachSession.start(options)
        response = redirect("tutorials:teach-present", code=session.code)
        response.set_signed_cookie(_cookie_name(session.code), session.presenter_key, salt=COOKIE_SALT,
                                   max_age=TeachSession.LIFETIME_HOURS * 3600, httponly=True,
                                   samesite="Lax", secure=request.is_secure())
        return response
    return render(request, "teach/start.html", _start_context())


def _script_minutes(script: str) -> float:
    """Estimated read-aloud minutes of ``script`` for four players in action mode, in the
    active language."""
    lang = translation.get_language()
    return sum(t.minutes for t in script_timing({"script": script}, lang if lang in RATES else "en"))


_DEFAULT_CHOICES = {"players": "4", "mode": "action", "script": "quick", "variants": [], "first_edition": ""}


def _start_context(**extra) -> dict:
    chosen = {**_DEFAULT_CHOICES, **extra.pop("chosen", {})}
    return {"variant_choices": [(v, VARIANT_CLAUSES[v], clause_summary(VARIANT_CLAUSES[v]))
                                for v in VARIANTS],
            "first_edition_summary": clause_summary("VAR-4"),
            "script_minutes": {name: _script_minutes(name) for name in ("quick", "full")},
            "chosen": chosen, "errors": extra.pop("errors", {}), **extra}


@require_safe
def teach_find(request: HttpRequest) -> HttpResponse:
    """``?code=…``: follow the table with that code, or say it is unknown or expired."""
    code = request.GET.get("code", "").strip().lower()
    session = _find(request, code) if code else None
    if session is not None:
        return redirect("tutorials:teach-guest", code=session.code)
    if code:  # what the visitor typed, isolated in <bdi> and escaped
        message = mark_safe(conditional_escape(_(
            "No table uses the code “%(code)s”. Check the code on the presenter's screen; "
            "codes end after four hours.")) % {"code": format_html("<bdi>{}</bdi>", code[:16])})
    else:
        message = _("Type the table code shown on the presenter's screen.")
    return render(request, "teach/start.html", _start_context(join_error=message, join_code=code[:16]),
                  status=404 if code else 200)


@require_safe
def teach_present(request: HttpRequest, code: str) -> HttpResponse:
    """The presenter's screen: the current section in large type, controls, QR code."""
    session = _session(request, code)
    if not _is_presenter(request, session):
        return redirect("tutorials:teach-guest", code=session.code)
    return _present_page(request, session)


def _present_page(request: HttpRequest, session: TeachSession, *, note: str = "",
                  status: int = 200) -> HttpResponse:

    ctx = _context(request, session, presenter=True)
    ctx["qr_svg"] = segno.make(ctx["guest_url"], error="m").svg_inline(scale=4, dark="#11394a")
    ctx["note"] = note
    return render(request, "teach/present.html", ctx, status=status)


@require_POST
def teach_go(request: HttpRequest, code: str) -> HttpResponse:
    """Move the presenter to section ``to`` (POST; presenter only).

    A move that raced with another change of the table is refused with 409 and the
    table as it is now.
    """
    session = _session(request, code)
    if not _is_presenter(request, session):
        return HttpResponseForbidden("only the presenter can move the teach along")
    try:
        to = int(request.POST.get("to", ""))
    except ValueError:
        to = session.section
    note, status = "", 200
    try:
        move(session, to)
    except StaleTable:
        session = _session(request, code)
        note, status = _stale_message(), 409
    if request.htmx:
        ctx = {**_context(request, session, presenter=True), "note": note}
        return render(request, "teach/present.html#section", ctx, status=status)
    if status != 200:
        return _present_page(request, session, note=note, status=status)
    return redirect("tutorials:teach-present", code=session.code)


@require_POST
def teach_board(request: HttpRequest, code: str, board_id: str) -> HttpResponse:
    """A board action (POST ``do``, ``at``) on the presenter's screen; guests see the new
    state on their next poll. A change that raced with another is refused with 409."""
    session = _session(request, code)
    if not _is_presenter(request, session):
        return HttpResponseForbidden("only the presenter can change the boards")
    try:
        board = act_on_board(session, board_id, request.POST.get("do", ""), request.POST.get("at", ""),
                             rng=random.SystemRandom())
    except LookupError:
        raise Http404("no such board in this section") from None
    except StaleTable:
        session = _session(request, code)
        if not request.htmx:
            return _present_page(request, session, note=_stale_message(), status=409)
        board = load_board(session, current_section(session), board_id)
        board.note = "stale"
        status = 409
    else:
        status = 200
        if not request.htmx:
            return redirect(reverse("tutorials:teach-present", args=[session.code]) + f"#board-{board_id}")
    _presenter_urls(board, session)
    response = render(request, "tutorials/_board.html", {"board": board}, status=status)
    return push_url(response, False)


# --- guests -----------------------------------------------------------------------------------
@require_safe
def teach_join(request: HttpRequest, code: str) -> HttpResponse:
    """``/t/<code>/``: send the guest to the table in their own language (or, for an
    unknown or expired code, to the form that says so)."""

    lang = get_language_from_request(request)
    with translation.override(lang):
        return redirect(f"{reverse('tutorials:teach-find')}?{urlencode({'code': code})}")


@require_safe
def teach_guest(request: HttpRequest, code: str) -> HttpResponse:
    """The guest's view: the presenter's current section and boards, in the guest's language.

    Sets a cookie for this table, so that the guest's polls are never counted or limited
    as failed lookups of other people on the same network.
    """
    session = _session(request, code)
    response = render(request, "teach/guest.html", _context(request, session, presenter=False))
    response.set_signed_cookie(_guest_cookie_name(session.code), "1", salt=GUEST_SALT,
                               max_age=TeachSession.LIFETIME_HOURS * 3600, httponly=True,
                               samesite="Lax", secure=request.is_secure())
    return response


@require_safe
def teach_poll(request: HttpRequest, code: str) -> HttpResponse:
    """``?v=<version>``: 204 while nothing changed, else the new section (htmx swaps it)."""
    session = _session(request, code)
    try:
        seen = int(request.GET.get("v", "0"))
    except ValueError:
        seen = 0
    if seen == session.version:
        return HttpResponse(status=204)
    return render(request, "teach/guest.html#section", _context(request, session, presenter=False))
