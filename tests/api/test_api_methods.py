"""The API's methods: HEAD answers like GET without a body (no extra operations in the
schema), the docs and the schema are only read, and the schema states what is refused."""

from __future__ import annotations

import pytest
from django.test import Client

from tutorials.models import SavedPosition

pytestmark = pytest.mark.django_db

POSITION = "Rb_11r1.12b2"


def test_head_answers_like_get_without_a_body(client):
    saved = SavedPosition(notation=POSITION, title="t")
    saved.save()
    for url in (f"/api/v1/positions/{POSITION}", f"/api/v1/positions/{saved.code}",
                "/api/openapi.json", "/api/v1/positions/zzzzzzzz"):
        get, head = client.get(url), client.head(url)
        assert head.status_code == get.status_code and head.status_code != 405, url
        assert head["Content-Type"] == get["Content-Type"], url
        assert int(head["Content-Length"]) == len(get.content) and head.content == b"", url


def test_head_on_a_post_only_route_is_still_refused(client):
    response = client.head("/api/v1/solve")
    assert response.status_code == 405 and response["Allow"] == "POST"


def test_head_adds_no_operations_to_the_schema(client):
    paths = client.get("/api/openapi.json").json()["paths"]
    methods = {method for operations in paths.values() for method in operations}
    ids = [operation["operationId"] for operations in paths.values() for operation in operations.values()]
    assert methods <= {"get", "post"} and len(ids) == len(set(ids))


@pytest.mark.parametrize("method", ["TRACE", "OPTIONS", "PUT", "DELETE", "POST", "PATCH"])
@pytest.mark.parametrize("url", ["/api/docs", "/api/openapi.json"])
def test_the_docs_and_the_schema_are_only_read(method, url):
    # as a browser's request is checked: with the CSRF check, which must not answer first
    response = Client(enforce_csrf_checks=True).generic(method, url)
    assert response.status_code == 405
    assert response["Allow"] == "GET, HEAD"
    assert response.json()["detail"][0]["code"] == "method-not-allowed"


def test_the_schema_says_since_is_a_version(client):
    read = client.get("/api/openapi.json").json()["paths"]["/api/v1/games/{game_id}"]["get"]
    [since] = [p for p in read["parameters"] if p["name"] == "since"]
    assert {"type": "integer", "minimum": 0} in since["schema"]["anyOf"]
    response = client.get("/api/v1/games/abcdefgh", {"since": -1})
    assert response.status_code == 422 and response.json()["detail"][0]["field"] == "since"
