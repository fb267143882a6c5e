"""Playing a practice game in a browser without JavaScript: a whole 2-player
strategy-mode game played to the end by clicking links and buttons only, in Japanese and
German, fitting a 390 px phone; and the same forms posted by htmx with JavaScript on."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from playwright.sync_api import expect

from tests.browser.page_checks import PHONE, fits, run_axe, shot
from tests.site import play_helpers as forms

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

def _click(page, locator) -> None:
    with page.expect_navigation():
        locator.first.click()


def _next_control(page):
    """What a simple learner clicks next: place a pair, place an attack card, begin Dice
    Time or go on, end the turn, or re-roll all dice."""
    for test_id in ("claim", "place-submit", "play-begin", "play-continue", "play-pass", "roll-all"):
        found = page.get_by_test_id(test_id)
        if found.count():
            return test_id, found
    raise AssertionError(page.content()[-2000:])


def _start(page, site: str, lang: str) -> None:
    page.goto(f"{site}/{lang}/play/")
    fits(page, "start form")
    page.locator('input[name="players"][value="2"]').check()
    _click(page, page.get_by_test_id("start-game"))
    expect(page).to_have_url(re.compile(rf"/{lang}/play/\w+/$"))


def _play_to_the_end(page, lang: str) -> None:
    shown = set()
    for _turn in range(600):
        if page.get_by_test_id("game-over").count():
            return
        if page.get_by_test_id("next-step").count() and "steps" not in shown:
            shown.add("steps")  # Battle Time, one card at a time, as in the analyzer
            fits(page, "round result")
            shot(page, f"{lang}-390-round")
            _click(page, page.get_by_test_id("next-step"))
            expect(page.get_by_test_id("current-step")).to_contain_text("2")
            expect(page.locator(f'#play-steps a.clause[href^="/{lang}/rules/#BAT"]').first).to_be_visible()
        kind, control = _next_control(page)
        if kind not in shown and kind in ("claim", "place-submit"):
            shown.add(kind)
            fits(page, kind)
            shot(page, f"{lang}-390-{kind}")
        _click(page, control)
    raise AssertionError("the game did not end")


@pytest.mark.parametrize("lang", ["ja", "de"])
def test_a_whole_game_without_javascript_on_a_phone(site, browser, lang):
    context = browser.new_context(java_script_enabled=False, viewport=PHONE,
                                  extra_http_headers={"Accept-Language": lang})
    page = context.new_page()
    _start(page, site, lang)
    fits(page, "game page")
    if page.get_by_test_id("play-continue").count():
        _click(page, page.get_by_test_id("play-continue"))
    else:
        _click(page, page.get_by_test_id("play-begin"))
    # Dice Time on a phone: the board, the learner's dice and hand on one screen
    bottom = page.evaluate("""() => Math.max(...['#play-board', '[data-testid=my-dice]', '.play-hand']
        .map(s => document.querySelector(s).getBoundingClientRect().bottom))""")
    assert bottom <= PHONE["height"], f"board, dice and hand end at {bottom} px"
    _play_to_the_end(page, lang)
    expect(page.locator("html")).to_have_attribute("lang", lang)
    expect(page.get_by_test_id("final-standings")).to_have_count(0)  # not ahead of the last round's steps
    _click(page, page.get_by_test_id("skip-to-result"))
    standings = page.get_by_test_id("final-standings")
    expect(standings).to_be_visible()
    expect(standings.locator("tbody tr")).to_have_count(2)
    fits(page, "final standings")
    shot(page, f"{lang}-390-end")
    page.set_viewport_size({"width": 1280, "height": 900})
    shot(page, f"{lang}-desktop-end")
    context.close()


def test_htmx_posts_the_same_forms_and_keeps_the_focus(site, browser):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.goto(f"{site}/en/play/")
    page.locator('input[name="start"][value="me"]').check()
    _click(page, page.get_by_test_id("start-game"))
    page.get_by_test_id("play-begin").focus()
    page.keyboard.press("Enter")
    expect(page.get_by_test_id("play-turn")).to_be_visible()
    expect(page.locator("#play-title")).to_contain_text("Dice Time")
    expect(page.locator("html")).to_have_attribute("data-requests", "0")
    # the swap kept the page (no reload) and left the focus inside the game area
    # (the focus moves once htmx has settled the swap, a moment after the new content shows)
    page.wait_for_function("() => document.activeElement.closest('#play-area') !== null", timeout=5000)
    shot(page, "en-desktop-dice")
    context.close()


def test_start_and_game_pages_fit_320_px_and_pass_axe(site, browser):
    context = browser.new_context(viewport={"width": 320, "height": 700}, bypass_csp=True)
    page = context.new_page()
    page.goto(f"{site}/ja/play/")
    fits(page, "start form at 320 px")
    assert run_axe(page) == []
    page.locator('input[name="players"][value="4"]').check()
    page.locator('input[name="start"][value="me"]').check()
    _click(page, page.get_by_test_id("start-game"))
    fits(page, "game page at 320 px")
    assert run_axe(page) == []
    page.get_by_test_id("play-begin").click()  # htmx posts the form and swaps the game area
    page.wait_for_function("() => document.documentElement.dataset.requests === '0'")
    expect(page.get_by_test_id("play-turn")).to_be_visible()
    fits(page, "4-player Dice Time at 320 px")
    assert run_axe(page) == []
    shot(page, "ja-320-dice-4p")
    context.close()


@pytest.mark.parametrize("lang", ["ja", "de"])
def test_hints_without_javascript_and_the_shared_replay_on_a_phone(site, browser, lang):
    """Hints are plain links (grade 1, then grade 2) with JavaScript off; the shared replay
    of a finished game fits a 390 px phone."""
    from django.test import Client

    from tests.site.test_play_replay import open_game, play_to_the_end
    from tutorials.models import PracticeGame

    context = browser.new_context(java_script_enabled=False, viewport=PHONE,
                                  extra_http_headers={"Accept-Language": lang})
    page = context.new_page()
    page.goto(f"{site}/{lang}/play/")
    page.locator('input[name="start"][value="me"]').check()
    _click(page, page.get_by_test_id("start-game"))
    _click(page, page.get_by_test_id("play-begin"))
    _click(page, page.get_by_test_id("hint-link"))
    expect(page.get_by_test_id("hint-1")).to_be_visible()
    expect(page.get_by_test_id("hint-2")).to_have_count(0)
    _click(page, page.get_by_test_id("hint-link"))
    expect(page.get_by_test_id("hint-2")).to_be_visible()
    expect(page.locator(f'#play-hint a.clause[href^="/{lang}/rules/#"]').first).to_be_visible()
    fits(page, "hints")
    shot(page, f"{lang}-390-hints")
    # a finished game, shared: anyone opens it read-only
    owner = Client()
    play_to_the_end(owner, open_game(owner, lang, 3, 61))
    game = PracticeGame.objects.exclude(share_token="").order_by("-started_at").first()
    assert games_over(game)
    page.goto(f"{site}/{lang}/play/{game.code}/shared/{game.share_token}/")
    expect(page.get_by_test_id("replay-round").first).to_be_visible()
    expect(page.locator("main form")).to_have_count(0)
    fits(page, "shared replay")
    shot(page, f"{lang}-390-replay")
    _click(page, page.get_by_test_id("next-step"))
    _click(page, page.get_by_test_id("replay-round").nth(1))
    fits(page, "shared replay, round 2")
    context.close()


def games_over(game) -> bool:
    from tutorials.practice import games

    return games.practice_of(game).state.is_over


def test_on_a_phone_the_board_stays_on_top_and_a_tap_on_it_chooses_where_to_place(live_server, browser):
    """Setting Time on a 390 px phone: the board stays at the top while the form scrolls
    (play.css), and tapping a card that holds the learner's dice chooses it (play.js)."""
    client = Client()
    url = forms.start_game(client, "de", players="3")
    for _turn in range(600):
        html = client.get(url).content.decode()
        if 'data-testid="place-submit"' in html and html.count('name="at" value=') >= 2:
            break
        client.post(url + "act/", {**forms.first_move(html), "version": forms.page_version(html)})
    else:
        raise AssertionError("never two cards to choose from in Setting Time")
    code = url.rstrip("/").rsplit("/", 1)[1]
    context = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True)
    context.add_cookies([{"name": f"play_{code}", "value": client.cookies[f"play_{code}"].value,
                          "url": live_server.url}])
    page = context.new_page()
    page.goto(live_server.url + url)
    radios = page.locator('.place-form input[name="at"]')
    last = radios.nth(radios.count() - 1)
    expect(last).not_to_be_checked()
    pos = last.get_attribute("data-pos")
    page.locator(f'.play-board [data-pos="{pos}"]').tap()
    expect(last).to_be_checked()
    expect(page.locator(f'.play-board [data-pos="{pos}"]')).to_have_class(re.compile(r"\bplace-chosen\b"))
    # the board stays at the top of the screen while the form is scrolled
    page.get_by_test_id("place-submit").scroll_into_view_if_needed()
    top = page.locator(".play-layout > .play-board").evaluate("b => b.getBoundingClientRect().top")
    assert abs(top) < 2, top
    context.close()
