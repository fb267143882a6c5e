"""No request body makes the API fail: bad text, wrong media types, any JSON at all; and the
schema agrees with the server where it used to disagree."""

from __future__ import annotations

import json
import re

import jsonschema
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from api_helpers import BASE, post_json, problems_of
from profiles import examples
from tutorials.api.endpoints import api
from tutorials.models import SavedPosition

pytestmark = pytest.mark.django_db

ENDPOINTS = ("/api/v1/solve", "/api/v1/positions")
GOOD_CASE = {**BASE, "board": ["11:r1 12:b2"]}


# --- text that is not Unicode ------------------------------------------------------------------
@pytest.mark.parametrize("body,field", [
    ('{"\\ud800": 1}', ""),                                     # a key
    ('{"players": ["red", "\\udfff"], "start_player": "red", "board": ["11"]}', "players[1]"),
    ('{"players": ["red", "blue"], "start_player": "red", "board": ["11"], '
     '"rules": {"\\ud800": 1}}', "rules"),                      # a key inside rules
    ('{"players": ["red", "blue"], "start_player": "red", "board": ["11"], '
     '"rules": {"mode": "\\ud800"}}', "rules.mode"),            # a value inside rules
])
def test_lone_surrogates_are_refused_with_where(client, body, field):
    response = post_json(client, "/api/v1/solve", body, HTTP_ACCEPT_LANGUAGE="de")
    [problem] = problems_of(response)
    assert problem["code"] == "bad-text" and problem["field"] == field
    assert "\\ud800" in problem["message"] and "Unicode" in problem["message"]
    response.content.decode("utf-8")  # the answer itself is valid UTF-8


def test_a_lone_surrogate_is_said_to_be_in_a_key_or_in_a_text(client):
    in_text = problems_of(post_json(client, "/api/v1/solve", '{"players": ["red", "\\udfff"], '
                                    '"start_player": "red", "board": ["11"]}'))[0]["message"]
    in_key = problems_of(post_json(client, "/api/v1/solve", '{"\\ud800": 1}'))[0]["message"]
    assert in_text.startswith("Text in players[1] holds a lone surrogate"), in_text
    assert in_key.startswith("A key of the request body holds a lone surrogate"), in_key


def test_lone_surrogates_in_a_saved_title_or_notation(client):
    for body, field in (('{"notation": "Rb_11\\ud800"}', "notation"),
                        ('{"notation": "Rb_11.12", "title": "x\\ud800"}', "title")):
        [problem] = problems_of(post_json(client, "/api/v1/positions", body))
        assert problem["code"] == "bad-text" and problem["field"] == field
        assert problem["message"].startswith(f"Text in {field} holds a lone surrogate"), problem
    assert not SavedPosition.objects.exists()


@pytest.mark.parametrize("endpoint", ENDPOINTS)
def test_a_body_nested_too_deeply_is_said_so(client, endpoint):
    deep = "[" * 20_000 + "]" * 20_000
    for body in (deep, '{"notation": "Rb_11", "title": ' + deep + "}"):
        response = post_json(client, endpoint, body, HTTP_ACCEPT_LANGUAGE="de")
        [problem] = problems_of(response)
        assert problem["code"] == "too-deep", problem
        assert "zu tief" in problem["message"] and "?" not in problem["message"], problem


# any text, with lone surrogates (not Unicode, but valid as JSON escapes) turning up often
# (built from a list: st.text leaves surrogates out whatever its alphabet)
_TEXT = st.lists(st.characters() | st.sampled_from(["\ud800", "\udfff"]), max_size=8).map("".join)
_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | _TEXT,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(_TEXT, inner, max_size=4)
    | st.fixed_dictionaries({"players": inner, "start_player": inner, "board": inner},
                            optional={"rules": inner, "deck": inner, "won": inner, "notation": inner,
                                      "title": inner}),
    max_leaves=12)
_JSON = _VALUES | st.dictionaries(_TEXT, _VALUES, min_size=1, max_size=4)


@settings(max_examples=examples(150), suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(body=_JSON, endpoint=st.sampled_from(ENDPOINTS))
def test_no_json_body_gives_a_server_error(client, body, endpoint):
    response = post_json(client, endpoint, json.dumps(body))  # ensure_ascii: surrogates as \udXXX
    assert response.status_code in (200, 201, 422, 429), response.content[:300]
    assert response["Content-Type"].startswith("application/json")
    json.loads(response.content.decode("utf-8"))


@settings(max_examples=examples(100), suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(body=st.binary(max_size=64), endpoint=st.sampled_from(ENDPOINTS))
def test_no_bytes_give_a_server_error(client, body, endpoint):
    response = post_json(client, endpoint, body)
    assert response.status_code == 422, response.content[:300]
    json.loads(response.content.decode("utf-8"))


# --- media types ---------------------------------------------------------------------------------
@pytest.mark.parametrize("content_type", [
    "text/plain",                            # what a cross-site <form enctype="text/plain"> sends
    "application/x-www-form-urlencoded",
    "multipart/form-data; boundary=x",
    "application/json; charset=latin-1",
    "",
])
@pytest.mark.parametrize("endpoint", ENDPOINTS)
def test_bodies_must_be_declared_json(client, endpoint, content_type):
    body = json.dumps({"notation": "Rb_11r1.12b2"} if endpoint.endswith("positions") else GOOD_CASE)
    response = client.post(endpoint, data=body, content_type=content_type, HTTP_ACCEPT_LANGUAGE="ja")
    [problem] = problems_of(response, status=415)
    assert problem["code"] == "unsupported-media-type"
    assert "application/json" in problem["message"] and re.search(r"[\u3040-\u30ff]", problem["message"])
    assert not SavedPosition.objects.exists()


def test_json_with_utf8_charset_is_fine(client):
    response = client.post("/api/v1/positions", data=json.dumps({"notation": "Rb_11r1.12b2"}),
                           content_type="application/json; charset=UTF-8")
    assert response.status_code == 201


# --- the schema says what the server does ---------------------------------------------------
def _schema():
    return api.get_openapi_schema()


def _param_pattern() -> str:
    [param] = _schema()["paths"]["/api/v1/positions/{code}"]["get"]["parameters"]
    return param["schema"]["pattern"]


def _case_schema():
    body = _schema()["paths"]["/api/v1/solve"]["post"]["requestBody"]["content"]["application/json"]
    return body["schema"]


def _valid(schema, value) -> bool:
    return jsonschema.Draft202012Validator(schema).is_valid(value)


@pytest.mark.parametrize("code,status", [("0", 422), ("", 404), ("Rb_", 422), ("k3m9xqa", 404),
                                         ("Rb_11r1.12b2", 200)])
def test_position_codes_the_schema_allows_are_read_or_not_found(client, code, status):
    """A segment the schema refuses is refused by the server; one it allows is read, or
    (a short code nobody saved) not found."""
    matches = re.fullmatch(_param_pattern(), code) is not None
    response = client.get(f"/api/v1/positions/{code}")
    assert response.status_code == status
    assert matches == (status in (200, 404)) or code == ""  # "" never reaches the route


def test_an_empty_notation_is_not_schema_valid_and_refused(client):
    schema = _schema()["components"]["schemas"]["PositionIn"]
    assert not _valid(schema, {"notation": ""})
    assert _valid(schema, {"notation": "Rb_11r1.12b2"})
    problems_of(post_json(client, "/api/v1/positions", {"notation": ""}))


def test_won_null_is_schema_valid_and_accepted(client):
    case = {**GOOD_CASE, "won": None}
    assert _valid(_case_schema(), case)
    assert post_json(client, "/api/v1/solve", case).status_code == 200


@pytest.mark.parametrize("won", [{"purple": []}, {"red": ["77"]}, {"red": "11"}])
def test_won_keys_and_cards_the_schema_refuses_are_refused(client, won):
    case = {**GOOD_CASE, "won": won}
    assert not _valid(_case_schema(), case)
    problems_of(post_json(client, "/api/v1/solve", case))


def test_unknown_keys_are_schema_invalid_and_refused_descriptive_ones_pass(client):
    assert not _valid(_case_schema(), {**GOOD_CASE, "colour": "red"})
    problems_of(post_json(client, "/api/v1/solve", {**GOOD_CASE, "colour": "red"}))
    described = {**GOOD_CASE, "id": "x", "question": "?", "expect": {"anything": 1}}
    assert _valid(_case_schema(), described)
    assert post_json(client, "/api/v1/solve", described).status_code == 200
