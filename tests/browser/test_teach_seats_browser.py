"""The guided round with the players' own phones: a Japanese presenter, three seated guests
(English red, German blue, Japanese green) on 390×844 phones and an English watcher. Each
seated guest lays their cards on their phone; nobody else sees them; one phone is offline
for 30 s and one reloads, and both keep their seat and cards; the reveal turns every card
over on every screen; the presenter enters the card of the seat without a phone; and every
phone's steps agree with the engine's answer for those cards, in its own language."""

from __future__ import annotations

import re
import time

import pytest
from django.utils import translation
from playwright.sync_api import expect

from tests.browser.site_pages import start_table
from tutorials.models import Table
from tutorials.teach.round import RESOLVE, RoundBoard
from tutorials.tutorial.teaching import sections
from tutorials.walkthrough import StepNav

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

FOLLOW = 15_000  # generous: guests poll once a second
OFFLINE_SECONDS = 30

#: (language, colour, cards laid: (value, position)); white plays without a phone
SEATED = (("en", "red", [("1", "0-0")]), ("de", "blue", [("1", "1-1")]),
          ("ja", "green", [("4", "0-3"), ("0", "3-3")]))
WHITE = ("2", "A3")  # entered by the presenter after the reveal
#: red [1] A1 and blue [1] B2 tie at speed 1 and blue, the start player, goes first (BAT-2)


def _phone(browser, lang: str):
    ctx = browser.new_context(viewport={"width": 390, "height": 844}, locale=lang, has_touch=True,
                              is_mobile=True, extra_http_headers={"Accept-Language": lang})
    return ctx, ctx.new_page()


def _engine_steps(table: Table, lang: str) -> list[str]:
    """The engine's step titles for the table's round, in ``lang``."""
    table.refresh_from_db()
    board = RoundBoard.from_state(RESOLVE, table.options, table.board_states["round"])
    with translation.override(lang):
        return [StepNav(board.walk, k, str).title for k in range(len(board.walk.steps))]


def _table_at_round_dice(site, browser):
    """A Japanese presenter's 4-player table, the script read: at the first round's Dice Time."""
    ctx = browser.new_context(viewport={"width": 1920, "height": 1080}, locale="ja-JP")
    presenter = ctx.new_page()
    table = start_table(presenter, site, "ja", at="round-dice")
    return ctx, presenter, table, [s.slug for s in sections(table.options)]


def _next(presenter, slugs, slug: str) -> None:
    presenter.locator('#present-section [data-nav="next"]').click()
    expect(presenter.locator("#present-section")).to_have_attribute("data-index", str(slugs.index(slug)))


def _lay(page, cards) -> None:
    expect(page.get_by_test_id("my-hand")).to_be_visible(timeout=FOLLOW)
    expect(page.get_by_test_id("hand-held")).to_contain_text("9")
    for value, at in cards:
        page.get_by_test_id(f"hand-card-{value}").first.tap()
        page.get_by_test_id(f"hand-cell-{at}").tap()
        expect(page.get_by_test_id(f"hand-cell-{at}")).to_have_class(re.compile("laid"))
        expect(page.get_by_test_id(f"hand-cell-{at}")).to_be_in_viewport()


def _board_action(presenter, action) -> None:
    version = presenter.locator("#present-section").get_attribute("data-version")
    action()
    expect(presenter.locator("#present-section")).not_to_have_attribute("data-version", version)


def _steps_agree(presenter, viewers, expected) -> int:
    """Step through the round on the presenter's screen; at every step each viewer shows
    the engine's step in its language. Returns the last step."""
    k = 0
    while True:
        for lang, page in viewers:
            expect(page.locator("#board-round .current-step-title strong")).to_have_text(
                expected[lang][k], timeout=FOLLOW)
        expect(presenter.locator("#board-round .current-step-title strong")).to_have_text(expected["ja"][k])
        next_step = presenter.locator("#board-round").get_by_role("button", name="次の手順")
        if not next_step.count():
            return k
        _board_action(presenter, next_step.click)
        k += 1


def test_each_player_enters_their_own_cards_and_every_phone_resolves_them(site, browser):
    presenter_ctx, presenter, table, slugs = _table_at_round_dice(site, browser)
    phones = {}
    for lang, colour, _cards in SEATED:
        ctx, page = _phone(browser, lang)
        page.goto(f"{site}/t/{table.code}/")
        expect(page.locator(".guest")).to_have_attribute("data-ready", "1")
        page.locator(f'button[data-seat="{colour}"]').tap()
        expect(page.get_by_test_id("my-seat")).to_be_visible()
        phones[colour] = (lang, ctx, page)
    watcher_ctx, watcher = _phone(browser, "en")
    watcher.goto(f"{site}/t/{table.code}/")
    for colour in ("red", "blue", "green"):  # taken seats cannot be taken again
        expect(watcher.locator(f'[data-seat="{colour}"]')).to_have_class(re.compile("taken"), timeout=FOLLOW)

    # Setting Time: each seated player lays their cards on their own phone; red's phone
    # then loses its connection for a while, blue's page is reloaded
    _next(presenter, slugs, "round-setting")
    for _lang, colour, cards in SEATED:
        _lay(phones[colour][2], cards)
        if colour == "red":
            phones["red"][1].set_offline(True)
            offline_since = time.monotonic()
    blue, red = phones["blue"][2], phones["red"][2]
    blue.reload()
    expect(blue.get_by_test_id("my-seat")).to_have_text("Blau")
    expect(blue.get_by_test_id("hand-cell-1-1")).to_have_class(re.compile("laid"))

    # the presenter sees who entered how many, never which; so does nobody else
    seats = presenter.get_by_test_id("seats-panel")
    expect(seats.get_by_test_id("entered-green")).to_contain_text("2", timeout=FOLLOW)
    expect(seats.get_by_test_id("entered-blue")).to_contain_text("1")
    for page in (presenter, watcher):
        assert "hand-cell" not in page.content()
    expect(blue.locator(".hand-cell.laid")).to_have_count(1)  # blue's own card only
    expect(watcher.get_by_test_id("my-hand")).to_have_count(0)

    time.sleep(max(0.0, OFFLINE_SECONDS - (time.monotonic() - offline_since)))
    expect(red.locator("#sync-state")).to_have_attribute("data-state", "lost")
    phones["red"][1].set_offline(False)
    expect(red.locator("#sync-state")).to_have_attribute("data-state", "ok", timeout=FOLLOW)
    expect(red.get_by_test_id("my-seat")).to_have_text("red")
    expect(red.get_by_test_id("hand-cell-0-0")).to_have_class(re.compile("laid"))

    # the reveal: every phone turns the cards over together
    presenter.get_by_test_id("reveal").click()
    expect(presenter.get_by_test_id("revealed")).to_be_visible()
    for _lang, _ctx, page in phones.values():
        expect(page.locator(".lay-form")).to_have_count(0, timeout=FOLLOW)

    # the cards on the table, and the seat without a phone entered by the presenter
    _next(presenter, slugs, "round-table")
    board = presenter.locator("#board-round")
    expect(board.locator(".entered")).to_contain_text("D4")
    white = board.locator(".palette-row").nth(3)
    _board_action(presenter, white.get_by_role("button", name=re.compile(rf"\[{WHITE[0]}\]")).click)
    _board_action(presenter, board.locator(f'[data-pos="{WHITE[1]}"]').click)
    _board_action(presenter, board.get_by_role("button", name="青", exact=True).first.click)  # blue rang
    viewers = [*((lang, page) for lang, _c, page in phones.values()), ("en", watcher)]
    for _lang, page in viewers:
        expect(page.locator("#board-round .entered")).to_contain_text("A3", timeout=FOLLOW)

    # step by step: every phone's step is the engine's, in its language
    _next(presenter, slugs, "round-resolve")
    expected = {lang: _engine_steps(table, lang) for lang in ("ja", "en", "de")}
    assert len(expected["en"]) >= 6
    assert _steps_agree(presenter, viewers, expected) == len(expected["en"]) - 1
    expect(blue.locator("#board-round .explanations")).to_contain_text("weil Blau Startspieler ist")
    for ctx in (presenter_ctx, watcher_ctx, *(c for _l, c, _p in phones.values())):
        ctx.close()
