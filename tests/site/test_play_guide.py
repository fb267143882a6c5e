"""The guided games (tutorials.play.guide): offered first on the play page and resumable,
dealt at random, pointing at the strong captain's move with the engine's facts, teaching
each new thing once; hints in action mode's Dice Time too."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone, translation

from captain.rules import Mode
from captain.rules.game import Claim, PlaceAttackCard, RingBell, RingStartBell, Roll, action_to_json
from play_helpers import page_version, start_game
from tutorials.models import PracticeGame
from tutorials.play.guide import NOTES, topics_done
from tutorials.play.page import GamePage
from tutorials.practice import games
from tutorials.wording.facts import facts

pytestmark = pytest.mark.django_db


def _guided(client: Client, lang: str, guide: str) -> str:
    response = client.post(f"/{lang}/play/guided/", {"guide": guide})
    assert response.status_code == 302, response.content.decode()[:1000]
    return response["Location"]


@pytest.mark.parametrize("lang", ["ja", "en", "de"])
def test_the_play_page_offers_the_guided_games_first(client, lang):
    html = client.get(f"/{lang}/play/").content.decode()
    offer = html.index('data-testid="guided-offer"')
    assert offer < html.index('class="play-form panel"')
    assert html.index('data-testid="guided-strategy"') < html.index('data-testid="guided-action"')
    refused = client.post(f"/{lang}/play/guided/", {"guide": "blitz"})
    body = refused.content.decode()
    assert refused.status_code == 422 and f'<html lang="{lang}">' in body and 'role="alert"' in body


def test_a_guided_game_under_way_is_offered_again_and_a_finished_one_is_not(client):
    url = _guided(client, "en", "strategy")
    code = url.rstrip("/").rsplit("/", 1)[1]
    html = client.get("/en/play/").content.decode()
    resume = re.search(r'<a class="button primary" href="([^"]+)" data-testid="guided-resume-strategy">',
                       html)
    assert resume and resume[1] == url and 'data-testid="guided-resume-action"' not in html
    # another browser has no key to it: nothing to resume there
    assert 'data-testid="guided-resume-strategy"' not in Client().get("/en/play/").content.decode()
    PracticeGame.objects.filter(code=code).update(expires_at=timezone.now() - timedelta(hours=1))
    assert 'data-testid="guided-resume-strategy"' not in client.get("/en/play/").content.decode()


def _follow(game: PracticeGame, lang: str, limit: int = 3000):
    """Play ``game`` by its pointers alone, stepping through a round's steps as the page
    does; yields ``(page, pointer)`` at every moment."""
    step = 0
    for _n in range(limit):
        game.refresh_from_db()
        practice = games.catch_up(game, games.practice_of(game))
        with translation.override(lang):
            page = GamePage(game, practice, step=step)
            pointer = page.guide
        yield page, pointer
        if pointer is None or pointer.topic == "wait":  # the captains play: a second later
            game.started_at -= timedelta(seconds=1)
            game.save(update_fields=["started_at"])
        elif pointer.topic == "end":
            return
        elif pointer.target in ("step-next", "step-end"):
            step = step + 1 if pointer.target == "step-next" else 999
        elif pointer.hint is None:  # ready for the first round, or the next one
            games.play(game, practice, dict(games.CONTINUE), game.version)
            step = 0
        else:
            games.play(game, practice, action_to_json(pointer.hint.move), game.version)
    raise AssertionError("the guided game did not end")


def test_the_guided_first_game_points_at_a_move_with_its_facts_and_teaches_each_thing_once():
    client = Client()
    url = _guided(client, "en", "strategy")
    game = PracticeGame.objects.get(code=url.rstrip("/").rsplit("/", 1)[1])
    assert games.practice_of(game).state.rules.mode is Mode.STRATEGY
    taught, pointed = [], 0
    for page, pointer in _follow(game, "en"):
        if pointer is None:
            continue
        if pointer.note:
            taught.append(pointer.topic)
        if pointer.hint is not None:
            pointed += 1
            move = pointer.hint.move
            assert pointer.hint.facts, move
            assert move.player is page.learner
            expected = {Claim: "cell", PlaceAttackCard: "place", RingStartBell: "begin",
                        RingBell: "ring"}.get(type(move))
            if isinstance(move, Roll):
                assert pointer.target in ("roll-all", "roll-some")
                if pointer.target == "roll-some":
                    hand = page.me.dice
                    assert sorted(hand[i] for i in pointer.dice) == sorted(move.dice)
            else:
                assert pointer.target == expected, (move, pointer.target)
                assert pointer.cell == getattr(move, "position", None)
    assert len(taught) == len(set(taught)), taught
    assert {"begin", "claim", "place", "battle", "treasure", "next", "end"} <= set(taught), taught
    assert pointed >= 20
    # "the first time" is read off the game itself: the moves made taught their kinds
    assert {"begin", "claim", "place"} <= topics_done(games.practice_of(game))


def test_the_guided_action_game_teaches_the_bell_and_real_time_claims():
    client = Client()
    url = _guided(client, "de", "action")
    game = PracticeGame.objects.get(code=url.rstrip("/").rsplit("/", 1)[1])
    practice = games.practice_of(game)
    assert practice.state.rules.mode is Mode.ACTION and practice.pace.value == "first-game"
    notes = {}
    for _page, pointer in _follow(game, "de"):
        if pointer is not None and pointer.note:
            notes[pointer.topic] = pointer.note
        if "ring" in notes and "claim" in notes and "wait" in notes:
            break
    with translation.override("de"):
        assert notes["claim"] == str(NOTES["claim/action"][0]) % facts()
        assert notes["ring"] == str(NOTES["ring"][0]) % facts()
        # with every die on a card the guide says to wait, and not to ring too early
        assert notes["wait"] in (str(NOTES["wait"][0]), str(NOTES["wait/false-bell"][0]))


def test_hints_in_action_mode_dice_time_follow_the_board_as_it_changes(client):
    url = start_game(client, "en", mode="action", players="3", start="me")
    html = client.get(url).content.decode()
    client.post(url + "act/", {"do": "begin", "version": page_version(html)})
    page = client.get(url + "?hint=2").content.decode()
    assert 'data-testid="hint-2"' in page and 'data-testid="play-live"' in page
    # the page asks for the captains' moves with the hint still asked for
    poll = re.search(r'hx-get="([^"]+)"[^>]*data-testid="play-poll"', page)[1]
    assert "hint=2" in poll.replace("&amp;", "&")
