"""A view that fails answers the site's 500 page in the reader's language, with the site's
header, the language switch and a way back; under /api/ the API's problem JSON, as every
other error status there. The page itself needs neither the database nor the shared cache.

The failing views are those of tests/site/failing_urls.py, a URL configuration only tests
load (``ROOT_URLCONF``).
"""

from __future__ import annotations

import json
import re
import socket

import pytest
from django.db import DatabaseError
from django.test import Client, RequestFactory

from tutorials.analyzer import short_links
from tutorials.web import server_error as server_error_module
from tutorials.web import shared_cache
from tutorials.web.server_error import server_error

TITLES = {"ja": "問題が発生しました", "en": "Something went wrong", "de": "Etwas ist schiefgegangen"}
JAPANESE = re.compile(r"[\u3040-\u30ff]")


@pytest.fixture
def failing(settings) -> Client:
    """A client of the site with the failing addresses, which answers 500s as a browser
    sees them (Django's test client would raise the view's exception instead)."""
    settings.ROOT_URLCONF = "failing_urls"
    return Client(raise_request_exception=False)


def _page_checks(response, lang: str) -> str:
    assert response.status_code == 500
    html = response.content.decode()
    assert f'<html lang="{lang}">' in html
    assert response["Content-Language"] == lang
    assert response["Content-Type"].startswith("text/html")
    assert response["Cache-Control"] == "no-store"
    assert response["Problem-Code"] == "server-error"
    assert "Content-Security-Policy" in response  # the site's headers, as on every page
    assert response["X-Frame-Options"] == "DENY"
    assert f"<title>{TITLES[lang]}" in html and f"<h1>{TITLES[lang]}</h1>" in html
    assert 'class="site-header"' in html and 'id="lang-switch"' in html
    assert 'data-testid="server-error"' in html
    return html


@pytest.mark.parametrize("lang", ["ja", "en", "de"])
def test_a_failing_page_answers_the_500_page_in_its_language(failing, lang):
    html = _page_checks(failing.get(f"/{lang}/fail/?x=1"), lang)
    assert f'href="/{lang}/fail/?x=1" data-testid="try-again"' in html  # the way back: once more
    assert f'href="/{lang}/tutorial/"' in html
    for other in {"ja", "en", "de"} - {lang}:  # the switch leads to the same page in the others
        assert f'href="/{other}/fail/?x=1&amp;language={other}"' in html
    assert "Traceback" not in html and "RuntimeError" not in html


def test_an_address_without_a_prefix_fails_in_the_readers_language(failing):
    _page_checks(failing.get("/p/fail/now/", headers={"Accept-Language": "de"}), "de")
    failing.cookies["captain_language"] = "ja"
    _page_checks(failing.get("/p/fail/now/"), "ja")


def test_a_failed_post_offers_no_try_again_link(failing):
    response = failing.post("/en/fail/", {"a": "1"})
    html = _page_checks(response, "en")
    assert 'data-testid="try-again"' not in html


@pytest.mark.parametrize("lang", ["ja", "en", "de"])
def test_a_failing_api_address_answers_the_problem_json(failing, lang):
    response = failing.get("/api/v1/fail", headers={"Accept-Language": lang})
    assert response.status_code == 500
    assert response["Content-Type"].startswith("application/json")
    assert response["Content-Language"] == lang
    body = json.loads(response.content)
    [problem] = body["detail"]
    assert problem["code"] == "server-error" and body["message"] == problem["message"]
    assert set(problem) == {"field", "position", "offset", "code", "clause", "message"}
    assert bool(JAPANESE.search(problem["message"])) == (lang == "ja")


@pytest.mark.django_db
def test_a_database_that_fails_answers_500_not_a_crash(failing, monkeypatch):
    def broken(code):
        raise DatabaseError("the database went away")

    monkeypatch.setattr(short_links, "find_saved", broken)
    monkeypatch.setattr("tutorials.services.find_saved", broken)
    _page_checks(failing.get("/p/k3m9xqa/", headers={"Accept-Language": "ja"}), "ja")
    response = failing.get("/api/v1/positions/k3m9xqa", headers={"Accept-Language": "de"})
    assert response.status_code == 500, response.content
    assert response.json()["detail"][0]["code"] == "server-error"
    assert response["Content-Language"] == "de"
    # the headers of the page's 500: nothing keeps a failure, the notice knows the code
    assert response["Cache-Control"] == "no-store" and response["Problem-Code"] == "server-error"


def test_the_500_page_needs_neither_the_database_nor_the_shared_cache(settings):
    """No database access is allowed in this test (no django_db mark: pytest-django refuses
    any), and the shared cache is a Redis that does not answer; the page is still whole."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache",
                                   "LOCATION": f"redis://127.0.0.1:{port}/0"}}
    shared_cache.reset()
    try:
        response = server_error(RequestFactory().get("/de/analyze/", HTTP_ACCEPT_LANGUAGE="ja"))
    finally:
        shared_cache.reset()
    html = response.content.decode()
    assert response.status_code == 500 and 'class="site-header"' in html and 'lang="de"' in html
    assert TITLES["de"] in html


def test_a_500_page_that_cannot_render_falls_back_to_a_bare_one(monkeypatch, caplog):
    def broken(*args, **kwargs):
        raise ValueError("the template engine failed too")

    monkeypatch.setattr(server_error_module, "render", broken)
    response = server_error(RequestFactory().get("/ja/analyze/"))
    assert response.status_code == 500 and response["Content-Language"] == "ja"
    html = response.content.decode()
    assert html.startswith('<!DOCTYPE html><html lang="ja">') and TITLES["ja"] in html
    assert "the 500 page could not be rendered" in caplog.text


# --- every error status under /api/ is problem JSON --------------------------------------------
@pytest.mark.django_db
@pytest.mark.parametrize("what, request_args, status, code", [
    ("unknown address", ("get", "/api/v1/nothing", {}), 404, "not-found"),
    ("wrong method", ("put", "/api/v1/solve", {}), 405, "method-not-allowed"),
    ("host not allowed", ("get", "/api/v1/positions/k3m9xqa", {"HTTP_HOST": "evil.example"}), 400,
     "bad-request"),
    ("too large", ("post", "/api/v1/solve", {"data": "{" + " " * 70_000 + "}",
                                             "content_type": "application/json"}), 413, "too-large"),
    ("view failed", ("get", "/api/v1/fail", {}), 500, "server-error"),
])
def test_every_api_error_status_is_problem_json(failing, what, request_args, status, code):
    method, path, extra = request_args
    response = getattr(failing, method)(path, headers={"Accept-Language": "de"}, **extra)
    assert response.status_code == status, (what, response.content[:300])
    assert response["Content-Type"].startswith("application/json"), what
    [problem] = response.json()["detail"]
    assert problem["code"] == code and problem["message"], what
    assert response["Content-Language"] == "de", what
    assert response["Problem-Code"] == code, what
    assert (response.get("Cache-Control") == "no-store") == (status >= 500), what
