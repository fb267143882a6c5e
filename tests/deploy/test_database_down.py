"""The database unreachable under a running production server: what needs it answers the
site's 500 page in the reader's language (hashed static files and all) or, under /api/,
the problem JSON; what does not need it goes on. The 500 page itself needs no database."""

from __future__ import annotations

import json
import re

import pytest
from harness import free_port, serve


@pytest.fixture(scope="module")
def server(bare_release):
    nowhere = f"postgres://captain@127.0.0.1:{free_port()}/captain"  # nothing listens there
    with serve(bare_release, workers=1, name="database-down", env={"DATABASE_URL": nowhere}) as running:
        yield running


def test_pages_that_need_the_database_answer_the_500_page(server):
    status, headers, body = server.get("/p/k3m9xqa/", headers={"Accept-Language": "de"})
    assert status == 500, body[:500]
    page = body.decode()
    assert headers["Content-Language"] == "de" and '<html lang="de">' in page
    assert "Etwas ist schiefgegangen" in page and 'class="site-header"' in page
    assert headers["Problem-Code"] == "server-error" and "Content-Security-Policy" in headers
    stylesheet = re.search(r'href="(/static/css/site\.[0-9a-f]{12}\.css)"', page)
    assert stylesheet, "the 500 page does not link the hashed stylesheet"
    assert server.get(stylesheet[1])[0] == 200
    status, _headers, body = server.get("/ja/teach/join/?code=abcde")
    assert status == 500 and "問題が発生しました" in body.decode()


def test_the_api_answers_its_problem_json(server):
    status, headers, body = server.get("/api/v1/positions/k3m9xqa", headers={"Accept-Language": "ja"})
    assert status == 500, body[:500]
    assert headers["Content-Type"].startswith("application/json")
    problem = json.loads(body)["detail"][0]
    assert problem["code"] == "server-error" and re.search(r"[\u3040-\u30ff]", problem["message"])


def test_what_needs_no_database_goes_on(server):
    assert server.get("/en/tutorial/")[0] == 200
    status, _headers, body = server.get("/api/v1/positions/Rb_11r1.12b2")
    assert status == 200 and json.loads(body)["notation"] == "Rb_11r1.12b2"
    # a page that needs the database fails, and the failure is logged with its traceback
    # (asked here too: the tests run in any order)
    start = server.log_size()
    assert server.get("/p/k3m9xqa/")[0] == 500
    log = server.log_since(start)
    assert "Internal Server Error: /p/k3m9xqa/" in log
