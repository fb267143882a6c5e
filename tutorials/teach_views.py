"""Presenter and guest views of a teaching session. Thin: parse, update, render."""

from __future__ import annotations

import random

from django.http import Http404, HttpRequest, HttpResponse, HttpResponseForbidden
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import get_language_from_request
from django.views.decorators.http import require_GET, require_POST
from django_htmx.http import push_url

from . import boards as board_module
from .clauses import clause_summary
from .models import TeachSession
from .teach import SAY_LATER, VARIANT_CLAUSES, VARIANTS, parse_options, sections, target_minutes

COOKIE_SALT = "teach-presenter"


def _cookie_name(code: str) -> str:
    return f"teach_{code}"


def _session(code: str) -> TeachSession:
    session = get_object_or_404(TeachSession, code=code.lower())
    if session.expired:
        raise Http404("this table code has expired")
    return session


def _is_presenter(request: HttpRequest, session: TeachSession) -> bool:
    key = request.get_signed_cookie(_cookie_name(session.code), default=None, salt=COOKIE_SALT)
    return key is not None and key == session.presenter_key


def _boards(session: TeachSession, section, *, presenter: bool) -> list:
    out = []
    base = reverse("tutorials:teach-board", args=[session.code, "x"]).rsplit("x/", 1)[0]
    page = reverse("tutorials:teach-present", args=[session.code])
    for board_id in section.boards:
        step = section.slug
        state = session.board_states.get(board_id, "")
        if not state and board_id in ("dice", "bell") and session.options.get("players") == 2:
            state = board_module.DiceBoard(step, board_id, players=2).state()
        board = board_module.load(board_id, state, step=step)
        board.note = ""
        if presenter:
            board.action_base, board.page_base = base, page
        else:
            board.readonly = True
            board.page_base = reverse("tutorials:teach-guest", args=[session.code])
        out.append(board)
    return out


def _context(request: HttpRequest, session: TeachSession, *, presenter: bool) -> dict:
    script = sections(session.options)
    index = min(session.section, len(script) - 1)
    section = script[index]
    guest_path = reverse("teach-join", args=[session.code])
    return {
        "session": session, "section": section, "index": index, "count": len(script),
        "script": script, "boards": _boards(session, section, presenter=presenter),
        "options": session.options, "presenter": presenter,
        "players": session.options.get("players", 4),
        "guest_url": request.build_absolute_uri(guest_path),
        "say_later": [(cid, clause_summary(cid)) for cid in SAY_LATER],
        "variants": [(VARIANT_CLAUSES[v], clause_summary(VARIANT_CLAUSES[v]))
                     for v in session.options.get("variants", [])],
        "target_minutes": target_minutes(session.options),
        "started": session.created_at.timestamp(),
    }


# --- presenter ------------------------------------------------------------------------------
def teach_start(request: HttpRequest) -> HttpResponse:
    """GET: the choices before starting. POST: create the session and open the presenter."""
    if request.method == "POST":
        options = parse_options({"players": request.POST.get("players", "4"),
                                 "mode": request.POST.get("mode", "action"),
                                 "variants": request.POST.getlist("variants")})
        session = TeachSession.start(options)
        response = redirect("tutorials:teach-present", code=session.code)
        response.set_signed_cookie(_cookie_name(session.code), session.presenter_key, salt=COOKIE_SALT,
                                   max_age=TeachSession.LIFETIME_HOURS * 3600, httponly=True,
                                   samesite="Lax", secure=request.is_secure())
        return response
    return render(request, "teach/start.html", _start_context())


def _start_context(**extra) -> dict:
    return {"variant_choices": [(v, VARIANT_CLAUSES[v], clause_summary(VARIANT_CLAUSES[v]))
                                for v in VARIANTS], **extra}


@require_GET
def teach_find(request: HttpRequest) -> HttpResponse:
    """``?code=…``: follow the table with that code, or say it is unknown or expired."""
    from django.utils.translation import gettext as _

    code = request.GET.get("code", "").strip().lower()
    session = TeachSession.objects.filter(code=code).first() if code.isalnum() and len(code) <= 16 else None
    if session is not None and not session.expired:
        return redirect("tutorials:teach-guest", code=session.code)
    message = (_("No table uses the code “%(code)s”. Check the code on the presenter's screen; "
                 "codes end after four hours.") % {"code": code[:16]}) if code else \
        _("Type the table code shown on the presenter's screen.")
    return render(request, "teach/start.html", _start_context(join_error=message, join_code=code[:16]),
                  status=404 if code else 200)


@require_GET
def teach_present(request: HttpRequest, code: str) -> HttpResponse:
    """The presenter's screen: the current section in large type, controls, QR code."""
    session = _session(code)
    if not _is_presenter(request, session):
        return redirect("tutorials:teach-guest", code=session.code)
    import segno

    ctx = _context(request, session, presenter=True)
    ctx["qr_svg"] = segno.make(ctx["guest_url"], error="m").svg_inline(scale=4, dark="#11394a")
    return render(request, "teach/present.html", ctx)


@require_POST
def teach_go(request: HttpRequest, code: str) -> HttpResponse:
    """Move the presenter to section ``to`` (POST; presenter only)."""
    session = _session(code)
    if not _is_presenter(request, session):
        return HttpResponseForbidden("only the presenter can move the teach along")
    script = sections(session.options)
    try:
        to = int(request.POST.get("to", ""))
    except ValueError:
        to = session.section
    to = max(0, min(to, len(script) - 1))
    if to != session.section:
        session.section = to
        session.version += 1
        session.save(update_fields=["section", "version", "updated_at"])
    if request.htmx:
        ctx = _context(request, session, presenter=True)
        return render(request, "teach/_present_section.html", ctx)
    return redirect("tutorials:teach-present", code=session.code)


@require_GET
def teach_board(request: HttpRequest, code: str, board_id: str) -> HttpResponse:
    """A board action on the presenter's screen; guests see the new state on their next poll."""
    session = _session(code)
    if not _is_presenter(request, session):
        return HttpResponseForbidden("only the presenter can change the boards")
    script = sections(session.options)
    section = script[min(session.section, len(script) - 1)]
    if board_id not in section.boards:
        raise Http404("no such board in this section")
    state = session.board_states.get(board_id, "")
    if not state and board_id in ("dice", "bell") and session.options.get("players") == 2:
        state = board_module.DiceBoard(section.slug, board_id, players=2).state()
    board = board_module.load(board_id, state, step=section.slug)
    board = board.apply(request.GET.get("do", ""), request.GET.get("at", ""), rng=random.SystemRandom())
    session.board_states = {**session.board_states, board_id: board.state()}
    session.version += 1
    session.save(update_fields=["board_states", "version", "updated_at"])
    if not request.htmx:
        return redirect(reverse("tutorials:teach-present", args=[session.code]) + f"#board-{board_id}")
    board.action_base = reverse("tutorials:teach-board", args=[session.code, "x"]).rsplit("x/", 1)[0]
    board.page_base = reverse("tutorials:teach-present", args=[session.code])
    response = render(request, "tutorials/_board.html", {"board": board})
    return push_url(response, False)


# --- guests -----------------------------------------------------------------------------------
def teach_join(request: HttpRequest, code: str) -> HttpResponse:
    """``/t/<code>/``: send the guest to the table in their own language (or, for an
    unknown or expired code, to the form that says so)."""
    from urllib.parse import urlencode

    from django.utils import translation

    lang = get_language_from_request(request)
    with translation.override(lang):
        return redirect(f"{reverse('tutorials:teach-find')}?{urlencode({'code': code})}")


@require_GET
def teach_guest(request: HttpRequest, code: str) -> HttpResponse:
    """The guest's view: the presenter's current section and boards, in the guest's language."""
    session = _session(code)
    return render(request, "teach/guest.html", _context(request, session, presenter=False))


@require_GET
def teach_poll(request: HttpRequest, code: str) -> HttpResponse:
    """``?v=<version>``: 204 while nothing changed, else the new section (htmx swaps it)."""
    session = _session(code)
    try:
        seen = int(request.GET.get("v", "0"))
    except ValueError:
        seen = 0
    if seen == session.version:
        return HttpResponse(status=204)
    return render(request, "teach/_guest_section.html", _context(request, session, presenter=False))


