"""Presenter and guest views of a teaching session. Thin: parse, update, render.

Everything that changes a table is a POST with Django's CSRF check (forms without
JavaScript, htmx with the token header). Who is asking and which table, and what a table
that is gone answers: :mod:`tutorials.teach.access`; starting a table and finding one by its
code: :mod:`tutorials.teach.start`.
"""

from __future__ import annotations

import json
import random
import re
from datetime import timedelta
from urllib.parse import urlencode

import segno
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import get_language_from_request
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe
from django_htmx.http import push_url

from tutorials.forms import Query
from tutorials.live import streams
from tutorials.models import Stale, Table, normalize_code
from tutorials.teach import guests, live, shared_section
from tutorials.teach.access import GUEST, forbidden, guest_of, is_presenter, live_session, table_view
from tutorials.teach.forms import BoardActionForm, GoForm
from tutorials.teach.plan import NotReady, act_on_board, comes_up, load_board, reading_minutes
from tutorials.teach.round import RoundBoard
from tutorials.teach.screen import for_presenter, go, present_stamp
from tutorials.teach.seat_page import guest_seats, presenter_seats
from tutorials.tutorial.boards import NOTES
from tutorials.tutorial.teaching import script_context, sections, stored_options
from tutorials.web.compression import compress
from tutorials.web.link_tokens import PARAMETER as LINK_TOKEN
from tutorials.web.link_tokens import TABLE_LINK
from tutorials.web.refused import require_form_body

#: the query parameter of the step a guest's phone shows at its own pace (``k`` is taken:
#: it carries the guest link's token)
OWN_STEP = "step"
#: the query parameter of the section a guest reads at their own pace, one the table has
#: covered (the phone follows the table again at the table's own section)
OWN_SECTION = "at"
#: how long before a table ends its screens warn of it
ENDS_SOON = timedelta(minutes=30)


def _boards(session: Table, section, *, presenter: bool, own_step: int | None = None,
            token: str = "") -> list:
    """The section's boards as the table holds them; a guest's are read-only, but the
    table's own round steps at the guest's pace (``own_step``, ``None``: the table's step),
    by links that carry the guest link's ``token`` as the poll does."""
    out = []
    page = reverse("tutorials:teach-guest", args=[session.code])
    for board_id in section.boards:
        board = load_board(session, section, board_id)
        board.note = ""
        if presenter:
            _presenter_urls(board, session)
        else:
            board.readonly = True
            board.page_base = page
            if isinstance(board, RoundBoard):
                board.follow(lambda j: _guest_address(page, token, step=j), _guest_address(page, token),
                             own_step)
        out.append(board)
    return out


def _guest_address(page: str, token: str, step: int | None = None, at: int | None = None) -> str:
    """The guest page ``page`` at the phone's own round ``step`` and own section ``at``
    (``None``: following the table), keeping the guest link's ``token``."""
    query = {**({OWN_SECTION: str(at)} if at is not None else {}),
             **({OWN_STEP: str(step)} if step is not None else {}), **({LINK_TOKEN: token} if token else {})}
    return f"{page}?{urlencode(query)}" if query else page


def _own_step(request: HttpRequest, name: str = OWN_STEP) -> int | None:
    """The step (or with ``name`` :data:`OWN_SECTION`, the section) a guest's phone asks to
    show at its own pace (``?step=N``), or ``None``: anything but a whole number of up to
    three digits follows the table (the board clamps a step past its last, the page a
    section past the table's)."""
    value = Query(request).get(name, "")
    return int(value) if re.fullmatch(r"[0-9]{1,3}", value) else None


def _catching_up(session: Table, script: list, index: int, token: str, *, joined: bool) -> dict:
    """What lets a guest read at their own pace: every section the table has covered, with
    links to it, back and forward, and the way back to the table's section (``live``).
    ``index``: the section the phone shows; ``joined``: the guest's first view of a table
    already under way, which lists what it covered so far (the late joiner's digest)."""
    page = reverse("tutorials:teach-guest", args=[session.code])
    live = min(session.section, len(script) - 1)

    def address(i: int) -> str:
        return _guest_address(page, token, at=None if i == live else i)

    covered = [{"n": i + 1, "title": s.title, "url": address(i), "shown": i == index, "live": i == live}
               for i, s in enumerate(script[:live + 1])]
    return {"live_index": live, "live_title": script[live].title, "own_section": index != live,
            "covered": covered, "live_url": address(live),
            "prev_url": address(index - 1) if index > 0 else "",
            "next_url": address(index + 1) if index < live else "",
            "digest": covered[:-1] if joined and live > 0 and index == live else []}


def _presenter_urls(board, session: Table) -> None:
    """Route ``board``'s actions to the presenter's endpoint, with the table's version
    this screen shows in the address (every form of the board posts there, and
    :func:`teach_board` refuses an action from another version), and its page to the
    presenter."""
    url = reverse("tutorials:teach-board", args=[session.code, board.board_id])
    board.post_url = f"{url}?{urlencode({'v': session.version})}"
    board.page_base = reverse("tutorials:teach-present", args=[session.code])


def _timing(session: Table, index: int) -> dict:
    """Estimated minutes per section from its read-aloud text in the active language
    (:mod:`tutorials.tutorial.reading`), the total, and the timers' starting points."""
    minutes = reading_minutes(session.options)
    return {"section_minutes": minutes[index], "total_minutes": sum(minutes),
            # strings, so that no language's number format (3,5 in German) reaches the script
            "started": f"{session.started_at.timestamp():.3f}" if session.started_at else "",
            "section_started": f"{session.section_since.timestamp():.3f}" if session.section_since else ""}


def guest_addresses(request: HttpRequest, session: Table) -> dict:
    """Where guests join ``session``: ``guest_url`` to type by hand, so short, and
    ``qr_url``, the link behind the QR code, which carries the token (the presenter's
    screen and the printed card show the same two)."""
    guest_path = reverse("teach-join", args=[session.code])
    return {"guest_url": request.build_absolute_uri(guest_path),
            "qr_url": request.build_absolute_uri(TABLE_LINK.url(guest_path, session.code))}


def _context(request: HttpRequest, session: Table, *, presenter: bool, guest=None,
             own_step: int | None = None, own_section: int | None = None, joined: bool = False,
             shared: bool = False) -> dict:
    """What the presenter's or a guest's page shows; ``own_step`` and ``own_section``: the
    round's step and the section a guest's phone shows at its own pace (:func:`_own_step`);
    ``joined``: a guest's first view (:func:`_catching_up`); ``shared``: the section as
    every guest following the table sees it, which asks for the guest's own seat and hand
    apart (:func:`teach_seat_part`)."""
    options = stored_options(session.options)
    script = sections(options)
    index = min(session.section, len(script) - 1)
    if own_section is not None and own_section < index:
        index, own_step = own_section, None  # a section already covered: no live round step
    section = script[index]
    now, later = comes_up(options, section)
    link_token = TABLE_LINK.of(session.code) if TABLE_LINK.opens(request, session.code) else ""
    boards = _boards(session, section, presenter=presenter, own_step=own_step, token=link_token)
    return {
        **script_context(options),
        "session": session, "section": section, "index": index, "count": len(script),
        "script_sections": script, "boards": boards,
        # the guest's own step as a board shows it (clamped), which the poll carries on;
        # None where no board takes it (the section has no round steps)
        "own_step": next((b.k for b in boards if getattr(b, "own_pace", False)), None),
        "options": options, "presenter": presenter, "in_round": section.slug.startswith("round-"),
        **guest_addresses(request, session),
        # a guest who came by the QR code polls with its token: a browser without cookies
        # is then not limited with the guessers at its address either
        "link_token": link_token,
        # the rules the script leaves for later (all, and those of this section's phase)
        "comes_up_now": now,
        "say_later": later,
        **(_timing(session, index) if presenter else {}),
        # the seats: for a guest their own cards only, for the presenter who has entered
        **(presenter_seats(session) if presenter else guest_seats(session, guest, section.slug)),
        "seat_part_url": _seat_part_url(session, link_token) if shared else "",
        **({} if presenter else _catching_up(session, script, index, link_token, joined=joined)),
        # the table's end, for the warning in its last half hour (static/js/teach.js counts down)
        "ends": f"{session.expires_at.timestamp():.0f}",
        "ends_soon": session.expires_at - timezone.now() <= ENDS_SOON,
        # which screen of the section an open projector shows (tutorials.teach.screen)
        **(for_presenter(session) if presenter else {}),
        "page_url": reverse("tutorials:teach-present" if presenter else "tutorials:teach-guest",
                            args=[session.code]),
    }


def _seat_part_url(session: Table, link_token: str) -> str:
    """Where a shared section asks for the guest's own seat and hand (with the link's token,
    as its poll carries it)."""
    path = reverse("tutorials:teach-seat-part", args=[session.code])
    return TABLE_LINK.url(path, session.code) if link_token else path


def _stale_message() -> str:
    return str(NOTES["stale"])


# --- presenter ------------------------------------------------------------------------------


@require_safe
@table_view
def teach_present(request: HttpRequest, code: str) -> HttpResponse:
    """The presenter's screen: the current section in large type, controls, QR code."""
    session = live_session(request, code)
    if not is_presenter(request, session):
        return redirect(_guest_path(request, session.code))
    return _present_page(request, session)


def _present_page(request: HttpRequest, session: Table, *, note: str = "",
                  status: int = 200) -> HttpResponse:
    ctx = _context(request, session, presenter=True)
    ctx["qr_svg"] = segno.make(ctx["qr_url"], error="m").svg_inline(scale=4, dark="#11394a")
    ctx["note"] = note
    return render(request, "teach/present.html", ctx, status=status)


@require_POST
@require_form_body
@table_view
def teach_go(request: HttpRequest, code: str) -> HttpResponse:
    """Move the presenter to section ``to`` (POST ``to`` and ``v``, the table's version the
    move was made from; presenter only).

    A move made from an older version (another tab or device moved the table since) is
    refused with 409 and the table as it is now, so no stale screen ever takes the table
    backwards. ``to`` or ``v`` missing or not a number: 400 with the reason.
    """
    session = live_session(request, code)
    if not is_presenter(request, session):
        return forbidden(_("Only the person teaching can move the table along."))
    form = GoForm.bind(request)
    if not form.is_valid():
        refused = next((r for r in form.refusals().values()
                        if r.code in ("duplicate-field", "not-utf8")), None)
        return HttpResponse(refused or _("A move needs the section to go to (to) and the version it was made "
                                         "from (v), both as whole numbers."),
                            status=400, content_type="text/plain; charset=utf-8")
    to, seen = int(form.cleaned_data["to"]), int(form.cleaned_data["v"])
    note, status = "", 200
    try:
        go(session, to, seen)  # the seats panel shows any clash (seats.open_clashes)
    except Stale:
        session = live_session(request, code)
        note, status = _stale_message(), 409
    except NotReady as not_ready:
        note, status = not_ready.message, 422
    if request.htmx:
        ctx = {**_context(request, session, presenter=True), "note": note}
        return render(request, "teach/present.html#section", ctx, status=status)
    if status != 200:
        return _present_page(request, session, note=note, status=status)
    return redirect("tutorials:teach-present", code=session.code)


@require_safe
@table_view
def teach_present_poll(request: HttpRequest, code: str) -> HttpResponse:
    """``?v=<version>``: 204 while the table is where this presenter screen shows it, else
    the current section (a move made on another tab or device); presenter only."""
    session = live_session(request, code)
    if not is_presenter(request, session):
        return forbidden(_("Only the person teaching can move the table along."))
    if _unchanged(request, session, present_stamp(session)):
        return HttpResponse(status=204)
    return render(request, "teach/present.html#section", _context(request, session, presenter=True))


def _unchanged(request: HttpRequest, session: Table, seats: str | None = None) -> bool:
    """Whether a poll's screen shows the table as it is: its version ``v`` and its seats
    ``s`` (``seats``: a guest's screen :attr:`~tutorials.models.Table.seating`, the
    presenter's :func:`~tutorials.teach.seats.entries_stamp`; a page that sends none, drawn
    before the seats existed, asks for the version only)."""
    seats = str(session.seating) if seats is None else seats
    query = Query(request)
    return query.get("v") == str(session.version) and query.get("s", seats) == seats


@require_POST
@require_form_body
@table_view
def teach_board(request: HttpRequest, code: str, board_id: str) -> HttpResponse:
    """A board action on the presenter's screen (POST ``do``, ``at`` and ``v``:
    :class:`~tutorials.teach.forms.BoardActionForm`); guests see the new state on their
    next poll. htmx answers carry the table's new version (``HX-Trigger: tableVersion``)
    so that the presenter's next move is made from it.

    An action made from an older version (another tab or device changed the table since,
    or at the same moment) is refused with 409 and the table as it is now, as a stale
    section move is; a form that cannot be read (a field sent twice, no version) with 422,
    the table as it is and the reason.
    """
    session = live_session(request, code)
    if not is_presenter(request, session):
        return forbidden(_("Only the person teaching can change the boards."))
    form = BoardActionForm.bind(request, from_address=("v",))
    if not form.is_valid():
        return _table_as_it_is(request, session, note=next(iter(form.refusals().values())), status=422)
    try:
        board = act_on_board(session, board_id, form.cleaned_data["do"], form.cleaned_data["at"],
                             form.version_seen, rng=random.SystemRandom())
    except LookupError:
        raise Http404("no such board in this section") from None
    except Stale:
        return _table_as_it_is(request, live_session(request, code), note=_stale_message(), status=409)
    if not request.htmx:
        return redirect(reverse("tutorials:teach-present", args=[session.code]) + f"#board-{board_id}")
    _presenter_urls(board, session)
    response = render(request, "tutorials/_board.html", {"board": board})
    response["HX-Trigger"] = json.dumps({"tableVersion": session.version})
    return push_url(response, False)


def _table_as_it_is(request: HttpRequest, session: Table, *, note: str, status: int) -> HttpResponse:
    """A refused board action's answer: the presenter's section as the table is now, with
    ``note`` — for htmx in place of the whole section (the board asked, but the table may
    have moved to another section since), else the whole page."""
    if not request.htmx:
        return _present_page(request, session, note=note, status=status)
    ctx = {**_context(request, session, presenter=True), "note": note}
    response = render(request, "teach/present.html#section", ctx, status=status)
    response["HX-Retarget"] = "#present-section"
    response["HX-Reswap"] = "outerHTML"
    response["HX-Trigger"] = json.dumps({"tableVersion": session.version})
    return push_url(response, False)


# --- guests -----------------------------------------------------------------------------------
@require_safe
def teach_join(request: HttpRequest, code: str) -> HttpResponse:
    """``/t/<code>/``: send the guest to the table's page in their own language (language
    cookie, else ``Accept-Language``): ``/<lang>/t/<code>/``, :func:`teach_guest`.

    That page reads the code however it was typed (:func:`normalize_code`), counts failed
    lookups, and says in the guest's language when no table has the code (404) or the
    table has ended (410, :func:`~tutorials.teach.access.table_view`).
    """

    lang = get_language_from_request(request)
    with translation.override(lang):
        return redirect(_guest_path(request, code))


def _guest_path(request: HttpRequest, code: str) -> str:
    """The guest page of table ``code``, keeping the guest link's token when the request
    carries the right one (the QR code's redirects)."""
    path = reverse("tutorials:teach-guest", args=[code])
    return TABLE_LINK.carried(request, path, normalize_code(code))


@require_safe
@table_view
def teach_guest(request: HttpRequest, code: str) -> HttpResponse:
    """The guest's view: the presenter's current section and boards, in the guest's language.

    Sets a cookie for this table, so that the guest's polls are never counted or limited
    as failed lookups of other people on the same network. A code typed another way
    (full-width, upper case, with spaces) is redirected to its canonical address.
    """
    session = live_session(request, code)
    if code != session.code:
        return redirect(_guest_path(request, session.code))
    guest, key = guests.follow(session, GUEST.read(request, session.code))
    mark = live.since(session.code)  # read before the page is drawn: any change after it is news
    ctx = _context(request, session, presenter=False, guest=guest, own_step=_own_step(request),
                   own_section=_own_step(request, OWN_SECTION), joined=guest is None)
    ctx["live_since"], ctx["live_beat"] = mark, streams.HEARTBEAT_SECONDS
    # a step the guest takes on their phone comes by htmx: the section, holding the poll
    # that carries that step on
    response = render(request, "teach/guest.html#section" if request.htmx else "teach/guest.html", ctx)
    GUEST.give(request, response, session.code, key)
    # a guest who holds no seat sees nothing of theirs here (the seat bar offers the seats
    # to everyone), unless they came by the QR link, whose token the page's links carry
    return response if ctx["my_seat"] or ctx["link_token"] else compress(request, response)


@require_safe
@table_view
def teach_poll(request: HttpRequest, code: str) -> HttpResponse:
    """``?v=<version>&s=<seating>&i=<section index shown>&step=<own step>&at=<own section>``:
    204 while nothing changed, else the new section (htmx swaps it), listing the sections
    the guest missed when the table jumped ahead by more than one. A live page also sends
    the mark its stream announced (``m``), for which the section every guest shares is
    usually rendered already (:func:`~tutorials.teach.shared_section.at_mark`).

    A phone at its own step (``step``) stays there while the presenter steps the table's
    round, and follows the table again once the table is in another section. A phone at its
    own section (``at``: one the guest went back to, or was reading further down when the
    table moved on, static/js/teach.js) stays there and is told where the table is now."""
    at_own_pace = Query(request).get(OWN_STEP) or Query(request).get(OWN_SECTION)
    quick = None if at_own_pace else shared_section.at_mark(request, code, _render_shared)
    if quick is not None:
        return quick
    session = live_session(request, code)
    guest = guest_of(request, session)
    if guest is not None:
        guests.seen(guest)
    if _unchanged(request, session):
        return HttpResponse(status=204)
    shown = Query(request).get("i", "")
    own_section = _own_step(request, OWN_SECTION)
    own_step = _own_step(request) if shown == str(session.section) else None
    if own_section is None and own_step is None:
        return _shared_section(request, session, int(shown) if re.fullmatch(r"[0-9]{1,4}", shown) else None)
    ctx = _context(request, session, presenter=False, guest=guest, own_step=own_step, own_section=own_section)
    return render(request, "teach/guest.html#section", ctx)


def _shared_section(request: HttpRequest, session: Table, shown: int | None) -> HttpResponse:
    """The section as every guest following the table sees it, rendered once per table
    version, seating and language (:func:`~tutorials.teach.shared_section.cached`) and
    served to all of them; each guest's own seat and hand come apart
    (:func:`teach_seat_part`). ``shown``: the section the phone showed, for the list of
    those it missed when the table jumped ahead by more than one."""
    token = TABLE_LINK.opens(request, session.code)
    index = min(session.section, len(sections(stored_options(session.options))) - 1)
    missed_from = shown if shown is not None and index - shown > 1 else None
    section = shared_section.cached(session.code, session.version, session.seating, token=token,
                                    missed_from=missed_from,
                                    render=lambda: _render_shared(request, session, missed_from))
    return shared_section.answer(request, section, token)


def _render_shared(request: HttpRequest, session: Table, missed_from: int | None = None) -> tuple[int, str]:
    """The section as every guest sees it: its index and HTML (with the sections missed
    since ``missed_from``)."""
    ctx = _context(request, session, presenter=False, shared=True)
    if missed_from is not None:
        ctx["missed"] = ctx["covered"][missed_from + 1:ctx["index"]]
    return ctx["index"], render_to_string("teach/guest.html#section", ctx, request=request)
