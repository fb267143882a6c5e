"""Teaching sessions: options, presenter-only control, guests, codes, polling."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from teach_options import teach_options, teach_refusals
from tutorials.models import Table
from tutorials.tutorial.teaching import sections, stored_options


def _start(client: Client, **data) -> str:
    """Start a table (the full script unless ``script`` says otherwise: these tests count
    its sections)."""
    response = client.post("/en/teach/", {"players": "4", "mode": "action", "script": "full", **data})
    assert response.status_code == 302
    return response["Location"].rstrip("/").split("/")[-1]


def test_options_not_offered_are_refused_field_by_field():
    refused = teach_refusals({"players": "9", "mode": "x", "script": "long", "variants": ["v9"]})
    assert set(refused) == {"players", "mode", "script", "variants"}
    assert teach_options({}) == {"players": 4, "mode": "action", "script": "quick", "variants": [],
                                 "first_edition": False, "seats": ["red", "blue", "green", "white"]}
    # a stored "v4" (tables started before VAR-4 moved out of the variants) is the first
    # edition; the form itself does not offer it
    assert stored_options({"variants": ["v4", "v1"]})["first_edition"] is True
    assert set(teach_refusals({"variants": ["v4"]})) == {"variants"}


def test_strategy_mode_replaces_dice_time_and_there_is_no_variants_section():
    for script in ("quick", "full"):
        slugs = [s.slug for s in sections({"players": 4, "mode": "strategy", "variants": ["v1"],
                                           "script": script})]
        assert "strategy-dice-time" in slugs and "dice-time" not in slugs, script
        assert "ending-dice-time" not in slugs and "bell" not in slugs and "variants" not in slugs


@pytest.mark.django_db
def test_guest_cannot_steer_and_polls_cheaply(client):
    code = _start(client)
    guest = Client()
    assert guest.post(f"/en/teach/{code}/go/", {"to": "3", "v": "1"}).status_code == 403
    assert guest.post(f"/en/teach/{code}/board/dice/", {"do": "roll", "v": "1"}).status_code == 403
    html = guest.get(f"/de/t/{code}/").content.decode()
    version = re.search(r'data-version="(\d+)"', html).group(1)
    assert guest.get(f"/de/t/{code}/poll/?v={version}").status_code == 204
    client.post(f"/en/teach/{code}/go/", {"to": "1", "v": "1"})
    moved = guest.get(f"/de/t/{code}/poll/?v={version}")
    assert moved.status_code == 200 and "Aufbau" in moved.content.decode()


@pytest.mark.django_db
def test_two_player_table_gets_two_player_dice_board(client):
    code = _start(client, players="2")
    client.post(f"/en/teach/{code}/go/", {"to": "3", "v": "1"})  # Dice Time
    html = client.get(f"/en/teach/{code}/").content.decode()
    assert "grid cols-3" in html


@pytest.mark.django_db
def test_unknown_or_expired_code_says_so(client):
    response = client.get("/t/nosuch/", HTTP_ACCEPT_LANGUAGE="ja")
    assert response["Location"] == "/ja/t/nosuch/"
    page = client.get(response["Location"])
    assert page.status_code == 404 and "nosuch" in page.content.decode()
    code = _start(client)
    from datetime import timedelta

    from django.utils import timezone

    Table.objects.filter(code=code).update(expires_at=timezone.now() - timedelta(minutes=1))
    assert client.get(f"/en/teach/join/?code={code}").status_code == 404
    # the guest's own page says the table has ended, in the guest's language
    ended = client.get(f"/de/t/{code}/")
    assert ended.status_code == 410 and "Dieser Tisch ist beendet" in ended.content.decode()


@pytest.mark.django_db
def test_expired_sessions_are_cleared_when_a_new_one_starts(client):
    from datetime import timedelta

    from django.utils import timezone

    old = _start(client)
    Table.objects.filter(code=old).update(expires_at=timezone.now() - timedelta(hours=1))
    new = _start(client)
    assert not Table.objects.filter(code=old).exists()
    assert Table.objects.filter(code=new).exists()


@pytest.mark.django_db
def test_presenter_board_actions_are_posts_with_csrf(client):
    code = _start(client)
    client.post(f"/en/teach/{code}/go/", {"to": "3", "v": "1"})  # Dice Time
    html = client.get(f"/en/teach/{code}/").content.decode()
    board_url = f"/en/teach/{code}/board/dice/"
    # no link changes the table: every board control is a form that posts with the token,
    # to an address that carries the table's version the page shows
    assert f'href="{board_url}' not in html and f'hx-get="{board_url}' not in html
    forms = re.findall(rf'<form class="control-form" method="post" action="{board_url}\?v=2" '
                       rf'hx-post="{board_url}\?v=2"[^>]*>(.*?)</form>', html, re.S)
    assert len(forms) >= 16 + 5  # 16 cells to claim, roll/ring/reset, player and colour chips
    assert len(forms) == html.count(f'action="{board_url}')  # every one of them
    assert all('name="csrfmiddlewaretoken"' in form and 'name="do"' in form for form in forms)
    assert any('name="at" value="0-1"' in form and 'value="claim"' in form for form in forms)
    # a link on another site cannot change the table, nor can a form without the token
    assert client.get(f"{board_url}?do=roll&v=2").status_code == 405
    cross_site = Client(enforce_csrf_checks=True)
    cross_site.cookies = client.cookies
    assert cross_site.post(f"{board_url}?v=2", {"do": "roll"}).status_code == 403
    assert Table.objects.get(code=code).board_states == {}
    # without JavaScript the form posts and comes back to the presenter's page
    response = client.post(f"{board_url}?v=2", {"do": "roll"})
    assert response.status_code == 302 and response["Location"] == f"/en/teach/{code}/#board-dice"
    rolled = Table.objects.get(code=code).board_states["dice"]
    assert rolled
    # with htmx the board comes back as a fragment, its forms at the new version
    fragment = client.post(f"{board_url}?v=3", {"do": "claim", "at": "00"}, HTTP_HX_REQUEST="true")
    assert fragment.status_code == 200
    html = fragment.content.decode()
    assert 'id="board-dice"' in html and "csrfmiddlewaretoken" in html
    assert f'action="{board_url}?v=4"' in html and "?v=3" not in html


@pytest.mark.django_db
def test_a_choice_sent_twice_is_refused_never_silently_the_last(client):
    """players=2&players=3 must not start a table without a word."""
    response = client.post("/en/teach/", {"players": ["2", "3"], "mode": "action"})
    assert response.status_code == 422
    assert "This choice was sent more than once" in response.content.decode()
    assert not Table.objects.exists()


@pytest.mark.django_db
def test_the_presenter_key_is_stored_only_as_a_hash(client):
    from django.test import RequestFactory

    from tutorials.models import hash_key
    from tutorials.teach.access import PRESENTER

    code = _start(client)
    holder = RequestFactory().get("/")
    holder.COOKIES = {name: morsel.value for name, morsel in client.cookies.items()}
    key = PRESENTER.read(holder, code)
    table = Table.objects.get(code=code)
    assert len(key) >= 32 and table.presenter_key_hash == hash_key(key)
    assert key not in str(Table.objects.filter(code=code).values().get())
    assert client.get(f"/en/teach/{code}/").status_code == 200  # the key still opens it


@pytest.mark.parametrize("stored, players, seats", [
    ({"players": 1}, 4, ["red", "blue", "green", "white"]),
    ({"players": 5, "seats": ["red", "blue", "green", "white", "red"]}, 4, ["red", "blue", "green", "white"]),
    ({"players": 3, "seats": ["green", "white", "red", "blue", "red"]}, 3, ["green", "white", "red"]),
    ({"players": 2, "seats": ["white"]}, 2, ["red", "blue"]),
    ({"players": True}, 4, ["red", "blue", "green", "white"]),
    ({"players": 2.0}, 4, ["red", "blue", "green", "white"]),
    ({"players": "3"}, 4, ["red", "blue", "green", "white"]),
    ({"players": 2, "seats": [["red"], {"blue": 1}]}, 2, ["red", "blue"]),
    (["not", "an", "object"], 4, ["red", "blue", "green", "white"]),
])
def test_stored_options_seat_two_to_four_players(stored, players, seats):
    """What a stored row holds is read as a table of 2 to 4 seats, each its own colour."""
    options = stored_options(stored)
    assert (options["players"], options["seats"]) == (players, seats)


@pytest.mark.django_db
@pytest.mark.parametrize("stored", [{"players": 1, "seats": ["red"]}, {"players": 5, "seats": ["red"] * 5}])
def test_a_stored_table_of_one_or_five_seats_opens_as_four(client, stored):
    code = _start(client)
    Table.objects.filter(code=code).update(options={**stored, "script": "quick"})
    for url in (f"/en/teach/{code}/", f"/en/t/{code}/"):
        response = client.get(url)
        assert response.status_code == 200, url
        assert re.search(r'class="(presenter|guest) players-4"', response.content.decode()), url
