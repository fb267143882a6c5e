"""OpenAPI description and the Swagger UI page: local files only, site CSP unchanged."""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest
from django.contrib.staticfiles import finders

pytestmark = pytest.mark.django_db

OPERATIONS = {("/api/v1/solve", "post"), ("/api/v1/positions/{code}", "get"),
              ("/api/v1/positions", "post"), ("/api/v1/games", "post"),
              ("/api/v1/games/{game_id}", "get"), ("/api/v1/games/{game_id}/actions", "post"),
              ("/api/v1/rules/search", "get")}


def test_openapi_lists_every_operation_with_descriptions(client):
    response = client.get("/api/openapi.json")
    assert response.status_code == 200
    spec = response.json()
    assert spec["info"]["title"] == "Captain Dice rules API"
    assert spec["info"]["version"] == "1"
    found = {(path, method) for path, item in spec["paths"].items() for method in item}
    assert found == OPERATIONS
    for path, method in OPERATIONS:
        operation = spec["paths"][path][method]
        assert len(operation["description"]) > 100, (path, method)
        assert "422" in operation["responses"]
    solve = spec["paths"]["/api/v1/solve"]["post"]
    body_schema = solve["requestBody"]["content"]["application/json"]["schema"]
    assert body_schema["required"] == ["players", "start_player", "board"]
    assert "201" in spec["paths"]["/api/v1/positions"]["post"]["responses"]
    assert "404" in spec["paths"]["/api/v1/positions/{code}"]["get"]["responses"]


class _Collect(HTMLParser):
    def __init__(self):
        super().__init__()
        self.urls, self.scripts, self.inline_styles = [], [], 0

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        for key in ("src", "href"):
            if attrs.get(key):
                self.urls.append(attrs[key])
        if tag == "script":
            self.scripts.append(attrs)
        if tag == "style" or "style" in attrs:
            self.inline_styles += 1


def test_docs_page_uses_only_local_static_files(client):
    response = client.get("/api/docs")
    assert response.status_code == 200
    html = response.content.decode()
    page = _Collect()
    page.feed(html)
    assert page.urls, "the page loads Swagger UI from somewhere"
    for url in page.urls:
        assert url.startswith("/static/"), url
        assert finders.find(url.removeprefix("/static/")), f"{url} is not a static file"
    assert not re.search(r"https?://|//cdn|unpkg|jsdelivr", html)
    # scripts: files from /static/ plus one JSON data block, which CSP does not execute
    for attrs in page.scripts:
        assert attrs.get("src", "").startswith("/static/") or attrs.get("type") == "application/json"
    assert page.inline_styles == 0


def test_docs_page_keeps_the_sites_strict_csp(client):
    csp = client.get("/api/docs")["Content-Security-Policy"]
    assert "script-src 'self'" in csp and "style-src 'self'" in csp
    assert "unsafe-inline" not in csp and "unsafe-eval" not in csp
    assert "https:" not in csp
