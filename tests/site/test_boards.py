"""Example boards: engine-driven states, htmx partials, plain-link fallbacks."""

from __future__ import annotations

import random
from urllib.parse import parse_qs, urlsplit

import pytest

from captain.rules import Colour, Position
from tutorials.tutorial import boards
from tutorials.tutorial.boards import BattleBoard, DiceBoard, TreasureBoard

HTMX = {"HTTP_HX_REQUEST": "true"}


def _state_after(response, board_id):
    query = parse_qs(urlsplit(response["Location"] if "Location" in response
                              else response["HX-Push-Url"]).query)
    return query[board_id][0]


# --- Dice Time board ---------------------------------------------------------------

def board_with_hand(hand, moves=(), **settings) -> DiceBoard:
    """A Dice Time board whose start bell gave red exactly ``hand`` (the engine rolls from
    the seed: the first seed that does), with ``moves`` made after it."""
    for seed in range(20_000):
        board = DiceBoard("dice-time", seed=seed, moves=("s",), **settings)
        if board.hand == tuple(sorted(hand)):
            return DiceBoard("dice-time", seed=seed, moves=("s",) + tuple(moves), **settings)
    raise AssertionError(f"no seed rolls {hand}")


def practice(placed, **settings) -> DiceBoard:
    """Dice Time begun, with practice dice of other colours at ``placed``."""
    moves = ("s",) + tuple(f"{c.letter}{p.row}{p.col}" for p, c in placed.items())
    return DiceBoard("dice-time", moves=moves, **settings)


def test_dice_roll_gives_six_dice_then_all_unplaced_dice():
    board = DiceBoard("dice-time")
    rolled = board.apply("roll", "", random.Random(1))
    assert rolled.hand is not None and len(rolled.hand) == 6
    assert all(1 <= d <= 6 for d in rolled.hand)


def test_dice_claim_needs_exact_pair_and_removes_it_from_hand():
    board = board_with_hand((3, 5, 1, 1, 6, 2))
    # B1 (row 0, col 1) is the 35 card of the practice grid
    claimed = board.apply("claim", "01", random.Random(0))
    assert claimed.placed == {Position(0, 1): Colour.RED}
    assert sorted(claimed.hand) == [1, 1, 2, 6]
    assert claimed.note == "claimed"
    # C1 is 44: no pair of fours in hand
    refused = claimed.apply("claim", "02", random.Random(0))
    assert refused.note == "no-pair" and Position(0, 2) not in refused.placed
    # a re-roll now throws only the four dice still in hand (DICE-3)
    rerolled = claimed.apply("roll", "", random.Random(2))
    assert len(rerolled.hand) == 4


def test_dice_card_with_dice_cannot_be_claimed_again():
    board = board_with_hand((3, 5, 3, 5, 1, 1), moves=("b01",))
    assert board.apply("claim", "01", random.Random(0)).note == "occupied"


def test_dice_bell_false_then_blocked():
    board = board_with_hand((1, 2, 3, 4, 5, 6), board_id="bell")
    rung = board.apply("ring", "", random.Random(0))
    assert rung.false_bell and rung.note == "false-bell"
    assert rung.apply("roll", "", random.Random(0)).note == "false-bell-blocked"
    assert rung.apply("claim", "00", random.Random(0)).note == "false-bell-blocked"


def test_dice_bell_rings_on_a_line_of_three():
    placed = {Position(0, 0): Colour.WHITE, Position(0, 1): Colour.BLUE, Position(0, 3): Colour.GREEN}
    board = practice(placed, board_id="bell")
    assert board.bell().may_ring
    rung = board.apply("ring", "", random.Random(0))
    assert rung.ended and rung.note == "rang"
    cells = [c for row in board.rows() for c in row if "bell-line" in c.classes]
    assert {c.pos for c in cells} == {Position(0, c) for c in range(4)}


def test_the_roll_and_claim_board_leaves_the_bell_to_the_next_lesson():
    """The bell and the false bell are taught in the lesson after the first Dice Time board:
    that board offers no bell, refuses a ring sent anyway and marks no bell line."""
    placed = {Position(0, 0): Colour.WHITE, Position(0, 1): Colour.BLUE, Position(0, 3): Colour.GREEN}
    board = practice(placed)
    rung = board.apply("ring", "", random.Random(0))
    assert not rung.ended and not rung.false_bell and rung.moves == board.moves
    assert not [c for row in board.rows() for c in row if "bell-line" in c.classes]


def test_dice_two_players_uses_three_cards_anywhere():
    board = practice({Position(0, 0): Colour.BLUE, Position(1, 2): Colour.BLUE}, players=2)
    assert not board.bell().may_ring
    board = practice({Position(0, 0): Colour.BLUE, Position(1, 2): Colour.BLUE,
                      Position(2, 1): Colour.BLUE}, players=2)
    assert board.bell().may_ring and board.bell().clause == "DICE-5"


def test_dice_practice_colour_limited_to_three_cards():
    placed = {Position(0, 0): Colour.BLUE, Position(0, 1): Colour.BLUE, Position(0, 2): Colour.BLUE}
    board = practice(placed, paint=Colour.BLUE)
    assert board.apply("claim", "33", random.Random(0)).note == "no-dice-left"


@pytest.mark.parametrize("state", ["garbage", "9r_1_", "4q_1_", "4r_x_", "4r_1_c99", "4r_1_zz",
                                   "2r_1_g00", "4r_1_x.x", "4r_1_c00", "4r_1_" + ".".join(["r"] * 81)])
def test_dice_bad_state_restarts_with_note(state):
    board = boards.load("dice", state, lesson="dice-time")
    assert board.note == "reset"
    assert board.state() == DiceBoard.preset("dice-time", "dice").state()


def test_dice_state_round_trips():
    board = board_with_hand((1, 2, 3, 4, 5, 6), moves=("g33", "x"), paint=Colour.GREEN)
    again = boards.load("dice", board.state(), lesson="dice-time")
    assert again.state() == board.state() and again.note == ""


def test_the_bell_board_rings_on_practice_dice():
    """The bell exercise begins in Dice Time, so ringing is judged."""
    board = DiceBoard.preset("dice-time", "bell").apply("claim", "12", random.Random(0))  # blue C2
    assert board.bell().may_ring
    rung = board.apply("ring", "", random.Random(0))
    assert rung.ended and rung.note == "rang"


def test_every_dice_move_is_the_engines():
    board = board_with_hand((1, 2, 3, 4, 5, 6))
    again = board.apply("roll", "", random.Random(0))
    assert again.game.log[0].code == "dice.roll"  # the engine rolled, from the seed


# --- Battle board ----------------------------------------------------------------------

def _step(board, move: str = "next"):
    """The board after one of its step moves (``next``, ``back``, ``end``, ``restart``)."""
    link = getattr(board.nav, move)
    assert link is not None, f"no {move} at step {board.nav.number}"
    return board.apply(link.do, link.at, random.Random())


def test_battle_steps_follow_ex_battle():
    board = BattleBoard("battle-time")
    assert not board.revealed and board.nav is None
    assert all(c.face_down for row in board.rows() for c in row if c.card)
    board = board.apply("step", "1", random.Random())
    assert board.revealed and board.nav.kind == "reveal" and board.nav.back is None
    tokens = []
    while board.nav.next is not None:
        board = _step(board)
        if board.nav.kind == "battle":
            turn = board.walk.solution.battle.turns[board.walk.steps[board.nav.k].index]
            tokens.append((turn.card.token, turn.outcome.value))
    assert board.finished and board.nav.kind == "battle-done" and board.nav.restart is not None
    assert tokens == [("g0", "no-effect"), ("b1", "acts"), ("g1", "removed-before"),
                      ("r2", "acts"), ("r3", "removed-before")]
    assert sorted(c.token for c in board.result.survivors.values()) == ["g0", "r2"]
    assert _step(board, "restart").k == 1 and _step(_step(board, "restart"), "end").finished


def test_battle_step_highlights_range_and_removals():
    board = BattleBoard("battle-time", k=3)  # revealed + 2 steps: blue [1] just acted
    cells = {c.pos: c for row in board.rows() for c in row}
    assert "acting" in cells[Position(1, 1)].classes
    assert "in-range" in cells[Position(0, 0)].classes
    assert "hit" in cells[Position(0, 1)].classes and "hit" in cells[Position(2, 2)].classes
    board = BattleBoard("battle-time", k=4)  # green [1] is skipped: removed before its turn
    cells = {c.pos: c for row in board.rows() for c in row}
    assert "skipped" in cells[Position(2, 2)].classes


# --- Treasure boards -------------------------------------------------------------------

def test_sandwich_board_blue_wins_four():
    board = _step(TreasureBoard("treasure-time", "sandwich"), "end")
    assert board.finished and board.nav.kind == "end"
    assert board.walk.solution.treasure.winnings[Colour.BLUE] == tuple(Position(0, c) for c in range(4))
    assert [row["done"] for row in board.nav.winnings] == [True] * len(board.seating.players)


def test_block_board_what_if_start_player():
    red_first = TreasureBoard("treasure-time", "block", k=2)
    assert red_first.walk.solution.treasure.winnings[Colour.RED] == (Position(1, 0), Position(1, 3))
    blue_first = red_first.apply("start", "b", random.Random())
    assert blue_first.k == 0 and blue_first.start is Colour.BLUE and blue_first.nav.kind == "battle-done"
    won = blue_first.walk.solution.treasure.winnings
    assert won[Colour.RED] == (Position(1, 0), Position(1, 2), Position(1, 3))
    codes = [e.code for e in _step(blue_first, "end").nav.current]
    assert "treasure.reading_matters" in codes


def test_priority_board_start_player_wins_shared_card():
    board = TreasureBoard("treasure-time", "priority", k=3)
    assert Position(1, 1) in board.walk.solution.treasure.winnings[Colour.RED]
    assert Position(1, 1) not in board.walk.solution.treasure.winnings[Colour.BLUE]


# --- views: htmx partials and plain links ---------------------------------------------

@pytest.mark.django_db
def test_board_action_plain_request_redirects_to_page_with_state(client):
    response = client.get("/en/tutorial/battle-time/board/battle/?state=0&do=step&at=1")
    assert response.status_code == 302
    assert response["Location"] == "/en/tutorial/battle-time/?battle=1#board-battle"


@pytest.mark.django_db
def test_board_action_htmx_returns_partial_and_pushes_url(client):
    response = client.get("/de/tutorial/battle-time/board/battle/?state=1&do=step&at=2", **HTMX)
    assert response.status_code == 200
    html = response.content.decode()
    assert "<html" not in html and 'id="board-battle"' in html
    assert response["HX-Push-Url"] == "/de/tutorial/battle-time/?battle=2#board-battle"
    # links inside the partial keep the language prefix
    assert 'hx-get="/de/tutorial/battle-time/board/battle/' in html


@pytest.mark.django_db
def test_dice_roll_through_view(client):
    response = client.get("/ja/tutorial/dice-time/board/dice/?state=&do=roll", **HTMX)
    assert response.status_code == 200
    hand = "".join(map(str, boards.load("dice", _state_after(response, "dice"), lesson="dice-time").hand))
    assert len(hand) == 6 and hand.isdigit()


@pytest.mark.django_db
def test_board_on_wrong_step_is_404(client):
    assert client.get("/en/tutorial/welcome/board/battle/?do=next").status_code == 404
    assert client.get("/en/tutorial/battle-time/board/nope/?do=next").status_code == 404


@pytest.mark.django_db
@pytest.mark.parametrize("query", ["battle=abc", "battle=999999999999", "dice=%00%ff", "sandwich=zz"])
def test_bad_board_state_in_page_url_is_not_an_error(client, query):
    slug = {"battle": "battle-time", "dice": "dice-time", "sandwich": "treasure-time"}[query.split("=")[0]]
    response = client.get(f"/en/tutorial/{slug}/?{query}")
    assert response.status_code == 200


# --- predict the outcome ----------------------------------------------------------------

def test_quiz_questions_change_one_thing_and_the_answer():
    from tutorials.tutorial.quiz import questions, solve

    qs = questions()
    assert len(qs) >= 10
    for q in qs:
        changed = (q.change.start_player is not None) + (q.change.position is not None)
        assert changed == 1
        sol = solve(q.situation)
        expected = (frozenset(sol.battle.survivors) if q.kind == "survivors"
                    else frozenset(sol.treasure.winnings[q.colour]))
        assert q.answer == expected


def test_quiz_board_right_and_wrong_answers():
    from tutorials.tutorial.boards import QuizBoard

    board = QuizBoard("treasure-time", "quiz-treasure", position=0)
    for pos in board.question.answer:
        board = board.apply("toggle", f"{pos.row}{pos.col}", random.Random())
    checked = board.apply("check", "", random.Random())
    assert checked.checked and checked.correct
    assert any(e.clause.startswith("TRE") for e in checked.explanations())
    wrong = QuizBoard("treasure-time", "quiz-treasure", position=0).apply("check", "", random.Random())
    assert wrong.correct == (not board.question.answer)
    cells = {c.pos: c for row in wrong.rows() for c in row}
    for pos in board.question.answer:
        assert "missed" in cells[pos].classes


def test_quiz_state_round_trip_and_bad_state():
    board = boards.load("quiz-battle", "3_0-0.1-1_c", lesson="battle-time")
    # written before the score: the number names the question; it is written anew with the score
    assert board.index == 3 and board.checked
    assert board.state() == f"{board.position}_0-0.1-1_c_0_0"
    assert board.selected == {Position(0, 0), Position(1, 1)}
    assert boards.load("quiz-battle", "x_zz_q", lesson="battle-time").note == "reset"


@pytest.mark.django_db
def test_quiz_on_guest_page_keeps_guest_address(client):
    response = client.get("/de/tutorial/battle-time/board/quiz-battle/?state=0__&do=check",
                          HTTP_HX_REQUEST="true", HTTP_HX_CURRENT_URL="http://testserver/de/t/abcde/")
    assert response.status_code == 200
    assert "HX-Push-Url" not in response
    assert 'data-testid="quiz-result"' in response.content.decode()


def test_a_picked_quiz_card_can_be_taken_back():
    """A picked card stays a control, and choosing it again
    takes the pick back, so Enter or a tap never silently moves on to the next card."""
    from tutorials.tutorial.boards import QuizBoard

    board = QuizBoard("battle-time", "quiz-battle", position=0)
    first = next(c for row in board.rows() for c in row if c.href)
    arg = f"{first.pos.row}{first.pos.col}"
    picked = board.apply("toggle", arg, random.Random())
    cell = next(c for row in picked.rows() for c in row if c.pos == first.pos)
    assert "picked" in cell.classes and cell.href
    assert picked.apply("toggle", arg, random.Random()).selected == frozenset()


@pytest.mark.django_db
def test_after_a_false_bell_a_line_completed_later_is_news_for_the_others(client):
    """DICE-6 keeps the ringer out, not the others: once practice dice fill a line after
    red's false bell, the board says that the other players may ring now."""
    rung = board_with_hand((1, 2, 3, 4, 5, 6), moves=("x",), board_id="bell")
    assert rung.false_bell and not rung.bell().may_ring
    url = f"/en/tutorial/ending-dice-time/?bell={rung.state()}"
    html = client.get(url).content.decode()
    assert 'data-testid="bell-status"' not in html
    filled = board_with_hand((1, 2, 3, 4, 5, 6), moves=("x", "w00", "b01", "g03"), board_id="bell")
    assert filled.false_bell and filled.bell().may_ring
    html = client.get(f"/en/tutorial/ending-dice-time/?bell={filled.state()}").content.decode()
    status = html[html.index('data-testid="bell-status"'):]
    status = status[:status.index("</p>")]
    assert "the other players may ring" in status and "DICE-4" in status
    assert "The bell may ring" not in html, "the one who rang may not"
