"""Bad input to the API: one 422 shape for every source of error, in the reader's language."""

from __future__ import annotations

import re
from unittest import mock

import pytest
from django.utils import translation

from api_helpers import BASE, post_json, problems_of
from captain.rules import RulesError, situation_from_json
from conformance import CASE_FILES
from tutorials.api.middleware import API_MAX_BODY
from tutorials.wording.problems import describe

pytestmark = pytest.mark.django_db

CJK = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")

#: Each kind of invalid input listed in tests/cases/README.md:
#: (board, expected code, expected board position or None, expected clause or None)
INVALID_BOARDS = {
    "colour-not-seated": (["11:g1 22"], "colour-not-seated", [0, 0], "SETUP-1"),
    "attack-value-outside-0-5": (["11:r7 22"], "bad-attack-value", [0, 0], "SETUP-1"),
    "second-boarding-melee": (["11:r1 22:r1"], "too-many-cards", [0, 1], "SETUP-1"),
    "third-scout-ship-of-two-players": (["11:r5 12:r5 13:r5"], "too-many-cards", [0, 2],
                                        "SETUP-4"),
    "occupant-without-treasure": (["--:r1 22"], "occupant-without-treasure", [0, 0], "DICE-2"),
    "dice-without-treasure": (["22 --:B"], "occupant-without-treasure", [0, 1], "DICE-2"),
    "two-occupants": (["11:R:r1 22"], "two-occupants", [0, 0], "DICE-2"),
    "die-face-outside-1-6": (["11 27"], "bad-faces", [0, 1], "SETUP-2"),
    "third-copy-of-a-treasure": (["11 11", "11 22"], "too-many-copies", [1, 0], "SETUP-2"),
}


@pytest.mark.parametrize("board,code,position,clause", INVALID_BOARDS.values(),
                         ids=INVALID_BOARDS.keys())
def test_each_invalid_kind_is_422_with_code_and_position(client, board, code, position, clause):
    case = {**BASE, "board": board}
    with pytest.raises(RulesError):  # the engine is the judge; the API only reports it
        situation_from_json(case)
    [problem] = problems_of(post_json(client, "/api/v1/solve", case))
    assert problem["code"] == code
    assert problem["position"] == position
    assert problem["clause"] == clause
    if position is not None:
        assert problem["field"] == "board"


def test_the_message_is_the_engine_error_worded_by_describe(client):
    case = {**BASE, "board": ["11:g1 22"]}
    with pytest.raises(RulesError) as info:
        situation_from_json(case)
    with translation.override("en"):
        expected = describe(info.value)
    [problem] = problems_of(post_json(client, "/api/v1/solve", case, HTTP_ACCEPT_LANGUAGE="en"))
    assert problem["message"] == expected


@pytest.mark.parametrize("body,line,column", [
    ('{"players": ["red", "blue"],', 1, 29),
    ('{\n  "players": ["red" "blue"]\n}', 2, 21),
    ("{'players': []}", 1, 2),
])
def test_malformed_json_is_422_bad_json_with_line_and_column(client, body, line, column):
    for path in ("/api/v1/solve", "/api/v1/positions"):
        [problem] = problems_of(post_json(client, path, body, HTTP_ACCEPT_LANGUAGE="en"))
        assert problem["code"] == "bad-json"
        assert f"line {line}" in problem["message"] and f"column {column}" in problem["message"]


def test_empty_body(client):
    for path in ("/api/v1/solve", "/api/v1/positions"):
        [problem] = problems_of(post_json(client, path, ""))
        assert (problem["code"], problem["field"]) == ("empty-body", "")


def test_body_that_is_not_utf8(client):
    [problem] = problems_of(post_json(client, "/api/v1/solve", b'{"players": "\xff"}'))
    assert problem["code"] == "not-utf8"


def test_pathological_json_is_still_a_422(client):
    deep = "[" * 20_000 + "]" * 20_000  # deeper than the decoder's recursion limit
    [problem] = problems_of(post_json(client, "/api/v1/solve", deep))
    assert problem["code"] == "too-deep"
    huge_int = '{"players": ["red", "blue"], "start_player": "red", "board": ["11"], "deck": ' \
        + "9" * 5000 + "}"
    [problem] = problems_of(post_json(client, "/api/v1/solve", huge_int))
    assert problem["code"] == "bad-json"


WRONG = {
    "not-an-object": ([1, 2], "not-object", ""),
    "players-a-string": ({**BASE, "players": "red", "board": ["11"]}, "bad-players", "players"),
    "start-player-a-number": ({**BASE, "start_player": 3, "board": ["11"]}, "unknown-colour",
                              "start_player"),
    "board-a-number": ({**BASE, "board": 5}, "bad-board", "board"),
    "row-a-number": ({**BASE, "board": [5]}, "bad-row", "board[0]"),
    "deck-a-string": ({**BASE, "board": ["11"], "deck": "x"}, "bad-deck", "deck"),
    "deck-a-boolean": ({**BASE, "board": ["11"], "deck": True}, "bad-deck", "deck"),
    "rules-a-number": ({**BASE, "board": ["11"], "rules": 5}, "bad-rules", "rules"),
    "unknown-rule-value": ({**BASE, "board": ["11"], "rules": {"speed_order": "x"}}, "bad-rule",
                           "rules.speed_order"),
    "won-a-list": ({**BASE, "board": ["11"], "won": ["11"]}, "bad-won", "won"),
    "unknown-key": ({**BASE, "board": ["11"], "colour": "red"}, "unknown-key", "colour"),
    "missing-key": ({"players": ["red", "blue"], "board": ["11"]}, "missing-key",
                    "start_player"),
    "too-many-rows": ({**BASE, "board": ["11"] * 13}, "board-too-large", "board"),
}


@pytest.mark.parametrize("data,code,field", WRONG.values(), ids=WRONG.keys())
def test_wrong_types_and_keys_are_422_with_field(client, data, code, field):
    [problem] = problems_of(post_json(client, "/api/v1/solve", data))
    assert problem["code"] == code
    assert problem["field"] == field
    assert problem["position"] is None


SCHEMA = {
    "notation-a-number": ({"notation": 5}, {("bad-type", "notation")}),
    "unknown-key": ({"notation": "Rb_11", "colour": "red"}, {("unknown-key", "colour")}),
    "missing-notation": ({"title": "x"}, {("missing-key", "notation")}),
    "title-too-long": ({"notation": "Rb_11", "title": "x" * 121}, {("too-long", "title")}),
    "two-at-once": ({"notation": [], "extra": 1}, {("bad-type", "notation"),
                                                   ("unknown-key", "extra")}),
    "not-an-object": ([], {("not-object", "")}),
}


@pytest.mark.parametrize("data,expected", SCHEMA.values(), ids=SCHEMA.keys())
def test_ninja_schema_errors_come_out_in_the_same_shape(client, data, expected):
    problems = problems_of(post_json(client, "/api/v1/positions", data))
    assert {(p["code"], p["field"]) for p in problems} == expected


def test_title_of_120_characters_is_fine(client):
    response = post_json(client, "/api/v1/positions", {"notation": "Rb_11", "title": "x" * 120})
    assert response.status_code == 201


@pytest.mark.parametrize("path,data", [
    ("/api/v1/solve", {**BASE, "board": ["11:g1 22"]}),
    ("/api/v1/positions", {"notation": "Rb_11g1.22"}),
])
def test_message_language_follows_accept_language(client, path, data):
    """ja and de catalogs translate the engine's errors (locale/); codes never change."""
    answers = {}
    for lang in ("en", "ja", "de"):
        response = post_json(client, path, data, HTTP_ACCEPT_LANGUAGE=f"{lang},en;q=0.5")
        [problem] = problems_of(response)
        assert response["Content-Language"] == lang
        answers[lang] = problem
    assert {p["code"] for p in answers.values()} == {"colour-not-seated"}
    assert {tuple(p["position"]) for p in answers.values()} == {(0, 0)}
    assert not CJK.search(answers["en"]["message"])
    assert CJK.search(answers["ja"]["message"]) and "緑" in answers["ja"]["message"]
    assert answers["de"]["message"] != answers["en"]["message"]
    assert "spielt" in answers["de"]["message"]


def test_notation_error_offsets_and_language(client):
    en = problems_of(client.get("/api/v1/positions/Rbg_11.1", HTTP_ACCEPT_LANGUAGE="en"))[0]
    ja = problems_of(client.get("/api/v1/positions/Rbg_11.1", HTTP_ACCEPT_LANGUAGE="ja"))[0]
    assert en["code"] == ja["code"] == "bad-notation"
    assert en["offset"] == ja["offset"] == 8
    assert en["field"] == "code"
    assert CJK.search(ja["message"]) and en["message"] != ja["message"]


# --- size limit -------------------------------------------------------------------


def test_oversized_body_is_413_before_any_work(client):
    padding = " " * (100 * 1024)
    body = CASE_FILES[0].read_text(encoding="utf-8") + padding
    with mock.patch("tutorials.api.endpoints.decode_json") as decode, \
            mock.patch("tutorials.api.endpoints.situation_from_json") as read, \
            mock.patch("tutorials.api.endpoints.solve") as engine:
        response = post_json(client, "/api/v1/solve", body, HTTP_ACCEPT_LANGUAGE="de")
        [problem] = problems_of(response, status=413)
        assert problem["code"] == "too-large"
        assert response["Content-Language"] == "de"
        for path in ("/api/v1/positions", "/api/v1/solve"):
            problems_of(post_json(client, path, body), status=413)
    decode.assert_not_called()
    read.assert_not_called()
    engine.assert_not_called()


def test_body_of_exactly_the_limit_is_answered(client):
    text = CASE_FILES[0].read_text(encoding="utf-8")
    body = text + " " * (API_MAX_BODY - len(text.encode()))
    assert len(body.encode()) == API_MAX_BODY
    assert post_json(client, "/api/v1/solve", body).status_code == 200
    assert post_json(client, "/api/v1/solve", body + " ").status_code == 413


def test_limit_applies_only_to_the_api(client, settings):
    """Other pages keep Django's own limit (DATA_UPLOAD_MAX_MEMORY_SIZE), not this 413."""
    assert settings.DATA_UPLOAD_MAX_MEMORY_SIZE == API_MAX_BODY
    response = client.post("/p/nosuchcode/", data=b"x" * (API_MAX_BODY + 1),
                           content_type="application/octet-stream")
    assert response.status_code != 413
