"""Seats and secret hands: guests take a colour, enter the cards they lay face down on
their own phone, and nobody else sees one before the table's reveal."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from tutorials.models import Table, TableGuest, TableSeat, hash_key
from tutorials.teach import guests
from tutorials.teach import seats as seating
from tutorials.tutorial.teaching import sections

pytestmark = pytest.mark.django_db
HX = {"HTTP_HX_REQUEST": "true"}


def _start(client: Client, lang: str = "en", **data) -> Table:
    response = client.post(f"/{lang}/teach/", {"players": "4", "mode": "action", "script": "quick", **data})
    assert response.status_code == 302, response.content[:300]
    return Table.objects.get(code=response["Location"].rstrip("/").split("/")[-1])


def _index(table: Table, slug: str) -> int:
    return [s.slug for s in sections(table.options)].index(slug)


def _go(client: Client, table: Table, slug: str, **headers):
    table.refresh_from_db()
    data = {"to": str(_index(table, slug)), "v": str(table.version)}
    return client.post(f"/en/teach/{table.code}/go/", data, **headers)


def _guest(table: Table, lang: str = "en", colour: str | None = None) -> Client:
    guest = Client()
    assert guest.get(f"/{lang}/t/{table.code}/").status_code == 200
    if colour:
        assert guest.post(f"/{lang}/t/{table.code}/seat/", {"do": "take", "at": colour}).status_code == 302
    return guest


def _hand(guest: Client, table: Table, lang: str = "en", **data):
    return guest.post(f"/{lang}/t/{table.code}/hand/", data, **HX)


def _seats(client: Client, table: Table, do: str, at: str = "", **headers):
    table.refresh_from_db()
    data = {"do": do, "at": at, "v": str(table.version)}
    return client.post(f"/en/teach/{table.code}/seats/", data, **headers)


def test_a_seat_is_held_by_one_phone_and_survives_a_reload(client):
    table = _start(client)
    red = _guest(table, colour="red")
    other = _guest(table)
    taken = other.post(f"/en/t/{table.code}/seat/", {"do": "take", "at": "red"}, **HX)
    assert taken.status_code == 409 and "Someone else already sits at red" in taken.content.decode()
    reload = red.get(f"/en/t/{table.code}/")
    assert "no-store" in reload["Cache-Control"] and "private" in reload["Cache-Control"]
    page = reload.content.decode()
    assert 'data-testid="my-seat">red<' in page
    assert TableGuest.objects.filter(session=table).count() == 2
    seat = TableSeat.objects.get(session=table, colour="red")
    key = red.cookies[f"follow_{table.code}"].value
    assert seat.guest.key_hash != key and seat.guest.key_hash == hash_key(
        red.get(f"/en/t/{table.code}/").wsgi_request.get_signed_cookie(
            f"follow_{table.code}", salt="teach-guest"))


@pytest.mark.parametrize("how", ["freed", "left"])
def test_a_seat_given_up_before_the_reveal_shows_the_next_phone_no_card(client, how):
    table = _start(client)
    _go(client, table, "round-setting")
    red = _guest(table, colour="red")
    assert _hand(red, table, do="lay", card="3", at="1-2").status_code == 200
    assert _hand(red, table, do="ready").status_code == 200
    if how == "freed":
        assert _seats(client, table, "free", "red").status_code == 302
    else:
        assert red.post(f"/en/t/{table.code}/seat/", {"do": "leave"}).status_code == 302
    seat = TableSeat.objects.get(session=table, colour="red")
    assert seat.guest is None and seat.cards == {} and not seat.ready
    new_phone = _guest(table, colour="red")
    html = new_phone.get(f"/en/t/{table.code}/").content.decode()
    assert 'data-testid="hand-cell-1-2"' in html and "hand-cell laid" not in html
    assert "(9 cards)" in html
    lost = _hand(red, table, do="lay", card="0", at="0-0")
    assert lost.status_code == 422 and "Take your seat first" in lost.content.decode()


def test_a_seat_freed_after_the_reveal_keeps_its_cards_on_the_board(client):
    table = _start(client)
    _go(client, table, "round-setting")
    red = _guest(table, colour="red")
    _hand(red, table, do="lay", card="3", at="1-2")
    assert _seats(client, table, "reveal").status_code == 302
    assert _seats(client, table, "free", "red").status_code == 302
    assert TableSeat.objects.get(session=table, colour="red").cards == {"1-2": 3}
    table.refresh_from_db()
    assert "1-2r3" in table.board_states["round"]


def test_clients_that_keep_no_cookie_never_fill_the_table(client):
    table = _start(client)
    for _ in range(guests.GUESTS_KEPT + 10):
        assert Client().get(f"/en/t/{table.code}/").status_code == 200
    assert TableGuest.objects.filter(session=table).count() == 0
    red = _guest(table, colour="red")  # the first request that carries the cookie counts it
    assert TableSeat.objects.get(session=table, colour="red").guest is not None
    assert TableGuest.objects.filter(session=table).count() == 1
    watchers = [_guest(table) for _ in range(guests.GUESTS_KEPT)]
    for watcher in watchers:
        watcher.get(f"/en/t/{table.code}/")
    assert TableGuest.objects.filter(session=table).count() == guests.GUESTS_KEPT
    late = _guest(table, colour="blue")  # a full table makes room with a watcher, not a seat
    assert TableSeat.objects.get(session=table, colour="blue").guest is not None
    assert TableGuest.objects.filter(session=table).count() == guests.GUESTS_KEPT
    assert 'data-testid="my-seat">red<' in red.get(f"/en/t/{table.code}/").content.decode()
    assert 'data-testid="my-seat">blue<' in late.get(f"/en/t/{table.code}/").content.decode()


def test_cards_entered_stay_secret_until_the_reveal(client):
    table = _start(client)
    _go(client, table, "round-setting")
    red, blue = _guest(table, "en", "red"), _guest(table, "de", "blue")
    assert "[3]" in _hand(red, table, do="lay", card="3", at="1-2").content.decode()
    presenter = client.get(f"/en/teach/{table.code}/").content.decode()
    assert 'data-testid="entered-red">1 card entered' in presenter
    # the card as a token of its own ("r3"), not letters inside a random link token
    assert "colour-red laid" not in presenter
    assert not re.search(r"(?<![A-Za-z0-9])r3(?![A-Za-z0-9])", presenter)
    assert "colour-red laid" not in blue.get(f"/de/t/{table.code}/").content.decode()
    assert _seats(client, table, "reveal", **HX).status_code == 200
    table.refresh_from_db()
    assert table.revealed and "1-2r3" in table.board_states["round"]
    late = _hand(red, table, do="lay", card="0", at="0-0")
    assert late.status_code == 409 and "revealed" in late.content.decode()
    _go(client, table, "round-table")
    shown = blue.get(f"/de/t/{table.code}/").content.decode()
    assert "<strong>Rot</strong>: [3] Kanone von Rot (C2)" in shown


def test_moving_on_from_setting_time_reveals_and_an_empty_table_cannot_go_on(client):
    table = _start(client)
    _go(client, table, "round-setting")
    _go(client, table, "round-table")
    table.refresh_from_db()
    assert table.revealed and table.section == _index(table, "round-table")
    refused = _go(client, table, "round-resolve", **HX)
    assert refused.status_code == 422 and "No card is entered yet" in refused.content.decode()


@pytest.mark.parametrize(("players", "variants", "count"), [("4", [], 9), ("2", [], 7), ("3", ["v2"], 5)])
def test_a_hand_holds_the_tables_cards(client, players, variants, count):
    table = _start(client, players=players, variants=variants)
    _go(client, table, "round-setting")
    red = _guest(table, colour="red")
    html = red.get(f"/en/t/{table.code}/").content.decode()
    assert f"({count} cards)" in html


def test_an_empty_hand_takes_the_discard_pile_back_first(client):
    table = _start(client, players="2", variants=["v2"])  # 5 cards: [0] to [4]
    _go(client, table, "round-setting")
    red = _guest(table, colour="red")
    for speed in range(5):
        assert _hand(red, table, do="lay", card=str(speed), at=f"{speed // 3}-{speed % 3}").status_code == 200
    _go(client, table, "round-table")
    _go(client, table, "round-resolve")
    _go(client, table, "round-next")
    assert _seats(client, table, "next-round").status_code == 302
    table.refresh_from_db()
    assert table.round == 2 and not table.revealed and table.section == _index(table, "round-dice")
    seat = TableSeat.objects.get(session=table, colour="red")
    assert sorted(seat.discard) == [0, 1, 2, 3, 4] and seat.cards == {}
    _go(client, table, "round-setting")
    answer = _hand(red, table, do="lay", card="2", at="0-0").content.decode()
    assert "SET-4" in answer
    seat.refresh_from_db()
    assert seat.discard == [] and seat.cards == {"0-0": 2}


def test_the_last_player_done_reveals_when_the_presenter_chose_it(client):
    table = _start(client)
    _go(client, table, "round-setting")
    red, blue = _guest(table, colour="red"), _guest(table, colour="blue")
    _seats(client, table, "auto", "on")
    _hand(red, table, do="lay", card="1", at="0-0")
    _hand(red, table, do="ready")
    table.refresh_from_db()
    assert not table.revealed
    _hand(blue, table, do="ready")  # blue laid nothing this round
    table.refresh_from_db()
    assert table.revealed and "0-0r1" in table.board_states["round"]


def test_two_seats_entering_one_position_leave_it_to_the_presenter(client):
    table = _start(client)
    _go(client, table, "round-setting")
    red, blue = _guest(table, colour="red"), _guest(table, colour="blue")
    _hand(red, table, do="lay", card="1", at="0-0")
    _hand(blue, table, do="lay", card="2", at="0-0")
    _hand(blue, table, do="lay", card="3", at="2-2")
    assert "Two players" not in red.get(f"/en/t/{table.code}/").content.decode()  # says nothing before
    answer = _seats(client, table, "reveal", **HX).content.decode()
    assert "Two players entered a card at A1; enter the card that lies there." in answer
    table.refresh_from_db()
    assert "0-0" not in table.board_states["round"] and "2-2b3" in table.board_states["round"]
    assert "Every card is face up now" in red.get(f"/en/t/{table.code}/").content.decode()
    # every screen says why a card entered is not on the board, until the presenter enters it
    _go(client, table, "round-table")
    why = "Two players entered a card at A1, so neither is on the board yet"
    for phone in (red, blue):
        assert why in phone.get(f"/en/t/{table.code}/").content.decode()
    assert "enter the card that lies there" in client.get(f"/en/teach/{table.code}/").content.decode()
    for do, at in (("brush", "b2"), ("put", "0-0")):
        table.refresh_from_db()
        client.post(f"/en/teach/{table.code}/board/round/?v={table.version}", {"do": do, "at": at})
    table.refresh_from_db()
    assert "0-0b2" in table.board_states["round"]
    assert why not in red.get(f"/en/t/{table.code}/").content.decode()
    assert "Two players" not in client.get(f"/en/teach/{table.code}/").content.decode()


def test_seat_forms_are_read_strictly(client):
    table = _start(client)
    _go(client, table, "round-setting")
    red = _guest(table, colour="red")
    for data in ({"do": "lay", "card": "9", "at": "0-0"}, {"do": "fly"}, {"do": "lay", "at": "0-0"},
                 {"do": "lay", "card": "", "at": "0-0"}, {"do": "lay", "card": "1", "at": "7-7"}):
        answer = _hand(red, table, **data)
        assert answer.status_code == 422 and "[]" not in answer.content.decode(), data
    assert "First choose one of your cards" in _hand(red, table, do="lay", card="", at="0-0").content.decode()
    assert Client().post(f"/en/teach/{table.code}/seats/", {"do": "reveal", "v": "1"}).status_code == 403
    assert not seating.session_revealed(table)


def test_a_tap_on_your_own_card_with_no_card_chosen_takes_it_back(client):
    table = _start(client)
    _go(client, table, "round-setting")
    red = _guest(table, colour="red")
    assert _hand(red, table, do="lay", card="3", at="1-2").status_code == 200
    laid = 'laid colour-red" data-testid="hand-cell-1-2"'
    assert laid in red.get(f"/en/t/{table.code}/").content.decode()
    answer = _hand(red, table, do="lay", card="", at="1-2")
    assert answer.status_code == 200
    page = answer.content.decode()
    assert 'data-testid="hand-cell-1-2"' in page and laid not in page
    assert seating.hand_of(table, TableSeat.objects.get(session=table, colour="red")).laid == {}


def test_a_card_of_another_colour_is_never_replaced_silently(client):
    table = _start(client)
    _go(client, table, "round-setting")
    _go(client, table, "round-table")
    table.refresh_from_db()
    for do, at in (("brush", "r0"), ("put", "0-0"), ("brush", "b1")):
        client.post(f"/en/teach/{table.code}/board/round/?v={table.version}", {"do": do, "at": at})
        table.refresh_from_db()
    answer = client.post(f"/en/teach/{table.code}/board/round/?v={table.version}", {"do": "put", "at": "0-0"},
                         **HX).content.decode()
    assert "Red [0] Hostage Gambit already lies at A1" in answer
    table.refresh_from_db()
    assert "0-0r0" in table.board_states["round"] and "b1" not in table.board_states["round"].split("|")[1]


def test_reveal_and_next_round_only_where_they_belong(client):
    table = _start(client)
    _go(client, table, "round-dice")
    refused = _seats(client, table, "reveal", **HX)
    assert refused.status_code == 422 and "Setting Time" in refused.content.decode()
    assert _seats(client, table, "next-round", **HX).status_code == 422
    table.refresh_from_db()
    assert not table.revealed and table.round == 1
