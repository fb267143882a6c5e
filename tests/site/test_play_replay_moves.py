"""The replay steps through Dice and Setting Time on the board: one move at a time, the
board as that move left it, the move's card marked and worded, then on to Battle Time."""

from __future__ import annotations

import html as htmllib
import re

import pytest
from django.test import Client

from tests.site.test_play_replay import open_game, play_to_the_end
from tutorials.models import PracticeGame
from tutorials.play.rounds import history
from tutorials.practice import games
from tutorials.wording.glossary import position_label

pytestmark = pytest.mark.django_db

_ACTING = re.compile(r'class="cell[^"]*\bacting\b[^"]*" data-pos="([A-Z]\d+)"')


def _link(html: str, test_id: str) -> str | None:
    found = re.search(rf'<a [^>]*href="([^"#]+)[^"]*"[^>]*data-testid="{test_id}"', html)
    return htmllib.unescape(found.group(1)) if found else None


def test_the_replay_shows_every_move_of_dice_and_setting_time_on_the_board():
    client = Client()
    url = open_game(client, "en", 3, 21)
    play_to_the_end(client, url)
    practice = games.practice_of(PracticeGame.objects.get())
    first = history(practice)[0][0]
    replay = client.get(url + "replay/?round=1").content.decode()
    link = _link(replay, "replay-moves")
    assert link, "no way into the moves"
    claims = places = 0
    for k, (event, board) in enumerate(first.moves, start=1):
        page = client.get(link).content.decode()
        assert f"Move {k} of {len(first.moves)}" in page
        label = position_label(tuple(event.params["position"]))
        assert _ACTING.findall(page) == [label]  # the move's card, and only it, is marked
        said = re.search(r'data-testid="replay-move".*?<span class="ex-text">(.*?)</span>', page, re.S)
        assert label in htmllib.unescape(said.group(1))
        # the board as the move left it: every claim put dice down, every placement swapped
        # a card in for them (SET-1)
        claims += event.code == "dice.claim"
        places += event.code == "setting.place"
        assert len(board.dice()) == claims - places and len(board.cards()) == places
        link = _link(page, "move-next") or _link(page, "move-steps")
    # the last move leaves the board Battle Time starts from
    assert board.cards() == first.situation.board.cards()
    assert 'data-testid="replay-steps"' in client.get(link).content.decode()
    # a move number out of range shows the nearest move, never an error
    assert client.get(url + "replay/?round=1&move=9999").status_code == 200
