"""Practice games through the JSON API: whole games played to the end by a
learner choosing random legal actions, never seeing hidden information; stale versions,
wrong keys, illegal actions; the log replays the game exactly."""

from __future__ import annotations

import json
import random
from collections import Counter
from datetime import timedelta

import pytest
from django.utils import translation

from api_helpers import post_json, problems_of
from captain.rules import FULL_DECK, Colour
from captain.rules.game import apply
from captain.rules.game.setup import starting_hand
from tutorials.models import PracticeGame
from tutorials.practice import games

pytestmark = pytest.mark.django_db

COLOURS = ["red", "blue", "green", "white"]
#: The variants of the chosen games, by mode: none, then each the API offers (VAR-1 with
#: the other INT-1 reading, VAR-2, and VAR-3 / the first edition's bell or STRAT-4).
VARIANTS = {
    "action": ({}, {"speed_order": "reversed", "collection": "simultaneous"}, {"no_scouts": True},
               {"bell": "all-dice"}),
    "strategy": ({}, {"speed_order": "reversed", "collection": "simultaneous"}, {"no_scouts": True},
                 {"place_after_reroll": True}),
}


def _chosen(players: int, mode: str, variant: int) -> dict:
    """One of the 24 chosen games: its table size, mode and variant are given; the seats,
    the learner's colour, the captains' strength and the deal come from its seed."""
    seed = 1_000 * players + 100 * (mode == "strategy") + variant
    rng = random.Random(seed)
    rules = {"mode": mode, **VARIANTS[mode][variant]}
    if rules.get("bell") == "all-dice" and players == 3:
        rules["bell"] = "first-edition"  # the superseded bell: three or four players only
    seats = rng.sample(COLOURS, players)
    return {"seats": seats, "learner": rng.choice(seats), "rules": rules,
            "strength": ("random", "greedy")[variant % 2], "pace": "fastest",
            "seed": 100_000_000 + seed * 7_919}


CHOSEN = [_chosen(players, mode, variant) for players in (2, 3, 4) for mode in VARIANTS
          for variant in range(len(VARIANTS[mode]))]


def _options(seed: int) -> dict:
    """A game drawn from ``seed``: table size, mode, variants and strength at random."""
    rng = random.Random(seed)
    seats = rng.sample(COLOURS, 2 + seed % 3)
    mode = ("action", "strategy")[seed % 2]
    rules = {"mode": mode, "speed_order": rng.choice(["ascending", "reversed"]),
             "collection": rng.choice(["sequential", "simultaneous"]), "no_scouts": rng.random() < .3}
    if mode == "strategy":
        rules["place_after_reroll"] = rng.random() < .5
    elif rng.random() < .4:
        rules["bell"] = "all-dice" if len(seats) == 2 or rng.random() < .5 else "first-edition"
    return {"seats": seats, "learner": rng.choice(seats), "rules": rules,
            "strength": rng.choice(["random", "greedy"]), "pace": "fastest",
            "seed": 100_000_000 + seed * 7_919}


def _check_hidden(body: str, game: PracticeGame, view: dict) -> None:
    """Nothing a player at the table could not know: no seed, no deck or box order, no
    other hand or discard, no other player's face-down card."""
    assert str(game.setup["seed"]) not in body and str(game.setup["captain_seed"]) not in body
    practice = games.practice_of(game)
    state, learner = practice.state, practice.learner
    for cards in (state.deck, state.box):
        if len(cards) >= 3:
            assert json.dumps([str(t) for t in cards[:3]]) not in body
    for seat in view["seats"]:
        assert isinstance(seat["hand"], int) and isinstance(seat["discard"], int)
    for row in view["board"]:
        for cell in row:
            if cell["card"] and cell["card"]["colour"] != learner.value:
                assert cell["card"]["value"] is None
    assert "seed" not in view and "deck_order" not in view


def _check_invariants(game: PracticeGame) -> None:
    """Treasure cards are all accounted for, every attack card is in a hand, a discard
    pile or on the board, and no colour's dice cover more than three cards."""
    state = games.practice_of(game).state
    treasures = Counter(state.deck) + Counter(state.box)
    for _pos, cell in state.board:
        if cell.treasure:
            treasures[cell.treasure] += 1
    for p in state.players:
        treasures.update(p.won)
    assert treasures == Counter(FULL_DECK)
    start = Counter(starting_hand(state.rules, len(state.players)))
    for p in state.players:
        on_board = Counter(c.kind for _pos, cell in state.board
                           if (c := cell.card) is not None and c.colour is p.colour)
        assert Counter(p.hand) + Counter(p.discard) + on_board == start
        assert len(state.dice_cards(p.colour)) <= 3


def _game_id(options: dict) -> str:
    rules = "+".join(f"{k}={v}" for k, v in options["rules"].items() if k != "mode") or "plain"
    return f"{len(options['seats'])}p-{options['rules']['mode']}-{rules}"


@pytest.mark.parametrize("options", CHOSEN, ids=_game_id)
def test_a_learner_plays_a_whole_game(client, options):
    """Every table size × both modes × each variant, played to the end over HTTP."""
    _play_to_the_end(client, options)


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(200))
def test_a_learner_plays_many_drawn_games(client, seed):
    """200 more games, everything drawn from the seed (bin/test --slow)."""
    _play_to_the_end(client, _options(seed))


def _play_to_the_end(client, options: dict) -> None:
    seed = options["seed"]
    response = post_json(client, "/api/v1/games", options)
    assert response.status_code == 201, response.content
    created = response.json()
    key, game_id, view = created["key"], created["id"], created["state"]
    headers = {"HTTP_X_GAME_KEY": key}
    rng = random.Random(seed)
    for _ in range(3000):
        game = PracticeGame.objects.get(code=game_id)
        _check_hidden(json.dumps(view, ensure_ascii=False), game, view)
        _check_invariants(game)
        if view["over"]:
            break
        if not view["legal_actions"]:  # captains to move: time passes
            PracticeGame.objects.filter(code=game_id).update(
                started_at=game.started_at - timedelta(seconds=2))
            response = client.get(f"/api/v1/games/{game_id}", **headers)
            assert response.status_code == 200, response.content
            view = response.json()
            continue
        action = rng.choice(view["legal_actions"])
        response = post_json(client, f"/api/v1/games/{game_id}/actions",
                             {"action": action, "version": view["version"]}, **headers)
        if response.status_code == 422 and view["rules"].get("mode", "action") == "action":
            # real time: the captains moved first (a card claimed, the bell rung) and made
            # the action impossible; reading the game again shows what they did
            problems_of(response)
            fresh = client.get(f"/api/v1/games/{game_id}", **headers).json()
            assert fresh["version"] > view["version"], response.content
            view = fresh
            continue
        assert response.status_code == 200, response.content
        view = response.json()
    assert view["over"], "the game did not end"
    game = PracticeGame.objects.get(code=game_id)
    _check_invariants(game)
    # the log replays the game exactly through the engine
    practice = games.practice_of(game)
    state = practice.dealt
    for entry in practice.log:
        state = apply(state, entry.action)
    assert state == practice.state and state.is_over
    standings = [e for e in games.events_since(game, None) if e["code"] == "round.standings"]
    assert len(standings) == 1
    # finished: the share token shows it read-only; the key still works
    shared = client.get(f"/api/v1/games/{game_id}", {"share": created["share_token"]})
    assert shared.status_code == 200 and shared.json()["legal_actions"] == []
    assert "hand" not in shared.json()


def _new_game(client, **extra) -> tuple[str, str, dict]:
    options = {"seats": ["red", "blue", "green"], "learner": "red", "strength": "greedy",
               "pace": "fastest", "seed": 424242, **extra}
    created = post_json(client, "/api/v1/games", options).json()
    return created["id"], created["key"], created


def test_wrong_key_unknown_game_and_unfinished_share_are_404(client):
    game_id, key, created = _new_game(client)
    assert client.get(f"/api/v1/games/{game_id}", HTTP_X_GAME_KEY="nope").status_code == 404
    assert client.get("/api/v1/games/zzzzzzz", HTTP_X_GAME_KEY=key).status_code == 404
    problems_of(client.get(f"/api/v1/games/{game_id}", {"share": created["share_token"]}), 404)
    body = post_json(client, f"/api/v1/games/{game_id}/actions",
                     {"action": {"type": "continue"}, "version": 0})
    problems_of(body, 404)


def test_a_stale_version_is_409_and_changes_nothing(client):
    game_id, key, created = _new_game(client)
    headers = {"HTTP_X_GAME_KEY": key}
    first = post_json(client, f"/api/v1/games/{game_id}/actions",
                      {"action": {"type": "continue"}, "version": 0}, **headers)
    assert first.status_code == 200
    before = PracticeGame.objects.get(code=game_id)
    again = post_json(client, f"/api/v1/games/{game_id}/actions",
                      {"action": {"type": "continue"}, "version": 0}, **headers)
    assert problems_of(again, 409)[0]["code"] == "stale-version"
    after = PracticeGame.objects.get(code=game_id)
    assert (after.version, after.log) == (before.version, before.log)


def test_an_illegal_action_names_the_rule_in_the_learners_language(client):
    game_id, key, created = _new_game(client, rules={"mode": "strategy"}, start_player="blue")
    headers = {"HTTP_X_GAME_KEY": key}
    view = created["state"]
    # red is not the start player: red may not begin Dice Time (DICE-1 / STRAT-1)
    response = post_json(client, f"/api/v1/games/{game_id}/actions",
                         {"action": {"type": "begin-dice-time", "player": "red"},
                          "version": view["version"]}, HTTP_ACCEPT_LANGUAGE="ja", **headers)
    problem = problems_of(response)[0]
    assert problem["code"] == "not-start-player" and problem["clause"] == "DICE-1"
    assert "親プレイヤー" in problem["message"]
    # a captain's colour is not the learner's to play
    response = post_json(client, f"/api/v1/games/{game_id}/actions",
                         {"action": {"type": "begin-dice-time", "player": "blue"},
                          "version": view["version"]}, **headers)
    assert problems_of(response)[0]["code"] == "not-your-seat"


def test_captains_act_on_the_servers_clock_first(client):
    """Action mode: after some seconds the captains have claimed cards; a learner's claim
    on such a card is refused because someone claimed it first (DICE-2)."""
    game_id, key, created = _new_game(client, rules={"mode": "action"}, start_player="red",
                                      pace="first-game")
    headers = {"HTTP_X_GAME_KEY": key}
    view = created["state"]
    for action in ({"type": "continue"}, {"type": "begin-dice-time", "player": "red"}):
        view = post_json(client, f"/api/v1/games/{game_id}/actions",
                         {"action": action, "version": view["version"]}, **headers).json()
    taken = []
    for _ in range(120):  # a quarter of a second at a time, until a captain has claimed a card
        game = PracticeGame.objects.get(code=game_id)
        PracticeGame.objects.filter(code=game_id).update(
            started_at=game.started_at - timedelta(seconds=0.25))
        view = client.get(f"/api/v1/games/{game_id}", **headers).json()
        assert view["phase"] == "dice"
        taken = [(r, c) for r, row in enumerate(view["board"]) for c, cell in enumerate(row)
                 if cell["dice"] and cell["dice"] != "red"]
        if taken:
            break
    assert taken, "the captains claimed nothing in thirty seconds"
    r, c = taken[0]
    response = post_json(client, f"/api/v1/games/{game_id}/actions",
                         {"action": {"type": "claim", "player": "red", "position": [r, c]},
                          "version": view["version"]}, **headers)
    problem = problems_of(response)[0]
    assert problem["code"] == "occupied" and problem["clause"] == "DICE-2"


def test_bad_options_name_the_field(client):
    for options, field in (({"seats": ["red"], "learner": "red"}, "seats"),
                           ({"seats": ["red", "blue"], "learner": "green"}, "learner"),
                           ({"seats": ["red", "blue"], "learner": "red", "pace": "warp"}, "pace"),
                           ({"seats": ["red", "blue"], "learner": "red", "strength": "god"}, "strength"),
                           ({"seats": ["red", "blue"], "learner": "red", "colour": "x"}, "colour")):
        problem = problems_of(post_json(client, "/api/v1/games", options))[0]
        assert problem["field"] == field, (options, problem)
    assert PracticeGame.objects.count() == 0


def test_the_learner_key_is_stored_only_as_a_hash(client):
    game_id, key, _created = _new_game(client)
    game = PracticeGame.objects.get(code=game_id)
    assert key not in json.dumps([game.key_hash, game.setup, game.log, game.clocks])
    assert Colour.RED.value == game.setup["learner"]


def test_starting_games_is_rate_limited_through_the_api_and_the_play_page_together(client, settings):
    """Their own group, ``game``: the 429 says games were started, not positions saved."""
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "game": "3/m"}
    options = {"seats": ["red", "blue"], "learner": "red", "seed": 1}
    statuses = [post_json(client, "/api/v1/games", options).status_code for _ in range(2)]
    form = client.post("/en/play/", {"players": "2", "colour": "red", "strength": "greedy"})
    assert statuses == [201, 201] and form.status_code == 302
    problem = problems_of(post_json(client, "/api/v1/games", options), 429)[0]
    assert problem["code"] == "rate-limited" and "practice games were started" in problem["message"]
    page = client.post("/de/play/", {"players": "2", "colour": "red", "strength": "greedy"})
    assert page.status_code == 429
    with translation.override("de"):
        assert translation.gettext("Too many practice games were started from your network in a short time. "
                                   "Please try again in %(seconds)s seconds.").split("%")[0] \
            in page.content.decode()
    assert post_json(client, "/api/v1/positions", {"notation": "Rb_11r1.12b2"}).status_code == 201


def test_the_first_rolls_do_not_give_the_seed_away(client):
    """Everyone sees the first rolls; a 31-bit seed could be found from them by trying every
    seed, and with it the deck order and every future roll. Unless the learner chose a
    seed, a game's seed has 128 random bits."""
    created = post_json(client, "/api/v1/games", {"seats": ["red", "blue"], "learner": "red"}).json()
    seed = PracticeGame.objects.get(code=created["id"]).setup["seed"]
    assert seed >= 2**64


def test_keys_and_share_tokens_open_only_what_they_should(client):
    game_id, key, created = _new_game(client)
    # the learner's key is a header, never a query parameter (URLs end up in logs)
    assert client.get(f"/api/v1/games/{game_id}", {"share": key}).status_code == 404
    response = post_json(client, f"/api/v1/games/{game_id}/actions?share={key}",
                         {"action": {"type": "continue"}, "version": 0})
    assert response.status_code == 404
    # keys that are not ASCII are wrong keys, not errors
    assert client.get(f"/api/v1/games/{game_id}", {"share": "é"}).status_code == 404
    assert client.get(f"/api/v1/games/{game_id}", HTTP_X_GAME_KEY="é").status_code == 404


def test_wrong_keys_never_lock_the_learner_out(client, settings):
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "game-miss": "3/m"}
    game_id, key, _created = _new_game(client)
    statuses = [client.get(f"/api/v1/games/{game_id}", HTTP_X_GAME_KEY="x").status_code
                for _ in range(5)]
    assert statuses[:3] == [404, 404, 404] and statuses[3:] == [429, 429]
    assert client.get(f"/api/v1/games/{game_id}", HTTP_X_GAME_KEY=key).status_code == 200


def test_odd_requests_are_refused_saying_where(client):
    game_id, key, created = _new_game(client, rules={"mode": "strategy"}, start_player="red")
    headers = {"HTTP_X_GAME_KEY": key}
    view = post_json(client, f"/api/v1/games/{game_id}/actions",
                     {"action": {"type": "continue"}, "version": 0}, **headers).json()
    # continue only between rounds: no write, no new version
    response = post_json(client, f"/api/v1/games/{game_id}/actions",
                         {"action": {"type": "continue"}, "version": view["version"]}, **headers)
    problem = problems_of(response)[0]
    assert problem["code"] == "nothing-to-continue" and problem["field"] == "action"
    assert PracticeGame.objects.get(code=game_id).version == view["version"]
    for action, code in (({"type": ["continue"]}, "bad-action"),
                         ({"type": "claim", "player": "red", "position": "B2"}, None)):
        response = post_json(client, f"/api/v1/games/{game_id}/actions",
                             {"action": action, "version": view["version"]}, **headers)
        problem = problems_of(response)[0]
        assert problem["field"].startswith("action"), problem
        assert code is None or problem["code"] == code
    problem = problems_of(post_json(client, f"/api/v1/games/{game_id}/actions",
                                    {"action": {"type": "continue"}, "version": -1}, **headers))[0]
    assert problem["field"] == "version"
    problems_of(client.get(f"/api/v1/games/{game_id}", {"since": -1}, **headers))
    bad = post_json(client, "/api/v1/games", {"seats": ["red", "blue"], "learner": "red",
                                              "strength": {"blue": ["strong"]}})
    assert problems_of(bad)[0]["field"] == "strength"


@pytest.mark.django_db
def test_what_if_fragment_of_an_unreadable_position_is_empty(client):
    """htmx asks for the panel of the page's own position; when that cannot be read the
    page already says why, and the panel stays as it is."""
    response = client.get("/en/analyze/what-if/", {"pos": "garbage"}, HTTP_HX_REQUEST="true")
    assert response.status_code == 204 and response.content == b""
    page = client.get("/en/analyze/what-if/", {"pos": "garbage"})
    assert page.status_code == 422 and b"analyzer-error" in page.content


@pytest.mark.parametrize("body, code, field", [
    (None, "not-object", ""), ([], "not-object", ""),
    ({"learner": "red"}, "missing-key", "seats"),
    ({"seats": ["red", "red"], "learner": "red"}, "bad-seats", "seats"),
    ({"seats": ["red", "blue"], "learner": "red", "rules": {"mode": "strategy", "bell": "all-dice"}},
     "bell-in-strategy", "rules.bell"),
    ({"seats": ["red", "blue"], "learner": "red", "rules": {"bell": "first-edition"}},
     "first-edition-two", "rules.bell"),
])
def test_a_game_the_start_form_would_refuse_is_refused_with_the_games_own_words(client, body, code, field):
    """A body the start form would refuse (a ``null`` body, VAR-3 in strategy mode, the
    first-edition bell with two) is refused in the games' own words, not /solve's."""
    [problem] = problems_of(post_json(client, "/api/v1/games", body, HTTP_ACCEPT_LANGUAGE="de"), 422)
    assert (problem["code"], problem["field"]) == (code, field)
    assert "players, start_player and board" not in problem["message"]
    assert not PracticeGame.objects.exists()


def test_an_action_body_names_the_key_it_does_not_know(client):
    game_id, key, created = _new_game(client)
    body = {"action": {"type": "continue"}, "version": created["state"]["version"], "x": 1}
    response = post_json(client, f"/api/v1/games/{game_id}/actions", body, HTTP_X_GAME_KEY=key)
    [problem] = problems_of(response, 422)
    assert (problem["code"], problem["field"]) == ("unknown-key", "x") and "x" in problem["message"]
