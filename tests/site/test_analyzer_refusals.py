"""The analyzer keeps what the user typed and did: refused input says why beside its field,
Undo works without JavaScript, removing a player says what goes with them, the "cards won
earlier" field reads the usual spellings, and every control has a stable focus key."""

from __future__ import annotations

import html as html_lib
import re
from collections import Counter
from urllib.parse import parse_qs, urlsplit

import pytest

from analyzer_helpers import analyzer_error, pos_after

EX_BATTLE = "Rbg_11.13r3.22.14-15.16b1.23.24r2-26.33.34g1.35-36g0.44.45.46"
DICE = "Rbg_11R.12R.13B.14-15.16G.22.23-24.25.26.33-34.35.36.44"
HTMX = {"HTTP_HX_REQUEST": "true"}


def _html(response) -> str:
    return response.content.decode()


def _query(url: str) -> dict[str, str]:
    return {k: v[0] for k, v in parse_qs(urlsplit(html_lib.unescape(url)).query).items()}


def _input(page: str, name: str) -> str:
    """The ``<input name=…>`` tag of the page (the first one with that name)."""
    found = re.search(rf'<input[^>]*\bname="{name}"[^>]*>', page)
    assert found, f"no input {name!r}"
    return found.group(0)


def _attr(tag: str, attr: str) -> str | None:
    found = re.search(rf'\b{attr}="([^"]*)"', tag)
    return html_lib.unescape(found.group(1)) if found else None


def _by_id(page: str, element_id: str) -> str:
    """The text of the element with ``id`` (tags stripped)."""
    found = re.search(rf'<(\w+)[^>]*\bid="{element_id}"[^>]*>(.*?)</\1>', page, re.S)
    assert found, f"no element #{element_id}"
    return html_lib.unescape(re.sub(r"<[^>]+>", "", found.group(2))).strip()


def _says_why_beside(page: str, name: str, words: str) -> None:
    """The field ``name`` is marked invalid and described by an element that says ``words``."""
    tag = _input(page, name)
    assert _attr(tag, "aria-invalid") == "true", tag
    ids = (_attr(tag, "aria-describedby") or "").split()
    texts = [_by_id(page, i) for i in ids]
    assert any(words in t for t in texts), (tag, texts)


def _lang_links(page: str) -> dict[str, str]:
    nav = re.search(r'<nav class="lang-switch".*?</nav>', page, re.S).group(0)
    return {code: html_lib.unescape(url)
            for url, code in re.findall(r'<a href="([^"]*)" lang="(\w+)"', nav)}


# --- A: Undo without JavaScript -------------------------------------------------------------
def _undo_control(page: str) -> str:
    found = re.search(r'<(a|button)\b[^>]*data-action="undo"[^>]*>', page)
    assert found, "no undo control"
    return found.group(0)


@pytest.mark.django_db
def test_undo_is_a_link_to_the_previous_position_without_javascript(client):
    placed = client.get("/en/analyze/edit/", {"pos": EX_BATTLE, "tool": "b5", "op": "put", "arg": "0-0"})
    assert placed.status_code == 302
    page = _html(client.get(placed["Location"]))
    undo = _undo_control(page)
    assert undo.startswith("<a "), undo
    href = _attr(undo, "href")
    assert _query(href)["pos"] == EX_BATTLE and urlsplit(href).path == "/en/analyze/"
    back = client.get(html_lib.unescape(href))
    assert back.status_code == 200
    assert _attr(_input(_html(back), "pos"), "value") == EX_BATTLE


@pytest.mark.django_db
def test_choosing_a_tool_keeps_the_undo_target(client):
    placed = client.get("/en/analyze/edit/", {"pos": EX_BATTLE, "tool": "b5", "op": "put", "arg": "0-0"})
    page = _html(client.get(placed["Location"]))
    colour = re.search(r'<a [^>]*href="([^"]*op=colour&amp;arg=g[^"]*)"', page).group(1)
    chosen = client.get(html_lib.unescape(colour))
    assert chosen.status_code == 302
    undo = _undo_control(_html(client.get(chosen["Location"])))
    assert _query(_attr(undo, "href"))["pos"] == EX_BATTLE


@pytest.mark.django_db
def test_undo_does_nothing_visible_when_there_is_nothing_to_undo(client):
    undo = _undo_control(_html(client.get("/en/analyze/", {"pos": EX_BATTLE})))
    assert undo.startswith("<button") and "disabled" in undo


@pytest.mark.django_db
@pytest.mark.parametrize("prev", ["garbage", "Rb%01_11", "Rb_11r1.12b2" + "x"])
def test_undo_is_never_offered_to_a_position_that_cannot_be_read(client, prev):
    """An unreadable ``prev`` gives no Undo link (it would lead to an error page), and no
    link of the page carries it on."""
    page = _html(client.get("/en/analyze/", {"pos": EX_BATTLE, "prev": prev}))
    undo = _undo_control(page)
    assert undo.startswith("<button") and "disabled" in undo
    assert "prev=" not in page



# --- B: refused input keeps everything ------------------------------------------------------
@pytest.mark.django_db
@pytest.mark.parametrize("title,words", [("x" * 121, "120 characters"), ("a\x00b", "U+0000")])
def test_refused_title_keeps_board_title_and_says_why_beside_the_field(client, title, words):
    response = client.post("/en/analyze/save/", {"pos": EX_BATTLE, "title": title})
    assert response.status_code == 422
    page = _html(response)
    assert 'class="grid-wrap"' in page and page.count('class="cell') >= 16  # the board is there
    assert _attr(_input(page, "title"), "value") == title
    _says_why_beside(page, "title", words)
    assert _attr(_input(page, "pos"), "value") == EX_BATTLE


@pytest.mark.django_db
def test_refused_save_language_links_open_the_same_position(client):
    response = client.post("/de/analyze/save/", {"pos": EX_BATTLE, "title": "x" * 121})
    links = _lang_links(_html(response))
    assert set(links) == {"ja", "en", "de"}
    for code, url in links.items():
        assert urlsplit(url).path == f"/{code}/analyze/", url
        assert _query(url)["pos"] == EX_BATTLE
        opened = client.get(url, follow=True)  # (a language link may set the cookie first)
        assert opened.status_code == 200 and 'class="grid-wrap"' in _html(opened)


@pytest.mark.django_db
def test_refused_notation_in_save_keeps_what_was_typed(client):
    response = client.post("/en/analyze/save/", {"pos": "Rbg_11.1", "title": "Mine"})
    assert response.status_code == 422
    page = _html(response)
    _says_why_beside(page, "pos", "character 9")
    assert _attr(_input(page, "pos"), "value") == "Rbg_11.1"
    assert "/analyze/save/" not in "".join(_lang_links(page).values())


@pytest.mark.django_db
@pytest.mark.parametrize("htmx", [True, False], ids=["htmx", "no-js"])
@pytest.mark.parametrize("params,field,typed,words", [
    ({"op": "won", "won": "r11.q"}, "won", "r11.q", "character 5"),
    ({"op": "deck", "deck": "43"}, "deck", "43", "0 to 42"),
    ({"op": "shape", "arg": "7x7"}, "arg", "7x7", "from 1 to 6"),
])
def test_refused_fields_keep_what_was_typed_and_say_why_beside_it(client, htmx, params, field, typed,
                                                                   words):
    response = client.get("/en/analyze/edit/", {"pos": EX_BATTLE, "tool": "r5", **params},
                          **(HTMX if htmx else {}))
    assert response.status_code == 422
    page = _html(response)
    tag = _input(page, field)
    assert _attr(tag, "value") == typed
    _says_why_beside(page, field, words)
    assert words in analyzer_error(response)


@pytest.mark.django_db
def test_refused_seat_says_why_beside_the_seats(client):
    two = "Rb_11r5.12b5.13-14.15.16"
    response = client.get("/en/analyze/edit/", {"pos": two, "op": "seat", "arg": "b"}, **HTMX)
    page = _html(response)
    assert pos_after(response) == two
    seats = re.search(r'<section[^>]*aria-labelledby="seats-title".*?</section>', page, re.S).group(0)
    assert 'role="alert"' in seats or "field-error" in seats
    assert analyzer_error(response) and analyzer_error(response) in html_lib.unescape(seats)


@pytest.mark.django_db
def test_unreadable_position_text_keeps_it_and_says_why_beside_it(client):
    page = _html(client.get("/en/analyze/", {"pos": "Rbg_11.1"}))
    assert _attr(_input(page, "pos"), "value") == "Rbg_11.1"
    _says_why_beside(page, "pos", "character 9")


# --- C: removing a seated player ------------------------------------------------------------
def _seat_toggle(page: str, colour: str) -> str:
    found = re.search(rf'<a [^>]*data-focus-id="seat-{colour}-toggle"[^>]*>', page)
    assert found, f"no seat toggle for {colour}"
    return found.group(0)


def _description_of(page: str, tag: str) -> str:
    """What a control says beyond its name: its described-by texts and its tooltip."""
    ids = (_attr(tag, "aria-describedby") or "").split()
    return " ".join([_by_id(page, i) for i in ids] + [_attr(tag, "title") or ""])


@pytest.mark.django_db
@pytest.mark.parametrize("pos,colour,words", [
    (EX_BATTLE, "green", "2 attack cards"),
    (DICE, "red", "dice on 2 cards"),
    (DICE, "blue", "dice on 1 card"),
])
def test_remove_control_says_what_goes_with_the_player(client, pos, colour, words):
    page = _html(client.get("/en/analyze/", {"pos": pos}))
    said = _description_of(page, _seat_toggle(page, colour))
    assert words in said and colour in said.lower(), said


@pytest.mark.django_db
@pytest.mark.parametrize("htmx", [True, False], ids=["htmx", "no-js"])
def test_removing_a_player_says_what_left_and_offers_undo(client, htmx):
    response = client.get("/en/analyze/edit/", {"pos": EX_BATTLE, "op": "seat", "arg": "g"},
                          **(HTMX if htmx else {}))
    page = _html(response if htmx else client.get(response["Location"]))
    status = re.search(r'<[^>]*data-testid="seat-removed"[^>]*>(.*?)</p>', page, re.S)
    assert status, "no status message"
    assert 'role="status"' in status.group(0)
    text = html_lib.unescape(re.sub(r"<[^>]+>", "", status.group(1)))
    assert "Green left the table" in text and "2 attack cards" in text, text
    undo = re.search(r'<a [^>]*href="([^"]*)"[^>]*>[^<]*Undo', status.group(1))
    assert undo, status.group(1)
    assert _query(undo.group(1))["pos"] == EX_BATTLE
    # the next change is a new step: the message does not follow it
    later = client.get("/en/analyze/edit/",
                       {"pos": pos_after(response), "op": "put", "arg": "0-0", "tool": "r5"}, **HTMX)
    assert 'data-testid="seat-removed"' not in _html(later)


# --- D: forgiving "cards won earlier" -------------------------------------------------------
@pytest.mark.django_db
@pytest.mark.parametrize("typed,stored", [
    ("R1166", "r1166"), ("r21", "r12"), ("R2116.b43", "r1216.b34"), (" r11 ", "r11"),
    ("B22.r11", "r11.b22"), ("r11.B6655", "r11.b6655"), ("r11.B6556", "r11.b5656"),
])
def test_won_field_reads_case_and_face_order(client, typed, stored):
    response = client.get("/en/analyze/edit/", {"pos": EX_BATTLE, "op": "won", "won": typed}, **HTMX)
    assert not analyzer_error(response), analyzer_error(response)
    assert pos_after(response).endswith(f"_w{stored}")


@pytest.mark.django_db
@pytest.mark.parametrize("typed,words", [
    ("r11.q", "character 5"),          # not a colour letter
    ("r1", "character 3"),             # one face only
    ("w11", "character 1"),            # white is not seated
    ("r17", "character 3"),            # no face 7
    ("r11.r22", "character 5"),        # red twice
])
def test_won_field_says_what_and_where_on_bad_input(client, typed, words):
    response = client.get("/en/analyze/edit/", {"pos": EX_BATTLE, "op": "won", "won": typed}, **HTMX)
    assert words in analyzer_error(response), analyzer_error(response)
    page = _html(response)
    assert _attr(_input(page, "won"), "value") == typed
    _says_why_beside(page, "won", words)
    assert pos_after(response) == EX_BATTLE


@pytest.mark.django_db
@pytest.mark.parametrize("pos,letters", [
    (EX_BATTLE, "rb"), ("Gw_11.12-13.14", "gw"), ("bW_11.12-13.14", "bw"), ("Rgw_11.12-13.14", "rg"),
])
@pytest.mark.parametrize("lang", ["ja", "en", "de"])
def test_won_example_follows_the_seats_and_is_accepted(client, pos, letters, lang):
    page = _html(client.get(f"/{lang}/analyze/", {"pos": pos}))
    tag = _input(page, "won")
    example = _attr(tag, "placeholder")
    assert example and example[0] == letters[0] and f".{letters[1]}" in example, example
    helps = " ".join(_by_id(page, i) for i in (_attr(tag, "aria-describedby") or "").split())
    assert example in helps
    assert "r1166" not in helps or "r" in letters
    response = client.get(f"/{lang}/analyze/edit/", {"pos": pos, "op": "won", "won": example}, **HTMX)
    assert not analyzer_error(response), analyzer_error(response)


# --- F: stable focus keys ---------------------------------------------------------------------
@pytest.mark.django_db
@pytest.mark.parametrize("view", ["edit", "explain"])
def test_every_control_has_a_unique_focus_key(client, view):
    page = _html(client.get("/en/analyze/", {"pos": EX_BATTLE, "view": view, "step": "2"}))
    analyzer = page[page.index('id="analyzer"'):]
    keys = re.findall(r'data-focus-id="([^"]+)"', analyzer)
    assert not [k for k, n in Counter(keys).items() if n > 1]
    if view == "edit":
        for key in ("colour-r", "value-3", "tool-d", "tool-e", "tool-x", "undo", "faces-35", "shape-4x4",
                    "seat-red-toggle", "seat-blue-start", "rule-v1", "rule-i", "won-apply", "deck-apply"):
            assert key in keys, key
    else:
        for key in ("step-back", "back-to-edit", "step-1"):
            assert key in keys, key


@pytest.mark.parametrize("lang", ["en", "de", "ja"])
def test_an_edit_the_rules_refuse_cites_the_rule_beside_the_reason(client, lang):
    """A second Cannon of one colour breaks SETUP-1 (one card of each kind): the refusal
    links the clause; a refusal no rule makes (an unreadable field) links none."""
    second_cannon = {"pos": EX_BATTLE, "tool": "r3", "op": "put", "arg": "0-0"}
    refused = client.get(f"/{lang}/analyze/edit/", second_cannon)
    assert refused.status_code == 422 and analyzer_error(refused)
    shown = re.search(r'data-testid="analyzer-error">(.*?)</p>', _html(refused), re.S)[1]
    assert re.search(r'<a class="clause" href="[^"]*#SETUP-1"', shown), shown
    typo = client.get(f"/{lang}/analyze/edit/", {"pos": EX_BATTLE, "op": "won", "won": "r11.q"})
    assert typo.status_code == 422
    assert 'class="clause"' not in re.search(r'id="won-error"[^>]*>(.*?)</span>', _html(typo), re.S)[1]
