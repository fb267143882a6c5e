"""nginx in front of gunicorn, as docs/production.md sets it up (``manage.py nginx_site``):
HTTPS, static files from nginx, its own refusals worded as the site's pages (or, under
``/api/``, the API's problems) with the same security headers as the site's answers, and a
table taught through it in a browser over HTTP/2.

The load it holds off (slow clients, refused bursts, over-long addresses) is measured in
test_proxy_load.py.
"""

from __future__ import annotations

import collections
import concurrent.futures
import json
import re
import socket
import ssl
import subprocess
import time

import pytest
from playwright.sync_api import expect

from harness import Browser, exchange, free_port, serve_behind_nginx

#: headers every answer carries, the site's and nginx's alike
SECURITY = ("Content-Security-Policy", "X-Frame-Options", "X-Content-Type-Options", "Referrer-Policy",
            "Cross-Origin-Opener-Policy", "Permissions-Policy", "Strict-Transport-Security")


@pytest.fixture(scope="module")
def proxy(bare_release):
    with serve_behind_nginx(bare_release, streams=1) as running:
        yield running


def _without_nonce(policy: str) -> str:
    return re.sub(r" 'nonce-[^']+'", "", policy)


def _site_headers(proxy) -> dict[str, str]:
    _status, headers, _body = proxy.get("/en/tutorial/")
    return {name: _without_nonce(headers[name]) for name in SECURITY if headers[name]}


def _assert_site_headers(proxy, headers) -> None:
    expected = _site_headers(proxy)
    assert set(expected) == set(SECURITY), f"the site's own page lacks some: {expected}"
    assert {name: headers[name] for name in SECURITY} == expected


def test_pages_pass_through_and_static_files_come_from_nginx(proxy):
    status, headers, body = proxy.get("/ja/tutorial/")
    assert status == 200 and '<html lang="ja">' in body.decode()
    stylesheet = re.search(rb'href="(/static/css/site\.[0-9a-f]{12}\.css)"', body)[1].decode()
    status, headers, css = proxy.get(stylesheet, headers={"Accept-Encoding": "gzip"})
    assert status == 200 and headers["Content-Type"].startswith("text/css")
    assert headers["Content-Encoding"] == "gzip", "nginx should send collectstatic's .gz file"
    assert headers["Cache-Control"] == "public, max-age=315360000, immutable"
    # the file is the same for every reader: no Vary on cookies or languages
    assert "Cookie" not in (headers["Vary"] or "") and "Accept-Language" not in (headers["Vary"] or "")
    _assert_site_headers(proxy, headers)
    # a name this release does not have is the site's 404, in the reader's language
    status, headers, body = proxy.get("/static/css/site.000000000000.css", headers={"Accept-Language": "de"})
    assert status == 404 and '<html lang="de">' in body.decode()


def test_links_name_the_public_host_whatever_host_the_client_sent(proxy):
    browser = Browser(proxy, "127.0.8.1")
    code = browser.start_table()
    _status, _headers, body = browser.request("GET", f"/en/teach/{code}/", Host="127.0.0.1:6666")
    guest_links = re.findall(r"https?://[^\s\"<]*/t/" + code, body.decode())
    assert guest_links and set(guest_links) == {f"https://127.0.0.1:{proxy.port}/t/{code}"}


def test_one_address_cannot_take_up_the_connections_of_everyone(proxy):
    # connections that never send a byte, from one address: past its share nginx closes them
    # at once, and every other reader is answered as before
    held = []
    try:
        for _ in range(256 + 60):
            sock = socket.socket()
            sock.bind(("127.0.9.1", 0))
            sock.connect(("127.0.0.1", proxy.port))
            held.append(sock)
        time.sleep(0.5)
        closed = 0
        for sock in held:
            sock.settimeout(0.01)
            try:
                closed += sock.recv(1) == b""
            except TimeoutError:
                pass
            except ConnectionResetError:
                closed += 1
        assert closed == 60, closed
        assert proxy.get("/en/rules/")[0] == 200
    finally:
        for sock in held:
            sock.close()


def _plain(proxy, request: bytes) -> tuple[str, bytes]:
    """A request over plain HTTP: the answer's head and body."""
    with socket.create_connection(("127.0.0.1", proxy.http_port), timeout=10) as sock:
        sock.sendall(request)
        data = b""
        while chunk := sock.recv(65536):
            data += chunk
    head, _sep, body = data.partition(b"\r\n\r\n")
    return head.decode("latin-1"), body


def test_plain_http_leads_to_https_keeping_the_method(proxy):
    head, body = _plain(proxy, b"POST /api/v1/positions HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 2\r\n"
                               b"Accept-Language: de\r\nConnection: close\r\n\r\n{}")
    assert head.startswith("HTTP/1.1 308")
    assert f"Location: https://127.0.0.1:{proxy.port}/api/v1/positions" in head
    assert "X-Frame-Options: DENY" in head and "Content-Security-Policy: " in head
    # the body is the site's own, in the reader's language: problem JSON under /api/
    problem = json.loads(body)
    assert problem["detail"][0]["code"] == "https-only" and "HTTPS" in problem["message"]
    assert "Content-Language: de" in head and "Anfrage" in problem["message"]
    head, body = _plain(proxy, b"GET /ja/rules/?q=1 HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
    assert head.startswith("HTTP/1.1 308")
    assert f"Location: https://127.0.0.1:{proxy.port}/ja/rules/?q=1" in head
    page = body.decode()
    assert '<html lang="ja">' in page and 'data-testid="proxy-error"' in page and "nginx" not in page


def test_addresses_nginx_keeps_to_itself_answer_the_sites_pages(proxy):
    # its internal error addresses, and an over-long static address
    status, _headers, body = proxy.get("/_captain_errors/400", headers={"Accept-Language": "ja"})
    assert status == 404 and '<html lang="ja">' in body.decode()
    status, headers, body = proxy.get("/static/" + "a" * 9000, headers={"Cookie": "captain_language=de"})
    assert status == 414 and '<html lang="de">' in body.decode()
    assert headers["Problem-Code"] == "address-too-long"


def _raw(proxy, line: bytes, headers: bytes = b"", body: bytes = b"") -> tuple[int, dict[str, str], bytes]:
    """Send a request as bytes over TLS (``line``, then header lines); the answer's status,
    headers (title-cased names) and body."""
    context = ssl.create_default_context(cafile=str(proxy.prefix / "tls.crt"))
    with socket.create_connection(("127.0.0.1", proxy.port), timeout=10) as plain, \
            context.wrap_socket(plain, server_hostname="127.0.0.1") as sock:
        sock.sendall(line + b"\r\nHost: x\r\n" + headers + b"Connection: close\r\n\r\n" + body)
        data = b""
        while chunk := sock.recv(65536):
            data += chunk
    head, _sep, body = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    answer = collections.defaultdict(str)
    for header in lines[1:]:
        name, _sep, value = header.partition(":")
        answer[name.strip().title()] = value.strip()
    return int(lines[0].split()[1]), answer, body


@pytest.mark.parametrize(("lang", "status", "line", "headers", "body"), [
    # a notation of 900 full-width characters, 9 bytes each once encoded: the address's language
    ("de", 414, b"GET /de/analyze/?pos=" + b"%E3%80%80" * 900 + b" HTTP/1.1", b"", b""),
    # the address names no language here: the cookie does
    ("ja", 431, b"GET / HTTP/1.1",
     b"Cookie: captain_language=ja\r\nX-Game-Key: " + b"k" * 40_000 + b"\r\n", b""),
    # nothing but the request line was read: the default language
    ("en", 400, b"GET\x01 / HTTP/1.1", b"Accept-Language: de\r\n", b""),
    ("de", 413, b"POST /de/analyze/save/ HTTP/1.1",
     b"Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 70000\r\n", b"a" * 70000),
    # what only programs send: a raw byte outside ASCII, a method the site does not know
    ("ja", 400, b"GET /ja/\xc3\xa9 HTTP/1.1", b"", b""),
    ("de", 405, b"TRACE /de/ HTTP/1.1", b"", b""),
    ("en", 405, b"ABCDEFGHIJKLMNOPQRSTUVWXYZ /en/ HTTP/1.1", b"", b""),
])
def test_nginxs_own_refusals_are_the_sites_pages(proxy, lang, status, line, headers, body):
    got, answer, content = _raw(proxy, line, headers, body)
    assert got == status, (got, answer, content[:300])
    page = content.decode()
    assert f'<html lang="{lang}">' in page and 'data-testid="proxy-error"' in page
    assert answer["Content-Type"] == "text/html; charset=utf-8"
    assert answer["Problem-Code"] and answer["Cache-Control"] == "no-store"
    assert re.search(r'href="/static/css/site\.[0-9a-f]{12}\.css"', page), "the page must be styled"
    _assert_site_headers(proxy, answer)


def test_a_header_line_too_long_leaves_the_language_of_the_lines_before_it(proxy):
    key = b"X-Game-Key: " + b"k" * 40_000 + b"\r\n"
    for headers, lang in ((b"Accept-Language: de\r\n" + key, "de"), (key + b"Accept-Language: de\r\n", "en")):
        status, answer, body = _raw(proxy, b"GET /api/v1/games/abc HTTP/1.1", headers)
        assert status == 431 and answer["Content-Language"] == lang, (answer, body[:300])
        problem = json.loads(body)
        assert problem["detail"][0]["code"] == "headers-too-large"
        assert ("Anfrage" in problem["message"]) == (lang == "de"), problem["message"]


def test_a_control_character_in_a_header_gets_gunicorns_own_400(proxy):
    # as docs/production.md says: nginx passes it on, gunicorn refuses it before the site
    status, answer, body = _raw(proxy, b"GET /de/tutorial/ HTTP/1.1", b"X-A: a\x01b\r\n")
    assert status == 400, (answer, body[:300])
    assert b"<title>Bad Request</title>" in body and b"Invalid HTTP Header" in body, body[:300]


def test_the_api_docs_are_only_read_through_nginx(proxy):
    status, answer, body = _raw(proxy, b"POST /api/docs HTTP/1.1", b"Content-Length: 0\r\n")
    assert status == 405 and answer["Allow"] == "GET, HEAD", (answer, body[:300])
    assert answer["Problem-Code"] == "method-not-allowed", (answer, body[:300])


def test_repeated_and_joined_header_lines_are_not_refused_by_gunicorn(proxy):
    # nginx joins repeated fields into one line, longer than any single one it reads
    xff = b"X-Forwarded-For: " + b"1" * 17_000 + b"\r\n"
    status, answer, body = _raw(proxy, b"GET /api/v1/positions/zzzzz HTTP/1.1", xff + xff)
    assert status == 404 and json.loads(body)["detail"][0]["code"] == "not-found", body[:300]


def _curl_http2(proxy, *args: str, answered: bool = True) -> tuple[int, str]:
    """``curl --http2`` (what browsers speak) to nginx: the status and the body (status 0:
    no answer, the connection ended; ``answered`` says which is expected)."""
    done = subprocess.run(["curl", "-s", "--http2", "--cacert", str(proxy.prefix / "tls.crt"),
                           "-o", "-", "-w", "\n%{http_version} %{http_code}", *args],
                          capture_output=True, text=True, timeout=30)
    body, _sep, tail = done.stdout.rpartition("\n")
    version, status = tail.split()
    assert version == ("2" if answered else "0"), (tail, done.returncode)
    return int(status), body


def test_over_http2_a_large_body_and_many_cookies_get_the_sites_answers(proxy, tmp_path):
    site = f"https://127.0.0.1:{proxy.port}"
    big = tmp_path / "big"
    big.write_bytes(b"a" * 70_000)
    status, body = _curl_http2(proxy, "--data-binary", f"@{big}", "-H", "Cookie: captain_language=de",
                               f"{site}/de/analyze/save/")
    assert status == 413 and '<html lang="de">' in body and 'data-testid="proxy-error"' in body
    status, body = _curl_http2(proxy, "--data-binary", f"@{big}", "-H", "Content-Type: application/json",
                               f"{site}/api/v1/positions")
    assert status == 413 and json.loads(body)["detail"][0]["code"] == "too-large"
    # each cookie is a field of its own in HTTP/2; nginx joins them into one line
    status, body = _curl_http2(proxy, "-H", "Cookie: x=" + "a" * 20_000, "-H", "Cookie: y=" + "b" * 20_000,
                               f"{site}/ja/rules/")
    assert status == 200 and '<html lang="ja">' in body


def test_over_http2_header_fields_are_judged_as_sent_compressed(proxy):
    # as docs/production.md says: a field of 40,000 bytes that compresses below what nginx
    # reads passes on to the site, which answers it; one that does not ends the connection
    site = f"https://127.0.0.1:{proxy.port}"
    status, body = _curl_http2(proxy, "-H", "Cookie: x=" + "a" * 40_000, f"{site}/de/tutorial/")
    assert status == 200 and '<html lang="de">' in body
    status, body = _curl_http2(proxy, "-H", "X-Game-Key: " + "k" * 40_000, f"{site}/api/v1/games/abc",
                               answered=False)
    assert status == 0 and not body
    # the same field over HTTP/1.1: the 431 page
    cookie = b"Cookie: x=" + b"a" * 40_000 + b"\r\n"
    status, _answer, body = _raw(proxy, b"GET /de/tutorial/ HTTP/1.1", cookie)
    assert status == 431 and b'<html lang="de">' in body


def test_an_address_too_long_for_the_api_answers_its_problem_json(proxy):
    # past a request line too long to read, the Accept header tells an API client
    status, headers, body = proxy.get("/api/v1/positions/" + "x" * 9000,
                                      headers={"Accept-Language": "de", "Accept": "application/json"})
    assert status == 414 and headers["Content-Type"] == "application/json; charset=utf-8"
    problem = json.loads(body)
    assert problem["detail"][0]["code"] == "address-too-long" == headers["Problem-Code"]
    assert "Adresse" in problem["message"], problem["message"]


def test_too_many_requests_wait_at_nginx_then_are_refused_in_the_readers_words(bare_release):
    # one request a second: ten may queue, and the first two of those pass at once (to an
    # address where nothing answers: what matters is what nginx lets through)
    with serve_behind_nginx(bare_release, upstream=f"127.0.0.1:{free_port()}",
                            options=("--requests-per-second", "1")) as slow:
        # the TLS handshakes come first, one after another: 24 at once from threads starved
        # on a loaded machine can outlast nginx's handshake timeout, which is not under test
        connections = [slow.connection(source="127.0.7.1") for _ in range(24)]
        for conn in connections:
            conn.connect()

        def ask(conn):
            return exchange(conn, "GET", "/", None, {"Accept-Language": "ja"})

        with concurrent.futures.ThreadPoolExecutor(24) as pool:
            answers = list(pool.map(ask, connections))
        statuses = [status for status, _headers, _body in answers]
        assert statuses.count(502) >= 3 and statuses.count(429) >= 10, (statuses, slow.error_log()[-4000:])
        status, headers, body = next(answer for answer in answers if answer[0] == 429)
        # the path names no language: Accept-Language does
        assert '<html lang="ja">' in body.decode() and headers["Retry-After"] == "2"
        assert headers["Problem-Code"] == "rate-limited"
        # another address is not held up by it
        assert slow.get("/", source="127.0.7.2")[0] == 502


def test_a_site_that_does_not_answer_is_a_page_not_a_bare_502(bare_release):
    with serve_behind_nginx(bare_release, upstream=f"127.0.0.1:{free_port()}") as down:
        status, headers, body = down.get("/de/tutorial/")
        assert status == 502 and '<html lang="de">' in body.decode()
        assert headers["Retry-After"] == "10" and headers["Problem-Code"] == "unavailable"
        status, headers, body = down.get("/api/v1/positions/abc", headers={"Accept-Language": "ja"})
        assert status == 502 and json.loads(body)["detail"][0]["code"] == "unavailable"


def test_a_refused_body_keeps_the_connection_as_announced(proxy):
    # 413 before the body was read: the connection is either closed as announced, or the next
    # request on it is answered
    conn = proxy.connection()
    try:
        conn.request("POST", "/api/v1/positions", body=b"{" + b" " * 130_000 + b"}",
                     headers={"Content-Type": "application/json"})
        response = conn.getresponse()
        body = response.read()
        assert response.status == 413 and json.loads(body)["detail"][0]["code"] == "too-large"
        if (response.headers["Connection"] or "").lower() != "close":
            conn.request("GET", "/en/rules/")
            assert conn.getresponse().status == 200
    finally:
        conn.close()


GUEST_LANGUAGES = ("en", "de", "ja", "en", "de", "ja")


def test_a_table_is_taught_through_nginx_to_phones_behind_one_address(proxy, browser):
    # a presenter and six guests' phones behind one address, as at a café, over HTTP/2, each
    # following the table's live stream: none is held up or refused
    site = f"https://127.0.0.1:{proxy.port}"
    failed: list[str] = []

    def watch(page):
        page.on("response", lambda r: r.status >= 400 and failed.append(f"{r.status} {r.url}"))
        page.on("console", lambda m: m.type == "error" and failed.append(f"console: {m.text}"))
        return page

    presenter_ctx = browser.new_context(ignore_https_errors=True, locale="ja-JP",
                                        extra_http_headers={"Accept-Language": "ja"})
    presenter = watch(presenter_ctx.new_page())
    presenter.goto(f"{site}/ja/teach/")
    presenter.locator("form.teach-form button[type=submit]").click()
    expect(presenter).to_have_url(re.compile(r"/ja/teach/\w+/$"))
    code = presenter.get_by_test_id("table-code").inner_text()
    # the stylesheet came from nginx and was applied (CSP and content type as they must be)
    assert presenter.evaluate("[...document.styleSheets].reduce((n, s) => n + s.cssRules.length, 0)") > 50

    guests = []
    for lang in GUEST_LANGUAGES:
        context = browser.new_context(ignore_https_errors=True, viewport={"width": 390, "height": 844},
                                      locale=lang, extra_http_headers={"Accept-Language": lang})
        guest = watch(context.new_page())
        guest.goto(f"{site}/t/{code}/")
        expect(guest).to_have_url(re.compile(rf"/{lang}/t/{code}/$"))
        guests.append(guest)
    first_titles = [guest.get_by_test_id("guest-title").inner_text() for guest in guests]

    for guest in guests:
        expect(guest.locator("html")).to_have_attribute("data-live", "on")
    time.sleep(2)
    presenter.locator('button[data-nav="next"]').click()
    expect(presenter.locator("#present-section")).to_have_attribute("data-index", "1")
    for guest, title in zip(guests, first_titles, strict=True):
        # by the stream: a live page's own poll waits ten seconds
        expect(guest.get_by_test_id("guest-title")).not_to_have_text(title, timeout=2000)
        expect(guest.get_by_test_id("request-notice")).to_be_hidden()
    access_log = (proxy.prefix / "access.log").read_text()

    assert not failed, failed
    polls = [line for line in access_log.splitlines() if f"/t/{code}/poll" in line]
    assert len(polls) >= 6, f"only {len(polls)} polls reached nginx"
    assert all('"GET ' in line and " HTTP/2.0\" 20" in line for line in polls), polls[:3]
