"""POST /api/v1/solve answers every conformance case exactly as the engine's CLI does."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from django.test import Client

from api_helpers import post_json
from captain.rules import situation_from_json
from captain.rules.notation import parse
from conformance import CASE_FILES, ROOT


def test_there_are_shared_cases():
    assert len(CASE_FILES) >= 12


@pytest.fixture(scope="module")
def cli_outcomes():
    """One CLI run over every case: one JSON line per file, in order."""
    proc = subprocess.run([sys.executable, "-m", "captain.rules", "solve", *map(str, CASE_FILES)],
                          cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert len(lines) == len(CASE_FILES)
    return {path.name: json.loads(line) for path, line in zip(CASE_FILES, lines, strict=True)}


@pytest.mark.django_db
@pytest.mark.parametrize("path", CASE_FILES, ids=[p.stem for p in CASE_FILES])
def test_case_through_api_matches_cli(client, cli_outcomes, path):
    text = path.read_text(encoding="utf-8")  # sent as is: id/source/question/expect included
    response = post_json(client, "/api/v1/solve", text)
    assert response.status_code == 200, response.content
    body = response.json()
    assert set(body) == {"outcome", "events", "notation"}
    assert body["outcome"] == cli_outcomes[path.name]
    assert body["events"], "every answer is explained"
    for event in body["events"]:
        assert isinstance(event["code"], str) and event["code"]
        assert isinstance(event["clause"], str) and event["clause"]
        assert isinstance(event["params"], dict)
    case = json.loads(text)
    assert parse(body["notation"]) == situation_from_json(case)


@pytest.mark.django_db
def test_posts_need_no_csrf_token():
    """A public JSON API: non-browser clients POST without cookies or tokens."""
    client = Client(enforce_csrf_checks=True)
    case = CASE_FILES[0].read_text(encoding="utf-8")
    assert post_json(client, "/api/v1/solve", case).status_code == 200
    saved = post_json(client, "/api/v1/positions", {"notation": "Rb_11r1.12-13b2.14"})
    assert saved.status_code == 201, saved.content


@pytest.mark.django_db
def test_trailing_slash_is_not_needed_and_get_is_not_allowed(client):
    response = client.get("/api/v1/solve")
    assert response.status_code == 405
