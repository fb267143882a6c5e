"""Teaching a real table: stale screens, guests who get lost, codes typed any
way, tables that end; and the start form's refusals found by trying to break it."""

from __future__ import annotations

import json
import re
from datetime import timedelta
from pathlib import Path

import pytest
from django.test import Client
from django.utils import timezone

from tutorials.models import Table, normalize_code

pytestmark = pytest.mark.django_db


def _start(client: Client, lang: str = "en", **data) -> Table:
    response = client.post(f"/{lang}/teach/", {"players": "4", "mode": "action", "script": "quick", **data})
    assert response.status_code == 302, response.content[:300]
    return Table.objects.get(code=response["Location"].rstrip("/").split("/")[-1])


def _go(client: Client, table: Table, to: int, seen: int, **headers):
    return client.post(f"/en/teach/{table.code}/go/", {"to": str(to), "v": str(seen)}, **headers)


def _act(client: Client, table: Table, board: str, do: str, at: str = "", **headers):
    """A board action made from the version the table is at now (a fresh screen)."""
    table.refresh_from_db()
    return client.post(f"/en/teach/{table.code}/board/{board}/",
                       {"do": do, "at": at, "v": str(table.version)}, **headers)


def test_a_stale_screen_never_takes_the_table_backwards(client):
    table = _start(client)
    tab_a, tab_b = Client(), Client()
    tab_a.cookies, tab_b.cookies = client.cookies, client.cookies
    assert _go(tab_a, table, 1, 1).status_code == 302        # both tabs at section 1, version 2
    assert _go(tab_b, table, 2, 2).status_code == 302        # tab B moves on: version 3
    refused = _go(tab_a, table, 0, 2, HTTP_HX_REQUEST="true")  # tab A, still at 1, presses Back
    assert refused.status_code == 409
    html = refused.content.decode()
    assert 'data-index="2"' in html and 'data-version="3"' in html  # the table as it is now
    table.refresh_from_db()
    assert table.section == 2 and table.version == 3


def test_moves_need_a_readable_section_and_version(client):
    table = _start(client)
    for data in ({"to": "1"}, {"to": "１", "v": "1"}, {"to": "1_0", "v": "1"}, {"to": "+2", "v": "1"},
                 {"to": "abc", "v": "1"}):
        response = client.post(f"/en/teach/{table.code}/go/", data)
        assert response.status_code == 400 and b"whole numbers" in response.content, data
    table.refresh_from_db()
    assert table.version == 1


def test_the_presenter_page_notices_moves_made_elsewhere(client):
    table = _start(client)
    assert client.get(f"/en/teach/{table.code}/poll/?v=1").status_code == 204
    _go(client, table, 3, 1)
    moved = client.get(f"/en/teach/{table.code}/poll/?v=1")
    assert moved.status_code == 200 and 'data-index="3"' in moved.content.decode()
    assert Client().get(f"/en/teach/{table.code}/poll/?v=1").status_code == 403


def test_guests_see_what_they_missed_and_boards_say_they_are_read_only(client):
    table = _start(client, script="full")
    guest = Client()
    guest.get(f"/de/t/{table.code}/")
    _go(client, table, 3, 1)  # the full script's Dice Time, three sections on
    html = guest.get(f"/de/t/{table.code}/poll/?v=1&i=0").content.decode()
    missed = re.search(r'data-testid="missed">(.*?)</p>', html, re.S)[1]
    assert "Aufbau" in missed and "Worum es geht" not in missed
    assert "readonly-note" in html and "claimable" not in html
    css = (Path(__file__).resolve().parents[2] / "static" / "css" / "site.css").read_text(encoding="utf-8")
    assert "web-only" not in html or ".guest .web-only { display: none; }" in css


@pytest.mark.parametrize("typed", ["３２ＡＢ８", "32ab8", " 32-ab 8 ", "32AB8"])
def test_codes_are_read_however_they_are_typed(client, typed):
    assert normalize_code(typed) == "32ab8"


def test_full_width_codes_reach_the_table(client):
    table = _start(client)
    wide = "".join(chr(ord(c) + 0xFEE0) for c in table.code.upper())  # ＡＢＣ１２ as typed in Japan
    followed = client.get(f"/t/{wide}/", HTTP_ACCEPT_LANGUAGE="ja", follow=True)
    assert followed.status_code == 200 and followed.redirect_chain[-1][0] == f"/ja/t/{table.code}/"
    found = client.get("/ja/teach/join/", {"code": wide})
    assert found.status_code == 302 and found["Location"] == f"/ja/t/{table.code}/"
    canonical = client.get(f"/ja/t/{wide}/")
    assert canonical.status_code == 302 and canonical["Location"] == f"/ja/t/{table.code}/"


def test_an_ended_table_says_so_and_stops_the_polling(client):
    table = _start(client)
    guest = Client()
    guest.get(f"/de/t/{table.code}/")
    Table.objects.filter(pk=table.pk).update(expires_at=timezone.now() - timedelta(minutes=1))
    poll = guest.get(f"/de/t/{table.code}/poll/?v=1&i=0", HTTP_HX_REQUEST="true")
    html = poll.content.decode()
    assert poll.status_code == 200 and "Dieser Tisch ist beendet" in html
    assert "hx-get" not in html and "hx-trigger" not in html  # the poller is replaced: it stops
    assert poll["HX-Retarget"] == "#guest-section"
    page = guest.get(f"/de/t/{table.code}/")
    assert page.status_code == 410 and "Dieser Tisch ist beendet" in page.content.decode()
    moved = _go(client, table, 1, 1, HTTP_HX_REQUEST="true")  # the presenter's Next says it too
    assert moved.status_code == 200 and moved["HX-Retarget"] == ".presenter"  # QR code and all
    assert "This table has ended" in moved.content.decode()
    assert "Start a new table" in moved.content.decode()  # the presenter's own sentence
    assert "Ask the person teaching" not in moved.content.decode()
    assert "Ask the person teaching" in guest.get(f"/en/t/{table.code}/").content.decode()
    unknown = guest.get("/de/t/zzzzz/")
    assert unknown.status_code == 404 and "Kein Tisch" in unknown.content.decode()


def test_guests_are_refused_in_their_language(client):
    table = _start(client)
    response = Client().post(f"/ja/teach/{table.code}/go/", {"to": "1", "v": "1"})
    assert response.status_code == 403 and "説明役" in response.content.decode()


def test_a_two_player_table_keeps_its_grid_when_a_board_starts_again(client):
    table = _start(client, players="2")
    _go(client, table, 1, 1)
    _act(client, table, "dice", "reset")
    _act(client, table, "dice", "players", "4")
    table.refresh_from_db()
    assert table.board_states["dice"].startswith("2")
    page = client.get(f"/en/teach/{table.code}/").content.decode()
    assert "grid cols-3" in page and "3–4 players (4×4)" not in page


def test_board_answers_carry_the_new_version(client):
    table = _start(client)
    _go(client, table, 1, 1)
    response = _act(client, table, "dice", "roll", HTTP_HX_REQUEST="true")
    assert response["HX-Trigger"] == '{"tableVersion": 3}'


# --- board actions carry the version they were made from -------------------------------------------
def _round_table(client: Client) -> Table:
    """A table at "resolve our table", red [1] chosen as the brush."""
    from tutorials.tutorial.teaching import sections

    table = _start(client)
    _go(client, table, [s.slug for s in sections(table.options)].index("round-table"), 1)
    assert _act(client, table, "round", "brush", "r1").status_code == 302
    table.refresh_from_db()
    return table


def _from(client: Client, table: Table, seen: int, do: str, at: str = "", **headers):
    """A board action from a screen that showed version ``seen``, as the board's forms post it."""
    return client.post(f"/en/teach/{table.code}/board/round/?v={seen}", {"do": do, "at": at}, **headers)


def test_a_stale_tabs_board_move_is_refused_with_the_table_as_it_is(client):
    table = _round_table(client)
    shown = table.version  # both tabs show the board with the brush chosen, no card yet
    assert _from(client, table, shown, "put", "00").status_code == 302  # tab A places red [1] at A1
    table.refresh_from_db()
    placed = table.board_states["round"]
    assert "0-0r1" in placed
    # tab B taps A1 too, from the screen without the card: applied, it would take the card off
    refused = _from(client, table, shown, "put", "00", HTTP_HX_REQUEST="true")
    assert refused.status_code == 409
    assert refused["HX-Retarget"] == "#present-section" and refused["HX-Reswap"] == "outerHTML"
    html = refused.content.decode()
    assert f'data-version="{shown + 1}"' in html and "changed at the same moment" in html
    assert "<strong>red</strong>: red [1] Boarding Melee (A1)" in html  # the card, as the table has it
    assert refused["HX-Trigger"] == json.dumps({"tableVersion": shown + 1})
    whole = _from(client, table, shown, "put", "00")  # without JavaScript: the whole page
    assert whole.status_code == 409 and 'data-testid="present-note"' in whole.content.decode()
    table.refresh_from_db()
    assert (table.board_states["round"], table.version) == (placed, shown + 1)


def test_a_stale_tabs_next_step_does_not_move_the_guests(client):
    from tutorials.tutorial.teaching import sections

    table = _round_table(client)
    for do, at in (("put", "00"), ("brush", "b1"), ("put", "11")):
        _act(client, table, "round", do, at)
    table.refresh_from_db()
    assert _go(client, table, [s.slug for s in sections(table.options)].index("round-resolve"),
               table.version).status_code == 302
    table.refresh_from_db()
    both = table.version
    assert _from(client, table, both, "step", "1").status_code == 302
    assert _from(client, table, both + 1, "step", "2").status_code == 302  # tab A, two steps on
    assert _from(client, table, both, "step", "1", HTTP_HX_REQUEST="true").status_code == 409  # tab B
    guest = Client().get(f"/en/t/{table.code}/").content.decode()
    assert 'data-step="2"' in guest


def test_a_stale_board_move_from_a_section_left_behind_is_409_not_404(client):
    table = _round_table(client)
    _go(client, table, 1, table.version)  # the table moved back to the setup, without a round board
    response = _from(client, table, table.version - 1, "clear", HTTP_HX_REQUEST="true")
    assert response.status_code == 409 and 'data-index="1"' in response.content.decode()


def test_the_version_sent_in_the_body_wins_over_the_address(client):
    """htmx sends the version the screen shows now (after this screen's own board actions)
    in the body; the address keeps the one the board was drawn at."""
    table = _round_table(client)
    drawn = table.version
    assert _from(client, table, drawn, "put", "00").status_code == 302
    later = client.post(f"/en/teach/{table.code}/board/round/?v={drawn}",
                        {"do": "brush", "at": "b1", "v": str(drawn + 1)}, HTTP_HX_REQUEST="true")
    assert later.status_code == 200
    table.refresh_from_db()
    assert (table.board_states["round"], table.version) == ("rb10|0-0r1", drawn + 2)


@pytest.mark.parametrize("sent", [{"do": "clear"}, {"do": "clear", "v": "x"}, {"do": "clear", "v": "-1"}])
def test_a_board_action_without_a_readable_version_is_refused(client, sent):
    table = _round_table(client)
    before = (table.board_states, table.version)
    response = client.post(f"/en/teach/{table.code}/board/round/", sent, HTTP_HX_REQUEST="true")
    assert response.status_code == 422
    html = response.content.decode()
    assert 'data-code="teach-no-version"' in html and "came without the version" in html
    table.refresh_from_db()
    assert (table.board_states, table.version) == before


# --- the start form, from the try to break it -----------------------------------------------------
def test_a_start_form_that_is_not_a_form_is_refused(client):
    client.get("/en/teach/")
    before = Table.objects.count()
    response = client.post("/en/teach/", '{"players": "9"}', content_type="application/json")
    assert response.status_code == 415
    assert Table.objects.count() == before


def test_refused_forms_do_not_count_as_tables_started(client):
    for _ in range(12):
        assert client.post("/en/teach/", {"mode": "strategy", "variants": "v3"}).status_code == 422
    _start(client)


@pytest.mark.parametrize("value, ticked", [("0", False), ("off", False), ("true", True), ("on", True)])
def test_first_edition_is_shown_as_understood(client, value, ticked):
    html = client.post("/en/teach/", {"first_edition": value, "players": "9"}).content.decode()
    assert bool(re.search(r'name="first_edition" value="1" checked', html)) is ticked
    odd = client.post("/en/teach/", {"first_edition": "yes"})
    assert odd.status_code == 422 and "error-first-edition" in odd.content.decode()


def test_a_refused_move_page_links_to_the_presenter_in_every_language(client):
    table = _start(client)
    _go(client, table, 1, 1)
    html = _go(client, table, 2, 1).content.decode()  # stale, without htmx: the whole page, 409
    links = re.findall(r'href="(/(?:ja|de)/teach/[^"?]*)[^"]*"', html)
    assert links and all(link.endswith(f"/teach/{table.code}/") for link in links), links


# --- the guided first round: "resolve our table" ----------------------------------------------------
def _post(client: Client, table: Table, do: str, at: str = ""):
    return _act(client, table, "round", do, at, HTTP_HX_REQUEST="true")


def test_resolve_our_table_from_entry_to_the_last_step(client):
    from tutorials.tutorial.teaching import sections

    table = _start(client, players="3", seats=["blue", "red", "green", "white"])
    slugs = [s.slug for s in sections(table.options)]
    _go(client, table, slugs.index("round-table"), 1)
    assert "First choose a colour" in _post(client, table, "put", "00").content.decode()
    for do, at in (("brush", "r1"), ("put", "00"), ("brush", "b1"), ("put", "01")):
        assert _post(client, table, do, at).status_code == 200
    refused = _post(client, table, "put", "02").content.decode()  # a second blue [1]
    assert "Blue has no more [1] cards" in refused
    assert "Only the colours" in _post(client, table, "brush", "w3").content.decode()  # white is not seated
    _post(client, table, "start", "r")
    table.refresh_from_db()
    assert table.board_states["round"].startswith("rb1") and "0-0r1.0-1b1" in table.board_states["round"]
    _go(client, table, slugs.index("round-resolve"), table.version)
    seen = []
    for n in range(1, 21):
        html = _post(client, table, "step", str(n)).content.decode()
        seen.append(re.search(r'data-step="(\d+)"', html)[1])
        if "Next step" not in html:
            break
    assert seen == [str(i) for i in range(1, len(seen) + 1)] and "Next step" not in html
    assert "because red is the start player" in html and "BAT-2" in html
    guest = Client().get(f"/de/t/{table.code}/").content.decode()
    assert f'data-step="{seen[-1]}"' in guest and "weil Rot Startspieler ist" in guest
    assert "Treasure card" not in guest and "eine Schatzkarte" in guest  # faces never shown


def test_the_start_form_asks_each_seats_colour(client):
    refused = client.post("/en/teach/", {"players": "3", "seats": ["red", "red", "blue", "white"]})
    assert refused.status_code == 422 and "Each seat needs its own colour" in refused.content.decode()
    assert re.search(r'<option value="red" selected>', refused.content.decode())
    table = _start(client, players="2", seats=["green", "white", "red", "blue"])
    assert table.options["seats"] == ["green", "white"]
