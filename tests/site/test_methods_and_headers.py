"""Methods every page accepts, HEAD without rendering, and the headers on every response."""

from __future__ import annotations

import json

import pytest
from django.test import Client

from tutorials.models import SavedPosition, Table
from tutorials.sheets import render as sheets

pytestmark = pytest.mark.django_db

POSITION = "Rb_11r1.12b2"


@pytest.fixture
def table(client) -> str:
    response = client.post("/en/teach/", {"players": "4", "mode": "action"})
    return response["Location"].rstrip("/").split("/")[-1]


@pytest.fixture
def saved() -> str:
    row = SavedPosition(notation=POSITION, title="t")
    row.save()
    return row.code


@pytest.fixture
def no_render(monkeypatch):
    """Fail the test if anything asks WeasyPrint for a PDF."""
    def refuse(*args, **kwargs):
        raise AssertionError("a PDF was rendered")

    monkeypatch.setattr(sheets, "render_pdf", refuse)


def _pages(table: str, saved: str) -> list[str]:
    return ["/en/", "/en/tutorial/", "/en/tutorial/battle-time/",
            "/en/tutorial/battle-time/board/battle/?do=step&at=1", "/en/rules/", "/en/analyze/",
            f"/en/analyze/edit/?pos={POSITION}&op=clear", "/en/analyze/save/",
            f"/en/analyze/position.pdf?pos={POSITION}", "/en/sheets/", "/en/sheets/reference.pdf",
            "/en/sheets/reference.png", "/en/teach/", f"/en/teach/join/?code={table}",
            f"/en/teach/{table}/", f"/en/teach/{table}/go/", f"/en/teach/{table}/board/dice/",
            f"/en/t/{table}/", f"/en/t/{table}/poll/?v=1", f"/p/{saved}/", f"/t/{table}/"]


@pytest.mark.parametrize("method", ["TRACE", "PUT", "DELETE", "OPTIONS", "PATCH"])
def test_pages_refuse_other_methods(client, table, saved, no_render, method):
    for url in _pages(table, saved):
        response = client.generic(method, url)
        assert response.status_code == 405, (method, url, response.status_code)
        assert response.content == b"", (method, url)  # nothing rendered
        assert set(response["Allow"].split(", ")) <= {"GET", "HEAD", "POST"}
    assert Table.objects.get(code=table).version == 1


def test_head_answers_like_get_on_the_guest_pages(client, table):
    guest = Client()
    for url in (f"/en/t/{table}/", f"/en/teach/join/?code={table}", "/en/teach/join/"):
        head, get = guest.head(url), guest.get(url)
        assert head.status_code == get.status_code and head.content == b"", url
        assert head["Content-Type"] == get["Content-Type"]
    assert guest.head(f"/en/t/{table}/poll/?v=1").status_code == 204
    assert guest.head(f"/en/t/{table}/poll/?v=0").status_code == 200


def test_head_on_pdfs_renders_nothing_and_counts_nothing(client, settings, no_render, tmp_path, monkeypatch):
    monkeypatch.setattr(sheets, "CACHE_DIR", tmp_path / "empty-cache")
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "pdf": "2/d"}
    for _ in range(5):
        for url in (f"/de/analyze/position.pdf?pos={POSITION}", "/de/sheets/rules.pdf?paper=letter"):
            response = client.head(url)
            assert response.status_code == 200, url
            assert response["Content-Type"] == "application/pdf" and response.content == b""
    # bad input is still refused, as GET would refuse it
    assert client.head("/en/analyze/position.pdf?pos=Rb_").status_code == 422
    monkeypatch.undo()
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "pdf": "2/d"}
    assert client.get(f"/en/analyze/position.pdf?pos={POSITION}").status_code == 200  # nothing counted


def _responses(client, table, saved):
    """(what, response) for one of every kind of response the site gives."""
    yield "page", client.get("/en/tutorial/")
    yield "redirect", client.get("/en/")
    yield "404 page", client.get("/en/nothing-here/")
    yield "405 page", client.generic("TRACE", "/en/rules/")
    yield "static file", client.get("/static/css/site.css")
    yield "short link", client.get(f"/p/{saved}/")
    yield "table link", client.get(f"/t/{table}/")
    yield "API answer", client.get(f"/api/v1/positions/{POSITION}")
    yield "API 404", client.get("/api/v1/nothing")
    yield "API 405", client.get("/api/v1/solve")
    yield "API 413", client.post("/api/v1/solve", data="x" * (70 * 1024), content_type="application/json")
    yield "API 415", client.post("/api/v1/solve", data="{}", content_type="text/plain")
    yield "API 422", client.post("/api/v1/solve", data="{}", content_type="application/json")
    yield "API docs", client.get("/api/docs")


def test_every_response_has_csp_frame_and_permissions_headers(client, table, saved):
    for what, response in _responses(client, table, saved):
        assert "default-src 'self'" in response.get("Content-Security-Policy", ""), what
        assert response.get("X-Frame-Options") == "DENY", what
        policy = response.get("Permissions-Policy", "")
        assert "camera=()" in policy and "geolocation=()" in policy and "microphone=()" in policy, what


def test_responses_worded_by_cookie_or_header_vary_on_both(client, saved):
    client.cookies["captain_language"] = "de"
    api = client.post("/api/v1/solve", data="{}", content_type="application/json")
    assert "Schlüssel" in json.loads(api.content)["message"]  # the cookie chose German
    for response in (api, client.get(f"/p/{saved}/"), client.get("/t/abcde/"),
                     client.get("/api/v1/nothing")):
        vary = {v.strip().lower() for v in response["Vary"].split(",")}
        assert {"cookie", "accept-language"} <= vary, response


def test_static_files_vary_on_nothing_a_visitor_chooses(client):
    """A static file is the same for every visitor: one copy per cookie in a shared cache
    would be a copy per visitor."""
    client.cookies["captain_language"] = "de"
    response = client.get("/static/css/site.css", HTTP_HX_REQUEST="true", HTTP_ACCEPT_LANGUAGE="ja")
    assert response.status_code == 200
    vary = {v.strip().lower() for v in response.get("Vary", "").split(",") if v.strip()}
    assert not vary & {"cookie", "accept-language", "hx-request"}, vary
