"""The guided first game on a 390×844 phone, in Japanese, English and German: started from
the play page, played to its end by choosing what the pointer points at, each time; the
pointer is the engine's facts worded by the hints (no script of a fixed deal), said to
screen readers, and it explains each new thing once."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser.page_checks import PHONE, fits, run_axe, shot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

#: what the first guided game must have explained by its end, whatever the deal
MUST_TEACH = {"begin", "claim", "place", "battle", "treasure", "next"}


def _settled(page) -> None:
    page.wait_for_function("() => document.documentElement.dataset.requests === '0'")


@pytest.mark.parametrize("lang", ["ja", "en", "de"])
def test_the_guided_first_game_is_played_to_the_end_by_following_the_pointer(site, browser, lang):
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True,
                                  extra_http_headers={"Accept-Language": lang}, bypass_csp=True)
    page = context.new_page()
    page.goto(f"{site}/{lang}/play/")
    offer = page.get_by_test_id("guided-offer")
    expect(offer).to_be_visible()
    fits(page, "guided offer")
    page.get_by_test_id("guided-strategy").click()
    expect(page).to_have_url(re.compile(rf"/{lang}/play/\w+/$"))
    game_url = page.url
    taught, moves = [], 0
    for _turn in range(600):
        if page.get_by_test_id("final-standings").count():
            break
        guide = page.get_by_test_id("guide")
        expect(guide).to_be_visible()
        if page.get_by_test_id("guide-note").count():
            taught.append(guide.get_attribute("data-topic"))
            if len(taught) in (1, 2, 5):
                fits(page, f"guide note {taught[-1]}")
                shot(page, f"{lang}-390-guide-{taught[-1]}")
        target = page.locator("[data-guide-target]")
        expect(target).to_have_count(1)
        # the pointer is said to screen readers and names what the target does
        assert target.get_attribute("aria-describedby") == "guide-move"
        expect(page.locator("#guide-move")).not_to_be_empty()
        if moves == 3:
            assert run_axe(page) == []
        target.click()
        moves += 1
        _settled(page)
    else:
        raise AssertionError("the guided game did not end")
    assert set(taught) >= MUST_TEACH, taught
    assert len(taught) == len(set(taught)), f"each thing is explained once: {taught}"
    expect(page.get_by_test_id("guide")).to_have_attribute("data-topic", "end")
    expect(page.locator("html")).to_have_attribute("lang", lang)
    fits(page, "the end of the guided game")
    shot(page, f"{lang}-390-guide-end")
    expect(page.get_by_test_id("guided-next")).to_be_visible()
    # the play page offers the finished game no more, and a new one from the start
    page.goto(f"{site}/{lang}/play/")
    expect(page.get_by_test_id("guided-resume-strategy")).to_have_count(0)
    assert moves >= 20 and game_url
    context.close()


def test_a_guided_game_goes_on_where_it_was_left(site, browser):
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    page = context.new_page()
    page.goto(f"{site}/de/play/")
    page.get_by_test_id("guided-strategy").click()
    for _move in range(4):
        page.locator("[data-guide-target]").click()
        _settled(page)
    url = page.url
    page.goto(f"{site}/de/play/")
    resume = page.get_by_test_id("guided-resume-strategy")
    expect(resume).to_be_visible()
    resume.click()
    # the same game's page; where in it the last move's answer scrolled (#play-area) or not
    expect(page).to_have_url(re.compile(re.escape(url.split("#")[0]) + "(#.*)?$"))
    expect(page.locator("[data-guide-target]")).to_have_count(1)
    context.close()
