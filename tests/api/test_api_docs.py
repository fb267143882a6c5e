"""OpenAPI description and the Swagger UI page: local files only, site CSP unchanged; the
games' answers described field by field."""

from __future__ import annotations

import re
from html.parser import HTMLParser

import jsonschema
import pytest
from django.contrib.staticfiles import finders

from api_helpers import post_json

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


def _resolved(node: dict, spec: dict) -> dict:
    """``node`` with its ``$ref`` followed, and of ``anyOf [X, null]`` the X."""
    while True:
        if "$ref" in node:
            node = spec["components"]["schemas"][node["$ref"].rsplit("/", 1)[1]]
        elif "anyOf" in node:
            kinds = [n for n in node["anyOf"] if n.get("type") != "null"]
            assert len(kinds) == 1, node
            node = kinds[0]
        else:
            return node


def _each_field_described(value, node: dict, spec: dict, where: str) -> int:
    """Walks ``value`` (an answer) beside its schema: every key a named property with a
    type, down to the values the schema leaves open (an event's params). Returns how
    many fields it checked."""
    node = _resolved(node, spec)
    checked = 0
    if isinstance(value, dict) and "properties" in node:
        for key, item in value.items():
            assert key in node["properties"], f"{where}.{key} is not in the schema"
            field = node["properties"][key]
            assert "type" in field or "anyOf" in field or "$ref" in field, f"{where}.{key} has no type"
            checked += 1 + _each_field_described(item, field, spec, f"{where}.{key}")
    elif isinstance(value, list) and value:
        assert "items" in node, f"{where} is a list the schema does not describe"
        checked += sum(_each_field_described(item, node["items"], spec, f"{where}[{i}]")
                       for i, item in enumerate(value))
    return checked


def test_openapi_names_and_types_every_field_of_the_game_state(client):
    """The games' answers are described field by field in /api/openapi.json (and so on
    /api/docs), and what the API answers is exactly what that schema says."""
    spec = client.get("/api/openapi.json").json()
    operations = spec["paths"]
    answers = [operations["/api/v1/games/{game_id}"]["get"]["responses"]["200"],
               operations["/api/v1/games/{game_id}/actions"]["post"]["responses"]["200"]]
    refs = {a["content"]["application/json"]["schema"]["$ref"] for a in answers}
    assert len(refs) == 1
    state_schema = {"$ref": refs.pop()}
    created = spec["components"]["schemas"]["GameOut"]["properties"]["state"]
    assert _resolved(created, spec) is _resolved(state_schema, spec)
    validator = jsonschema.Draft202012Validator({**state_schema, "components": spec["components"]})

    started = post_json(client, "/api/v1/games", {"seats": ["red", "blue"], "learner": "red",
                                                  "strength": "random", "seed": 7}).json()
    headers = {"HTTP_X_GAME_KEY": started["key"]}
    states = [started["state"]]
    for _ in range(4):  # a few of the learner's actions: more kinds of actions and events
        view = states[-1]
        if not view["legal_actions"]:
            break
        response = post_json(client, f"/api/v1/games/{started['id']}/actions",
                             {"action": view["legal_actions"][0], "version": view["version"]}, **headers)
        assert response.status_code == 200, response.content
        states.append(response.json())
    assert len(states) > 1

    state_node = _resolved(state_schema, spec)
    for state in states:
        assert sorted(validator.iter_errors(state), key=str) == []
        assert _each_field_described(state, state_schema, spec, "state") > len(state)
        assert set(state) == set(state_node["properties"])  # every field answered, none more
    assert {"board", "seats", "hand", "phase", "legal_actions", "events"} <= set(state_node["properties"])
    for name in ("board", "seats", "legal_actions", "events"):
        items = _resolved(_resolved(state_node["properties"][name], spec)["items"], spec)
        assert items.get("properties") or items.get("items"), f"{name}: items without fields"
