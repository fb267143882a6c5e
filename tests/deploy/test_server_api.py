"""The JSON API behind gunicorn: chunked request bodies (the test client cannot send them)."""

from __future__ import annotations

import http.client
import json
import re
import socket

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


# --- refused bodies on a kept-alive connection -----------------------------------------------
def _response(sock: socket.socket) -> tuple[int, dict[str, str], bytes]:
    """One response read off ``sock`` (status, headers with lower-case names, body)."""
    data = b""
    while b"\r\n\r\n" not in data:
        piece = sock.recv(65536)
        if not piece:
            raise ConnectionError(f"closed before a whole response: {data[:200]!r}")
        data += piece
    head, _sep, body = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = {name.lower(): value.strip() for name, _c, value in (line.partition(":") for line in lines[1:])}
    while len(body) < int(headers.get("content-length", 0)):
        piece = sock.recv(65536)
        if not piece:
            raise ConnectionError("closed in the middle of a response body")
        body += piece
    return int(lines[0].split()[1]), headers, body


def _chunked(body: bytes) -> bytes:
    return b"".join(b"%x\r\n%s\r\n" % (len(body[i:i + 4096]), body[i:i + 4096])
                    for i in range(0, len(body), 4096)) + b"0\r\n\r\n"


_HEAD = "POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Forwarded-Proto: https\r\nContent-Type: {type}\r\n"
_BIG = 130 * 1024


#: what lets a form through the CSRF check to where its body would be read (400: too large)
_FORM = "Origin: https://127.0.0.1\r\nCookie: csrftoken=" + "a" * 32 + "\r\nX-CSRFToken: " + "a" * 32 + "\r\n"


@pytest.mark.parametrize("path, content_type, framing, status", [
    ("/api/v1/positions", "application/json", "length", 413),
    ("/api/v1/positions", "application/json", "chunked", 413),
    ("/en/play/", "application/x-www-form-urlencoded", "length", 400),
])
def test_a_body_refused_unread_never_breaks_the_next_request(server, path, content_type, framing, status):
    """On one kept-alive connection, a body the site refuses without reading it, then a
    second request: gunicorn reads at most 64 KiB of an unread body and then drops the
    connection, so the first answer must say ``Connection: close`` (or the second must
    still be answered)."""
    body = (b'{"notation": "' + b"x" * _BIG + b'"}') if content_type == "application/json" \
        else b"players=" + b"4" * _BIG
    head = _HEAD.format(path=path, type=content_type) + (_FORM if path.startswith("/en/") else "")
    if framing == "length":
        head += f"Content-Length: {len(body)}\r\n\r\n"
    else:
        head += "Transfer-Encoding: chunked\r\n\r\n"
    with socket.create_connection(("127.0.0.1", server.port), timeout=30) as sock:
        sock.sendall(head.encode() + (body if framing == "length" else _chunked(body)))
        first, headers, _body = _response(sock)
        assert first == status
        if headers.get("connection", "").lower() == "close":
            return
        sock.sendall(b"GET /api/v1/positions/Rb_11r1.12b2 HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                     b"X-Forwarded-Proto: https\r\n\r\n")
        second, _headers, _body = _response(sock)  # raises if the connection was dropped
        assert second == 200


def test_a_body_within_the_limit_keeps_the_connection(server):
    """Only bodies that may be left unread close the connection: a normal API request keeps it."""
    body = json.dumps({"notation": "Rb_11r1.12b2"}).encode()
    head = _HEAD.format(path="/api/v1/positions", type="application/json")
    head += f"Content-Length: {len(body)}\r\n\r\n"
    with socket.create_connection(("127.0.0.1", server.port), timeout=30) as sock:
        for _ in range(2):
            sock.sendall(head.encode() + body)
            status, headers, _body = _response(sock)
            assert status == 201 and headers.get("connection", "").lower() != "close"
