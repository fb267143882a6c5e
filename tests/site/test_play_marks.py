"""The captains' moves since the learner's last one: marked on the board (a frame and a
star, named in the cell's text) and announced in a status line, in Dice and Setting Time."""

from __future__ import annotations

import html as htmllib
import re

import pytest
from django.test import Client

from captain.rules import Position
from captain.rules.game import Phase
from tests.site.test_play_replay import open_game, play_to_the_end
from tutorials.models import PracticeGame
from tutorials.practice import games
from tutorials.wording.glossary import COLUMN_LETTERS

pytestmark = pytest.mark.django_db

_CELL = re.compile(r'class="cell[^"]*\blast-move\b[^"]*" data-pos="([A-Z]\d)"')
_STATUS = re.compile(r'data-testid="captains-moved">(.*?)</p>', re.S)


def _position(label: str) -> Position:
    return Position(int(label[1:]) - 1, COLUMN_LETTERS.index(label[0]))


def test_the_captains_moves_are_marked_and_announced():
    client = Client()
    url = open_game(client, "en", 3, 17)
    seen = {Phase.DICE: 0, Phase.SETTING: 0}

    def check(html: str) -> None:
        marked = _CELL.findall(html)
        status = _STATUS.search(html)
        if 'data-testid="game-over"' in html or "data-walk-main" in html:
            assert not marked  # the round review shows its own steps
            return
        state = games.practice_of(PracticeGame.objects.get()).state
        learner = state.seating.players[0]
        for label in marked:
            cell = state.board.at(_position(label))
            held = cell.dice if state.phase is Phase.DICE else cell.card
            assert held is not None and held.colour is not learner, (label, state.phase)
            assert label in htmllib.unescape(status.group(1)), (label, status.group(1))
        if marked:
            seen[state.phase] += 1
            assert "a captain&#x27;s move since your last one" in html  # the legend names the mark
        else:
            assert status is None or not status.group(1).strip()

    play_to_the_end(client, url, check)
    assert seen[Phase.DICE] and seen[Phase.SETTING], seen


def test_a_line_of_the_round_so_far_marks_its_card_on_the_board():
    client = Client()
    url = open_game(client, "en", 3, 17)
    followed = []

    def check(html: str) -> None:
        links = re.findall(r'<a class="chip small" href="([^"#]+)#play-board"', html)
        if followed or not links:
            return
        link = htmllib.unescape(links[-1])
        marked = link.rsplit("mark=", 1)[1]
        page = client.get(link).content.decode()
        row, col = (int(n) for n in marked.split("-"))
        label = f"{COLUMN_LETTERS[col]}{row + 1}"
        acting = re.findall(r'class="cell[^"]*\bacting\b[^"]*" data-pos="([A-Z]\d)"', page)
        assert acting == [label], (acting, label)
        assert "the move chosen in the list below" in page
        followed.append(label)

    play_to_the_end(client, url, check)
    assert followed
    # a mark that names no position marks nothing, and the page still shows
    acting = re.compile(r'class="cell[^"]*\bacting\b[^"]*" data-pos="([A-Z]\d)"')
    page = client.get(url + "?mark=zz")
    assert page.status_code == 200
    assert acting.findall(page.content.decode()) == acting.findall(client.get(url).content.decode())
