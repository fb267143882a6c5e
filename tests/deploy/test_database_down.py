"""The database unreachable under a running production server: what needs it answers 503
with ``Retry-After`` in the reader's language, the wait page (hashed static files and all)
or, under /api/, the problem JSON; what does not need it goes on. The log says so once, not
once per request. tests/deploy/test_database_restart.py stops a real PostgreSQL under load."""

from __future__ import annotations

import json
import re

import pytest

from harness import free_port, serve

WAIT = {"ja": "少しお待ちください", "en": "Please wait a moment", "de": "Einen Moment bitte"}


@pytest.fixture(scope="module")
def server(bare_release):
    nowhere = f"postgres://captain@127.0.0.1:{free_port()}/captain"  # nothing listens there
    with serve(bare_release, workers=1, name="database-down", env={"DATABASE_URL": nowhere}) as running:
        yield running


@pytest.mark.parametrize("lang", ["ja", "en", "de"])
def test_pages_that_need_the_database_answer_503_in_their_language(server, lang):
    asked = (("/p/k3m9xqa/", {"Accept-Language": lang}), (f"/{lang}/teach/join/?code=abcde", {}))
    for path, headers in asked:
        status, answer, body = server.get(path, headers=headers)
        assert status == 503, (path, body[:500])
        assert answer["Retry-After"] == "10" and answer["Cache-Control"] == "no-store"
        assert answer["Content-Language"] == lang and answer["Problem-Code"] == "unavailable"
        page = body.decode()
        assert f'<html lang="{lang}">' in page and f"<h1>{WAIT[lang]}</h1>" in page
        assert "Content-Security-Policy" in answer
        stylesheet = re.search(r'href="(/static/css/site\.[0-9a-f]{12}\.css)"', page)
        assert stylesheet, "the wait page does not link the hashed stylesheet"
        assert server.get(stylesheet[1])[0] == 200


@pytest.mark.parametrize("lang", ["ja", "en", "de"])
def test_the_api_answers_its_problem_json(server, lang):
    status, headers, body = server.get("/api/v1/positions/k3m9xqa", headers={"Accept-Language": lang})
    assert status == 503, body[:500]
    assert headers["Retry-After"] == "10" and headers["Content-Language"] == lang
    assert headers["Content-Type"].startswith("application/json")
    problem = json.loads(body)["detail"][0]
    assert problem["code"] == "unavailable"
    assert bool(re.search(r"[\u3040-\u30ff]", problem["message"])) == (lang == "ja")


def test_what_needs_no_database_goes_on_and_the_log_says_it_once(server):
    start = server.log_size()
    for _ in range(3):
        assert server.get("/p/k3m9xqa/")[0] == 503
        assert server.get("/api/v1/positions/k3m9xqa")[0] == 503
    assert server.get("/en/tutorial/")[0] == 200
    assert server.get("/healthz")[2] == b"ok"
    status, _headers, body = server.get("/api/v1/positions/Rb_11r1.12b2")
    assert status == 200 and json.loads(body)["notation"] == "Rb_11r1.12b2"
    log = server.log_since(start)
    # the outage began with the module's first request (the tests run in any order), so
    # these six add no line of their own: no traceback, no "Service Unavailable" per request
    assert "Traceback" not in log and "Service Unavailable" not in log, log
    assert server.log.read_text().count("database unreachable") == 1
