"""Seats and secret hands: who sits at which colour of a table, and the cards each seated
player lays face down in Setting Time, entered on their own phone.

Before the table's reveal a seat's cards are read only for that seat's own guest
(:func:`own_seat`); everyone else, the presenter included, gets :func:`seat_summary`, which
says who has entered how many cards and never which. The reveal (:func:`reveal`) closes
every seat's entries and writes their cards into the table's own board, where every screen
sees them at once. The hands follow the rules and the table's variants: the cards of
SETUP-1 (7 with two players, SETUP-4; no [5] cards under VAR-2), less the discard pile and
the cards on the board; a player whose hand is empty takes the discard pile back before
laying a card (SET-4); after a round every card that was laid goes to its owner's discard
pile (BAT-4, TRE-4).
"""

from __future__ import annotations

from collections import Counter
from contextlib import suppress
from dataclasses import dataclass
from datetime import timedelta

from django.db import transaction
from django.db.models import F, Sum
from django.utils import timezone

from captain.rules import AttackCard, AttackKind, Colour, Position
from tutorials.models import Stale, Table, TableGuest, TableSeat, table_changed
from tutorials.teach.guests import FOLLOWING_SECONDS
from tutorials.teach.round import RoundBoard
from tutorials.tutorial.teaching import sections, stored_options
from tutorials.web.positions import position_arg, read_position
from tutorials.wording.facts import table_facts

#: the section where seated players enter their cards, and the one that follows the reveal
ENTRY_SECTION, REVEALED_SECTION = "round-setting", "round-table"
#: the sections from which the table can start its next round with the site
AFTER_REVEAL = ("round-resolve", "round-next")


class SeatRefused(Exception):
    """A seat action that cannot be done; ``code`` says why (a key of
    :data:`tutorials.teach.seat_views.SEAT_NOTES`), ``args`` fill its sentence."""

    def __init__(self, code: str, **args) -> None:
        super().__init__(code)
        self.code = code
        self.args_ = args


# --- seats --------------------------------------------------------------------------------------
def seat_rows(session: Table) -> list[TableSeat]:
    """The table's seats in seating order (clockwise), made when first asked for."""
    colours = stored_options(session.options)["seats"]
    rows = {s.colour: s for s in TableSeat.objects.filter(session=session).select_related("guest")}
    missing = [c for c in colours if c not in rows]
    if missing:
        TableSeat.objects.bulk_create([TableSeat(session=session, colour=c, locked=session.revealed)
                                       for c in missing], ignore_conflicts=True)
        rows = {s.colour: s for s in TableSeat.objects.filter(session=session).select_related("guest")}
    return [rows[c] for c in colours]


def entries_stamp(session: Table) -> str:
    """What the presenter's poll compares: the seats as every screen shows them
    (``seating``) and every change of a seat's cards, which only the presenter's screen
    counts. A guest's screen asks for ``seating`` alone, so another player's entries never
    redraw it while its player is choosing a card."""
    total = TableSeat.objects.filter(session=session).aggregate(total=Sum("version"))["total"] or 0
    return f"{session.seating}-{total}"


def _bump(session: Table) -> None:
    """Tell every screen's poll that a seat changed."""
    Table.objects.filter(pk=session.pk).update(seating=F("seating") + 1)
    session.refresh_from_db(fields=["seating"])
    table_changed.send(Table, code=session.code)


def own_seat(session: Table, guest: TableGuest | None) -> TableSeat | None:
    if guest is None:
        return None
    return next((s for s in seat_rows(session) if s.guest_id == guest.pk), None)


def take_seat(session: Table, guest: TableGuest | None, colour: str) -> TableSeat:
    """Seat ``guest`` at ``colour`` (leaving any seat they held). Refused when the colour
    is not at this table, someone else sits there, or the browser is not a counted guest."""
    if guest is None:
        raise SeatRefused("no-guest")
    seat = next((s for s in seat_rows(session) if s.colour == colour), None)
    if seat is None:
        raise SeatRefused("not-seated")
    if seat.guest_id == guest.pk:
        return seat
    with transaction.atomic():
        _vacate(TableSeat.objects.filter(session=session, guest=guest))
        taken = TableSeat.objects.filter(pk=seat.pk, guest__isnull=True).update(
            guest=guest, version=F("version") + 1)
        if not taken:
            transaction.set_rollback(True)
            raise SeatRefused("seat-taken", colour=colour)
    _bump(session)
    seat.refresh_from_db()
    return seat


def _vacate(seats) -> int:
    """Empty ``seats`` (a query of this table's seats); returns how many were held. While a
    seat is open the cards its phone entered go back into the hand and the seat is no
    longer done: what one player laid face down is never shown to the next phone that takes
    the seat. A locked seat's cards are revealed, face up for everyone, so it keeps them."""
    held = seats.filter(guest__isnull=False)
    emptied = (held.filter(locked=False).update(guest=None, cards={}, ready=False, version=F("version") + 1)
               + held.filter(locked=True).update(guest=None, version=F("version") + 1))
    return emptied


def leave_seat(session: Table, guest: TableGuest | None) -> None:
    """``guest`` stands up and watches."""
    if guest is not None and _vacate(TableSeat.objects.filter(session=session, guest=guest)):
        _bump(session)


def free_seat(session: Table, colour: str) -> None:
    """The presenter frees ``colour`` (a phone lost, a player swapped) for the next phone."""
    if _vacate(TableSeat.objects.filter(session=session, colour=colour)):
        _bump(session)


@dataclass(frozen=True)
class SeatSummary:
    """What everyone may know of a seat before the reveal: whether a phone holds it, whether
    that phone is still here, how many cards it entered and whether the player is done."""

    colour: Colour
    phone: bool
    here: bool
    entered: int
    ready: bool


def seat_summary(session: Table) -> list[SeatSummary]:
    since = timezone.now() - timedelta(seconds=FOLLOWING_SECONDS)
    return [SeatSummary(Colour(s.colour), s.guest_id is not None,
                        s.guest is not None and s.guest.seen_at >= since,
                        len(s.cards) if isinstance(s.cards, dict) else 0, s.ready)
            for s in seat_rows(session)]


# --- hands ---------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Hand:
    """One seat's cards: ``laid`` this round by position, the ``discard`` pile and what is
    left in ``held`` (speeds, each as often as the player holds it)."""

    colour: Colour
    laid: dict[Position, int]
    discard: tuple[int, ...]
    held: tuple[int, ...]

    def cards(self, speeds) -> list[AttackCard]:
        return [AttackCard(self.colour, AttackKind(v)) for v in speeds]


def full_hand(options) -> Counter:
    """Every attack card one player owns at this table (SETUP-1, SETUP-4, VAR-2)."""
    options = stored_options(options)
    facts = table_facts(options["players"], "v2" in options["variants"])
    speeds = Counter(range(int(AttackKind.SCOUT_SHIP)))
    speeds[int(AttackKind.SCOUT_SHIP)] = facts["scouts"]
    return +speeds


def _laid(seat: TableSeat, side: int) -> dict[Position, int]:
    out = {}
    for at, speed in (seat.cards.items() if isinstance(seat.cards, dict) else ()):
        pos = read_position(str(at))
        if pos is not None and pos.row < side and pos.col < side and type(speed) is int:
            out[pos] = speed
    return out


def hand_of(session: Table, seat: TableSeat) -> Hand:
    """``seat``'s hand as its cards stand (anything a damaged row holds beyond the
    player's cards is dropped)."""
    options = stored_options(session.options)
    full = full_hand(options)
    side = table_facts(options["players"])["side"]
    laid = _laid(seat, side)
    pool = full.copy()
    kept_laid = {}
    for pos, speed in sorted(laid.items()):
        if pool[speed] > 0:
            pool[speed] -= 1
            kept_laid[pos] = speed
    discard = []
    for speed in seat.discard if isinstance(seat.discard, list) else ():
        if type(speed) is int and pool[speed] > 0:
            pool[speed] -= 1
            discard.append(speed)
    return Hand(Colour(seat.colour), kept_laid, tuple(sorted(discard)), tuple(sorted(pool.elements())))


def _write_seat(seat: TableSeat, **fields) -> bool:
    """Write ``fields`` if the seat is still as read and still open; ``False`` otherwise."""
    return bool(TableSeat.objects.filter(pk=seat.pk, version=seat.version, locked=False).update(
        version=seat.version + 1, **fields))


def _entry(session: Table, guest: TableGuest | None, change) -> str:
    """Apply ``change(hand) -> (fields, note)`` to ``guest``'s seat, from the seat as it is
    (read again when another tap changed it meanwhile). Returns the note."""
    for _attempt in range(5):
        seat = own_seat(session, guest)
        if seat is None:
            raise SeatRefused("no-seat")
        if seat.locked or session_revealed(session):
            raise SeatRefused("revealed")
        if current_slug(session) != ENTRY_SECTION:
            raise SeatRefused("not-setting")
        fields, note = change(hand_of(session, seat))
        if _write_seat(seat, **fields):  # only the presenter's screen shows it: see entries_stamp
            table_changed.send(Table, code=session.code)
            return note
    raise SeatRefused("busy")


def current_slug(session: Table) -> str:
    script = sections(session.options)
    return script[min(session.section, len(script) - 1)].slug


def session_revealed(session: Table) -> bool:
    return Table.objects.filter(pk=session.pk, revealed=True).exists()


def _cards_field(laid: dict[Position, int]) -> dict[str, int]:
    return {position_arg(p): v for p, v in sorted(laid.items())}


def lay(session: Table, guest: TableGuest | None, at: str, speed: int | None) -> str:
    """The seated ``guest`` lays their card ``speed`` face down at position ``at`` (a card
    of theirs already there goes back to the hand); with no card chosen (``None``), a tap
    on their own card takes it back, as on the table's board. Returns a note code:
    ``"set-4"`` when the discard pile came back into the hand first (SET-4)."""
    options = stored_options(session.options)
    side = table_facts(options["players"])["side"]
    pos = read_position(at)
    if pos is None or pos.row >= side or pos.col >= side:
        raise SeatRefused("bad-position")

    def change(hand: Hand):
        laid = dict(hand.laid)
        held = Counter(hand.held)
        discard = list(hand.discard)
        note = ""
        if speed is None and pos not in laid:
            raise SeatRefused("no-card")
        if pos in laid:
            held[laid.pop(pos)] += 1
        if speed is None:
            return {"cards": _cards_field(laid), "ready": False}, ""
        if not +held and discard:  # SET-4: an empty hand takes the discard pile back first
            held.update(discard)
            discard = []
            note = "set-4"
        if held[speed] <= 0:
            raise SeatRefused("not-in-hand", card=speed)
        laid[pos] = speed
        return {"cards": _cards_field(laid), "discard": discard, "ready": False}, note

    if speed is not None and speed not in full_hand(options):
        raise SeatRefused("not-in-hand", card=speed)
    return _entry(session, guest, change)


def take_back(session: Table, guest: TableGuest | None, at: str) -> str:
    """The seated ``guest`` takes their card at ``at`` back into the hand."""
    pos = read_position(at)

    def change(hand: Hand):
        laid = {p: v for p, v in hand.laid.items() if p != pos}
        return {"cards": _cards_field(laid), "ready": False}, ""

    return _entry(session, guest, change)


def set_ready(session: Table, guest: TableGuest | None, ready: bool) -> str:
    """The seated ``guest`` says all their cards are down (or not yet); when the presenter
    chose it, the last seated player to say so reveals the table (:func:`reveal`)."""
    note = _entry(session, guest, lambda hand: ({"ready": ready}, ""))
    session.refresh_from_db()
    if ready and session.reveal_when_all and all(s.ready for s in seat_rows(session) if s.guest_id):
        with suppress(Stale, SeatRefused):  # the presenter revealed or moved the table meanwhile
            reveal(session, session.version)
    return note


def set_reveal_when_all(session: Table, on: bool) -> None:
    Table.objects.filter(pk=session.pk).update(reveal_when_all=on)
    session.reveal_when_all = on
    _bump(session)


# --- the reveal and the next round ------------------------------------------------------------------
def reveal(session: Table, seen: int, **also) -> list[Position]:
    """Turn every card over: close every seat's entries and put the seats' cards into the
    table's own board (beside any the presenter entered), as one change made from version
    ``seen`` of the table that also writes the fields ``also`` (a move to the next
    section). Returns the positions two seats both entered: neither card is put there, so
    the presenter enters the one that lies there.

    The seats are closed first, in one statement: an entry still on its way is then either
    written before (and read here) or refused, never lost after the cards were read.
    Raises :class:`~tutorials.models.Stale` (and changes nothing) when the table moved on
    from ``seen``; revealing a revealed table changes nothing.
    """
    session.expect(seen)
    if session.revealed:
        if also:
            session.change(seen, **also)
        return []
    with transaction.atomic():
        TableSeat.objects.filter(session=session).update(locked=True, version=F("version") + 1)
        board = RoundBoard.from_state(REVEALED_SECTION, session.options,
                                      session.board_states.get("round", ""))
        cards = dict(board.cards)
        entered: dict[Position, list[AttackCard]] = {}
        for seat in seat_rows(session):
            hand = hand_of(session, seat)
            for pos, card in zip(hand.laid, hand.cards(hand.laid.values()), strict=True):
                entered.setdefault(pos, []).append(card)
        clashes = sorted(p for p, cs in entered.items() if len(cs) > 1)
        for pos, cs in entered.items():
            if len(cs) == 1:
                cards[pos] = cs[0]
            else:
                cards.pop(pos, None)
        board = RoundBoard(REVEALED_SECTION, session.options, start=board.start, cards=cards)
        session.change(seen, revealed=True, board_states={**session.board_states, "round": board.state()},
                       **also)
    _bump(session)
    return clashes


def open_clashes(session: Table) -> list[Position]:
    """After the reveal, the positions two seats both entered where the table's board has
    no card yet: :func:`reveal` put neither there, and the presenter has still to enter
    the one that lies there. Empty before the reveal, so it says nothing of any entry."""
    if not session.revealed:
        return []
    board = RoundBoard.from_state(REVEALED_SECTION, session.options, session.board_states.get("round", ""))
    entered = Counter(pos for seat in seat_rows(session) for pos in hand_of(session, seat).laid)
    return sorted(p for p, n in entered.items() if n > 1 and p not in board.cards)


def next_round(session: Table, seen: int) -> None:
    """Start the table's next round with the site: every card of the round just resolved
    goes to its owner's discard pile (BAT-4, TRE-4), the seats open again and the table
    goes back to the first round's Dice Time. Raises :class:`~tutorials.models.Stale`
    when the table moved on from ``seen``."""
    session.expect(seen)
    script = sections(session.options)
    dice = next(i for i, s in enumerate(script) if s.slug == "round-dice")
    board = RoundBoard.from_state(REVEALED_SECTION, session.options, session.board_states.get("round", ""))
    played: dict[str, list[int]] = {}
    for card in board.cards.values():
        played.setdefault(card.colour.value, []).append(card.speed)
    with transaction.atomic():
        for seat in seat_rows(session):
            hand = hand_of(session, seat)
            discard = list(hand.discard) + played.get(seat.colour, [])
            TableSeat.objects.filter(pk=seat.pk).update(cards={}, discard=sorted(discard), locked=False,
                                                        ready=False, version=F("version") + 1)
        now = timezone.now()
        kept = RoundBoard(REVEALED_SECTION, session.options, start=board.start)
        session.change(seen, round=session.round + 1, revealed=False, section=dice, screen=0,
                       section_since=now,
                       board_states={**session.board_states, "round": kept.state()})
    _bump(session)
