"""The database unreachable: every request that needs it answers 503 with ``Retry-After`` in
the reader's language (the wait page, or the API's problem JSON), the rest of the site goes
on, and the log says so once per outage instead of once per request.

"Unreachable" here is every query failing with the ``OperationalError`` Django raises for a
refused or lost connection (a wrapper on the connection); tests/deploy/test_database_down.py
and test_database_restart.py have a real PostgreSQL missing or stopped under gunicorn.
"""

from __future__ import annotations

import json
import logging
import re

import pytest
from django.db import InterfaceError, OperationalError, connection
from django.db.backends.signals import connection_created
from django.test import Client, RequestFactory

from tutorials.web import database
from tutorials.web.log_filters import HideDatabaseOutageRequests
from tutorials.web.server_error import server_error

pytestmark = pytest.mark.django_db

WAIT = {"ja": "少しお待ちください", "en": "Please wait a moment", "de": "Einen Moment bitte"}
JAPANESE = re.compile(r"[\u3040-\u30ff]")


@pytest.fixture(autouse=True)
def fresh_state():
    database.reset()
    yield
    database.reset()


def _refuse(execute, sql, params, many, context):
    raise OperationalError('connection to server at "127.0.0.1", port 5432 failed: Connection refused')


@pytest.fixture
def client() -> Client:
    return Client(raise_request_exception=False)


def _wait_page(response, lang: str) -> str:
    assert response.status_code == 503, response.content[:300]
    assert response["Retry-After"] == str(database.RETRY_AFTER)
    assert response["Content-Language"] == lang and response["Problem-Code"] == "unavailable"
    assert response["Cache-Control"] == "no-store"
    html = response.content.decode()
    assert f'<html lang="{lang}">' in html and f"<h1>{WAIT[lang]}</h1>" in html
    assert 'data-testid="wait-message"' in html and str(database.RETRY_AFTER) in html
    return html


@pytest.mark.parametrize("lang", ["ja", "en", "de"])
def test_pages_that_need_the_database_answer_503_in_their_language(client, lang):
    with connection.execute_wrapper(_refuse):
        _wait_page(client.get("/p/k3m9xqa/", headers={"Accept-Language": lang}), lang)
        _wait_page(client.get(f"/{lang}/play/k3m9xqa/"), lang)
        _wait_page(client.post(f"/{lang}/analyze/save/", {"pos": "Rb_11r1.12b2", "title": "x"}), lang)


@pytest.mark.parametrize("lang", ["ja", "en", "de"])
def test_the_api_answers_its_problem_json_with_retry_after(client, lang):
    with connection.execute_wrapper(_refuse):
        reads = client.get("/api/v1/positions/k3m9xqa", headers={"Accept-Language": lang})
        saves = client.post("/api/v1/positions", json.dumps({"notation": "Rb_11r1.12b2"}),
                            content_type="application/json", headers={"Accept-Language": lang})
    for response in (reads, saves):
        assert response.status_code == 503, response.content[:300]
        assert response["Retry-After"] == str(database.RETRY_AFTER)
        assert response["Content-Type"].startswith("application/json")
        assert response["Content-Language"] == lang
        body = response.json()
        [problem] = body["detail"]
        assert problem["code"] == "unavailable" and body["message"] == problem["message"]
        assert set(problem) == {"field", "position", "offset", "code", "clause", "message"}
        assert bool(JAPANESE.search(problem["message"])) == (lang == "ja")


def test_what_needs_no_database_goes_on(client):
    with connection.execute_wrapper(_refuse):
        assert client.get("/healthz").content == b"ok"
        assert client.get("/de/tutorial/").status_code == 200
        assert client.get("/en/analyze/?pos=Rb_11r1.12b2").status_code == 200
        response = client.get("/api/v1/positions/Rb_11r1.12b2")
        assert response.status_code == 200 and response.json()["notation"] == "Rb_11r1.12b2"
    assert not database.is_down()


def test_an_error_before_any_view_answers_503_too():
    """Raised by a middleware, the error reaches ``handler500`` instead of a view's handlers."""
    for error, path, lang in ((OperationalError("server closed the connection"), "/ja/play/", "ja"),
                              (InterfaceError("connection already closed"), "/de/teach/", "de")):
        try:
            raise error
        except type(error):
            response = server_error(RequestFactory().get(path))
        _wait_page(response, lang)
    try:
        raise OperationalError("the server is starting up")
    except OperationalError:
        response = server_error(RequestFactory().get("/api/v1/games/abc", HTTP_ACCEPT_LANGUAGE="en"))
    assert response.status_code == 503 and response["Retry-After"] == str(database.RETRY_AFTER)
    assert json.loads(response.content)["detail"][0]["code"] == "unavailable"


def test_one_line_when_the_outage_starts_one_when_it_ends_none_per_request(client, caplog):
    caplog.set_level(logging.INFO)
    with connection.execute_wrapper(_refuse):
        for _ in range(3):
            assert client.get("/p/k3m9xqa/").status_code == 503
            assert client.get("/api/v1/positions/k3m9xqa").status_code == 503
    started = [r for r in caplog.records if r.getMessage().startswith("database unreachable")]
    assert len(started) == 1 and "Connection refused" in started[0].getMessage()
    assert database.is_down()
    # Django's own line for each refused request is there, and the site's log leaves it out
    per_request = [r for r in caplog.records if r.name == "django.request"]
    assert len(per_request) == 6
    assert not any(HideDatabaseOutageRequests().filter(r) for r in per_request)
    assert "Traceback" not in caplog.text
    connection_created.send(sender=type(connection), connection=connection)  # connected again
    ended = [r for r in caplog.records if r.getMessage().startswith("database answers again")]
    assert len(ended) == 1 and "meanwhile 6 requests were answered 503" in ended[0].getMessage()
    assert not database.is_down()
    assert client.get("/p/k3m9xqa/").status_code == 404  # and the database is read again
    assert len([r for r in caplog.records if r.name == "tutorials.web.database"]) == 2


def test_other_failures_of_a_request_are_still_logged():
    failed = logging.LogRecord("django.request", logging.ERROR, __file__, 1, "Internal Server Error: %s",
                               ("/p/x/",), None)
    failed.request = RequestFactory().get("/p/x/")
    assert HideDatabaseOutageRequests().filter(failed)
