"""Bad input gets a clear refusal that says what and where — never a crash or a guess.

Cases found by an adversarial pass over the site; each once crashed or silently
changed the input.
"""

from __future__ import annotations

import re
from urllib.parse import parse_qs, urlsplit

import pytest

from analyzer_helpers import analyzer_error

EX_BATTLE = "Rbg_11.13r3.22.14-15.16b1.23.24r2-26.33.34g1.35-36g0.44.45.46"


_error = analyzer_error


@pytest.mark.django_db
@pytest.mark.parametrize("lang", ["ja", "en", "de"])
def test_board_wider_than_12_is_refused_not_a_crash(client, lang):
    response = client.get(f"/{lang}/analyze/", {"pos": "Rb_11r1." + ".".join(["x"] * 11) + ".12"})
    assert response.status_code == 422
    assert _error(response)
    response = client.get(f"/{lang}/analyze/position.pdf", {"pos": "Rb_11" + ".x" * 12})
    assert response.status_code == 422


@pytest.mark.django_db
def test_notation_errors_are_worded_in_the_page_language(client):
    ja = _error(client.get("/ja/analyze/", {"pos": "Rbg_11.1"}))
    de = _error(client.get("/de/analyze/", {"pos": "Rbg_11.1"}))
    assert "second die face" not in ja and "second die face" not in de
    assert "9" in ja and "9" in de


@pytest.mark.django_db
@pytest.mark.parametrize("query", ["battle=²", "battle=" + "9" * 5000, "battle=５", "dice=４r_x__",
                                   "quiz-battle=1_２３_", "sandwich=５r"])
def test_odd_digits_in_board_states_restart_the_board(client, query):
    slug = {"battle": "battle-time", "dice": "dice-time", "quiz-battle": "battle-time",
            "sandwich": "treasure-time"}[query.split("=")[0]]
    response = client.get(f"/en/tutorial/{slug}/?{query}")
    assert response.status_code == 200
    assert "could not be read" in response.content.decode()


@pytest.mark.django_db
@pytest.mark.parametrize("params,words", [
    ({"op": "put", "arg": "0-0", "tool": "t77"}, "Unknown tool"),
    ({"op": "put", "arg": "0-0", "tool": "zz"}, "Unknown tool"),
    ({"op": "put", "arg": "１-２", "tool": "r5"}, "position could not be read"),
    ({"op": "put", "arg": "", "tool": "r5"}, "position could not be read"),
    ({"op": "put", "arg": "9-9", "tool": "r5"}, "not on the board"),
    ({"op": "rule", "arg": "v9"}, "There is no rule switch “v9”"),
    ({"op": "value", "arg": "01"}, "values 0 to 5"),
    ({"op": "value", "arg": "9"}, "values 0 to 5"),
    ({"op": "colour", "arg": ""}, "Unknown colour"),
    ({"op": "seat", "arg": ""}, "Unknown colour"),
    ({"op": "shape", "arg": "0x0"}, "from 1 to 6"),
    ({"op": "shape", "arg": "3x"}, "from 1 to 6"),
    ({"op": "shape", "arg": "３x３"}, "from 1 to 6"),
    ({"op": "deck", "deck": "43"}, "0 to 42"),
    ({"op": "nonsense"}, "That change could not be read"),
    ({"op": ""}, "That change could not be read"),
])
def test_analyzer_edits_never_guess(client, params, words):
    response = client.get("/en/analyze/edit/", {"pos": EX_BATTLE, "tool": "r5", **params},
                          HTTP_HX_REQUEST="true")
    assert response.status_code == 422  # htmx swaps it (base.html's responseHandling)
    assert words in _error(response), _error(response)
    pushed = response.get("HX-Push-Url") or response["HX-Replace-Url"]
    assert parse_qs(urlsplit(pushed).query)["pos"][0] == EX_BATTLE


@pytest.mark.django_db
@pytest.mark.parametrize("typed", ["１２", "\u3000１２\u200b"])
def test_a_deck_count_typed_in_full_width_reads_as_every_typed_text(client, typed):
    response = client.get("/en/analyze/edit/", {"pos": EX_BATTLE, "op": "deck", "deck": typed},
                          HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    pushed = parse_qs(urlsplit(response["HX-Push-Url"]).query)["pos"][0]
    assert "_d12" in pushed, pushed


@pytest.mark.django_db
def test_clicks_on_a_tall_board_land_where_clicked(client):
    tall = "Rb_12-" + "-".join(["x"] * 9) + "-13"  # 11 rows; A11 holds 13
    response = client.get("/en/analyze/edit/", {"pos": tall, "tool": "r1", "op": "put", "arg": "10-0"},
                          HTTP_HX_REQUEST="true")
    new = parse_qs(urlsplit(response.get("HX-Push-Url") or response["HX-Replace-Url"]).query)["pos"][0]
    assert new.endswith("-13r1"), new


@pytest.mark.django_db
def test_won_error_counts_characters_in_what_the_user_typed(client):
    response = client.get("/en/analyze/edit/", {"pos": EX_BATTLE, "op": "won", "won": "r11.q"},
                          HTTP_HX_REQUEST="true")
    assert "character 5" in _error(response)


@pytest.mark.django_db
def test_save_refuses_long_or_control_character_titles(client):
    for title in ("x" * 121, "a\x00b"):
        response = client.post("/en/analyze/save/", {"pos": EX_BATTLE, "title": title})
        assert response.status_code == 422
        assert "120 characters" in _error(response)


@pytest.mark.django_db
def test_dice_board_refuses_unseated_practice_colour(client):
    response = client.get("/en/tutorial/dice-time/?dice=2g_x__")
    assert "could not be read" in response.content.decode()


@pytest.mark.django_db
@pytest.mark.parametrize("method,url,status,code", [
    ("get", "/api/v1/solve", 405, "method-not-allowed"),
    ("put", "/api/v1/positions", 405, "method-not-allowed"),
    ("get", "/api/v1/nothing", 404, "not-found"),
])
def test_api_routing_errors_are_json(client, method, url, status, code):
    response = getattr(client, method)(url, HTTP_ACCEPT_LANGUAGE="ja")
    assert response.status_code == status
    assert response["Content-Type"].startswith("application/json")
    body = response.json()
    assert body["detail"][0]["code"] == code
    assert re.search(r"[\u3040-\u30ff\u4e00-\u9fff]", body["message"])


@pytest.mark.django_db
def test_api_refuses_control_characters_in_title(client):
    response = client.post("/api/v1/positions", {"notation": "Rb_11", "title": "a\x00b"},
                           content_type="application/json")
    assert response.status_code == 422
    assert response.json()["detail"][0]["field"] == "title"


def test_cli_reports_deep_nesting_and_huge_numbers(tmp_path):
    import subprocess
    import sys

    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100000 + "]" * 100000)
    huge = tmp_path / "huge.json"
    huge.write_text('{"players": ["red", "blue"], "start_player": "red", "board": ["11"], "deck": '
                    + "9" * 5000 + "}")
    good = tmp_path / "good.json"
    good.write_text('{"players": ["red", "blue"], "start_player": "red", "board": ["11:r5"]}')
    proc = subprocess.run([sys.executable, "-m", "captain.rules", "solve", str(deep), str(huge), str(good)],
                          capture_output=True, text=True)
    assert proc.returncode == 1
    assert "Traceback" not in proc.stderr
    assert proc.stderr.count("error:") == 2
    assert '"survivors"' in proc.stdout
