"""Step and round numbers in addresses are read as typed and clamped the same way
everywhere: ``?step=999`` and ``?step=1000`` both give the last step, and full-width
``２`` is read as 2."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from tests.site.play_helpers import first_move, page_version, start_game
from tutorials.web.numbers import query_number

EX_BATTLE = "Rbg_11.13r3.22.14-15.16b1.23.24r2-26.33.34g1.35-36g0.44.45.46"


@pytest.mark.parametrize("raw, number", [
    ("3", 3), ("０３", 3), ("２", 2), (" 7 ", 7), ("1000", 1000), ("99999999999", 10**6),
    ("-1", 0), ("", None), ("abc", None), ("²", 2), ("①", 1), ("1e3", None), (None, None)])
def test_query_number(raw, number):
    assert query_number(raw, -5) == (-5 if number is None else number)


def _step_shown(html: str) -> tuple[int, int]:
    found = re.search(r"Step (\d+) of (\d+)", html)
    return int(found[1]), int(found[2])


@pytest.mark.django_db
@pytest.mark.parametrize("step, shown", [("9999", "last"), ("10000", "last"), ("99999999999", "last"),
                                         ("２", 3), ("-1", 1), ("x", 1)])
def test_the_analyzers_step_is_clamped_never_reset(client, step, shown):
    html = client.get("/en/analyze/", {"pos": EX_BATTLE, "view": "explain", "step": step}).content.decode()
    at, count = _step_shown(html)
    assert at == (count if shown == "last" else shown)


@pytest.mark.django_db
def test_the_games_step_and_the_replays_round_are_clamped_never_reset():
    client = Client()
    url = start_game(client, "en", players="3")
    finished, walking = 0, False
    for _turn in range(1500):
        html = client.get(url).content.decode()
        finished += 'data-testid="next-step"' in html and not walking  # a round's steps begin
        walking = 'data-testid="next-step"' in html
        move = first_move(html)
        if finished >= 2 or move is None:
            break
        client.post(url + "act/", {**move, "version": page_version(html)})
    replay = client.get(url + "replay/").content.decode()
    played = replay.count('data-testid="replay-round"')
    assert played >= 2, "the game never finished two rounds"
    for raw in ("1000", "99999999999", str(played)):
        page = client.get(url + "replay/", {"round": raw}).content.decode()
        assert re.search(r'aria-current="page" class="current">Round (\d+)<', page)[1] == str(played), raw
    page = client.get(url + "replay/", {"round": "２"}).content.decode()
    assert re.search(r'aria-current="page" class="current">Round (\d+)<', page)[1] == "2"
    for raw in ("1000", "99999999999"):
        at, count = _step_shown(client.get(url + "replay/", {"round": "1", "step": raw}).content.decode())
        assert at == count, raw
