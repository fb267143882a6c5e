"""Link tokens (tutorials.web.link_tokens): a table's QR code and a saved position's
short link open what they name past the failed-lookup limits, while codes typed or
guessed from the same address stay limited, and a guesser learns nothing from the answers."""

from __future__ import annotations

import re
import secrets
import time
from unittest import mock
from urllib.parse import parse_qs, urlsplit

import pytest
from django.test import Client
from django.utils import translation
from django.utils.html import escape

from tutorials.models import CODE_ALPHABET
from tutorials.web.limits import MESSAGES
from tutorials.web.link_tokens import SHORT_LINK, TABLE_LINK

pytestmark = pytest.mark.django_db

GUESSES = 100


def _guesses(length: int, avoid: set[str]) -> list[str]:
    out: list[str] = []
    while len(out) < GUESSES:
        guess = "".join(secrets.choice(CODE_ALPHABET) for _ in range(length))
        if guess not in avoid and guess not in out:
            out.append(guess)
    return out


def _start_table() -> tuple[Client, str, str]:
    """A presenter's browser, its table's code and the link of its QR code (read off the
    presenter's page: the one address the guests get)."""
    presenter = Client()
    started = presenter.post("/en/teach/", {"players": "4", "mode": "action", "script": "quick"})
    assert started.status_code == 302
    code = started["Location"].rstrip("/").split("/")[-1]
    page = presenter.get(started["Location"]).content.decode()
    [link] = re.findall(r'<a href="([^"]+)" data-testid="guest-link">([^<]+)</a>', page)
    href, shown = link
    assert shown.endswith(f"/t/{code}/")  # the address typed by hand stays short
    path = urlsplit(href)
    assert path.path == f"/t/{code}/"
    return presenter, code, f"{path.path}?{path.query}"


def _same(first, second, code: str, other: str) -> None:
    """Two answers that must not tell ``code`` from ``other``: same status, same
    Retry-After, same body once each names its own code the same way."""
    def seen(response, name):
        body = response.content.decode().replace(name, "CODE")
        # the start page carries a fresh CSRF token each time (in its forms and htmx headers)
        return re.sub(r'(csrfmiddlewaretoken" value=|X-CSRFToken": )"[^"]+"', "", body)
    assert first.status_code == second.status_code
    assert first.get("Retry-After") == second.get("Retry-After")
    assert seen(first, code) == seen(second, other)


def _frozen():
    """One moment for the answers compared, so their waits (whole seconds) are the same."""
    return mock.patch("time.time", return_value=time.time())


def test_tokens_are_short_url_safe_and_of_their_kind():
    token = TABLE_LINK.of("abcde")
    assert re.fullmatch(r"[A-Za-z0-9_-]{16}", token)  # 96 bits
    assert TABLE_LINK.of("abcde") == token and TABLE_LINK.of("abcdf") != token
    assert SHORT_LINK.of("abcde") != token  # a table's token opens no position


def test_guessed_table_codes_learn_nothing_and_the_qr_code_still_opens_the_table(client):
    _presenter, code, qr = _start_table()
    other = _guesses(5, {code})
    statuses = [client.get("/en/teach/join/", {"code": guess}).status_code for guess in other]
    assert statuses[:30] == [404] * 30 and set(statuses[30:]) == {429}
    wrong = other[0]
    with _frozen():
        typed = client.get("/en/teach/join/", {"code": code})
        _same(typed, client.get("/en/teach/join/", {"code": wrong}), code, wrong)
        # no token, another table's, one nobody wrote
        for query in ("", "?k=" + TABLE_LINK.of(other[1]), "?k=" + "A" * 16):
            right = client.get(f"/en/t/{code}/{query}")
            _same(right, client.get(f"/en/t/{wrong}/{query}"), code, wrong)
            assert right.status_code == 429
        # a wrong token is dropped on the way to the guest's language, as if there were none
        assert client.get(f"/t/{code}/?k={'A' * 16}")["Location"] == f"/en/t/{code}/"
    assert typed.status_code == 429 and int(typed["Retry-After"]) > 0
    with translation.override("en"):
        assert escape(str(MESSAGES["table-miss"])) in typed.content.decode()
    assert "QR code" in str(MESSAGES["table-miss"])

    # the QR code, scanned by a late guest at the same address
    redirected = client.get(qr)
    assert redirected.status_code == 302
    assert redirected["Location"] == f"/en/t/{code}/?k={TABLE_LINK.of(code)}"
    page = client.get(redirected["Location"])
    assert page.status_code == 200 and 'id="guest-section"' in page.content.decode()
    assert client.get(f"/en/t/{code}/poll/", {"v": "0"}).status_code in (200, 204)
    assert client.get(f"/en/t/{code}/").status_code == 200  # the guest's cookie from now on


def test_the_limited_join_form_points_to_the_qr_code_in_the_readers_language(client, settings):
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "table-miss": "2/10m"}
    _presenter, code, _qr = _start_table()
    for guess in _guesses(5, {code})[:2]:
        assert client.get("/de/teach/join/", {"code": guess}).status_code == 404
    for lang in ("en", "de", "ja"):
        form = client.get(f"/{lang}/teach/join/", {"code": code})
        typed = client.get(f"/{lang}/t/{code}/")
        assert form.status_code == typed.status_code == 429 and form["Retry-After"]
        with translation.override(lang):
            sentence = escape(str(MESSAGES["table-miss"]))
        assert 'role="alert"' in form.content.decode()  # on the start page, beside the field
        assert sentence in form.content.decode() and sentence in typed.content.decode()
    with translation.override("de"):
        assert "QR-Code" in str(MESSAGES["table-miss"])


def test_a_token_opens_only_its_own_table(client, settings):
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "table-miss": "1/10m"}
    _p1, first, first_qr = _start_table()
    _p2, second, _second_qr = _start_table()
    assert client.get("/en/t/zzzzz/").status_code == 404  # uses the one failed lookup
    token = parse_qs(urlsplit(first_qr).query)["k"][0]
    assert client.get(f"/en/t/{second}/", {"k": token}).status_code == 429
    assert client.get(f"/en/t/{first}/", {"k": token}).status_code == 200


def test_lookups_with_a_token_are_never_counted(client, settings):
    """Only the site writes tokens: a link to a table that has since gone answers 404 with
    its token and leaves the address's failed lookups as they were."""
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "table-miss": "2/10m"}
    for _ in range(5):
        assert client.get("/en/t/zzzzz/", {"k": TABLE_LINK.of("zzzzz")}).status_code == 404
    assert [client.get("/en/t/yyyyy/").status_code for _ in range(3)] == [404, 404, 429]


def _save(client) -> tuple[str, str]:
    response = client.post("/api/v1/positions", {"notation": "Rb_11r1.12-13b2.14"},
                           content_type="application/json")
    assert response.status_code == 201, response.content
    return response.json()["code"], response.json()["url"]


def test_guessed_short_codes_learn_nothing_and_shared_links_still_open(client):
    code, url = _save(client)
    assert url == f"/p/{code}/?k={SHORT_LINK.of(code)}"
    other = _guesses(7, {code})
    statuses = [client.get(f"/p/{guess}/").status_code for guess in other]
    assert statuses[:60] == [404] * 60 and set(statuses[60:]) == {429}
    wrong = other[0]
    with _frozen():
        # no token, another code's, the table kind's for this code
        for query in ("", "?k=" + SHORT_LINK.of(other[1]), "?k=" + TABLE_LINK.of(code)):
            right = client.get(f"/p/{code}/{query}")
            _same(right, client.get(f"/p/{wrong}/{query}"), code, wrong)
            assert right.status_code == 429
            api = client.get(f"/api/v1/positions/{code}{query}")
            _same(api, client.get(f"/api/v1/positions/{wrong}{query}"), code, wrong)
            assert api.status_code == 429
    assert client.get(url)["Location"].startswith("/en/analyze/?pos=")
    assert client.get(f"/api/v1/positions/{code}", {"k": SHORT_LINK.of(code)}).status_code == 200


def test_the_analyzer_shares_its_short_link_with_the_token(client, settings):
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "code-miss": "1/10m"}
    saved = client.post("/en/analyze/save/", {"pos": "Rb_11r1.12-13b2.14", "title": ""})
    page = client.get(saved["Location"]).content.decode()
    [link] = re.findall(r'data-testid="short-link".*?<a href="([^"]+)"', page, re.S)
    assert client.get("/p/zzzzzzz/").status_code == 404  # uses the one failed lookup
    code = urlsplit(link).path.split("/")[2]
    assert client.get(f"/p/{code}/").status_code == 429
    assert client.get(link).status_code == 302


def test_a_guest_without_cookies_polls_with_the_qr_codes_token(client):
    _presenter, code, qr = _start_table()
    with _frozen():  # one window of the limit for the whole test
        statuses = [client.get("/en/teach/join/", {"code": guess}).status_code
                    for guess in _guesses(5, {code})[:31]]
        assert statuses[-1] == 429  # the address is limited from here on
        page = client.get(client.get(qr)["Location"]).content.decode()
        [poll] = re.findall(r'hx-get="([^"]+/poll/[^"]+)"', page)
        poll = poll.replace("&amp;", "&")
        assert f"k={TABLE_LINK.of(code)}" in poll
        client.cookies.clear()  # a browser that keeps no cookies
        assert client.get(poll).status_code in (200, 204)
        assert client.get(poll.replace(TABLE_LINK.of(code), "A" * 16)).status_code == 429
