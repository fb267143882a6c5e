"""Analyzer views: every question type, edits, refusals, notation links, saving."""

from __future__ import annotations

import json
import re
from urllib.parse import parse_qs, urlsplit

import pytest

from analyzer_helpers import analyzer_error, pos_after
from captain.rules import situation_from_json
from conformance import CASE_FILES
from tutorials.models import SavedPosition

EX_BATTLE = "Rbg_11.13r3.22.14-15.16b1.23.24r2-26.33.34g1.35-36g0.44.45.46"
HTMX = {"HTTP_HX_REQUEST": "true"}


_pos = pos_after
_error = analyzer_error


@pytest.mark.django_db
@pytest.mark.parametrize("lang", ["ja", "en", "de"])
def test_default_page_renders(client, lang):
    response = client.get(f"/{lang}/analyze/")
    assert response.status_code == 200
    assert f'<html lang="{lang}">' in response.content.decode()


@pytest.mark.django_db
@pytest.mark.parametrize("case", CASE_FILES, ids=lambda p: p.stem)
def test_shared_case_through_the_analyzer(client, case):
    """Every shared case, opened from its notation, shows the expected answer."""
    data = json.loads(case.read_text())
    code = situation_from_json(data).to_notation()
    expect = data["expect"]
    response = client.get("/en/analyze/", {"pos": code, "view": "explain", "step": "999"})
    assert response.status_code == 200
    html = response.content.decode()
    if "bell" in expect:
        assert ('bell-status yes' in html) == expect["bell"]
    if "treasure" in expect:
        for colour, positions in expect["treasure"].items():
            row = re.search(rf'data-colour="{colour}"><th[^>]*>.*?</th><td>(.*?)</td>', html, re.S)
            assert row, colour
            assert row.group(1).startswith(str(len(positions))), (colour, row.group(1))
    if expect.get("game_over"):
        table = html[html.index('data-testid="standings"'):]
        first = re.search(r"<tbody><tr><th scope=\"row\">(\w+)</th><td>(\d+)</td>", table)
        assert first and first.group(1) == expect["standings"][0]["player"]
        assert int(first.group(2)) == expect["standings"][0]["cards"]


@pytest.mark.django_db
def test_edit_places_card_and_pushes_url(client):
    response = client.get("/de/analyze/edit/", {"pos": EX_BATTLE, "tool": "b5", "op": "put",
                                                "arg": "0-0"}, **HTMX)
    assert response.status_code == 200
    assert _pos(response).startswith("Rbg_11b5.13r3")
    assert (response.get("HX-Push-Url") or response["HX-Replace-Url"]).startswith("/de/analyze/?pos=")
    assert "<html" not in response.content.decode()
    # the language switcher in the fragment (out of band) points at the new position
    assert 'hx-swap-oob="true"' in response.content.decode()
    assert "/ja/analyze/?pos=Rbg_11b5" in response.content.decode()


@pytest.mark.django_db
def test_edit_without_javascript_redirects(client):
    response = client.get("/en/analyze/edit/", {"pos": EX_BATTLE, "tool": "b5", "op": "put", "arg": "0-0"})
    assert response.status_code == 302 and _pos(response).startswith("Rbg_11b5")


@pytest.mark.django_db
@pytest.mark.parametrize("tool,arg,words", [
    ("b1", "0-0", "already has its Boarding Melee"),
    ("w5", "0-0", "not playing"),
    ("R", "0-0", "Dice and attack cards"),
])
def test_refused_edits_keep_position_and_say_why(client, tool, arg, words):
    response = client.get("/en/analyze/edit/", {"pos": EX_BATTLE, "tool": tool, "op": "put", "arg": arg},
                          **HTMX)
    assert response.status_code == 422
    assert words in _error(response)
    assert _pos(response) == EX_BATTLE


@pytest.mark.django_db
def test_refusal_in_german(client):
    response = client.get("/de/analyze/edit/", {"pos": EX_BATTLE, "tool": "b1", "op": "put", "arg": "0-0"},
                          **HTMX)
    assert "Enterkampf" in _error(response)


@pytest.mark.django_db
def test_seats_start_rules_shape_deck_won(client):
    pos = EX_BATTLE
    steps = [({"op": "start", "arg": "b"}, "rBg_"), ({"op": "seat", "arg": "w"}, "rBgw_"),
             ({"op": "seat", "arg": "w"}, "rBg_"), ({"op": "rule", "arg": "v1"}, "_rv1"),
             ({"op": "deck", "deck": "5"}, "_d5"), ({"op": "won", "won": "r11.b22"}, "_wr11.b22"),
             ({"op": "shape", "arg": "3x3"}, "-26.33.34g1_")]
    for params, fragment in steps:
        response = client.get("/en/analyze/edit/", {"pos": pos, "tool": "r5", **params}, **HTMX)
        new = _pos(response)
        assert fragment in new, (params, new, _error(response))
        pos = new


@pytest.mark.django_db
def test_unseating_removes_that_colours_cards(client):
    response = client.get("/en/analyze/edit/", {"pos": EX_BATTLE, "op": "seat", "arg": "g"}, **HTMX)
    new = _pos(response)
    assert new.startswith("Rb_") and "g1" not in new and "g0" not in new


@pytest.mark.django_db
def test_unreadable_notation_names_the_character(client):
    response = client.get("/en/analyze/", {"pos": "Rbg_11.1"})
    assert response.status_code == 422  # as the PDF and the API refuse it
    assert "character 9" in _error(response)


@pytest.mark.django_db
def test_explain_steps_cover_battle_and_treasure(client):
    html = client.get("/en/analyze/", {"pos": EX_BATTLE, "view": "explain", "step": "2"}).content.decode()
    assert "acting" in html and "in-range" in html and "hit" in html
    assert "BAT-4" in html
    html = client.get("/en/analyze/", {"pos": EX_BATTLE, "view": "explain", "step": "99"}).content.decode()
    assert "before its turn" in html and "TRE-1" in html


@pytest.mark.django_db
def test_reading_note_when_int1_decides(client):
    pos = "rB_11.12.13.14-15r5.16b0.22.23r5-24.25.26.33-34.35.36.44"
    html = client.get("/en/analyze/", {"pos": pos}).content.decode()
    assert "interpretation-box" in html and "INT-1" in html


def _what_if_page(client, pos: str) -> str:
    """The analyzer page of ``pos`` with its what-if panel, reached as a reader without
    JavaScript does: the page names the panel's address and the link opens it."""
    html = client.get("/en/analyze/", {"pos": pos}).content.decode()
    link = re.search(r'<section class="panel" id="what-ifs"[^>]*>.*?<a href="([^"]+)"', html, re.S)[1]
    return client.get(link.replace("&amp;", "&")).content.decode()


@pytest.mark.django_db
def test_what_if_panel_comes_after_the_answer(client):
    """The page answers first; htmx fetches the what-ifs once it is shown."""
    html = client.get("/en/analyze/", {"pos": EX_BATTLE}).content.decode()
    section = re.search(r'<section class="panel" id="what-ifs"([^>]*)>', html)[1]
    assert 'hx-trigger="load"' in section and "/en/analyze/what-if/?pos=" in section
    assert "Green as start player" not in html
    url = re.search(r'hx-get="([^"]+)"', section)[1].replace("&amp;", "&")
    fragment = client.get(url, HTTP_HX_REQUEST="true").content.decode()
    assert fragment.lstrip().startswith('<section class="panel" id="what-ifs"')
    assert "Green as start player" in fragment and "<html" not in fragment
    assert "hx-trigger" not in fragment  # loaded once, not again and again


@pytest.mark.django_db
def test_what_if_panel_absent_without_cards_or_dice(client):
    html = client.get("/en/analyze/", {"pos": "Rb_11.12.13-14.15.16-22.23.24"}).content.decode()
    assert 'data-testid="analyzer-error"' not in html and 'class="grid-wrap"' in html
    assert 'id="what-ifs"' not in html


@pytest.mark.django_db
def test_what_if_lists_changes(client):
    html = _what_if_page(client, EX_BATTLE)
    assert "Green as start player" in html
    assert "green: 1 → 2 cards" in html


@pytest.mark.django_db
def test_save_gives_short_link_that_opens_in_viewers_language(client):
    response = client.post("/en/analyze/save/", {"pos": EX_BATTLE, "title": "Battle"})
    assert response.status_code == 302 and response["Location"].endswith("#saved")
    code = parse_qs(urlsplit(response["Location"]).query)["saved"][0]
    saved = SavedPosition.objects.get(code=code)
    assert saved.notation == EX_BATTLE and saved.title == "Battle"
    page = client.get(response["Location"]).content.decode()
    assert f"/p/{code}/" in page
    short = client.get(f"/p/{code}/", HTTP_ACCEPT_LANGUAGE="de")
    assert short.status_code == 302 and short["Location"].startswith("/de/analyze/?pos=")
    opened = client.get(short["Location"]).content.decode()
    # the saved title greets the visitor, isolated in <bdi>
    assert "„<bdi>Battle</bdi>“" in opened or "“<bdi>Battle</bdi>”" in opened
    assert f"/p/{code}/" in opened


@pytest.mark.django_db
def test_save_refuses_bad_position(client):
    response = client.post("/en/analyze/save/", {"pos": "Rb_11r5.12r5.13r5"})
    assert response.status_code == 422
    assert SavedPosition.objects.count() == 0


@pytest.mark.django_db
def test_save_needs_csrf_token():
    from django.test import Client

    response = Client(enforce_csrf_checks=True).post("/en/analyze/save/", {"pos": EX_BATTLE})
    assert response.status_code == 403


@pytest.mark.django_db
def test_what_if_offers_card_changes_that_swing_the_treasure(client):
    html = _what_if_page(client, EX_BATTLE)
    assert "Blue [0] Hostage Gambit at B2 instead of [1]" in html
    # following it gives exactly that position
    link = re.search(r'href="([^"]*op=whatif[^"]*)"[^>]*>Blue \[0\] Hostage Gambit at B2', html).group(1)
    response = client.get(link.replace("&amp;", "&"))
    assert _pos(response).startswith("Rbg_11.13r3.22.14-15.16b0.")
