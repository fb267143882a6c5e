"""Taking a move back in a practice game (strategy mode): the learner's last move and the
captains' answers to it are undone, the page shows the game as it was, and the replay
says which moves were taken back."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from captain.rules.game import action_from_json
from play_helpers import first_move, page_version, start_game
from test_play_replay import open_game, play_on, play_to_the_end
from tutorials.models import PracticeGame
from tutorials.practice import games

pytestmark = pytest.mark.django_db


def _take_back(client: Client, url: str, html: str):
    return client.post(url + "act/", {"do": "take-back", "version": page_version(html)})


def test_a_move_taken_back_leaves_the_game_as_it_was_before_it():
    client = Client()
    url = open_game(client, "en", 3, 41)
    html = client.get(url).content.decode()
    assert 'data-testid="take-back"' not in html, "no move of the learner's yet"
    # play until the learner has made a move in Dice Time (begin, then a roll or a claim)
    for _turn in range(20):
        html = play_on(client, url, html)
        if 'data-testid="take-back"' in html and "Dice Time" in html:
            break
    game = PracticeGame.objects.get()
    before = games.practice_of(game)
    mine = [i for i, e in enumerate(before.log) if e.by_learner]
    expected = games.replay(before.dealt, before.log[:mine[-1]])
    response = _take_back(client, url, html)
    assert response.status_code == 303
    game.refresh_from_db()
    after = games.practice_of(game)
    assert after.state == expected and len(after.log) == mine[-1]
    assert game.takebacks[-1]["after"] == mine[-1]
    assert action_from_json(game.takebacks[-1]["action"]) == before.log[mine[-1]].action
    # the page offers the same move again, and a move made now counts
    html = client.get(url).content.decode()
    assert first_move(html) is not None
    html = play_on(client, url, html)


def test_the_replay_names_the_moves_taken_back_in_their_round():
    client = Client()
    url = open_game(client, "de", 2, 42)
    html = client.get(url).content.decode()
    taken = 0
    for _turn in range(400):
        if 'data-testid="take-back"' in html and taken < 2 and 'data-testid="place-submit"' in html:
            assert _take_back(client, url, html).status_code == 303
            taken += 1
            html = client.get(url).content.decode()
        if first_move(html) is None:
            break
        html = play_on(client, url, html)
    assert taken == 2
    game = PracticeGame.objects.get()
    rounds = sorted({t["round"] for t in game.takebacks})
    replay = client.get(url + f"replay/?round={rounds[0]}").content.decode()
    box = re.search(r'data-testid="takebacks">(.*?)</p>', replay, re.S)
    said = sum(1 for t in game.takebacks if t["round"] == rounds[0])
    assert box and box[1].count("↶") == said, replay[-3000:]


def test_nothing_to_take_back_and_action_mode_are_refused_in_the_readers_words():
    client = Client()
    url = open_game(client, "ja", 2, 43)
    html = client.get(url).content.decode()
    refused = _take_back(client, url, html)
    assert refused.status_code == 422 and 'data-code="nothing-to-take-back"' in refused.content.decode()
    action = start_game(client, "de", mode="action")
    html = client.get(action).content.decode()
    assert 'data-testid="take-back"' not in html
    refused = _take_back(client, action, html)
    body = refused.content.decode()
    assert refused.status_code == 422 and 'data-code="take-back-mode"' in body and 'lang="de"' in body


def test_a_round_played_cannot_be_taken_back():
    client = Client()
    url = open_game(client, "en", 2, 44)
    seen = []

    def after_a_round(html: str) -> None:
        if 'data-testid="open-analyzer"' in html and not seen:  # a round was just played
            seen.append(True)
            assert 'data-testid="take-back"' not in html
            refused = _take_back(client, url, html)
            assert refused.status_code == 422 and 'data-code="round-played"' in refused.content.decode()

    play_to_the_end(client, url, after_a_round)
    assert seen


def test_the_same_position_gets_the_same_hint_after_a_move_is_taken_back():
    """A hint is seeded by the game and how many moves it has seen (both public), so taking
    a move back comes back to the very same advice."""
    from tutorials.play.hints import hints_for

    client = Client()
    url = open_game(client, "en", 3, 45)
    html = client.get(url).content.decode()
    compared = 0
    for _turn in range(60):
        game = PracticeGame.objects.get()
        before = hints_for(games.practice_of(game), game.code)
        html = play_on(client, url, html)
        if before is not None and 'data-testid="take-back"' in html:
            assert _take_back(client, url, html).status_code == 303
            game.refresh_from_db()
            assert hints_for(games.practice_of(game), game.code) == before
            compared += 1
            html = play_on(client, url, client.get(url).content.decode())
            if compared == 3:
                return
    raise AssertionError(f"only {compared} moves taken back")
