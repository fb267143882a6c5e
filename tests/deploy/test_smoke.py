"""A short production check on SQLite, the embedded default: the release steps (without
pre-rendering the sheets), gunicorn with two workers, and a reader's first requests.

The whole deploy suite runs on PostgreSQL (``bin/test``'s second run); this module is the
part of it the SQLite run keeps, so that the documented default set-up is served for real.
"""

from __future__ import annotations

import gzip
import json
import re

import pytest

from harness import serve

pytestmark = pytest.mark.smoke


@pytest.fixture(scope="module")
def server(bare_release):
    with serve(bare_release, workers=2, name="smoke") as running:
        yield running


def test_pages_and_their_static_files_are_served(server):
    status, headers, body = server.get("/", headers={"Accept-Language": "de"})
    assert status == 302 and headers["Location"].startswith("/de/")
    status, headers, body = server.get("/ja/tutorial/")
    assert status == 200 and '<html lang="ja">' in body.decode()
    assert headers["X-Frame-Options"] == "DENY" and "Content-Security-Policy" in headers
    stylesheet = re.search(rb'href="(/static/css/site\.[0-9a-f]{12}\.css)"', body)
    assert stylesheet, "no hashed stylesheet link: is the manifest storage on?"
    status, headers, css = server.get(stylesheet[1].decode(), headers={
        "Accept-Encoding": "br", "Cookie": "captain_language=de", "HX-Request": "true"})
    assert status == 200 and headers["Content-Type"].startswith("text/css") and css
    # the same bytes for every visitor: only the encoding chooses between copies
    assert {v.strip().lower() for v in headers.get("Vary", "").split(",")} == {"accept-encoding"}


def test_pages_go_out_gzipped_and_healthz_answers(server):
    status, headers, body = server.get("/en/analyze/?pos=Rb_11r1.12b2",
                                       headers={"Accept-Encoding": "gzip, br"})
    assert status == 200 and headers["Content-Encoding"] == "gzip"
    assert gzip.decompress(body).startswith(b"<!DOCTYPE html>")
    status, headers, body = server.get("/healthz")
    assert status == 200 and body == b"ok"


def test_a_position_saved_on_one_worker_is_read_on_every_worker(server):
    status, _headers, body = server.request(
        "POST", "/api/v1/positions", body=json.dumps({"notation": "Rb_11r1.12b2"}).encode(),
        headers={"Content-Type": "application/json"})
    assert status == 201, body
    code = json.loads(body)["code"]
    for _ in range(6):  # two workers: some of these reach the one that did not save it
        status, _headers, body = server.get(f"/api/v1/positions/{code}")
        assert status == 200 and json.loads(body)["notation"] == "Rb_11r1.12b2"
    status, _headers, body = server.get(f"/p/{code}/", headers={"Accept-Language": "en"})
    assert status in (200, 302), body[:300]


def test_a_sheet_missing_from_the_cache_is_rendered(server):
    status, headers, body = server.get("/en/sheets/reference.pdf")
    assert status == 200, body[:500]
    assert headers["Content-Type"] == "application/pdf" and body.startswith(b"%PDF")
