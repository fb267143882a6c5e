"""Action mode on a server clock: while the learner's page holds the game's live stream, the
captains act at their time though nobody asks, and each stored move reaches the stream at
once; a game nobody watches waits; only the learner opens the stream."""

from __future__ import annotations

import re
import time

import pytest
from django.test import Client

from tutorials.http import bus
from tutorials.models import PracticeGame
from tutorials.play import clock
from tests.site.play_helpers import start_game

pytestmark = pytest.mark.django_db(transaction=True)

#: three players, the fastest captains: a few moves a second once Dice Time has begun
ACTION = {"players": "3", "colour": "red", "start": "me", "strength": "greedy",
          "collection": "sequential", "mode": "action", "pace": "fastest"}
HX = {"HTTP_HX_REQUEST": "true"}


def _act(client: Client, url: str, html: str, **fields) -> str:
    version = re.search(r'data-version="(\d+)"', html).group(1)
    response = client.post(url + "act/", {"version": version, **fields}, **HX)
    assert response.status_code == 200, response.content.decode()[-3000:]
    return response.content.decode()


def _dice_time(client: Client) -> tuple[str, PracticeGame]:
    """An action-mode game whose Dice Time has just begun: (its page's address, the row)."""
    url = start_game(client, "en", **ACTION)
    html = _act(client, url, client.get(url).content.decode(), do="continue")
    html = _act(client, url, html, do="begin")
    assert 'data-testid="play-poll"' in html and "data-live-target" in html
    return url, PracticeGame.objects.get(code=url.rstrip("/").rsplit("/", 1)[1])


def test_with_the_stream_open_the_captains_play_though_nobody_asks(client):
    url, game = _dice_time(client)
    stream = client.get(f"/live/game/{game.code}/")
    assert stream.status_code == 200 and stream["Content-Type"].startswith("text/event-stream")
    chunks = iter(stream.streaming_content)
    assert next(chunks).decode().startswith("retry:")
    first = next(chunks).decode()
    assert first == f"id: {game.version}\ndata: {game.version}\n\n"
    assert game.code in clock.running()
    # no request of the learner's from here on: the clock plays the captains' moves, and
    # each stored one reaches the stream as the game's new version
    versions = []
    deadline = time.monotonic() + 20
    while len(versions) < 3 and time.monotonic() < deadline:
        said = next(chunks).decode()
        if said.startswith("id: "):
            versions.append(int(said.split()[1]))
    assert len(versions) == 3 and versions == sorted(set(versions)), versions
    game.refresh_from_db()
    assert game.version >= versions[-1] and len(game.log) > 0
    assert all(not entry[2] for entry in game.log[-3:])  # the captains' (not the learner's)
    stream.close()
    deadline = time.monotonic() + 5
    while game.code in clock.running() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert game.code not in clock.running()  # nobody watches: the clock stops


def test_a_game_nobody_watches_waits_for_its_next_request(client):
    url, game = _dice_time(client)
    stored = len(game.log)
    time.sleep(1.5)  # the fastest captains would have moved several times by now
    game.refresh_from_db()
    assert len(game.log) == stored and game.code not in clock.running()
    client.get(url)  # a request plays what is due, as before
    game.refresh_from_db()
    assert len(game.log) > stored


def test_only_the_learner_opens_the_stream(client, settings):
    _url, game = _dice_time(client)
    stranger = Client()
    refused = stranger.get(f"/live/game/{game.code}/")
    assert refused.status_code == 404 and refused["Problem-Code"] == "game-unknown"
    assert client.get("/live/game/nosuchgame/").status_code == 404
    settings.LIVE_STREAMS_ON_THREADS = False
    off = client.get(f"/live/game/{game.code}/")
    assert off.status_code == 503 and off["Problem-Code"] == "live-off"


def test_an_action_game_page_holds_its_stream_a_strategy_game_none(client):
    url = start_game(client, "en", **ACTION)
    code = url.rstrip("/").rsplit("/", 1)[1]
    assert f'data-live-stream="/live/game/{code}/"' in client.get(url).content.decode()
    url = start_game(client, "en", **(ACTION | {"mode": "strategy"}))
    assert "data-live-stream" not in client.get(url).content.decode()


def test_a_lease_has_one_holder_until_it_is_given_up():
    name = f"test-lease-{time.monotonic_ns()}"
    assert bus.hold(name, "first", 5) and bus.hold(name, "first", 5)  # taken, then kept
    assert not bus.hold(name, "second", 5)
    bus.give_up(name, "second")  # not the holder: nothing happens
    assert not bus.hold(name, "second", 5)
    bus.give_up(name, "first")
    assert bus.hold(name, "second", 5)
    bus.give_up(name, "second")
