"""The entry points outside the language prefixes (``/``, ``/healthz``) and which answers
are compressed.

1. ``/`` redirects to the visitor's language as LocaleMiddleware redirects every unprefixed
   address (cookie, then ``Accept-Language``; the query string kept; 307 for unsafe
   methods; ``Vary`` on both), without rendering any page first.
2. ``/healthz`` answers ``ok`` without a template or the database: the benchmarks' yardstick.
3. Pages, fragments and JSON are gzipped for clients that take gzip, with Django's random
   padding; the pages of a table or a game, which carry secrets read from the visitor's
   cookies, never are (BREACH, docs/production.md), nor are server-sent events.
"""

from __future__ import annotations

import gzip
import json
import re

import pytest
from django.conf import settings
from django.db import connection
from django.http import HttpResponse, StreamingHttpResponse
from django.test import Client, RequestFactory
from django.test.utils import CaptureQueriesContext

from tests.site.play_helpers import start_game
from tutorials.web.compression import CompressionMiddleware

pytestmark = pytest.mark.django_db

COOKIE = settings.LANGUAGE_COOKIE_NAME
POSITION = ("Rbgw_11r1.12g2.13g5.14w4-15w1.16b0.22w2.23b4-24r0.25g4.26r5.33w5"
            "-34b1.35b2.36g1.44r2")
GZIP = {"HTTP_ACCEPT_ENCODING": "gzip, br"}


def vary(response) -> set[str]:
    return {v.strip().lower() for v in response.get("Vary", "").split(",") if v.strip()}


# --- / ----------------------------------------------------------------------------------------
@pytest.mark.parametrize(("accept", "cookie", "target"), [
    ("de", None, "/de/"), ("ja,en;q=0.5", None, "/ja/"), ("", None, "/en/"), ("fr", None, "/en/"),
    ("de", "ja", "/ja/"),  # the language chosen in the switcher wins over the browser's
])
def test_root_redirects_to_the_visitors_language(accept, cookie, target):
    client = Client()
    if cookie:
        client.cookies[COOKIE] = cookie
    response = client.get("/", HTTP_ACCEPT_LANGUAGE=accept)
    assert response.status_code == 302 and response["Location"] == target
    assert {"accept-language", "cookie"} <= vary(response)
    assert response.templates == []  # no 404 page rendered on the way


def test_root_keeps_the_query_and_an_unsafe_method():
    client = Client()
    assert client.get("/?x=1&y=2", HTTP_ACCEPT_LANGUAGE="de")["Location"] == "/de/?x=1&y=2"
    # a form sent to / goes on, with its body, to where its CSRF token is checked
    posted = Client(enforce_csrf_checks=True).post("/", {"a": "b"}, HTTP_ACCEPT_LANGUAGE="ja")
    assert posted.status_code == 307 and posted["Location"] == "/ja/"
    head = client.head("/", HTTP_ACCEPT_LANGUAGE="de")
    assert head.status_code == 302 and head["Location"] == "/de/"


def test_root_followed_reaches_the_tutorial_in_that_language():
    home = Client().get("/", HTTP_ACCEPT_LANGUAGE="de", follow=True)
    assert home.redirect_chain[0] == ("/de/", 302)
    assert home.status_code == 200 and '<html lang="de">' in home.content.decode()


# --- /healthz -----------------------------------------------------------------------------------
def test_healthz_is_trivial():
    with CaptureQueriesContext(connection) as queries:
        response = Client().get("/healthz")
    assert response.status_code == 200 and response.content == b"ok"
    assert response["Content-Type"].startswith("text/plain")
    assert response.templates == [] and len(queries) == 0


# --- compression --------------------------------------------------------------------------------
def test_the_analyzer_page_is_gzipped_with_random_padding():
    plain = Client().get(f"/en/analyze/?pos={POSITION}")
    assert plain.status_code == 200 and "Content-Encoding" not in plain
    assert "accept-encoding" in vary(plain)  # a cache must not give these bytes to a gzip client
    packed = Client().get(f"/en/analyze/?pos={POSITION}", **GZIP)
    assert packed["Content-Encoding"] == "gzip" and "accept-encoding" in vary(packed)
    html = gzip.decompress(packed.content).decode()
    assert html.startswith("<!DOCTYPE html>") and len(packed.content) < len(plain.content) / 5
    # FNAME set: Django pads the gzip header with 0-100 random bytes (BREACH)
    assert packed.content[3] & 0x08


def test_the_csrf_token_is_masked_anew_in_every_page():
    client = Client()
    pages = [gzip.decompress(client.get(f"/en/analyze/?pos={POSITION}", **GZIP).content).decode()
             for _ in range(2)]
    tokens = [re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page)[1] for page in pages]
    assert tokens[0] != tokens[1]


def test_htmx_fragments_and_json_are_gzipped():
    panel = Client().get(f"/en/analyze/what-if/?pos={POSITION}", HTTP_HX_REQUEST="true", **GZIP)
    assert panel.status_code == 200 and panel["Content-Encoding"] == "gzip"
    found = Client().get("/api/v1/rules/search?q=bell&lang=en", **GZIP)
    assert found.status_code == 200 and found["Content-Encoding"] == "gzip"
    assert json.loads(gzip.decompress(found.content))


def test_the_pages_of_a_table_that_hold_a_secret_are_never_compressed():
    presenter = Client()
    started = presenter.post("/en/teach/", {"players": "4", "mode": "action"})
    assert started.status_code == 302
    code = started["Location"].rstrip("/").split("/")[-1]
    page = presenter.get(f"/en/teach/{code}/", **GZIP)
    assert page.status_code == 200 and len(page.content) > 200
    assert "Content-Encoding" not in page and "accept-encoding" not in vary(page)
    # the handover link holds a key that makes its opener the presenter
    handover = presenter.post(f"/en/teach/{code}/handover/", **GZIP, follow=True)
    assert 'data-testid="handover-link"' in handover.content.decode()
    answers = [handover, *(presenter.get(url, **GZIP) for url, _status in handover.redirect_chain)]
    assert all("Content-Encoding" not in answer for answer in answers)
    guest = Client()
    joined = guest.get(f"/t/{code}/", HTTP_ACCEPT_LANGUAGE="en", follow=True, **GZIP)
    # a guest without a seat has nothing of theirs on the page (tests/site/test_teach_shared_section.py)
    assert joined.status_code == 200 and joined["Content-Encoding"] == "gzip"
    assert guest.post(f"/en/t/{code}/seat/", {"do": "take", "at": "red"}).status_code == 302
    seated = guest.get(f"/en/t/{code}/", **GZIP)
    assert seated.status_code == 200 and "Content-Encoding" not in seated


def test_the_pages_of_a_practice_game_are_never_compressed():
    learner = Client()
    game = start_game(learner)
    page = learner.get(game, **GZIP)
    assert page.status_code == 200 and len(page.content) > 200
    assert "Content-Encoding" not in page


def test_event_streams_and_other_media_are_left_alone():
    request = RequestFactory().get("/live/x/", HTTP_ACCEPT_ENCODING="gzip")
    middleware = CompressionMiddleware(lambda r: None)
    stream = StreamingHttpResponse(iter([b"data: x\n\n"] * 100), content_type="text/event-stream")
    assert not middleware.process_response(request, stream).has_header("Content-Encoding")
    pdf = HttpResponse(b"%PDF" + b"x" * 1000, content_type="application/pdf")
    assert not middleware.process_response(request, pdf).has_header("Content-Encoding")
    page = HttpResponse(b"<p>" * 1000, content_type="text/html; charset=utf-8")
    assert middleware.process_response(request, page)["Content-Encoding"] == "gzip"
