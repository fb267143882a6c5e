"""The seat actions of a teaching table: a guest takes or leaves a seat and enters the cards
they lay; the presenter frees seats, reveals the cards and starts the next round. Thin:
a form parses, :mod:`tutorials.teach.seats` decides, the table's section renders.

Every answer is the section of the page that asked (htmx swaps it) or, without
JavaScript, the page again.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_POST, require_safe

from tutorials.models import Stale
from tutorials.teach import seats as seating
from tutorials.teach.access import forbidden, guest_of, is_presenter, live_session, table_view
from tutorials.teach.forms import HandForm, SeatForm, SeatsForm
from tutorials.teach.seat_page import guest_seats
from tutorials.teach.views import _context, _present_page, _stale_message
from tutorials.tutorial.teaching import sections, stored_options
from tutorials.web.refused import require_form_body
from tutorials.wording.glossary import COLOUR_NAMES

#: why a seat action was refused, by :class:`~tutorials.teach.seats.SeatRefused` code
SEAT_NOTES = {
    "no-guest": _("This browser does not keep the table's cookie, so it cannot hold a seat. "
                  "Allow cookies for this site and open the table again."),
    "not-seated": _("That colour does not play at this table."),
    "seat-taken": _("Someone else already sits at %(colour)s. Ask the person teaching to free the seat "
                    "if it is yours."),
    "no-seat": _("Take your seat first: tap your colour above."),
    "revealed": _("The cards are revealed: they can no longer be changed on the phones."),
    "not-setting": _("Cards can be entered only during Setting Time."),
    "bad-position": _("That position is not on the grid."),
    "not-in-hand": _("[%(card)s] is not in your hand."),
    "no-card": _("First choose one of your cards, then tap the position where you laid it."),
    "busy": _("Your phone sent several changes at once; look at your cards and try again."),
    "not-resolved": _("The next round starts once this round's cards are revealed and resolved."),
    "set-4": _("Your hand was empty, so your discard pile came back into your hand first (SET-4)."),
}


def _note(code: str, **args) -> str:
    if "colour" in args:
        args["colour"] = COLOUR_NAMES.get(args["colour"], args["colour"])
    return str(SEAT_NOTES[code]) % args if code else ""


def _guest_answer(request: HttpRequest, session, guest, note: str, status: int = 200) -> HttpResponse:
    if not request.htmx:
        if status == 200:
            return redirect("tutorials:teach-guest", code=session.code)
        ctx = {**_context(request, session, presenter=False, guest=guest), "seat_note": note}
        return render(request, "teach/guest.html", ctx, status=status)
    ctx = {**_context(request, session, presenter=False, guest=guest), "seat_note": note}
    return render(request, "teach/guest.html#section", ctx, status=status)


@require_POST
@require_form_body
@table_view
def guest_seat(request: HttpRequest, code: str) -> HttpResponse:
    """POST ``do=take&at=<colour>``: sit at that colour; ``do=leave``: watch instead."""
    session = live_session(request, code)
    guest = guest_of(request, session)
    form = SeatForm.bind(request)
    if not form.is_valid():
        return _guest_answer(request, session, guest, next(iter(form.refusals().values())), 422)
    try:
        if form.cleaned_data["do"] == "take":
            seating.take_seat(session, guest, form.cleaned_data["at"])
        else:
            seating.leave_seat(session, guest)
    except seating.SeatRefused as refused:
        session.refresh_from_db()
        return _guest_answer(request, session, guest, _note(refused.code, **refused.args_),
                             409 if refused.code == "seat-taken" else 422)
    session.refresh_from_db()
    return _guest_answer(request, session, guest, "")


@require_POST
@require_form_body
@table_view
def guest_hand(request: HttpRequest, code: str) -> HttpResponse:
    """A seated guest's cards (:class:`~tutorials.teach.forms.HandForm`): lay one, take one
    back, say all are down. Refused once the table's cards are revealed (409)."""
    session = live_session(request, code)
    guest = guest_of(request, session)
    form = HandForm.bind(request)
    if not form.is_valid():
        return _guest_answer(request, session, guest, next(iter(form.refusals().values())), 422)
    do, at, card = form.cleaned_data["do"], form.cleaned_data["at"], form.cleaned_data["card"]
    try:
        if do == "lay":
            note = seating.lay(session, guest, at, card)
        elif do == "take":
            note = seating.take_back(session, guest, at)
        else:
            note = seating.set_ready(session, guest, do == "ready")
    except seating.SeatRefused as refused:
        session.refresh_from_db()
        return _guest_answer(request, session, guest, _note(refused.code, **refused.args_),
                             409 if refused.code == "revealed" else 422)
    session.refresh_from_db()
    return _guest_answer(request, session, guest, _note(note))


@require_POST
@require_form_body
@table_view
def presenter_seats(request: HttpRequest, code: str) -> HttpResponse:
    """The presenter's seat controls (:class:`~tutorials.teach.forms.SeatsForm`): free a
    seat, reveal the cards, reveal when all seated players are done, start the next round.
    A reveal or next round made from an older version of the table is refused with 409."""
    session = live_session(request, code)
    if not is_presenter(request, session):
        return forbidden(_("Only the person teaching can change the seats."))
    form = SeatsForm.bind(request)
    if not form.is_valid():
        return _present_answer(request, session, next(iter(form.refusals().values())), 422)
    do, at, seen = form.cleaned_data["do"], form.cleaned_data["at"], int(form.cleaned_data["v"])
    note = ""
    try:
        if do == "free":
            seating.free_seat(session, at)
        elif do == "auto":
            seating.set_reveal_when_all(session, at == "on")
        elif do == "reveal":
            if seating.current_slug(session) != seating.ENTRY_SECTION:
                raise seating.SeatRefused("not-setting")
            seating.reveal(session, seen)  # the seats panel shows any clash
        else:
            if not session.revealed or seating.current_slug(session) not in seating.AFTER_REVEAL:
                raise seating.SeatRefused("not-resolved")
            seating.next_round(session, seen)
    except seating.SeatRefused as refused:
        return _present_answer(request, session, _note(refused.code), 422)
    except Stale:
        session = live_session(request, code)
        return _present_answer(request, session, _stale_message(), 409)
    session.refresh_from_db()
    return _present_answer(request, session, note)


def _present_answer(request: HttpRequest, session, note: str, status: int = 200) -> HttpResponse:
    if not request.htmx:
        if status == 200 and not note:
            return redirect("tutorials:teach-present", code=session.code)
        return _present_page(request, session, note=note, status=status)
    ctx = {**_context(request, session, presenter=True), "note": note}
    response = render(request, "teach/present.html#section", ctx, status=status)
    response["HX-Retarget"] = "#present-section"
    response["HX-Reswap"] = "outerHTML"
    return response


@require_safe
@table_view
def teach_seat_part(request: HttpRequest, code: str) -> HttpResponse:
    """A guest's own seat and hand, which the shared section asks for apart: small, and
    never compressed, as it holds what only this guest may see."""
    session = live_session(request, code)
    options = stored_options(session.options)
    script = sections(options)
    section = script[min(session.section, len(script) - 1)]
    ctx = {"session": session, "section": section,
           **guest_seats(session, guest_of(request, session), section.slug)}
    return render(request, "teach/_guest_seat.html", ctx)
