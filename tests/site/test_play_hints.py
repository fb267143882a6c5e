"""Graded hints on the game page: grade 1 where to look, grade 2 the strong
captain's move and why; a plain link without JavaScript, the game area for htmx; never
anything the learner cannot know."""

from __future__ import annotations

import random
import re
from dataclasses import replace

import pytest
from django.test import Client
from django.utils import translation
from django.utils.html import escape

from captain.rules import AttackKind, Colour, Position
from captain.rules.captains.facts import move_facts
from captain.rules.game import PlaceAttackCard
from captain.rules.game.view import determinize
from tests.engine.test_game import setting_time
from tests.site.test_play_replay import first_move, open_game, play_on
from tutorials.models import PracticeGame
from tutorials.play.hints import hints_for
from tutorials.practice import games
from tutorials.wording.glossary import CARD_NAMES
from tutorials.wording.phrases import card_phrase

pytestmark = pytest.mark.django_db


def _hint_box(html: str) -> str:
    start = html.find('data-testid="play-hint"')
    assert start >= 0, "no hint control"
    return html[start:html.find("</div>", start)]


def _captains_hidden(game: PracticeGame, lang: str) -> list[str]:
    """What the learner cannot know, as the page would word it: the captains' face-down
    cards and the cards in their hands."""
    practice = games.practice_of(game)
    state = practice.state
    out = []
    with translation.override(lang):
        for row in state.board.rows:
            for cell in row:
                if cell.card is not None and cell.card.colour is not practice.learner:
                    out.append(card_phrase(cell.card.token))
        for p in state.players:
            if p.colour is not practice.learner:
                out += [card_phrase(f"{p.colour.letter}{int(k)}") for k in p.hand]
    return out


@pytest.mark.parametrize("lang, players, seed", [("ja", 2, 5), ("de", 3, 6), ("en", 4, 7)])
def test_hints_grade_one_then_two_cite_clauses_and_reveal_nothing_hidden(lang, players, seed):
    client = Client()
    url = open_game(client, lang, players, seed)
    game = PracticeGame.objects.get()
    html = client.get(url).content.decode()
    asked = {"dice": 0, "setting": 0}
    for _turn in range(600):
        if first_move(html) is None:
            break
        phase = "setting" if 'name="do" value="place"' in html else "dice"
        if 'data-testid="play-hint"' in html and asked[phase] < 3:
            asked[phase] += 1
            box = _hint_box(html)
            assert 'data-testid="hint-1"' not in box and f"{url}?hint=1#play-hint" in box
            one = _hint_box(client.get(url + "?hint=1").content.decode())
            assert 'data-testid="hint-1"' in one and 'data-testid="hint-2"' not in one
            assert f'href="/{lang}/rules/#' in one and f"{url}?hint=2#play-hint" in one
            two_page = client.get(url + "?hint=2").content.decode()
            two = _hint_box(two_page)
            assert 'data-testid="hint-1"' in two and 'data-testid="hint-2"' in two
            assert "?hint=3" not in two
            grade2 = two.split('data-testid="hint-2"', 1)[1]
            assert f'href="/{lang}/rules/#' in grade2
            sentence = re.search(r'class="hint-text">(.*?)</span>', grade2).group(1)
            # the move, then at least one reason
            assert len(re.findall(r"[.。]", sentence)) >= 2, sentence
            for hidden in _captains_hidden(game, lang):
                assert hidden not in two_page, hidden
            # asking for a hint changes nothing in the game
            game.refresh_from_db()
            assert str(game.version) == re.search(r'name="version" value="(\d+)"', two_page).group(1)
        html = play_on(client, url, html)
    assert asked["dice"] and asked["setting"], asked


def test_states_the_learner_cannot_tell_apart_get_the_same_hint():
    """The hint depends on what the learner sees only: re-drawing the captains' hands,
    face-down cards, the deck and future rolls changes nothing."""
    client = Client()
    url = open_game(client, "en", 3, 8)
    html = client.get(url).content.decode()
    game = PracticeGame.objects.get()
    checked = 0
    for _turn in range(600):
        if first_move(html) is None or checked >= 6:
            break
        game.refresh_from_db()
        practice = games.practice_of(game)
        if 'data-testid="play-hint"' in html and 'name="do" value="place"' in html or \
                ('data-testid="play-hint"' in html and checked < 2):
            real = hints_for(practice, game.code)
            for k in range(2):
                other = determinize(practice.state, practice.learner, random.Random(k))
                assert other != practice.state
                assert hints_for(replace(practice, state=other), game.code) == real
            checked += 1
        html = play_on(client, url, html)
    assert checked >= 3


def test_the_hint_in_setting_time_names_only_the_learners_own_card():
    client = Client()
    url = open_game(client, "en", 2, 9)
    html = client.get(url).content.decode()
    for _turn in range(600):
        if 'name="do" value="place"' in html and 'data-testid="play-hint"' in html:
            two = _hint_box(client.get(url + "?hint=2").content.decode())
            grade2 = two.split('data-testid="hint-2"', 1)[1]
            hand = set(re.findall(r'name="card" value="(\d)"', html))
            named = re.findall(r"Put \[(\d)\] ([^:<]+?) on", grade2)
            assert named and all(v in hand for v, _name in named), (named, hand)
            # as the page writes them: "Kraken's Wrath" is "Kraken&#x27;s Wrath" in the HTML
            with translation.override("en"):
                assert any(escape(str(CARD_NAMES[k])) in grade2 for k in CARD_NAMES)
            return
        html = play_on(client, url, html)
    raise AssertionError("never in Setting Time")


def test_htmx_asks_for_the_hint_and_gets_the_game_area_back():
    client = Client()
    url = open_game(client, "de", 2, 10, start_player="red")
    html = client.get(url).content.decode()
    for _turn in range(50):
        if 'data-testid="play-hint"' in html:
            break
        html = play_on(client, url, html)
    box = _hint_box(html)
    assert f'hx-get="{url}?hint=1"' in box
    swapped = client.get(url + "?hint=1", headers={"HX-Request": "true"})
    body = swapped.content.decode()
    assert swapped.status_code == 200 and "<html" not in body
    assert body.lstrip().startswith('<div id="play-area"')
    assert 'data-testid="hint-1"' in body


def test_a_sandwich_hint_counts_only_the_cards_it_would_add():
    """A fresh learner's hint said placing on C2 would "enclose B2 and win those cards too",
    but B2 held their own card: won anyway (TRE-1), so the sandwich adds nothing there."""
    place = PlaceAttackCard(Colour.RED, Position(0, 0), AttackKind(5))
    own_between = setting_time(["11:R 12:r1 13:r2 14", "15 16 22 23", "24 25 26 33", "34 35 36 44"])
    assert "sandwich" not in {f.code for f in move_facts(own_between, Colour.RED, place)}
    free_between = setting_time(["11:R 12 13:r2 14", "15 16 22 23", "24 25 26 33", "34 35 36 44"])
    [sandwich] = [f for f in move_facts(free_between, Colour.RED, place) if f.code == "sandwich"]
    assert sandwich.params["partner"] == Position(0, 2) and sandwich.params["between"] == (Position(0, 1),)
