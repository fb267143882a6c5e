"""The practice game page stays current one way: a timed request. Each game area says when
the captains' next action is due (the engine's ``next_due``) and asks for the area again
then; whichever request comes plays what is due, and the versioned row keeps each move
once. Nothing runs for a game between requests: no thread, no stream, no timer.

The server's clock is replaced by a clock the test moves (``games._now``)."""

from __future__ import annotations

import re
import threading

import pytest
from django.conf import settings
from django.contrib.staticfiles import finders
from django.test import Client

from captain.rules.captains.pace import Pace
from tests.site.play_helpers import first_move, start_game
from tutorials.models import PracticeGame
from tutorials.play.action import DUE_MARGIN_MS
from tutorials.practice import games

pytestmark = pytest.mark.django_db

ACTION = {"players": "3", "colour": "red", "start": "me", "strength": "greedy",
          "collection": "sequential", "mode": "action", "pace": "table"}
HX = {"HTTP_HX_REQUEST": "true"}
#: hx-trigger words that make a request by themselves, without the visitor
TIMED = re.compile(r"\b(every|load|revealed|intersect)\b")


def _version(html: str) -> str:
    return re.search(r'data-version="(\d+)"', html).group(1)


def _post(client: Client, url: str, html: str, **fields) -> str:
    response = client.post(url + "act/", {"version": _version(html), **fields}, **HX)
    assert response.status_code == 200, response.content.decode()[-3000:]
    return response.content.decode()


def _game(url: str) -> PracticeGame:
    return PracticeGame.objects.get(code=url.rstrip("/").rsplit("/", 1)[1])


def _dice_time(client: Client, **choices) -> tuple[str, str]:
    """An action-mode game whose Dice Time has just begun: its address and its page."""
    url = start_game(client, "en", **(ACTION | choices))
    html = _post(client, url, client.get(url).content.decode(), do="continue")
    html = _post(client, url, html, do="begin")
    assert 'data-testid="play-live"' in html
    return url, client.get(url).content.decode()


def _timers(html: str) -> list[str]:
    """Every hx-trigger of ``html`` that asks the server by itself."""
    return [t for t in re.findall(r'hx-trigger="([^"]*)"', html) if TIMED.search(t)]


def _due_ms(html: str) -> int | None:
    found = re.search(r'id="play-poll"[^>]*hx-trigger="every (\d+)ms"', html)
    return int(found[1]) if found else None


def test_the_game_page_has_one_update_mechanism_a_timed_request(clock):
    client = Client()
    url, html = _dice_time(client)
    assert _timers(html) == [f"every {_due_ms(html)}ms"], _timers(html)
    game = _game(url)
    due = games.due_in(game, games.practice_of(game))
    assert _due_ms(html) == round(due * 1000) + DUE_MARGIN_MS
    # no stream: no EventSource in any script the page loads, no address of a game's stream
    assert "data-live-stream" not in html and "/live/" not in html and "EventSource" not in html
    scripts = re.findall(r'<script[^>]* src="([^"]+)"', html)
    assert scripts
    for src in scripts:
        found = finders.find(src.removeprefix(settings.STATIC_URL))
        assert found, src
        with open(found, encoding="utf-8") as f:
            assert "EventSource" not in f.read(), src
    assert client.get(f"/live/game/{game.code}/").status_code == 404


def test_while_the_learner_is_to_act_the_page_does_not_ask(clock):
    client = Client()
    url = start_game(client, "en", **(ACTION | {"mode": "strategy", "players": "2"}))
    html = client.get(url).content.decode()
    assert _timers(html) == []  # before the first round: the captains wait for the learner
    html = _post(client, url, html, do="continue")
    html = _post(client, url, html, do="begin")  # (the learner is start player)
    assert 'data-testid="roll-all"' in html or 'data-testid="claim"' in html
    assert _timers(html) == []


def _to_a_captains_turn(client: Client, url: str, html: str, **headers) -> str:
    """Strategy mode: the learner's simple moves until one hands the turn to a captain (a
    placement, a claim, a pass, or a re-roll, which is a whole turn there: STRAT-2); the
    answer (htmx: the area; without: the page the move leads to)."""
    for _ in range(20):
        move = first_move(html)
        before = len(_game(url).log)
        response = client.post(url + "act/", {"version": _version(html), **move}, **headers)
        if not headers:
            assert response.status_code == 303
            response = client.get(response["Location"])
        assert response.status_code == 200, response.content.decode()[-2000:]
        html = response.content.decode()
        if move["do"] in ("claim", "pass", "place", "roll") and len(_game(url).log) > before:
            return html
    raise AssertionError("the learner's turn never ended")


def test_strategy_mode_asks_at_once_when_a_captain_is_on_turn_and_works_without_javascript(clock):
    client = Client()
    url = start_game(client, "en", **(ACTION | {"mode": "strategy", "players": "2"}))
    html = _to_a_captains_turn(client, url, client.get(url).content.decode(), **HX)
    # the captain is on turn: due at once, and the timed request plays its move
    assert _due_ms(html) == DUE_MARGIN_MS and len(_timers(html)) == 1
    before = len(_game(url).log)
    area = client.get(url, {"version": _version(html)}, **HX).content.decode()
    assert len(_game(url).log) > before and int(_version(area)) > int(_version(html))
    # without JavaScript: the page a move leads to shows the captains' answers already
    other = Client()
    url = start_game(other, "en", **(ACTION | {"mode": "strategy", "players": "2"}))
    page = _to_a_captains_turn(other, url, other.get(url).content.decode())
    assert not _game(url).log[-1][2]  # the captain's, played by the request for the page
    assert _version(page) == str(_game(url).version)


def test_nothing_moves_a_game_between_requests(clock):
    client = Client()
    threads = set(threading.enumerate())
    url, html = _dice_time(client)
    client.get(url, {"version": _version(html)}, **HX)
    assert set(threading.enumerate()) <= threads  # no thread of the game's own
    stored = len(_game(url).log)
    clock.wait(30)  # the captains would have moved dozens of times by now
    assert len(_game(url).log) == stored
    client.get(url, {"version": _version(html)}, **HX)  # a request plays what is due
    assert len(_game(url).log) > stored


def test_the_page_following_its_timers_sees_each_captain_move_when_it_is_due(clock):
    """A page that asks exactly when each answer says: every captain move is played by one
    of its requests, at the moment the request came (its delay is the margin alone)."""
    client = Client()
    url, html = _dice_time(client, pace=Pace.QUICK.value)
    version, asked = _version(html), []
    due = _due_ms(html)
    while due is not None and len(asked) < 60:
        clock.wait(due / 1000)
        asked.append(games.seconds(_game(url), clock.now))
        answer = client.get(url, {"version": version}, **HX)
        body = answer.content.decode()
        if "HX-Retarget" not in answer:
            version = _version(body)
        due = _due_ms(body)
    log = _game(url).log
    captains = [at for at, _action, by_learner in log if not by_learner]
    assert len(captains) >= 3, log
    for at in captains:  # played when due: at most the margin before a request came
        assert any(0 <= when - at <= (DUE_MARGIN_MS + 1) / 1000 for when in asked), (at, asked)


def test_two_requests_racing_store_each_move_once(clock):
    client = Client()
    url, _html = _dice_time(client)
    clock.wait(5)
    first, second = _game(url), _game(url)  # two workers read the same version
    won = games.catch_up(first, games.practice_of(first), now=clock.now)
    lost = games.catch_up(second, games.practice_of(second), now=clock.now)
    stored = _game(url)
    assert second.version == first.version == stored.version  # the loser read the winner's record
    assert len(won.log) == len(lost.log) == len(stored.log)
    moves = [(at, repr(action)) for at, action, _by in stored.log]
    assert len(moves) == len(set(moves))
