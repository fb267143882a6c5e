"""Shared helpers for the JSON API tests (imported as ``api_helpers``; tests/ has no packages)."""

from __future__ import annotations

import json

PROBLEM_KEYS = {"field", "position", "offset", "code", "clause", "message"}

#: A small legal position (red and blue, red starts) to break in the error tests.
BASE = {"players": ["red", "blue"], "start_player": "red"}


def post_json(client, path, data, **headers):
    body = data if isinstance(data, (bytes, str)) else json.dumps(data)
    return client.post(path, data=body, content_type="application/json", **headers)


def problems_of(response, status=422):
    """Assert the shared error shape and return the problem list."""
    assert response.status_code == status, response.content
    assert response["Content-Type"].startswith("application/json")
    body = response.json()
    assert set(body) == {"detail", "message"}
    assert isinstance(body["detail"], list) and body["detail"]
    for problem in body["detail"]:
        assert set(problem) == PROBLEM_KEYS
        assert problem["code"] and isinstance(problem["code"], str)
        assert problem["message"] and isinstance(problem["message"], str)
    assert body["message"] == body["detail"][0]["message"]
    return body["detail"]
