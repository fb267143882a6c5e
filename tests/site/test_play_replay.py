"""The replay of a practice game and its share link, and the analyzer
equivalence: every round the game page explains step by step is explained by the analyzer,
opened from the game page's own ``pos=`` link, with exactly the same worded steps."""

from __future__ import annotations

import html as htmllib
import re

import pytest
from django.http import HttpResponse
from django.test import Client
from django.utils import translation

from tests.site.play_helpers import first_move, page_version
from tutorials.api.schemas import GameIn
from tutorials.models import PracticeGame
from tutorials.play.views import LEARNER
from tutorials.practice import games
from tutorials.wording.phrases import card_phrase

pytestmark = pytest.mark.django_db

COLOURS = ("red", "blue", "green", "white")


def open_game(client: Client, lang: str, players: int, seed: int, **options) -> str:
    """Deal a strategy-mode game with a fixed seed through the service and give ``client``
    the learner's cookie, as the start form does; the game page's address."""
    seats = list(COLOURS[:players])
    setup = GameIn(**{"seats": seats, "learner": seats[0], "seed": seed, "rules": {"mode": "strategy"},
                      "strength": "greedy", **options}).setup
    game, key, _practice = games.start_game(setup)
    name = LEARNER.name(game.code)
    signed = HttpResponse()
    signed.set_signed_cookie(name, key, salt=LEARNER.salt)
    client.cookies[name] = signed.cookies[name].value
    return f"/{lang}/play/{game.code}/"


def play_on(client: Client, url: str, html: str) -> str:
    move = first_move(html)
    response = client.post(url + "act/", {**move, "version": page_version(html)})
    assert response.status_code == 303, (move, response.content.decode()[-2000:])
    return client.get(url).content.decode()


def play_to_the_end(client: Client, url: str, on_page=None) -> str:
    html = client.get(url).content.decode()
    for _turn in range(2000):
        if on_page is not None:
            on_page(html)
        if first_move(html) is None:
            return html
        html = play_on(client, url, html)
    raise AssertionError("the game did not end")


# --- reading the worded steps off a page --------------------------------------------------------
_CLAUSE = re.compile(r'<a class="clause" href="/\w\w/rules/#([\w-]+)"')


def _items(fragment: str) -> list[tuple[str, tuple[str, ...]]]:
    """Each explanation of ``fragment``: its text and the clause ids it links, in order."""
    out = []
    for piece in fragment.split('<span class="ex-text">')[1:]:
        text, rest = piece.split("</span>", 1)
        rest = rest.split("</li>", 1)[0]
        out.append((htmllib.unescape(text).strip(), tuple(_CLAUSE.findall(rest))))
    return out


def _title(fragment: str) -> str:
    return htmllib.unescape(re.search(r'class="current-step-title">.*?<strong>(.*?)</strong>', fragment,
                                      re.S).group(1))


def _last_step(html: str) -> int:
    """The last step a page's step links reach ("Show the result")."""
    found = re.findall(r'[?&](?:amp;)?step=(\d+)#(?:play|replay)-steps', html)
    return max((int(k) for k in found), default=0)


def game_step(html: str) -> tuple[str, list]:
    """The game page's (or replay's) step: its title and every worded step so far (the
    earlier steps' list, then the current step's box above it)."""
    panel = html[html.find('class="panel play-steps"'):]
    panel = panel[:panel.find("</section>")]
    current = panel[panel.find('data-testid="current-step"'):]
    current = current[:current.find("</div>")]
    earlier = ""
    if 'class="explanations earlier"' in panel:
        earlier = panel[panel.find('class="explanations earlier"'):]
        earlier = earlier[:earlier.find("</ol>")]
    return _title(panel), _items(earlier) + _items(current)


def analyzer_step(html: str) -> tuple[str, list]:
    """The analyzer's explain view: its title, the steps so far and the current one."""
    stage = html[html.find('data-testid="current-step"'):]
    title = _title(stage)
    current = stage[:stage.find("</ul>")]
    earlier = ""
    if 'class="explanations earlier"' in html:
        earlier = html[html.find('class="explanations earlier"'):]
        earlier = earlier[:earlier.find("</ol>")]
    return title, _items(earlier) + _items(current)


def _get(client: Client, url: str) -> str:
    response = client.get(htmllib.unescape(url))
    assert response.status_code == 200, url
    return response.content.decode()


# --- the analyzer explains what the game showed ------------------------------------------------
@pytest.mark.parametrize("lang, players, seed", [("ja", 2, 11), ("de", 3, 12), ("ja", 4, 13), ("de", 2, 14)])
def test_every_round_the_game_shows_is_explained_the_same_by_the_analyzer(lang, players, seed):
    client = Client()
    url = open_game(client, lang, players, seed)
    compared = []

    def compare(html: str) -> None:
        if 'data-testid="open-analyzer"' not in html:
            return
        link = re.search(r'href="([^"]+)" data-testid="open-analyzer"', html).group(1)
        if link in {c[0] for c in compared}:
            return
        total = _last_step(html) + 1
        for k in range(total):
            shown = game_step(_get(client, f"{url}?step={k}"))
            explained = analyzer_step(_get(client, f"{link}&view=explain&step={k}"))
            assert shown == explained, (k, shown, explained)
            assert shown[1] and all(cids for _text, cids in shown[1]), shown
        compared.append((link, total))

    final = play_to_the_end(client, url, compare)
    rounds = re.findall(r'<a href="(/\w\w/analyze/\?pos=[^"]+)">', final)
    assert len(compared) == len(rounds) >= 2, (len(compared), len(rounds))
    assert [c[0] for c in compared] == rounds
    with translation.override(lang):
        assert translation.get_language() == lang


# --- replay -----------------------------------------------------------------------------------
def test_the_replay_lists_every_round_and_steps_like_the_game_page():
    client = Client()
    url = open_game(client, "de", 3, 21)
    seen_during = []

    def during(html: str) -> None:
        if 'data-testid="open-analyzer"' in html and not seen_during:
            replay = client.get(url + "replay/")
            assert replay.status_code == 200
            seen_during.append(replay.content.decode().count('data-testid="replay-round"'))

    final = play_to_the_end(client, url, during)
    assert seen_during and seen_during[0] >= 1
    game = PracticeGame.objects.get()
    practice = games.practice_of(game)
    replay = _get(client, url + "replay/")
    links = re.findall(r'<a href="([^"]+)#replay-steps"[^>]*data-testid="replay-round"', replay)
    analyzer_links = re.findall(r'<a href="(/de/analyze/\?pos=[^"]+)">', final)
    assert len(links) == len(analyzer_links) >= 2 and practice.state.is_over
    for i, link in enumerate(links):
        page = _get(client, link)
        assert analyzer_links[i] in page  # the same position opens in the analyzer
        last = _last_step(page)
        end = _get(client, f"{link}&step={last}")
        analyzed = analyzer_step(_get(client, f"{analyzer_links[i]}&view=explain&step={last}"))
        assert game_step(end) == analyzed
        # the result shows only at the last step of the last round, never ahead of the steps
        assert ('data-testid="final-standings"' in end) == (i == len(links) - 1), i
        assert 'data-testid="final-standings"' not in page
    assert 'data-testid="final-standings"' not in replay
    skip = re.search(r'<a href="([^"]+)#replay-end"[^>]*data-testid="skip-to-result"', replay)[1]
    assert 'data-testid="final-standings"' in _get(client, skip)


def test_the_share_link_shows_the_finished_game_read_only_to_anyone():
    owner = Client()
    url = open_game(owner, "ja", 2, 31)
    # before the end there is nothing to share
    game = PracticeGame.objects.get()
    shared = f"/ja/play/{game.code}/shared/{game.share_token}/"
    assert Client().get(shared).status_code == 404
    final = play_to_the_end(owner, url)
    # the link to share has no language prefix: it opens in each reader's language
    neutral = shared.removeprefix("/ja")
    assert f'value="http://testserver{neutral}"' in final and 'data-testid="share-link"' in final
    opened = Client(HTTP_ACCEPT_LANGUAGE="de").get(neutral)
    assert opened.status_code == 302 and opened["Location"] == "/de" + neutral
    stranger = Client()
    page = stranger.get(shared)
    assert page.status_code == 200 and not [c for c in stranger.cookies if c.startswith("play_")]
    html = page.content.decode()
    assert '<html lang="ja">' in html
    assert "<form" not in html.split('id="replay-area"', 1)[1]  # no moves at all
    assert 'name="do"' not in html and "act/" not in html and game.key_hash not in html
    assert html.count('data-testid="replay-round"') >= 2 and 'data-testid="skip-to-result"' in html
    step = stranger.get(shared + "?round=2&step=2")
    assert step.status_code == 200 and "/ja/rules/#" in step.content.decode()
    # actions refused: the share address takes no posts; the game's address without the key is not found
    assert stranger.post(shared, {"do": "continue"}).status_code == 405
    assert stranger.post(url + "act/", {"do": "continue", "version": str(game.version)}).status_code == 404
    assert stranger.get(url).status_code == 404 and stranger.get(url + "replay/").status_code == 404
    game.refresh_from_db()
    assert games.practice_of(game).state.is_over


@pytest.mark.parametrize("lang", ["ja", "de", "en"])
def test_an_unknown_share_token_is_a_localized_not_found(lang):
    owner = Client()
    url = open_game(owner, lang, 2, 41)
    play_to_the_end(owner, url)
    game = PracticeGame.objects.get()
    for token in ("x" * 22, game.share_token[:-1] + ("A" if game.share_token[-1] != "A" else "B")):
        page = Client().get(f"/{lang}/play/{game.code}/shared/{token}/")
        assert page.status_code == 404
        html = page.content.decode()
        assert f'<html lang="{lang}">' in html and 'data-testid="play-missing"' in html
        with translation.override(lang):
            assert translation.gettext("No game here") in html
    assert Client().get(f"/{lang}/play/nosuchgame/shared/{game.share_token}/").status_code == 404


def test_the_replay_shows_no_round_in_progress_and_no_hidden_card():
    client = Client()
    url = open_game(client, "en", 3, 51)
    html = client.get(url).content.decode()
    for _turn in range(400):
        if 'name="do" value="place"' in html:
            break
        html = play_on(client, url, html)
    replay = _get(client, url + "replay/")
    assert 'data-testid="replay-empty"' in replay
    game = PracticeGame.objects.get()
    state = games.practice_of(game).state
    with translation.override("en"):
        for row in state.board.rows:
            for cell in row:
                if cell.card is not None and cell.card.colour.value != "red":
                    assert card_phrase(cell.card.token) not in replay
