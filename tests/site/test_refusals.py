"""Refusals (429) are cheap short pages, answered at once; gunicorn runs threads, and PDFs are
the render pool's (gunicorn_pdf.conf.py), so a render holds none of the site's workers."""

from __future__ import annotations

import runpy
import time

import pytest
from django.conf import settings as django_settings
from django.test import RequestFactory
from django.utils import translation

from tutorials.web import middleware
from tutorials.web.limits import RateLimited


@pytest.mark.parametrize("exc, status", [(RateLimited("pdf", 30), 429), (RateLimited("save", 1), 429)])
def test_a_refusal_answers_a_short_page_at_once(monkeypatch, exc, status):
    """A pause would hold a worker's thread per refused request: a client asking again and
    again would crowd out other readers."""
    slept = []
    monkeypatch.setattr(time, "sleep", slept.append)
    request = RequestFactory().get("/de/analyze/position.pdf")
    with translation.override("de"):
        response = middleware.WaitPagesMiddleware(lambda r: None).process_exception(request, exc)
    assert slept == []
    assert not hasattr(django_settings, "REFUSAL_DELAY")
    assert response.status_code == status and int(response["Retry-After"]) >= 1
    body = response.content.decode()
    assert "site-header" not in body and 'lang="de"' in body
    assert "data-testid=\"wait-message\"" in body and len(body) < 2000


def test_gunicorn_runs_threads_from_its_config_file(settings, monkeypatch):
    monkeypatch.delenv("GUNICORN_THREADS", raising=False)
    monkeypatch.delenv("WEB_CONCURRENCY", raising=False)
    config = runpy.run_path(str(settings.BASE_DIR / "gunicorn.conf.py"))
    assert config["worker_class"] == "gthread"
    assert config["threads"] >= 16 and config["workers"] == 3
    assert config["workers"] * config["threads"] < 100  # PostgreSQL's default max_connections


@pytest.mark.parametrize("lang, one, many", [
    ("en", "Please try again in 1 second.", "Please try again in 30 seconds."),
    ("de", "in 1 Sekunde noch einmal", "in 30 Sekunden noch einmal"),
    ("ja", "ネットワークから短時間に多くのPDFが要求されました。1秒後に", "要求されました。30秒後に"),
])
def test_the_wait_is_said_in_the_right_number(lang, one, many):
    """One second is "1 second", "1 Sekunde"; Japanese puts no space between the sentences."""
    with translation.override(lang):
        assert one in RateLimited("pdf", 1).message
        assert many in RateLimited("pdf", 30).message
        assert RateLimited("table-miss", 2).message.count("2") == 1


@pytest.mark.parametrize("headers, closes", [
    ([("CONTENT-LENGTH", str(130 * 1024))], True),     # refused unread (413, 400)
    ([("TRANSFER-ENCODING", "chunked")], True),          # no length to judge by
    ([("CONTENT-LENGTH", str(64 * 1024))], False),       # read whole, or drained by gunicorn
    ([("CONTENT-TYPE", "text/plain")], False),
])
def test_gunicorn_closes_after_a_body_it_could_not_drain(settings, headers, closes):
    config = runpy.run_path(str(settings.BASE_DIR / "gunicorn.conf.py"))
    assert config["leaves_body_unread"](headers, 64 * 1024) is closes


def test_the_render_pool_renders_one_pdf_per_worker_within_the_render_limits(settings):
    config = runpy.run_path(str(settings.BASE_DIR / "gunicorn_pdf.conf.py"))
    site = runpy.run_path(str(settings.BASE_DIR / "gunicorn.conf.py"))
    assert config["worker_class"] == "sync" and config["workers"] == settings.RENDER_LIMIT
    # the arbiter never loads the site, so that the unit's reload brings a release's code
    assert config["preload_app"] is False and config["max_requests"] >= 1
    assert config["timeout"] == settings.RENDER_TIMEOUT
    for limit in ("limit_request_line", "limit_request_field_size", "limit_request_fields"):
        assert config[limit] == site[limit], limit  # a position PDF's address is the analyzer's
