"""Playing a practice game through the site's forms, shared by the site and browser tests:
the start form's choices, a started game, the page's version, a simple learner's move;
and a whole game the computer captains play by themselves, for the property tests."""

from __future__ import annotations

import random
import re

from django.test import Client

from captain.rules.captains.strengths import captain
from captain.rules.game import apply, legal_actions, new_game

CHOICES = {"players": "2", "colour": "red", "start": "random", "strength": "greedy",
           "collection": "sequential"}


def start_game(client: Client, lang: str = "en", **choices) -> str:
    response = client.post(f"/{lang}/play/", {**CHOICES, **choices})
    assert response.status_code == 302, response.content.decode()[:2000]
    return response["Location"]


def page_version(html: str) -> str:
    return re.search(r'name="version" value="(\d+)"', html).group(1)


def first_move(html: str) -> dict | None:
    """A simple learner: place a pair when it can, else an attack card, else begin or go
    on, else pass, else re-roll all dice. ``None`` when the game is over."""
    if 'data-testid="game-over"' in html:
        return None
    claim = re.search(r'name="do" value="claim"><input type="hidden" name="at" value="([\d-]+)"', html)
    if claim:
        return {"do": "claim", "at": claim.group(1)}
    if 'data-testid="place-submit"' in html:
        return {"do": "place", "at": re.search(r'name="at" value="([\d-]+)" checked', html).group(1),
                "card": re.search(r'name="card" value="(\d)" checked', html).group(1)}
    for do in ("begin", "continue", "pass"):
        if f'data-testid="play-{do}"' in html:
            return {"do": do}
    if 'data-testid="roll-all"' in html:
        return {"do": "roll", "dice": re.findall(r'type="checkbox" name="dice" value="(\d)"', html)}
    raise AssertionError("no move offered: " + html[-2000:])


def captain_game(players, rules, seed: int, strengths=("random", "greedy")):
    """A whole game the computer captains play on every seat, the seeds fixed: every step
    as ``(state, action, after)``. The first seat (the learner's in a practice game)
    plays ``strengths[0]``, the others ``strengths[1]``. Action mode has no turns in
    Dice Time: who acts next is drawn among the players who may."""
    rng = random.Random(seed)
    state = new_game(players, rules=rules, seed=seed, start_player=players[seed % len(players)])
    chosen = {c: captain(strengths[0] if i == 0 else strengths[1]) for i, c in enumerate(players)}
    while not state.is_over:
        movers = [c for c in state.seating.players if legal_actions(state, c)]
        colour = rng.choice(movers)
        action = chosen[colour].choose(state, colour, rng)
        after = apply(state, action)
        yield state, action, after
        state = after
