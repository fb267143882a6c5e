"""The same bad input gets the same answer everywhere: every form of the site and its JSON
API twin refuse a field (key) sent twice, text that is not UTF-8, a title of only
invisible characters and a rule set the table may not play with the same code.

A form's refusal code is read from the page (``data-code`` beside the field, or on the
game page's refusal); the API's from its problem list.
"""

from __future__ import annotations

import json
import re
from urllib.parse import urlencode

import pytest

from tutorials.models import PracticeGame, SavedPosition, Table

pytestmark = pytest.mark.django_db

FORM = "application/x-www-form-urlencoded"
PLAY = {"players": "3", "colour": "red", "start": "random", "strength": "greedy",
        "collection": "sequential", "mode": "action", "pace": "table"}
GAME = {"seats": ["red", "blue", "green"], "learner": "red"}
POSITION = "Rb_11r1.12b2"


def _codes(response) -> list[str]:
    """Every refusal code the page shows."""
    assert response.status_code == 422, response.status_code
    return [c for c in re.findall(r'data-code="([^"]*)"', response.content.decode()) if c]


def _api_code(response) -> str:
    assert response.status_code == 422, response.content
    return response.json()["detail"][0]["code"]


def _post_form(client, url, body: bytes | str):
    return client.post(url, body, content_type=FORM)


def _post_json(client, url, body: bytes | str, **headers):
    return client.post(url, body, content_type="application/json", **headers)


def _quoted(fields: list[tuple[str, str]]) -> str:
    return urlencode(fields)


# --- the bad inputs, each as a form body and as a JSON body -------------------------------------
def _play_start(bad: str) -> tuple[str | bytes, str | bytes]:
    fields = list(PLAY.items())
    if bad == "duplicate":
        return (_quoted([*fields, ("players", "4")]),
                '{"seats": ["red", "blue"], "seats": ["red", "green"], "learner": "red"}')
    if bad == "utf8":
        return (_quoted(fields).replace("colour=red", "colour=r%FFd").encode(),
                b'{"seats": ["red", "blue"], "learner": "r\xffd"}')
    if bad == "rules":  # a bell rule in strategy mode (STRAT-1)
        return (_quoted([*fields, ("variants", "v3")]).replace("mode=action", "mode=strategy"),
                json.dumps({**GAME, "rules": {"mode": "strategy", "bell": "all-dice"}}))
    if bad == "rules-two":  # the first-edition bell with two players
        return (_quoted([*fields, ("first_edition", "1")]).replace("players=3", "players=2"),
                json.dumps({"seats": ["red", "blue"], "learner": "red", "rules": {"bell": "first-edition"}}))
    raise AssertionError(bad)


@pytest.mark.parametrize("bad, code", [("duplicate", "duplicate-field"), ("utf8", "not-utf8"),
                                       ("rules", "bell-in-strategy"), ("rules-two", "first-edition-two")])
def test_the_start_form_and_the_games_api_refuse_alike(client, bad, code):
    form, body = _play_start(bad)
    assert code in _codes(_post_form(client, "/en/play/", form))
    assert _api_code(_post_json(client, "/api/v1/games", body)) == code
    assert not PracticeGame.objects.exists()


def _save(bad: str) -> tuple[str | bytes, str | bytes]:
    if bad == "duplicate":
        return (_quoted([("pos", POSITION), ("title", "a"), ("title", "b")]),
                json.dumps({"notation": POSITION})[:-1] + ', "title": "a", "title": "b"}')
    if bad == "utf8":
        return (f"pos={POSITION}&title=caf%C3".encode(),
                b'{"notation": "' + POSITION.encode() + b'", "title": "caf\xc3"}')
    if bad == "invisible":
        return (_quoted([("pos", POSITION), ("title", "\u200b\u2060\u3164")]),
                json.dumps({"notation": POSITION, "title": "\u200b\u2060\u3164"}))
    raise AssertionError(bad)


@pytest.mark.parametrize("bad, code", [("duplicate", "duplicate-field"), ("utf8", "not-utf8"),
                                       ("invisible", "invisible-title")])
def test_the_save_form_and_the_positions_api_refuse_alike(client, bad, code):
    form, body = _save(bad)
    page = _post_form(client, "/en/analyze/save/", form)
    assert _codes(page) == [code]
    assert POSITION in page.content.decode()  # the position typed is kept
    assert _api_code(_post_json(client, "/api/v1/positions", body)) == code
    assert not SavedPosition.objects.exists()


def _started(client) -> tuple[str, str, str, str, str]:
    """A game started with the form and one with the API: the form's act address and
    version, the API's actions address, key and version."""
    page = client.post("/en/play/", PLAY)
    assert page.status_code == 302
    html = client.get(page["Location"]).content.decode()
    version = re.search(r'name="version" value="(\d+)"', html).group(1)
    created = _post_json(client, "/api/v1/games", json.dumps(GAME))
    assert created.status_code == 201
    game = created.json()
    return (page["Location"] + "act/", version, f"/api/v1/games/{game['id']}/actions", game["key"],
            str(game["state"]["version"]))


@pytest.mark.parametrize("bad, code", [("duplicate", "duplicate-field"), ("utf8", "not-utf8")])
def test_a_move_and_an_api_action_are_refused_alike(client, bad, code):
    act, version, actions, key, api_version = _started(client)
    if bad == "duplicate":
        form = _quoted([("version", version), ("do", "begin"), ("do", "pass")])
        body = ('{"action": {"type": "continue"}, "action": {"type": "pass", "player": "red"}, '
                f'"version": {api_version}}}')
    else:
        form = f"version={version}&do=beg%E9n".encode()
        body = b'{"action": {"type": "c\xe9ntinue"}, "version": ' + api_version.encode() + b"}"
    assert _codes(_post_form(client, act, form)) == [code]
    assert _api_code(_post_json(client, actions, body, HTTP_X_GAME_KEY=key)) == code


@pytest.mark.parametrize("form, code", [
    (_quoted([("players", "3"), ("players", "4")]), "duplicate-field"),
    (b"players=3&mode=acti%F6n", "not-utf8"),
    (_quoted([("mode", "strategy"), ("variants", "v3")]), "bell-in-strategy"),
    (_quoted([("players", "2"), ("first_edition", "1")]), "first-edition-two"),
])
def test_the_teach_start_form_refuses_alike(client, form, code):
    """No API starts a table; its form answers with the same codes all the same."""
    assert code in _codes(_post_form(client, "/en/teach/", form))
    assert not Table.objects.exists()


@pytest.mark.parametrize("query, code", [("code=abc&code=def", "duplicate-field"),
                                         ("code=ab%FF", "not-utf8")])
def test_the_join_form_refuses_alike(client, query, code):
    assert _codes(client.get(f"/en/teach/join/?{query}")) == [code]


def test_the_presenters_forms_refuse_a_field_sent_twice(client):
    page = client.post("/en/teach/", {"players": "4"})
    present = page["Location"]
    code = present.rstrip("/").rsplit("/", 1)[-1]
    table = Table.objects.get(code=code)
    go = _post_form(client, f"{present}go/", _quoted([("to", "1"), ("to", "2"), ("v", str(table.version))]))
    assert go.status_code == 400 and "more than once" in go.content.decode()
    assert Table.objects.get(code=code).section == table.section


@pytest.mark.parametrize("body", ["do=clear&do=put&at=00&v=3", "do=put&at=00&at=11&v=3",
                                  "do=clear&v=3&v=3"])
def test_a_presenters_board_action_refuses_a_field_sent_twice(client, body):
    from tutorials.tutorial.teaching import sections

    page = client.post("/en/teach/", {"players": "4"})
    code = page["Location"].rstrip("/").rsplit("/", 1)[-1]
    table = Table.objects.get(code=code)
    to = [s.slug for s in sections(table.options)].index("round-table")
    assert client.post(f"/en/teach/{code}/go/", {"to": str(to), "v": "1"}).status_code == 302
    board = f"/en/teach/{code}/board/round/"
    assert client.post(board, {"do": "brush", "at": "r1", "v": "2"}).status_code == 302  # now at 3
    before = Table.objects.get(code=code).board_states
    response = _post_form(client, board, body)
    assert _codes(response) == ["duplicate-field"]
    assert "more than once" in response.content.decode()
    table = Table.objects.get(code=code)
    assert (table.board_states, table.version) == (before, 3)


def test_state_links_refuse_a_parameter_sent_twice(client):
    response = client.get("/en/analyze/edit/?" + _quoted([("pos", POSITION), ("op", "deck"),
                                                           ("arg", "3"), ("arg", "4")]))
    assert response.status_code == 422 and "more than once" in response.content.decode()
