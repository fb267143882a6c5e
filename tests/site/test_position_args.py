"""One way to name a grid position in links and forms (``r-c``), and the older two-digit
links that must keep working."""

from __future__ import annotations

import random
from urllib.parse import parse_qs, urlsplit

import pytest

from captain.rules import Position, notation
from tests.site.test_boards import board_with_hand
from tutorials.analyzer.page import AnalyzerPage
from tutorials.teach.round import ENTER, RoundBoard
from tutorials.tutorial import boards
from tutorials.tutorial.checks import order
from tutorials.web.positions import position_arg, read_position

HTMX = {"HTTP_HX_REQUEST": "true"}


def test_a_position_is_written_row_hyphen_column_and_read_back():
    assert position_arg(Position(1, 2)) == "1-2" and position_arg((11, 0)) == "11-0"
    for pos in (Position(0, 0), Position(1, 2), Position(11, 11)):
        assert read_position(position_arg(pos)) == pos


def test_the_older_two_digit_form_is_still_read():
    assert read_position("12") == Position(1, 2) and read_position("00") == Position(0, 0)


@pytest.mark.parametrize("text", ["", "1", "123", "1-", "-2", "1-2-3", "a-b", "1 - 2", "１-２", "1-222",
                                  "[1, 2]"])
def test_text_that_names_no_position_is_none(text):
    assert read_position(text) is None


def _at_of(href) -> str:
    return parse_qs(urlsplit(str(href)).query)["at"][0]


def test_every_board_writes_positions_one_way():
    """The tutorial's dice and quiz boards, the analyzer's board and a teaching table's
    board: each cell's link or form names its position as ``r-c``."""
    dice = board_with_hand((3, 5, 1, 1, 6, 2))
    quiz = boards.load("quiz-battle", "", lesson="battle-time")
    for board in (dice, quiz):
        written = {_at_of(c.href) for row in board.rows() for c in row if c.href}
        assert "0-1" in written and all(read_position(at) is not None and "-" in at for at in written)
    page = AnalyzerPage.build(notation.parse("Rb_11.12-13.14"))
    assert parse_qs(urlsplit(page.cells[1][0].href).query)["arg"] == ["1-0"]
    table = RoundBoard(ENTER, {"players": 2})
    table.post_url = "/en/teach/abcde/board/round/"
    assert {c.href.at for row in table.rows() for c in row} >= {"0-0", "2-2"}


# --- old links -----------------------------------------------------------------------------------
def _state_after(response, board_id: str) -> str:
    return parse_qs(urlsplit(response["Location"]).query)[board_id][0]


@pytest.mark.django_db
def test_an_old_claim_link_on_the_dice_board_still_claims(client):
    state = board_with_hand((3, 5, 1, 1, 6, 2)).state()
    url = f"/en/tutorial/dice-time/board/dice/?state={state}&do=claim&at="
    old, written = client.get(url + "01"), client.get(url + "0-1")
    assert old.status_code == written.status_code == 302
    claimed = boards.load("dice", _state_after(old, "dice"), lesson="dice-time")
    assert _state_after(old, "dice") == _state_after(written, "dice") and Position(0, 1) in claimed.placed


@pytest.mark.django_db
def test_an_old_pick_link_on_a_quiz_board_still_picks(client):
    url = "/en/tutorial/battle-time/board/quiz-battle/?state=0__&do=toggle&at="
    old, written = client.get(url + "01"), client.get(url + "0-1")
    # the old state names question 0 of the pool; it is read as that question's place in the walk
    walked = order("quiz-battle").index(0)
    assert _state_after(old, "quiz-battle") == _state_after(written, "quiz-battle") == f"{walked}_0-1__0_0"


def test_an_old_put_form_on_a_teaching_tables_board_still_puts():
    """A presenter's screen loaded before the change posts ``at=01``."""
    board = RoundBoard.from_state(ENTER, {"players": 4}, "rr10|")
    old, written = board.apply("put", "01", random.Random()), board.apply("put", "0-1", random.Random())
    assert old.state() == written.state() == "rr10|0-1r1"


@pytest.mark.parametrize(("board_id", "lesson", "old", "written", "today"), [
    ("bell", "ending-dice-time", "4b_1_s.b03.g21.w00", "4b_1_s.b0-3.g2-1.w0-0",
     "4b_1_s.b0-3.g2-1.w0-0"),
    # today's checks write their place in the walk and the score: question 3 is shown, no score
    ("quiz-battle", "battle-time", "3_0011_c", "3_0-0.1-1_c",
     f"{order('quiz-battle').index(3)}_0-0.1-1_c_0_0"),
])
def test_an_old_state_string_of_a_tutorial_board_is_still_read(board_id, lesson, old, written, today):
    """A lesson's address keeps each board's state; those bookmarked before wrote two digits."""
    before, now = boards.load(board_id, old, lesson=lesson), boards.load(board_id, written, lesson=lesson)
    assert not before.note and not now.note  # neither starts afresh
    assert [c.dice for row in before.rows() for c in row] == [c.dice for row in now.rows() for c in row]
    assert getattr(before, "selected", None) == getattr(now, "selected", None)
    assert now.state() == today


def test_an_old_state_of_a_teaching_tables_board_is_still_read():
    """A table stored before keeps the cards its presenter entered."""
    old = RoundBoard.from_state(ENTER, {"players": 4}, "rr10|01r1.12b3")
    assert old.cards == RoundBoard.from_state(ENTER, {"players": 4}, "rr10|0-1r1.1-2b3").cards
    assert not old.note and old.cards and old.state() == "rr10|0-1r1.1-2b3"
