"""The tutorial read for a table: the choice of mode and players at its start, every lesson
in its strategy-mode form, the links keeping the choice, and strategy mode's Dice Time board
played on the engine against the computer."""

from __future__ import annotations

import random
import re

import pytest

from captain.rules import Colour
from captain.rules.game import Phase
from test_tutorial_views import visible_text
from tutorials.tutorial.boards import TurnsBoard
from tutorials.tutorial.script import LESSONS
from wording_helpers import english_messages

LANGS = ["ja", "en", "de"]
#: the words that would mean a strategy-mode text speaks of a bell
BELL = {"en": re.compile(r"\bbell\b|\bring", re.I), "de": re.compile(r"Glocke|klingel", re.I),
        "ja": re.compile(r"ベル|鳴ら")}
STRATEGY_NAME = {"en": "strategy mode", "de": "Strategiemodus", "ja": "戦略モード"}


def _script_text(html: str) -> str:
    """What the lesson reads aloud (its script), without the board and the page around it."""
    part = html.split('<div class="script">', 1)[1].split("</div>\n    \n", 1)[0]
    return visible_text(part)


@pytest.mark.django_db
@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("players", ["3-4", "2"])
@pytest.mark.parametrize("step", [s.slug for s in LESSONS])
def test_every_lesson_has_its_strategy_form(client, lang, players, step):
    html = client.get(f"/{lang}/tutorial/{step}/", {"mode": "strategy", "players": players}).content.decode()
    assert STRATEGY_NAME[lang] in visible_text(html.split('data-testid="table-subtitle"', 1)[1][:300])
    script = _script_text(html)
    assert script and not BELL[lang].search(script), (step, BELL[lang].search(script))
    # every link to another lesson keeps the table it is read for
    links = re.findall(rf'href="(/{lang}/tutorial/[a-z-]+/[^"]*)"', html)
    assert links and all("mode=strategy" in link for link in links if "?language=" not in link), links
    if players == "2":
        assert all("players=2" in link for link in links if "?language=" not in link)


@pytest.mark.django_db
@pytest.mark.parametrize("lang", ["ja", "de"])
@pytest.mark.parametrize("step", ["dice-time", "ending-dice-time"])
def test_strategy_lessons_are_translated(client, lang, step):
    text = visible_text(client.get(f"/{lang}/tutorial/{step}/?mode=strategy").content.decode())
    leftovers = [m for m in english_messages() if m in text]
    assert not leftovers, leftovers[:5]


@pytest.mark.django_db
def test_dice_lessons_read_the_strategy_rules_in_strategy_mode(client):
    dice = client.get("/en/tutorial/dice-time/?mode=strategy").content.decode()
    assert 'data-clause="STRAT-2"' in dice and 'id="board-turns"' in dice and 'id="board-dice"' not in dice
    assert "<h1>Dice Time in strategy mode</h1>" in dice
    line = client.get("/en/tutorial/ending-dice-time/?mode=strategy").content.decode()
    assert 'data-clause="STRAT-3"' in line and 'data-clause="INT-3"' in line and 'id="board-line"' in line
    assert 'id="board-bell"' not in line
    two = client.get("/en/tutorial/ending-dice-time/?mode=strategy&players=2").content.decode()
    assert "On our 3×3 grid, a full line is 3 cards." in two and 'data-clause="INT-3"' not in two
    action = client.get("/en/tutorial/dice-time/").content.decode()
    assert 'id="board-dice"' in action and "STRAT-2" not in _script_text(action)


@pytest.mark.django_db
@pytest.mark.parametrize("lang", LANGS)
def test_the_choice_is_offered_at_the_start(client, lang):
    for url in (f"/{lang}/tutorial/", f"/{lang}/tutorial/welcome/"):
        html = client.get(url, {"mode": "strategy"}).content.decode()
        assert 'id="choose-table"' in html
        assert re.search(r'name="mode" value="strategy" checked', html)
        assert re.search(r'name="players" value="3-4" checked', html)
    later = client.get(f"/{lang}/tutorial/setup/").content.decode()
    assert 'id="choose-table"' not in later and f'href="/{lang}/tutorial/#choose-table"' in later


@pytest.mark.django_db
@pytest.mark.parametrize("lang, says", [("en", "Players must be 2 or 3-4"), ("de", "2 oder 3-4"),
                                        ("ja", "3-4")])
def test_a_choice_that_cannot_be_read_says_so_and_shows_the_default(client, lang, says):
    response = client.get(f"/{lang}/tutorial/setup/", {"players": "5"})
    assert response.status_code == 200
    html = response.content.decode()
    assert says in html and 'role="alert"' in html
    assert 'class="aside-note two-players"' in html  # the default table: 3 or 4 players
    twice = client.get(f"/{lang}/tutorial/setup/?mode=action&mode=strategy")
    assert twice.status_code == 200 and 'role="alert"' in twice.content.decode()


@pytest.mark.django_db
def test_two_players_read_their_rules_in_place(client):
    html = client.get("/en/tutorial/setup/?players=2").content.decode()
    assert 'class="aside-note two-players"' not in html
    assert 'data-clause="SETUP-4"' in html
    battle = client.get("/en/tutorial/battle-time/?players=2").content.decode()
    assert 'id="board-quiz-battle"' not in battle  # the checks are built on the 3-4 player examples
    assert "battle=t0" in battle or "state=t0" in battle


@pytest.mark.django_db
def test_board_links_keep_the_table(client):
    html = client.get("/en/tutorial/dice-time/?mode=strategy&players=2").content.decode()
    begin = re.search(r'href="(/en/tutorial/dice-time/board/turns/\?[^"]+do=begin[^"]*)"', html)[1]
    assert "mode=strategy" in begin and "players=2" in begin
    response = client.get(begin.replace("&amp;", "&"))
    assert response.status_code == 302
    assert "mode=strategy" in response["Location"] and "players=2" in response["Location"]
    # a board of the other mode is not on this page
    assert client.get("/en/tutorial/dice-time/board/dice/?state=&do=roll&mode=strategy").status_code == 404


# --- the strategy-mode Dice Time board --------------------------------------------------------
def _begun(players: int = 4, seed: int = 1) -> TurnsBoard:
    return TurnsBoard("dice-time", players=players, seed=seed).apply("begin", "", random.Random(0))


def test_turns_begin_with_everyone_rolling_and_red_first():
    board = _begun()
    assert board.note == "turns-begun" and board.your_turn and len(board.hand) == 6
    assert all(len(board.game.player(c).dice) == 6 for c in board.game.seating.players)


def test_a_reroll_keeps_the_unpicked_dice_and_passes_the_turn_round():
    board = _begun()
    kept = list(board.hand[2:])
    picked = board.apply("pick", "0", random.Random(0)).apply("pick", "1", random.Random(0))
    assert picked.picked_values == list(board.hand[:2])
    rolled = picked.apply("roll", "", random.Random(0))
    assert rolled.note == "rerolled" and rolled.your_turn
    hand = list(rolled.hand)
    for value in kept:  # the dice not picked are still there
        hand.remove(value)
    assert len(hand) == 2
    # the three captains each had a turn, and the board says what they did
    assert len(rolled.captain_moves()) == 3
    assert all(e.clause in ("DICE-2", "STRAT-2") for e in rolled.captain_moves())


def test_a_reroll_needs_a_pick_and_a_claim_needs_the_faces():
    board = _begun()
    assert board.apply("roll", "", random.Random(0)).note == "pick-first"
    misses = [c.pos for row in board.rows() for c in row if "claimable" not in c.classes]
    refused = board.apply("claim", f"{misses[0].row}-{misses[0].col}", random.Random(0))
    assert refused.note == "no-pair-turns" and refused.moves == board.moves


def test_captain_claims_are_marked_on_the_board():
    for seed in range(1, 40):
        board = _begun(seed=seed)
        rolled = board.apply("pick", "0", random.Random(0)).apply("roll", "", random.Random(0))
        claimed = {c.pos for row in rolled.rows() for c in row if "last-move" in c.classes}
        if claimed:
            dice = rolled.game.board.dice()
            assert all(dice[p].colour is not Colour.RED for p in claimed)
            return
    raise AssertionError("no captain claimed in 40 deals")


def test_dice_time_ends_when_a_placement_fills_a_line_and_the_placer_is_start_player():
    board = _begun(seed=7)
    for _turn in range(60):
        if board.ended:
            break
        claimable = [c.pos for row in board.rows() for c in row if "claimable" in c.classes]
        if claimable:
            board = board.apply("claim", f"{claimable[0].row}-{claimable[0].col}", random.Random(0))
        else:
            board = board.apply("pick", "0", random.Random(0)).apply("roll", "", random.Random(0))
    assert board.ended and board.game.phase is Phase.SETTING
    reasons = board.end_explanations()
    assert reasons and reasons[0].clause == "STRAT-3"
    if board.ended_by_line:  # whoever placed last is the start player (STRAT-3)
        last = board.game.log[0]
        assert last.code == "dice.claim" and last.params["colour"] == board.game.start_player.value


def test_the_same_state_shows_the_same_table():
    board = _begun(seed=3).apply("pick", "2", random.Random(0)).apply("roll", "", random.Random(0))
    again = TurnsBoard.from_state("dice-time", "turns", board.state())
    assert again.game == board.game and again.state() == board.state()


@pytest.mark.parametrize("state", ["garbage", "4_1_9_s", "3_1__s", "4_1__s.c9-9", "4_1__q", "4_1__s.s",
                                   "4_1__s.r7", "4_1__" + ".".join(["s"] + ["r1"] * 41)])
def test_a_state_that_cannot_be_read_starts_afresh_with_a_note(state):
    board = TurnsBoard.from_state("dice-time", "turns", state)
    assert board.note == "reset" and not board.moves
    line = TurnsBoard.from_state("ending-dice-time", "line", state)
    assert line.note == "reset" and line.moves == ("s",) and line.your_turn


@pytest.mark.django_db
def test_the_turns_board_plays_without_javascript(client):
    page = client.get("/de/tutorial/dice-time/?mode=strategy").content.decode()
    begin = re.search(r'href="([^"]+do=begin[^"]*)"', page)[1].replace("&amp;", "&")
    landed = client.get(begin, follow=True).content.decode()
    assert "Du bist am Zug (Rot)" in landed
    pick = re.search(r'href="([^"]+do=pick&amp;at=0[^"]*)"', landed)[1].replace("&amp;", "&")
    picked = client.get(pick, follow=True).content.decode()
    assert 'aria-pressed="true"' in picked


@pytest.mark.django_db
def test_the_order_of_play_tells_a_card_removed_after_acting_from_one_that_never_acted(client):
    """EX-BATTLE: blue's [1] at B2 acts (removing red's B1 [3] and green's C3 [1]), then red's
    [2] at D2 removes it; green's C3 [1] was removed before its turn and does nothing."""
    html = client.get("/en/tutorial/battle-time/", {"battle": "9"}).content.decode()
    strip = html.split('class="order-strip"', 1)[1].split("</ol>", 1)[0]
    items = dict(re.findall(r"<span>([^<]+)</span> <span class=\"order-note\">([^<]+)</span>", strip))
    assert items["blue [1] Boarding Melee (B2)"] == "acted, then was removed"
    assert items["green [1] Boarding Melee (C3)"] == "removed before its turn, so it did nothing"
    assert "What the frames on the board mean" in html
