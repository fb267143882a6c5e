"""GET /api/v1/positions/{code} and POST /api/v1/positions: notation and saved short codes."""

from __future__ import annotations

import json
import re
from datetime import datetime

import pytest

from api_helpers import post_json, problems_of
from captain.rules import situation_from_json, situation_to_json
from captain.rules.notation import parse
from conformance import CASE_FILES
from tutorials.models import CODE_ALPHABET, SavedPosition

pytestmark = pytest.mark.django_db

NOTATIONS = [
    "Rbg_11.13r3.22.14-15.16b1.23.24r2-26.33.34g1.35-36g0.44.45.46",
    "rB_11R.12.x-15.16B.22_rv1s_d12_wr11.b1234",
    "Rb_11r1.12-13b2.14",
]


@pytest.mark.parametrize("notation", NOTATIONS)
def test_get_decodes_a_notation(client, notation):
    response = client.get(f"/api/v1/positions/{notation}")
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["notation"] == notation
    assert body["situation"] == situation_to_json(parse(notation))
    assert "saved" not in body or body["saved"] is None


@pytest.mark.parametrize("path", CASE_FILES, ids=[p.stem for p in CASE_FILES])
def test_every_case_round_trips_through_notation(client, path):
    case = json.loads(path.read_text(encoding="utf-8"))
    notation = post_json(client, "/api/v1/solve", case).json()["notation"]
    body = client.get(f"/api/v1/positions/{notation}").json()
    assert body["notation"] == notation
    assert situation_from_json(body["situation"]) == situation_from_json(case)


def test_post_saves_and_get_reads_the_saved_code(client):
    response = post_json(client, "/api/v1/positions",
                         {"notation": NOTATIONS[0], "title": "Kraken  – クラーケン"})
    assert response.status_code == 201, response.content
    saved = response.json()
    assert set(saved) == {"code", "url", "notation", "title"}
    code = saved["code"]
    assert set(code) <= set(CODE_ALPHABET)
    # the link to share carries its token (tutorials.web.link_tokens): 96 bits, url-safe
    assert re.fullmatch(rf"/p/{code}/\?k=[A-Za-z0-9_-]{{16}}", saved["url"])
    assert saved["notation"] == NOTATIONS[0]
    assert saved["title"] == "Kraken  – クラーケン"
    row = SavedPosition.objects.get(code=code)
    assert (row.notation, row.title) == (NOTATIONS[0], "Kraken  – クラーケン")

    body = client.get(f"/api/v1/positions/{code}").json()
    assert body["notation"] == NOTATIONS[0]
    assert body["situation"] == situation_to_json(parse(NOTATIONS[0]))
    assert body["saved"]["code"] == code
    assert body["saved"]["title"] == "Kraken  – クラーケン"
    assert datetime.fromisoformat(body["saved"]["created_at"]) == row.created_at


def test_post_stores_the_canonical_notation(client):
    response = post_json(client, "/api/v1/positions", {"notation": "Rb_11r1.12_d007"})
    assert response.status_code == 201
    assert response.json()["notation"] == "Rb_11r1.12_d7" == parse("Rb_11r1.12_d007").to_notation()


def test_saved_rows_cannot_be_altered(client):
    code = post_json(client, "/api/v1/positions", {"notation": NOTATIONS[2]}).json()["code"]
    row = SavedPosition.objects.get(code=code)
    row.notation = NOTATIONS[0]
    with pytest.raises(ValueError):
        row.save()
    assert SavedPosition.objects.get(code=code).notation == NOTATIONS[2]
    assert client.get(f"/api/v1/positions/{code}").json()["notation"] == NOTATIONS[2]


def test_there_is_no_way_to_change_or_delete_through_the_api(client):
    code = post_json(client, "/api/v1/positions", {"notation": NOTATIONS[2]}).json()["code"]
    for method in (client.put, client.patch, client.delete):
        assert method(f"/api/v1/positions/{code}").status_code == 405
    assert SavedPosition.objects.filter(code=code).count() == 1


def test_post_refuses_unreadable_and_illegal_notations(client):
    [problem] = problems_of(post_json(client, "/api/v1/positions", {"notation": "Rbg_11.1"}))
    assert (problem["code"], problem["field"], problem["offset"]) == ("bad-notation", "notation", 8)
    [problem] = problems_of(post_json(client, "/api/v1/positions", {"notation": "Rb_11g1.22"}))
    assert (problem["code"], problem["position"], problem["clause"]) == (
        "colour-not-seated", [0, 0], "SETUP-1")
    assert problems_of(post_json(client, "/api/v1/positions",
                                 {"notation": "R" * 2001}))[0]["code"] == "too-long"
    assert not SavedPosition.objects.exists()


def test_get_unknown_short_code_is_404_in_the_problem_shape(client):
    [problem] = problems_of(client.get("/api/v1/positions/k3m9xqa"), status=404)
    assert (problem["code"], problem["field"]) == ("not-found", "code")


@pytest.mark.parametrize("text,offset", [("Rbg_11.1", 8), ("RB_11", 1), ("Rb_11.", 6),
                                         ("Rb", 2), ("XYZ_11", 0)])
def test_get_unreadable_notation_is_422_with_offset(client, text, offset):
    [problem] = problems_of(client.get(f"/api/v1/positions/{text}"))
    assert (problem["code"], problem["field"], problem["offset"]) == ("bad-notation", "code",
                                                                      offset)


def test_get_notation_against_the_rules_is_422_with_position(client):
    [problem] = problems_of(client.get("/api/v1/positions/Rb_11g1.22"))
    assert (problem["code"], problem["position"]) == ("colour-not-seated", [0, 0])
