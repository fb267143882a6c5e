"""On a 390 px phone, answer one scored check of every phase and see the result and score."""

from __future__ import annotations

import re

import pytest
from django.utils import translation
from playwright.sync_api import Page, expect

from tests.browser.page_checks import PHONE, fits
from tutorials.tutorial.checks import order, pool
from tutorials.wording.glossary import position_label

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

#: every phase's check: lesson, board id, table query
PHASES = [("ending-dice-time", "quiz-dice", ""), ("ending-dice-time", "quiz-line", "?mode=strategy"),
          ("setting-time", "quiz-setting", ""), ("battle-time", "quiz-battle", ""),
          ("treasure-time", "quiz-treasure", ""), ("next-round", "quiz-round", ""),
          ("game-end", "quiz-end", "")]
WORDS = {"en": ("Right", r"Question 2 of \d+", "1 right out of 1", "Another question", "Check my answer"),
         "de": ("Richtig", r"Frage 2 von \d+", "1 von 1 richtig", "Andere Frage", None),
         "ja": ("正解です", r"\d+問中2問目", "1問中1問正解", "別の問題", None)}


def _answer_right(page: Page, board, board_id: str, check_label: str | None) -> None:
    """Tap the engine's answer to the first question of ``board_id``."""
    question = pool(board_id)[order(board_id)[0]]
    if question.choices:
        letter = "abcdef"[question.choices.index(next(iter(question.answer)))]
        board.locator(f'.quiz-choices a[href*="at={letter}"]').click()
        return
    for pos in sorted(question.answer):
        with translation.override("en"):
            label = position_label(pos)
        cell = board.locator(f'a.cell[data-pos="{label}"]')
        cell.click()
        expect(board.locator(f'.cell.picked[data-pos="{label}"]')).to_have_count(1)
    button = board.locator(".actions a.primary")
    if check_label:
        expect(button).to_have_text(check_label)
    button.click()


def _check_one(page: Page, site: str, lang: str, slug: str, board_id: str, query: str) -> None:
    right, second, score, another, check_label = WORDS[lang]
    page.goto(f"{site}/{lang}/tutorial/{slug}/{query}")
    board = page.locator(f"#board-{board_id}")
    board.scroll_into_view_if_needed()
    expect(board.get_by_test_id("quiz-progress")).to_contain_text(
        {"en": "Question 1 of", "de": "Frage 1 von", "ja": "問中1問目"}[lang])
    _answer_right(page, board, board_id, check_label)
    board = page.locator(f"#board-{board_id}")
    expect(board.get_by_test_id("quiz-result")).to_contain_text(right)
    expect(board.get_by_test_id("quiz-score")).to_have_text(score)
    # the legend names each mark by its symbol too
    expect(board.locator(".quiz-legend .legend-mark")).to_have_text(["✓", "✗", "○"])
    fits(page, f"{lang} {board_id} checked")
    board.get_by_role("link", name=another).click()
    expect(board.get_by_test_id("quiz-progress")).to_contain_text(re.compile(second))
    expect(board.get_by_test_id("quiz-score")).to_have_text(score)  # the score stays
    expect(page).to_have_url(re.compile(rf"{board_id}=1_"))


@pytest.mark.parametrize("slug, board_id, query", PHASES)
def test_answer_a_check_of_every_phase_on_a_phone(site, browser, slug, board_id, query):
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    page = context.new_page()
    _check_one(page, site, "en", slug, board_id, query)
    context.close()


@pytest.mark.parametrize("lang", ["de", "ja"])
def test_setting_and_end_checks_in_german_and_japanese(site, browser, lang):
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    page = context.new_page()
    for slug, board_id, query in (PHASES[2], PHASES[-1]):
        _check_one(page, site, lang, slug, board_id, query)
    context.close()
