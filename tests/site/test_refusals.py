"""Refusals (429, 503) are cheap short pages, answered at once; gunicorn runs threads, so
render waits do not hold whole workers."""

from __future__ import annotations

import runpy
import time

import pytest
from django.conf import settings as django_settings
from django.test import RequestFactory
from django.utils import translation

from tutorials.rendering.render_limit import RenderBusy
from tutorials.web import middleware
from tutorials.web.limits import RateLimited


@pytest.mark.parametrize("exc, status", [(RateLimited("pdf", 30), 429), (RenderBusy(), 503)])
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


class _SlowRender:
    """Stands in for a render sent to the render children: done after ``seconds``."""

    def __init__(self, seconds: float) -> None:
        import time

        self.done_at = time.monotonic() + seconds
        self.closed = False

    def result(self, timeout: float):
        import time

        left = self.done_at - time.monotonic()
        if left > timeout:
            time.sleep(timeout)
            raise TimeoutError()
        time.sleep(max(0.0, left))
        return (b"%PDF-slow", (), 1, 19)

    def close(self) -> None:
        self.closed = True


class _CountingLease:
    lease_seconds = 1

    def __init__(self) -> None:
        self.renewals = 0

    def renew(self) -> None:
        self.renewals += 1


def test_a_long_render_renews_its_lease(monkeypatch, settings):
    from tutorials.rendering import pdf as sheets

    monkeypatch.setattr(sheets, "_submit", lambda html, resources: _SlowRender(1.6))
    settings.RENDER_TIMEOUT = 10
    lease = _CountingLease()
    assert sheets.render_pdf("<p>x</p>", lease).pdf == b"%PDF-slow"
    assert lease.renewals >= 2  # every third of a second-long lease, for 1.6 s


def test_a_render_past_its_time_is_answered_busy(monkeypatch, settings):
    from tutorials.rendering import pdf as sheets

    slow = _SlowRender(3)
    monkeypatch.setattr(sheets, "_submit", lambda html, resources: slow)
    settings.RENDER_TIMEOUT = 1
    with pytest.raises(RenderBusy):
        sheets.render_pdf("<p>x</p>", _CountingLease())
    assert slow.closed  # the child is left to finish alone, nobody waits for it


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
