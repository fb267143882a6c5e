"""A table's live stream (:mod:`tutorials.live.streams`): every screen following a table (the
guests' phones, the projector, each presenter tab) hears of a change the moment it is made.

A change of a table (:data:`~tutorials.models.table_changed`: a move, a new
:attr:`~tutorials.models.Table.version`; a seat taken or freed, its
:attr:`~tutorials.models.Table.seating`; a card a player entered, which only the
presenter's screen shows) is announced on the live bus once its transaction is committed;
each open stream of that table (``/live/<code>/``) passes it on as an event whose id is the
table's mark, ``<version>.<seating>.<entries>``, and the page asks for its section as its
poll always did: a player's hand stays on that player's phone, and the versions that refuse
stale moves stay as they are.
"""

from __future__ import annotations

from functools import partial

from asgiref.sync import sync_to_async
from django.db import transaction
from django.db.models import Sum
from django.db.models.functions import Coalesce
from django.dispatch import receiver
from django.http import HttpRequest, HttpResponse

from tutorials.live import bus, streams
from tutorials.models import Table, normalize_code, table_changed
from tutorials.teach import guests
from tutorials.teach.access import GUEST, TableGone, live_session

Mark = tuple[int, int, int]


def topic(code: str) -> str:
    return "table:" + code


def _current(code: str) -> Mark | None:
    """The table's mark now, or ``None`` when it is gone."""
    row = (Table.objects.filter(code=code)
           .annotate(entries=Coalesce(Sum("seats__version"), 0))
           .values_list("version", "seating", "entries").first())
    return (row[0], row[1], row[2]) if row else None


def since(code: str) -> str:
    """The table's mark now as its stream writes it (a page drawn after reading it gives it
    to its stream, which then tells only what is newer); empty when the table is gone."""
    mark = _current(code)
    return streams.mark_text(mark) if mark is not None else ""


@receiver(table_changed)
def announce(sender, code: str, always: bool = False, **_kwargs) -> None:
    """Tell every stream of table ``code`` that it changed, once the change is committed
    (a stream's page would otherwise ask before it can see the change); ``always``: even
    when its mark stays the same (a projector opened: only the presenter's page shows it)."""
    def send() -> None:
        mark = _current(code)
        if mark is not None:
            bus.publish(topic(code), streams.message(mark, always))
    transaction.on_commit(send)


async def table_stream(request: HttpRequest, code: str) -> HttpResponse:
    """``GET /live/<code>/``: the table's events (``text/event-stream``); 404 or 410 when
    the table is unknown or has ended, 503 on the WSGI site, which holds no stream (pages
    poll)."""
    if not streams.served_here(request):
        return streams.refusal(503, "live-off")
    try:
        session = await sync_to_async(live_session)(request, normalize_code(code))
    except TableGone as gone:
        return streams.refusal(*((410, "table-ended") if gone.expired else (404, "table-unknown")))
    key = GUEST.read(request, session.code)
    return streams.event_stream(request, topic(session.code), partial(_current, session.code), size=3,
                                here=partial(_guest_here, session, key) if key else None)


def _guest_here(session: Table, key: str, opened: bool) -> None:
    """A guest's page that hears the table's events asks nothing while nothing changes:
    its stream tells the table the guest follows it, as a poll does (who follows, whose
    seat is still held). Opening it counts the guest as any request with their cookie does
    (:func:`~tutorials.teach.guests.follow`); a heartbeat only notes that a guest counted is
    still there."""
    if opened:
        guests.follow(session, key)
    else:
        guests.still_here(session, key)
