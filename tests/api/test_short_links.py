"""/p/<code>/ short links: redirect to the analyzer in the viewer's language."""

from __future__ import annotations

from urllib.parse import parse_qs, quote, urlsplit

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from api_helpers import post_json
from captain.rules.notation import parse

pytestmark = pytest.mark.django_db

NOTATION = "rB_11R.12.x-15.16B.22_rv1s_d12_wr11.b1234"


def saved_code(client, notation=NOTATION):
    response = post_json(client, "/api/v1/positions", {"notation": notation})
    assert response.status_code == 201, response.content
    return response.json()["code"]


def target(response):
    """(path, notation) of a short-link redirect."""
    assert response.status_code == 302
    url = urlsplit(response["Location"])
    [pos] = parse_qs(url.query, strict_parsing=True)["pos"]
    return url.path, pos


@pytest.mark.parametrize("accept,lang", [("ja", "ja"), ("ja-JP,ja;q=0.9,en;q=0.5", "ja"),
                                         ("de-DE,de;q=0.9", "de"), ("en-GB", "en"),
                                         ("fr", "en"), ("", "en")])
def test_redirects_to_the_analyzer_in_the_viewers_language(client, accept, lang):
    code = saved_code(client)
    headers = {"HTTP_ACCEPT_LANGUAGE": accept} if accept else {}
    response = client.get(f"/p/{code}/", **headers)
    assert response["Location"] == f"/{lang}/analyze/?pos={quote(NOTATION, safe='')}&saved={code}"
    assert target(response) == (f"/{lang}/analyze/", NOTATION)
    assert "Accept-Language" in response["Vary"]


def test_language_cookie_wins_over_accept_language(client, settings):
    code = saved_code(client)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "de"
    response = client.get(f"/p/{code}/", HTTP_ACCEPT_LANGUAGE="ja")
    assert target(response)[0] == "/de/analyze/"


def test_unknown_code_is_404(client):
    assert client.get("/p/k3m9xqa/").status_code == 404
    assert client.get("/p/Rb_11/").status_code == 404  # a notation is not a short code


@pytest.mark.django_db(transaction=True)
def test_links_saved_before_later_migrations_still_redirect(client):
    """A row written under the first schema keeps its exact notation after every migration."""
    first = [("tutorials", "0001_saved_position")]
    executor = MigrationExecutor(connection)
    executor.migrate(first)
    old_apps = executor.loader.project_state(first).apps
    OldSavedPosition = old_apps.get_model("tutorials", "SavedPosition")
    # historical models have no custom save(): the code is given explicitly
    OldSavedPosition.objects.create(code="old2345", notation=NOTATION, title="before")

    executor = MigrationExecutor(connection)  # reload the graph after migrating
    latest = executor.loader.graph.leaf_nodes("tutorials")
    executor.migrate(latest)

    response = client.get("/p/old2345/", HTTP_ACCEPT_LANGUAGE="ja")
    assert target(response) == ("/ja/analyze/", NOTATION)
    parse(NOTATION)  # and it is still readable with today's grammar
    api = client.get("/api/v1/positions/old2345").json()
    assert (api["notation"], api["saved"]["title"]) == (NOTATION, "before")


def test_the_redirect_target_is_the_analyzer_page(client):
    """The analyzer (another module) reads ``pos``; following the link shows the position."""
    code = saved_code(client)
    page = client.get(f"/p/{code}/", HTTP_ACCEPT_LANGUAGE="de", follow=True)
    assert page.redirect_chain[0][0].startswith("/de/analyze/?pos=")
    assert page.status_code == 200


@pytest.mark.django_db
def test_short_codes_are_found_however_they_are_typed(client):
    """A short code is found however it is typed (capitals, full width), by the page and by
    the API, which never reads it as a broken notation."""
    saved = client.post("/api/v1/positions", {"notation": "Rb_11r1.12b2"}, content_type="application/json")
    code = saved.json()["code"]
    full_width = "".join(chr(ord(c) + 0xFEE0) for c in code)
    for typed in (code.upper(), full_width):
        page = client.get(f"/p/{typed}/")
        assert page.status_code in (301, 302) and "Rb_11r1.12b2" in page["Location"], typed
        api = client.get(f"/api/v1/positions/{typed}")
        assert api.status_code == 200 and api.json()["notation"] == "Rb_11r1.12b2", typed
    assert client.get("/api/v1/positions/zzzzzzz").status_code == 404
