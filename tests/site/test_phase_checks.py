"""The scored checks of every phase: engine answers, the walk without repeats, the score."""

from __future__ import annotations

import collections
import random
import re

import pytest
from django.utils import translation

from captain.rules import Colour, bell_status, end_round, may_ring, solve
from captain.rules.game import pairs_shown
from captain.rules.model import cell_of
from captain.rules.resolve.round_end import rank_players
from tutorials.tutorial import boards
from tutorials.tutorial.boards import QuizBoard
from tutorials.tutorial.checks import CHECK_KINDS, order, pool
from tutorials.tutorial.script import LESSONS_BY_SLUG

RNG = random.Random(0)
LESSON = {"quiz-dice": "ending-dice-time", "quiz-line": "ending-dice-time", "quiz-setting": "setting-time",
          "quiz-battle": "battle-time", "quiz-treasure": "treasure-time", "quiz-round": "next-round",
          "quiz-end": "game-end"}


def _expected(q):
    """The answer worked out again from the engine, another way than the check builds it."""
    s = q.situation
    if q.kind == "claim":  # DICE-2: a free card whose two faces some two dice in hand show
        shown = pairs_shown(tuple(sorted(q.facts["dice"])))
        return {p for p, faces in s.board.free_faces().items() if faces in shown}
    if q.kind == "bell":
        return {"yes" if solve(s).bell.may_ring else "no"}
    if q.kind == "ring":
        return {"ends" if may_ring(s.board, s.seating, s.rules) else "false"}
    if q.kind == "line":  # STRAT-3 on the board after red's placement
        after = s.board.with_cell(q.marked, cell_of(s.board.at(q.marked).treasure, Colour.RED))
        return {"yes" if bell_status(after, s.seating, s.rules).may_ring else "no"}
    if q.kind == "place":  # SET-1: red's own dice-holding cards
        return {p for p, d in s.board.dice().items() if d.colour is Colour.RED}
    if q.kind in ("refill", "over"):
        end = end_round(cards_left=q.facts["cards"], deck=q.facts["deck"], seating=s.seating,
                        won_before={}, won_now={})
        return {str(end.board_after)} if q.kind == "refill" else {"yes" if end.game_over else "no"}
    if q.kind == "winner":
        winner = rank_players(s.seating, s.won)[1]
        return {winner.value if winner else "tie"}
    if q.kind == "discards":  # BAT-4, TRE-4: every red card on the board joins the two before
        return {str(q.facts["discard"] + sum(1 for c in s.board.cards().values() if c.colour is Colour.RED))}
    if q.kind == "start":  # DICE-4: the one who ended Dice Time
        return {q.facts["colour"].value}
    return None  # next, recycle: checked by the walk in test_setting_turns_follow_set2


@pytest.mark.parametrize("board_id", [b for b in CHECK_KINDS if b not in ("quiz-battle", "quiz-treasure")])
def test_every_answer_matches_the_engine(board_id):
    questions = pool(board_id)
    assert {q.kind for q in questions} == set(CHECK_KINDS[board_id])
    for q in questions:
        expected = _expected(q)
        if expected is not None:
            assert set(q.answer) == expected, (q.kind, q.facts)
        if q.choices:
            assert len(q.answer) == 1 and set(q.answer) <= set(q.choices) and len(q.choices) >= 2


def test_setting_turns_follow_set2():
    """SET-2 skips a player without dice; SET-3 ends with none left; SET-4 takes the pile back."""
    answers = [sorted(q.answer)[0] for q in pool("quiz-setting") if q.kind in ("next", "recycle")]
    assert answers == ["blue", "green", "red", "over", "recycle", "skip", "recycle", "skip"]
    recycled = [q for q in pool("quiz-setting") if q.kind == "recycle" and q.answer == {"recycle"}]
    assert all(any(e.clause == "SET-4" for e in q.events) for q in recycled)


def test_tie_on_cards_is_broken_by_doubles_and_a_full_tie_is_nobodys():
    winners = {tuple(sorted(q.facts.items())): sorted(q.answer)[0]
               for q in pool("quiz-end") if q.kind == "winner"}
    assert winners[(("blue", (11, 3)), ("green", (9, 4)), ("red", (11, 2)))] == "blue"  # END-3
    assert "tie" in winners.values()


@pytest.mark.parametrize("board_id", list(CHECK_KINDS))
def test_another_question_walks_all_before_any_repeats(board_id):
    board = QuizBoard(LESSON[board_id], board_id)
    seen = []
    for _ in range(board.total):
        seen.append(board.index)
        board = boards.load(board_id, board.apply("another", "", RNG).state(), lesson=LESSON[board_id])
    assert sorted(seen) == list(range(len(pool(board_id))))
    assert board.index == seen[0] and board.number == 1
    assert sorted(order(board_id)) == list(range(len(pool(board_id))))


@pytest.mark.parametrize("board_id", [b for b, kinds in CHECK_KINDS.items() if len(kinds) > 1])
def test_no_kind_comes_back_before_every_kind_of_the_phase_was_asked(board_id):
    kinds = CHECK_KINDS[board_id]
    asked = [pool(board_id)[i].kind for i in order(board_id)]
    assert set(asked) == set(kinds), "every kind has questions"
    left = collections.Counter(asked)  # questions not asked yet, by kind
    due = {k for k in kinds if left[k]}  # the kinds this round must ask before any comes back
    since: set[str] = set()
    for n, kind in enumerate(asked):
        if kind in since:
            assert since == due, f"{kind} came back at question {n + 1} before {due - since}: {asked}"
            since, due = set(), {k for k in kinds if left[k]}
        since.add(kind)
        left[kind] -= 1
    assert asked[:len(kinds)] == list(kinds), "the first round asks each kind once, in order"


def _answer(board: QuizBoard, right: bool) -> QuizBoard:
    q = board.question
    if q.choices:
        keys = [k for k in q.choices if (k in q.answer) == right]
        return board.apply("choose", "abcdef"[q.choices.index(keys[0])], RNG)
    for pos in (q.answer if right else [p for p in q.situation.board.positions() if p not in q.answer][:1]):
        board = board.apply("toggle", f"{pos.row}-{pos.col}", RNG)
    return board.apply("check", "", RNG)


@pytest.mark.parametrize("board_id", list(CHECK_KINDS))
def test_the_score_counts_each_question_once(board_id):
    lesson = LESSON[board_id]
    board = _answer(QuizBoard(lesson, board_id), right=True)
    assert board.checked and board.correct and (board.right, board.asked) == (1, 1)
    again = _answer(board.apply("clear", "", RNG), right=False)  # tried again: not counted twice
    assert (again.right, again.asked) == (1, 1)
    board = boards.load(board_id, board.apply("another", "", RNG).state(), lesson=lesson)
    assert (board.right, board.asked, board.number) == (1, 1, 2)
    board = _answer(board, right=False)
    assert not board.correct and (board.right, board.asked) == (1, 2)
    assert boards.load(board_id, board.state(), lesson=lesson).state() == board.state()


def test_old_states_load_and_bad_ones_reset():
    old = boards.load("quiz-treasure", "2_0-0_c", lesson="treasure-time")
    assert old.question is pool("quiz-treasure")[2] and old.checked and old.asked == 0
    assert boards.load("quiz-battle", "5__", lesson="battle-time").index == 5
    for bad in ("x_zz_q", "1_a_c_2", "99_z__0_0", "0_a_q_0_0"):
        assert boards.load("quiz-end", bad, lesson="game-end").note == "reset", bad


@translation.override("en")
def test_marks_carry_symbol_and_words_not_colour_alone():
    board = QuizBoard("ending-dice-time", "quiz-dice")
    while board.question.kind != "claim" or len(board.question.answer) < 2:
        board = board.apply("another", "", RNG)
    right, *_ = sorted(board.question.answer)
    wrong = next(p for p in board.question.situation.board.positions() if p not in board.question.answer)
    for pos in (right, wrong):
        board = board.apply("toggle", f"{pos.row}-{pos.col}", RNG)
    cells = {c.pos: c for row in board.apply("check", "", RNG).rows() for c in row}
    assert cells[right].mark == "✓" and "your pick, right" in cells[right].notes
    assert "wrong" in cells[wrong].classes and cells[wrong].mark == "✗"
    assert "your pick, wrong" in cells[wrong].notes
    missed = [c for c in cells.values() if "missed" in c.classes]
    assert missed and all(c.mark == "○" and "missed: part of the answer" in c.notes for c in missed)


@pytest.mark.parametrize("slug, action, strategy", [
    ("ending-dice-time", "quiz-dice", "quiz-line"), ("setting-time", "quiz-setting", "quiz-setting"),
    ("battle-time", "quiz-battle", "quiz-battle"), ("treasure-time", "quiz-treasure", "quiz-treasure"),
    ("next-round", "quiz-round", "quiz-round"), ("game-end", "quiz-end", "quiz-end")])
def test_each_phase_has_its_check_in_both_modes(slug, action, strategy):
    lesson = LESSONS_BY_SLUG[slug]
    assert action in lesson.boards_for(False) and strategy in lesson.boards_for(True)


@pytest.mark.django_db
@pytest.mark.parametrize("lang, progress, score", [
    ("en", "Question 2 of 11", "1 right out of 1"), ("de", "Frage 2 von 11", "1 von 1 richtig"),
    ("ja", "11問中2問目", "1問中1問正解")])
def test_page_shows_progress_and_score(client, lang, progress, score):
    html = client.get(f"/{lang}/tutorial/game-end/", {"quiz-end": "1___1_1"}).content.decode()
    assert progress in html and score in html
    checked = client.get(f"/{lang}/tutorial/game-end/", {"quiz-end": "1_a_c_1_1"}).content.decode()
    legend = re.search(r'<ul class="quiz-legend">.*?</ul>', checked, re.S)[0]
    assert "✓" in legend and "✗" in legend and "○" in legend


@pytest.mark.django_db
def test_strategy_check_never_speaks_of_the_bell(client):
    """STRAT-1: strategy mode has no bell, so neither has its Dice Time check."""
    for position in range(len(pool("quiz-line"))):
        for lang, bell in (("en", r"\bbell\b|\bring"), ("de", r"glocke|klingel"), ("ja", r"ベル|鳴ら")):
            html = client.get(f"/{lang}/tutorial/ending-dice-time/",
                              {"mode": "strategy", "quiz-line": f"{position}_a_c_0_1"}).content.decode()
            section = re.search(r'<section class="board-panel quiz-board".*?</section>', html, re.S)[0]
            # the shared note on the INT-3 reading names both modes on purpose
            section = re.sub(r'<span class="interpretation-note">.*?</span>', "", section, flags=re.S)
            assert not re.search(bell, re.sub(r"<[^>]+>", " ", section).lower()), (lang, position)


def test_setting_time_checks_show_the_others_cards_face_down():
    """Red places in Setting Time: it sees its own cards, the others' only face down."""
    seen = 0
    for position in range(len(pool("quiz-setting"))):
        board = QuizBoard("setting-time", "quiz-setting", position)
        for row in board.rows():
            for cell in row:
                if cell.card is not None:
                    assert cell.face_down is (cell.card.colour is not Colour.RED), (position, cell.label)
                    seen += cell.face_down
    assert seen  # the positions do hold others' cards
