"""What the teaching pages show of the seats: the seat bar and the hand on a guest's phone,
the seat list on the presenter's screen.

A guest's own cards come only from their own seat (:func:`guest_seats`); every other
screen gets :func:`~tutorials.teach.seats.seat_summary`, which never says which card lies
where, until the table's reveal puts the cards on its own board.
"""

from __future__ import annotations

from collections import Counter

from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from captain.rules import AttackCard, AttackKind, Colour, Position
from tutorials.models import Table, TableGuest
from tutorials.teach import guests
from tutorials.teach import seats as seating
from tutorials.tutorial.teaching import stored_options
from tutorials.web.positions import position_arg
from tutorials.wording.facts import table_facts
from tutorials.wording.glossary import COLOUR_NAMES, position_label

#: the sections where the seats matter: the guided round
ROUND_PREFIX = "round-"


def _seat_rows(session: Table, mine: str | None) -> list[dict]:
    return [{"colour": s.colour, "name": COLOUR_NAMES[s.colour], "phone": s.phone, "here": s.here,
             "entered": s.entered, "ready": s.ready, "mine": s.colour.value == mine}
            for s in seating.seat_summary(session)]


def _hand_view(session: Table, seat) -> dict:
    hand = seating.hand_of(session, seat)
    colour = Colour(seat.colour)
    side = table_facts(stored_options(session.options)["players"])["side"]
    held = Counter(hand.held)
    grid = [[{"at": position_arg((r, c)), "label": position_label((r, c)),
              "card": AttackCard(colour, AttackKind(hand.laid[Position(r, c)]))
              if Position(r, c) in hand.laid else None}
             for c in range(side)] for r in range(side)]
    return {"colour": colour, "name": COLOUR_NAMES[colour],
            "held": [{"card": AttackCard(colour, AttackKind(v)), "speed": v, "count": n}
                     for v, n in sorted(held.items())],
            "held_count": len(hand.held),
            "discard": hand.cards(hand.discard),
            "laid": [{"card": AttackCard(colour, AttackKind(v)), "label": position_label(p),
                      "at": position_arg(p)} for p, v in sorted(hand.laid.items())],
            "grid": grid, "ready": seat.ready}


def guest_seats(session: Table, guest: TableGuest | None, slug: str) -> dict:
    """The seat bar and, for a seated guest, their own hand (``hand``); ``entry_open``
    while they can lay cards (the guided round's Setting Time, before the reveal)."""
    mine = seating.own_seat(session, guest)
    rows = _seat_rows(session, mine.colour if mine else None)
    clashes = seating.open_clashes(session)
    return {"seat_rows": rows, "my_seat": mine.colour if mine else "",
            "hand": _hand_view(session, mine) if mine and slug.startswith(ROUND_PREFIX) else None,
            "entry_open": bool(mine) and slug == seating.ENTRY_SECTION and not session.revealed,
            "revealed": session.revealed, "round_number": session.round,
            "clash_note": guest_clash_note(clashes),
            "seat_key": seat_key(session, slug if any(r["phone"] for r in rows) else "", clashes)}


def seat_key(session: Table, slug: str, clashes: list[Position]) -> str:
    """What of the table a guest's seat and hand show (:func:`guest_seats`), the same for
    every guest: the seats (:attr:`~tutorials.models.Table.seating`, moved on by every
    seat taken or freed, the reveal and a new round), whether the section ``slug`` shows the
    hand or lets it lay cards (empty while no one sits: no one has a hand), and the reveal's
    clashes. A guest's own entries change only their
    own phone, which shows them from the answer to its tap. A phone asks for its seat part
    again only when this changes (``teach/guest.html``), not on every move."""
    shows = "lay" if slug == seating.ENTRY_SECTION else "hand" if slug.startswith(ROUND_PREFIX) else "none"
    return "-".join((str(session.seating), shows, *(position_arg(p) for p in clashes)))


def presenter_seats(session: Table) -> dict:
    """Who sits where, who is still here, how many follow and, before the reveal, who has
    entered how many cards (never which)."""
    rows = _seat_rows(session, None)
    seated_here = sum(1 for r in rows if r["phone"] and r["here"])
    follow = guests.following(session)
    return {"seat_rows": rows, "following": follow, "watching": max(0, follow - seated_here),
            "revealed": session.revealed, "reveal_when_all": session.reveal_when_all,
            "round_number": session.round, "seat_stamp": seating.entries_stamp(session),
            "clash_note": clash_note(seating.open_clashes(session)),
            "all_ready": any(r["phone"] for r in rows) and all(r["ready"] for r in rows if r["phone"])}


def _positions(clashes: list[Position]) -> str:
    return pgettext("list separator", ", ").join(position_label(p) for p in clashes)


def clash_note(clashes: list[Position]) -> str:
    """The presenter's note where two seats entered one position and the table's board
    has no card there yet (:func:`~tutorials.teach.seats.open_clashes`)."""
    if not clashes:
        return ""
    return _("Two players entered a card at %(positions)s; enter the card that lies there.") % {
        "positions": _positions(clashes)}


def guest_clash_note(clashes: list[Position]) -> str:
    """The same for the phones: why a card they entered is not on the table's board."""
    if not clashes:
        return ""
    return _("Two players entered a card at %(positions)s, so neither is on the board yet: the "
             "person teaching enters the card that lies there.") % {"positions": _positions(clashes)}
