"""Asking a rules question on a 390×844 phone, in Japanese, English and German: with
JavaScript the answers come under the search box as the question is typed; without it the
box's form leads to the answers on the rules page. Either way an answer's example board
opens in the analyzer, and a question the rules do not answer is told so."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.page_checks import PHONE, fits, run_axe, shot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

#: a question of each language, the clause its first answer cites, and one out of scope
ASKED = {"ja": ("手札がなくなったら？", "SET-4", "好きな食べ物"),
         "en": ("does the squid hit my own cards?", "BAT-4", "best pizza topping"),
         "de": ("Trifft der Tintenfisch meine eigenen Karten?", "BAT-4", "beste Pizza")}


@pytest.mark.parametrize("lang", ["ja", "en", "de"])
def test_a_question_typed_on_a_phone_is_answered_as_it_is_typed(site, browser, lang):
    question, clause, _away = ASKED[lang]
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True, bypass_csp=True)
    page = context.new_page()
    page.goto(f"{site}/{lang}/tutorial/")
    page.get_by_test_id("site-q").fill(question)
    dropdown = page.get_by_test_id("search-dropdown")
    expect(dropdown).to_be_visible()
    expect(dropdown.locator("a").first).to_contain_text(clause)
    fits(page, "the answers under the search box")
    shot(page, f"{lang}-390-search-dropdown")
    page.get_by_test_id("all-answers").click()
    expect(page.locator("html")).to_have_attribute("lang", lang)
    first = page.locator(".answer").first
    expect(first).to_have_attribute("data-clause", clause)
    expect(first.locator("mark").first).to_be_visible()
    assert run_axe(page) == []
    example = first.get_by_test_id("answer-example")
    if example.count():
        example.click()
        expect(page.locator("#analyzer")).to_be_visible()
    context.close()


@pytest.mark.parametrize("lang", ["ja", "en", "de"])
def test_without_javascript_the_search_box_leads_to_the_answers(site, browser, lang):
    question, clause, away = ASKED[lang]
    context = browser.new_context(viewport=PHONE, java_script_enabled=False)
    page = context.new_page()
    page.goto(f"{site}/{lang}/play/")
    page.get_by_test_id("site-q").fill(question)
    page.get_by_test_id("site-q").press("Enter")
    expect(page.locator(".answer").first).to_have_attribute("data-clause", clause)
    fits(page, "the answers on the rules page")
    shot(page, f"{lang}-390-search-page")
    # the answer to the battle's question opens its example board in the analyzer
    page.goto(f"{site}/{lang}/rules/?q=two+cards+of+the+same+speed+which+acts+first")
    page.locator("[data-testid=answer-example]").first.click()
    expect(page.locator("#analyzer")).to_be_visible()
    page.goto(f"{site}/{lang}/rules/")
    page.get_by_test_id("rules-q").fill(away)
    page.get_by_test_id("rules-q").press("Enter")
    expect(page.get_by_test_id("rules-do-not-say")).to_be_visible()
    context.close()
