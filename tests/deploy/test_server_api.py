"""The JSON API behind gunicorn: chunked request bodies (the test client cannot send them)."""

from __future__ import annotations

import http.client
import json
import re

import pytest
from harness import Server, serve

from tutorials.api.middleware import API_MAX_BODY

CASE = {"players": ["red", "blue"], "start_player": "red", "board": ["11:r1 12:b2"]}


@pytest.fixture(scope="module")
def server(bare_release):
    with serve(bare_release, workers=2, name="api") as running:
        yield running


def _post_chunked(server: Server, path: str, body: bytes, chunk: int = 4096):
    """POST ``body`` with ``Transfer-Encoding: chunked`` (no Content-Length)."""
    pieces = (body[i:i + chunk] for i in range(0, len(body), chunk))
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=60)
    try:
        conn.request("POST", path, body=pieces, encode_chunked=True, headers={
            "Content-Type": "application/json", "X-Forwarded-Proto": "https", "Host": "127.0.0.1",
            "Transfer-Encoding": "chunked"})
        response = conn.getresponse()
        return response.status, response.headers, response.read()
    finally:
        conn.close()


def test_a_chunked_json_body_is_read(server):
    status, _headers, body = _post_chunked(server, "/api/v1/solve", json.dumps(CASE).encode(), chunk=7)
    assert status == 200, body
    assert json.loads(body)["notation"] == "Rb_11r1.12b2"


def test_a_chunked_body_up_to_the_limit_is_read(server):
    text = json.dumps(CASE).encode()
    status, _headers, body = _post_chunked(server, "/api/v1/solve", text + b" " * (API_MAX_BODY - len(text)))
    assert status == 200, body


def test_a_chunked_body_over_the_limit_is_refused(server):
    status, headers, body = _post_chunked(server, "/api/v1/positions", b"{" + b" " * (70 * 1024) + b"}")
    assert status == 413
    assert headers["Content-Type"].startswith("application/json")
    assert json.loads(body)["detail"][0]["code"] == "too-large"


def test_a_long_analyzer_address_gets_the_sites_answer_not_gunicorns(server):
    """An over-long position in the address is explained by the site in the reader's
    language; gunicorn's default request line limit answered a bare English 414."""
    status, _headers, body = server.get("/ja/analyze/?pos=" + "R" * 5000)
    assert status == 422, body[:500]  # refused with the editor and the reason, not gunicorn's 414
    page = body.decode()
    assert "2000" in page and re.search(r"[\u3040-\u30ff]", page)
