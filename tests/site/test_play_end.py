"""The end screen and every round review show one set of totals, the ones of the step shown:
the players' list, the deck and the final standings agree, and the result waits for the
last step of the last round (or its skip link)."""

from __future__ import annotations

import re

import pytest
import tinyhtml5
from django.test import Client

from tests.site.test_play_replay import open_game, play_to_the_end
from tutorials.models import PracticeGame
from tutorials.play.rounds import history
from tutorials.practice import games

pytestmark = pytest.mark.django_db

_NS = "{http://www.w3.org/1999/xhtml}"


def _text(element) -> str:
    return " ".join("".join(element.itertext()).split())


def _find(root, test_id: str = "", cls: str = ""):
    for e in root.iter():
        if test_id and e.get("data-testid") == test_id:
            return e
        if cls and cls in (e.get("class") or "").split():
            return e
    return None


def _read(html: str) -> dict:
    """What the page tells: each seat's treasure (cards, doubles) in the players' list, the
    deck, the step shown, and the final standings' rows when they show."""
    root = tinyhtml5.parse(html)
    seats = {}
    for li in _find(root, cls="seat-list").iter(f"{_NS}li"):
        name = _text(li.find(f"{_NS}strong"))
        won = re.search(r"(\d+) treasure cards? won \(doubles: (\d+)\)", _text(li))
        seats[name] = (int(won.group(1)), int(won.group(2)))
    deck = re.search(r"(\d+) treasure cards? left in the deck", _text(_find(root, cls="play-seats")))
    step = re.search(r"Step (\d+) of (\d+)", _text(_find(root, test_id="current-step")))
    standings = None
    table = _find(root, test_id="final-standings")
    if table is not None:
        standings = {}
        for tr in table.find(f".//{_NS}tbody").iter(f"{_NS}tr"):
            name = _text(tr.find(f"{_NS}th")).removesuffix("(you)").strip()
            cards, doubles = (int(_text(td)) for td in tr.iter(f"{_NS}td"))
            standings[name] = (cards, doubles)
    return {"seats": seats, "deck": int(deck.group(1)), "step": (int(step.group(1)), int(step.group(2))),
            "standings": standings, "skip": _find(root, test_id="skip-to-result")}


def _totals(seating, won) -> dict:
    return {c.value: (len(won.get(c, ())), sum(1 for t in won.get(c, ()) if t.is_double))
            for c in seating.players}


def test_the_end_screen_shows_one_set_of_totals_and_the_result_only_at_the_last_step():
    client = Client()
    url = open_game(client, "en", 3, 61)
    reviewed = []

    def review(html: str) -> None:
        # a round review between rounds: the deck before the refill until the round's end
        if 'data-testid="open-analyzer"' not in html or 'data-testid="game-over"' in html or reviewed:
            return
        practice = games.practice_of(PracticeGame.objects.get())
        played = history(practice)[0][-1]
        first = _read(html)
        assert first["step"][0] == 1 and first["deck"] == played.situation.deck
        assert first["seats"] == _totals(practice.state.seating, played.situation.won)
        last = _read(client.get(f"{url}?step={first['step'][1] - 1}").content.decode())
        assert last["deck"] == len(practice.state.deck) and last["standings"] is None
        reviewed.append(played.number)

    end = play_to_the_end(client, url, review)
    assert reviewed
    practice = games.practice_of(PracticeGame.objects.get())
    state, played = practice.state, history(practice)[0][-1]
    assert state.is_over
    shown = _read(end)
    # the last round from its first step: everyone's treasure as before it, no result yet
    assert shown["step"][0] == 1 and shown["standings"] is None and shown["skip"] is not None
    assert shown["seats"] == _totals(state.seating, played.situation.won)
    assert shown["deck"] == played.situation.deck
    count = shown["step"][1]
    after = _totals(state.seating, {p.colour: p.won for p in state.players})
    for k in range(count):
        page = _read(client.get(f"{url}?step={k}").content.decode())
        assert page["step"] == (k + 1, count)
        if k < count - 1:
            assert page["standings"] is None and page["skip"] is not None
            assert page["deck"] == played.situation.deck
    # the last step: the final standings, the players' list and the engine agree
    assert page["standings"] == page["seats"] == after and page["skip"] is None
    assert page["deck"] == len(state.deck)
    standings, _winner = state.standings()
    assert list(page["standings"].values()) == [(s.cards, s.doubles) for s in standings]
    # the skip link, a plain link (no JavaScript needed), lands on that same last step
    skip = shown["skip"].get("href").split("#")[0]
    assert _read(client.get(skip).content.decode())["standings"] == after
