"""The remembered language, unprefixed POSTs, and not-found pages that say what is missing.

1. A language picked in the switcher is stored in the language cookie and honoured on the
   unprefixed entry points (``/``, ``/p/<code>/``, ``/t/<code>/``); merely visiting a
   prefixed address does not change it. The JSON API prefers an explicit ``Accept-Language``.
2. An unsafe request to an unprefixed address is redirected with 307 (method and body kept).
3. Each not-found page names what was not found, in the visitor's language.
"""

from __future__ import annotations

import html
import json
import os
import re
import subprocess
import sys
from datetime import timedelta
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client
from django.utils import timezone, translation
from django.utils.translation import gettext

from tutorials.models import SavedPosition, Table

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]
POSITION = "Rb_11r1.12b2"
COOKIE = settings.LANGUAGE_COOKIE_NAME
LANGS = ["ja", "en", "de"]
#: A same-origin click, as a browser marks it (the Django test client sends no such header).
CLICK = {"HTTP_SEC_FETCH_SITE": "same-origin"}


@pytest.fixture
def saved() -> str:
    row = SavedPosition(notation=POSITION, title="t")
    row.save()
    return row.code


@pytest.fixture
def table() -> str:
    response = Client().post("/en/teach/", {"players": "4", "mode": "action"})
    assert response.status_code == 302
    return response["Location"].rstrip("/").split("/")[-1]


def switcher_href(client: Client, page: str, lang: str, **headers) -> str:
    """The href of the language switcher's link to ``lang`` on ``page``."""
    body = client.get(page, **headers).content.decode()
    nav = re.search(r'<nav class="lang-switch".*?</nav>', body, re.S).group(0)
    return html.unescape(re.search(rf'<a href="([^"]+)" lang="{lang}"', nav).group(1))


def choose(client: Client, lang: str, page: str = "/ja/tutorial/", accept: str = "ja"):
    """Click the switcher's link to ``lang`` on ``page`` (a browser set to ``accept``)."""
    href = switcher_href(client, page, lang, HTTP_ACCEPT_LANGUAGE=accept)
    return client.get(href, HTTP_ACCEPT_LANGUAGE=accept, **CLICK)


def in_language(lang: str, msgid: str) -> str:
    with translation.override(lang):
        return gettext(msgid)


# --- 1. the remembered language --------------------------------------------------------------
def test_choosing_a_language_stores_it_in_the_cookie(client):
    response = choose(client, "de")
    assert response.status_code == 302 and response["Location"] == "/de/tutorial/"  # the clean URL
    cookie = response.cookies[COOKIE]
    assert cookie.value == "de"
    assert int(cookie["max-age"]) >= 180 * 24 * 3600
    assert cookie["samesite"] == "Lax" and cookie["path"] == "/" and cookie["httponly"]
    assert bool(cookie["secure"]) == settings.SECURE
    assert "no-store" in response["Cache-Control"]
    # the page's state (query string) is kept; the fragment stays with the browser
    kept = choose(client, "en", page="/ja/tutorial/battle-time/?battle=3")
    assert kept["Location"] == "/en/tutorial/battle-time/?battle=3"
    assert kept.cookies[COOKIE].value == "en"
    # choosing the language already shown is a choice too
    assert choose(client, "ja").cookies[COOKIE].value == "ja"


def test_the_cookie_is_secure_in_production():
    env = {**os.environ, "DJANGO_SECRET_KEY": "x" * 50, "DJANGO_SECURE": "1", "DJANGO_DEBUG": "0"}
    out = subprocess.run([sys.executable, "-c", "import captain.settings as s; "
                          "print(s.LANGUAGE_COOKIE_SECURE, s.LANGUAGE_COOKIE_SAMESITE)"],
                         cwd=ROOT, env=env, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr[-500:]
    assert out.stdout.split() == ["True", "Lax"]


def test_mere_visits_do_not_store_a_language(client):
    client.cookies[COOKIE] = "ja"
    for url in ("/de/tutorial/", "/de/rules/", "/en/analyze/", "/", "/de/"):
        response = client.get(url, HTTP_ACCEPT_LANGUAGE="de")
        assert COOKIE not in response.cookies, url
    # a switcher link that arrives from elsewhere (pasted, another site, a prefetch) only
    # leads to the page: it changes nothing
    for headers in ({"HTTP_SEC_FETCH_SITE": "cross-site"}, {"HTTP_SEC_FETCH_SITE": "none"},
                    {"HTTP_REFERER": "https://elsewhere.example/"},
                    {**CLICK, "HTTP_SEC_PURPOSE": "prefetch"}):
        response = client.get("/de/tutorial/?x=1&language=de", **headers)
        assert response.status_code == 302 and response["Location"] == "/de/tutorial/?x=1", headers
        assert COOKIE not in response.cookies, headers
    # a click from one of the site's own pages (no Sec-Fetch-Site, same-origin Referer) counts
    clicked = client.get("/de/tutorial/?language=de", HTTP_REFERER="http://testserver/ja/tutorial/")
    assert clicked.cookies[COOKIE].value == "de"


def test_the_choice_is_honoured_on_unprefixed_entry_points(client, saved, table):
    choose(client, "de", accept="ja")  # a browser set to Japanese picks Deutsch
    home = client.get("/", HTTP_ACCEPT_LANGUAGE="ja", follow=True)
    assert home.redirect_chain[-1][0] == "/de/tutorial/"
    assert '<html lang="de">' in home.content.decode()
    assert client.get(f"/p/{saved}/", HTTP_ACCEPT_LANGUAGE="ja")["Location"].startswith("/de/analyze/")
    assert client.get(f"/t/{table}/", HTTP_ACCEPT_LANGUAGE="ja")["Location"] == f"/de/t/{table}/"
    # unprefixed addresses that exist under a prefix too
    assert client.get("/teach/", HTTP_ACCEPT_LANGUAGE="ja")["Location"] == "/de/teach/"


def test_api_accept_language_wins_over_the_cookie(client):
    choose(client, "de", accept="ja")
    solve = "/api/v1/solve"
    with_header = client.post(solve, data="{}", content_type="application/json", HTTP_ACCEPT_LANGUAGE="ja")
    assert with_header["Content-Language"] == "ja"
    assert json.loads(with_header.content)["message"] != json.loads(
        client.post(solve, data="{}", content_type="application/json",
                    HTTP_ACCEPT_LANGUAGE="en").content)["message"]
    # without the header the site's cookie applies
    without = client.post(solve, data="{}", content_type="application/json")
    assert without["Content-Language"] == "de"
    # the middlewares' own answers (404, 413) too
    missing = client.get("/api/v1/nothing", HTTP_ACCEPT_LANGUAGE="en")
    assert missing.status_code == 404 and missing["Content-Language"] == "en"
    too_large = client.post(solve, data="x" * (70 * 1024), content_type="application/json",
                            HTTP_ACCEPT_LANGUAGE="en")
    assert too_large.status_code == 413 and too_large["Content-Language"] == "en"
    assert client.get("/api/v1/nothing")["Content-Language"] == "de"
    # and the API's documentation says so
    description = client.get("/api/openapi.json").json()["info"]["description"]
    assert "Accept-Language" in description and "cookie" in description


# --- 2. unprefixed POSTs keep their method ----------------------------------------------------
def test_unprefixed_post_is_redirected_with_307_keeping_the_body():
    client = Client(enforce_csrf_checks=True)
    form = client.get("/en/teach/").content.decode()
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', form).group(1)
    data = {"players": "3", "mode": "action", "script": "quick", "csrfmiddlewaretoken": token}
    response = client.post("/teach/?from=qr", data, HTTP_ACCEPT_LANGUAGE="de")
    assert response.status_code == 307
    assert response["Location"] == "/de/teach/?from=qr"
    assert {"accept-language", "cookie"} <= {v.strip().lower() for v in response["Vary"].split(",")}
    assert not Table.objects.exists()
    # a browser repeats the POST, body and CSRF token included: the table is created
    followed = client.post("/teach/", data, HTTP_ACCEPT_LANGUAGE="de", follow=True)
    assert [status for _url, status in followed.redirect_chain] == [307, 302]
    assert followed.status_code == 200 and '<html lang="de">' in followed.content.decode()
    assert Table.objects.get().options["players"] == 3
    # a CSRF token sent as a header (htmx) survives the redirect too
    by_header = client.post("/teach/", {k: v for k, v in data.items() if k != "csrfmiddlewaretoken"},
                            HTTP_ACCEPT_LANGUAGE="ja", HTTP_X_CSRFTOKEN=token, follow=True)
    assert by_header.redirect_chain[0] == ("/ja/teach/", 307) and by_header.status_code == 200
    assert Table.objects.count() == 2


def test_unprefixed_post_follows_the_cookie_and_other_methods_keep_working(client):
    client.cookies[COOKIE] = "ja"
    assert client.post("/teach/", {}, HTTP_ACCEPT_LANGUAGE="de")["Location"] == "/ja/teach/"
    for method in ("put", "patch", "delete"):
        response = getattr(client, method)("/teach/", HTTP_ACCEPT_LANGUAGE="de")
        assert response.status_code == 307 and response["Location"] == "/ja/teach/", method
    get = client.get("/teach/?a=1")
    assert get.status_code == 302 and get["Location"] == "/ja/teach/?a=1"
    assert client.head("/teach/").status_code == 302
    assert client.post("/no-such-page/", {}).status_code == 404


# --- 3. not-found pages -----------------------------------------------------------------------
def assert_not_found(response, lang: str, heading: str, *, status: int = 404, link: str = "",
                     names: str = "") -> str:
    """The page is a ``status`` page in ``lang`` whose title and heading are ``heading``
    (translated: the ja and de pages are not in English), naming ``names`` and linking ``link``."""
    assert response.status_code == status
    body = response.content.decode()
    assert f'<html lang="{lang}">' in body
    expected = in_language(lang, heading)
    if lang != "en":
        assert expected != heading, f"{heading!r} has no {lang} translation"
    h1 = re.search(r"<h1[^>]*>(.*?)</h1>", body, re.S).group(1).strip()
    assert h1 == html.escape(expected, quote=False)
    assert re.search(r"<title>(.*?)</title>", body, re.S).group(1).startswith(html.escape(expected))
    if names:
        assert names in body
    if link:
        assert f'href="{link}"' in body
    return body


@pytest.mark.parametrize("lang", LANGS)
def test_unknown_saved_position(client, lang):
    client.cookies[COOKIE] = lang  # the cookie beats Accept-Language on an unprefixed address
    response = client.get("/p/zzzzzzz/", HTTP_ACCEPT_LANGUAGE="fr" if lang != "en" else "ja")
    body = assert_not_found(response, lang, "Saved position not found", names="zzzzzzz",
                            link=f"/{lang}/analyze/")
    assert in_language(lang, "Table code") not in body  # no talk of table codes


@pytest.mark.parametrize("lang", LANGS)
def test_unknown_saved_position_without_cookie_follows_accept_language(client, lang):
    response = client.get("/p/zzzzzzz/", HTTP_ACCEPT_LANGUAGE=lang)
    assert_not_found(response, lang, "Saved position not found", names="zzzzzzz")


@pytest.mark.parametrize("lang", LANGS)
def test_unknown_tutorial_page(client, lang):
    response = client.get(f"/{lang}/tutorial/no-such-lesson/", HTTP_ACCEPT_LANGUAGE="ja")
    assert_not_found(response, lang, "Tutorial page not found", names="no-such-lesson",
                     link=f"/{lang}/tutorial/")


@pytest.mark.parametrize("lang", LANGS)
def test_unknown_sheet(client, lang):
    for url in (f"/{lang}/sheets/no-such-sheet.pdf", f"/{lang}/sheets/no-such-sheet.png"):
        assert_not_found(client.get(url), lang, "Printable sheet not found", names="no-such-sheet",
                         link=f"/{lang}/sheets/")


@pytest.mark.parametrize("lang", LANGS)
def test_unknown_address(client, lang):
    client.cookies[COOKIE] = lang
    for url in ("/no/such/address/", f"/{lang}/no/such/address/"):
        body = assert_not_found(client.get(url, HTTP_ACCEPT_LANGUAGE="de" if lang != "de" else "ja"), lang,
                                "Page not found", link=f"/{lang}/tutorial/")
        lead = in_language(lang, "There is nothing at this address. Check it for typing mistakes, "
                                 "or go on from one of these pages.")
        assert html.escape(lead, quote=False) in body, url


@pytest.mark.parametrize("lang", LANGS)
def test_unknown_or_ended_table(client, lang, table):
    client.cookies[COOKIE] = lang
    other = "de" if lang != "de" else "ja"
    # the short table link leads straight to the table's page in the visitor's language
    unknown = client.get("/t/nosuch/", HTTP_ACCEPT_LANGUAGE=other, follow=True)
    assert unknown.redirect_chain == [(f"/{lang}/t/nosuch/", 302)]
    assert_not_found(unknown, lang, "No such table", names="nosuch", link=f"/{lang}/teach/")
    for url in (f"/{lang}/t/nosuch/", f"/{lang}/teach/nosuch/"):
        assert_not_found(client.get(url), lang, "No such table", names="nosuch", link=f"/{lang}/teach/")
    Table.objects.filter(code=table).update(expires_at=timezone.now() - timedelta(minutes=1))
    for url in (f"/t/{table}/", f"/{lang}/t/{table}/", f"/{lang}/teach/{table}/"):
        assert_not_found(client.get(url, HTTP_ACCEPT_LANGUAGE=other, follow=True), lang,
                         "This table has ended", status=410, names=table)
