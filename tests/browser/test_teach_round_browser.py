"""A real café table: a Japanese presenter, German and English guests on phones,
through the quick start, the guided first round and "resolve our table" on a 4-player
battle with a speed tie and a sandwich; and two presenter tabs that never go backwards."""

from __future__ import annotations

import re

import pytest
from django.utils import translation
from playwright.sync_api import expect

from teach_options import teach_options
from tests.browser.site_pages import start_table
from tutorials.tutorial.teaching import sections

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

FOLLOW = 15_000  # generous: guests poll once a second; bin/bench-teach measures the delay

#: The table after Setting Time (seats red, blue, green, white; blue rang the bell):
#: red [1] A1 and blue [1] B2 tie at speed 1 and blue, the start player, goes first (BAT-2);
#: red's never acts (BAT-3); green [4] D1 and green [0] D4 sandwich D2 and D3 (TRE-2).
CARDS = (("r1", "00"), ("b1", "11"), ("g4", "03"), ("g0", "33"), ("w2", "20"))


def _titles(lang: str) -> list[str]:
    with translation.override(lang):
        return [str(s.title) for s in sections(teach_options({}))]


def _phone(browser, lang: str):
    ctx = browser.new_context(viewport={"width": 390, "height": 844}, locale=lang,
                              extra_http_headers={"Accept-Language": lang})
    return ctx, ctx.new_page()


def _next(presenter, index: int) -> None:
    presenter.locator('#present-section [data-nav="next"]').click()
    expect(presenter.locator("#present-section")).to_have_attribute("data-index", str(index))


def _board_action(presenter, label: str) -> None:
    version = presenter.locator("#present-section").get_attribute("data-version")
    presenter.locator("#board-round").get_by_role("button", name=label, exact=True).first.click()
    expect(presenter.locator("#present-section")).not_to_have_attribute("data-version", version)


def test_a_japanese_presenter_and_two_guests_play_the_first_round(site, browser):
    presenter_ctx = browser.new_context(viewport={"width": 1920, "height": 1080}, locale="ja-JP")
    presenter = presenter_ctx.new_page()
    code = start_table(presenter, site, "ja").code
    guests = {lang: _phone(browser, lang) for lang in ("de", "en")}
    for lang, (_ctx, page) in guests.items():
        page.goto(f"{site}/t/{code}/")
        expect(page).to_have_url(re.compile(rf"/{lang}/t/{code}/$"))
        expect(page.locator(".guest")).to_have_attribute("data-ready", "1")
    titles = {lang: _titles(lang) for lang in ("ja", "de", "en")}
    slugs = [s.slug for s in sections(teach_options({}))]

    # the quick start and the first round, section by section: every guest follows in their
    # language, the heading takes the focus and the tab is named after it
    for index in range(1, slugs.index("round-table") + 1):
        _next(presenter, index)
        expect(presenter.locator(".present-title")).to_have_text(titles["ja"][index])
        for lang, (_ctx, page) in guests.items():
            expect(page.get_by_test_id("guest-title")).to_have_text(titles[lang][index], timeout=FOLLOW)
            expect(page.get_by_test_id("guest-title")).to_be_focused()
            expect(page).to_have_title(re.compile("^" + re.escape(titles[lang][index])))
        if slugs[index] == "round-dice":  # the "say now" cards, in every language
            # the false bell is read aloud in the quick start; the deadlock card is not
            expect(presenter.locator(".come-up-now")).to_contain_text("INT-6")
            expect(guests["de"][1].locator(".come-up-now")).to_contain_text("Kann niemand mehr Würfel setzen")
    expect(guests["en"][1].locator("#sync-state")).to_have_text("In sync")

    # "resolve our table": the presenter enters the cards; guests see them arrive
    board = presenter.locator("#board-round")
    for card, at in CARDS:
        colour, value = card
        row = board.locator(".palette-row").nth("rbgw".index(colour))
        version = presenter.locator("#present-section").get_attribute("data-version")
        row.get_by_role("button", name=re.compile(rf"\[{value}\]")).click()
        expect(presenter.locator("#present-section")).not_to_have_attribute("data-version", version)
        version = presenter.locator("#present-section").get_attribute("data-version")
        board.locator(f'[data-pos="{"ABCD"[int(at[1])]}{int(at[0]) + 1}"]').click()
        expect(presenter.locator("#present-section")).not_to_have_attribute("data-version", version)
    _board_action(presenter, "青")  # blue rang the bell
    expect(board.locator(".entered")).to_contain_text("A1")
    for lang, who in (("de", "Blau"), ("en", "blue")):
        page = guests[lang][1]
        expect(page.get_by_test_id("round-start")).to_have_text(re.compile(who, re.I), timeout=FOLLOW)
        expect(page.locator("#board-round .entered")).to_contain_text("D4", timeout=FOLLOW)

    # step by step: every guest shows the same step, in their language, with the clause
    _next(presenter, slugs.index("round-resolve"))
    steps = 0
    while presenter.locator("#board-round").get_by_role("button", name="次の手順").count():
        assert steps < 30, "the steps never end"
        _board_action(presenter, "次の手順")
        steps += 1
        step = presenter.locator("#board-round").get_attribute("data-step")
        for _lang, (_ctx, page) in guests.items():
            expect(page.locator("#board-round")).to_have_attribute("data-step", step, timeout=FOLLOW)
    assert steps >= 6
    expect(presenter.locator("#board-round .explanations")).to_contain_text("親プレイヤー")
    de, en = guests["de"][1], guests["en"][1]
    expect(de.locator("#board-round .explanations")).to_contain_text("weil Blau Startspieler ist")
    expect(en.locator("#board-round .explanations")).to_contain_text("because blue is the start player")
    for page in (de, en):
        page.locator("#board-round details.earlier-steps > summary").click()  # the steps so far
        expect(page.locator('#board-round .explanations a[href*="BAT-2"]').first).to_be_visible()
        expect(page.locator('#board-round .explanations a[href*="TRE-2"]').first).to_be_visible()
    expect(en.locator("#board-round .explanations")).to_contain_text("sandwich D2 and D3")
    for ctx in [presenter_ctx] + [c for c, _p in guests.values()]:
        ctx.close()


def test_two_presenter_tabs_never_take_the_table_backwards(site, browser):
    ctx = browser.new_context()
    tab_a = ctx.new_page()
    start_table(tab_a, site)
    tab_b = ctx.new_page()
    tab_b.goto(tab_a.url)
    expect(tab_b.locator(".presenter")).to_have_attribute("data-ready", "1")
    _next(tab_a, 1)
    expect(tab_b.locator("#present-section")).to_have_attribute("data-index", "1", timeout=FOLLOW)
    tab_b.route("**/poll/**", lambda route: route.abort())  # tab B misses what A does next
    _next(tab_a, 2)
    _next(tab_a, 3)
    tab_b.locator('#present-section [data-nav="prev"]').click()  # from its stale section 1
    # refused: tab B now shows where the table is, and the table stayed there
    expect(tab_b.locator("#present-section")).to_have_attribute("data-index", "3")
    expect(tab_b.get_by_test_id("present-note")).to_be_visible()
    tab_a.reload()
    expect(tab_a.locator("#present-section")).to_have_attribute("data-index", "3")
    ctx.close()


def test_a_stale_tabs_board_move_is_refused_and_shows_the_table(site, browser):
    """Two presenter tabs at "resolve our table": a card tab A placed is not taken off again
    by tab B tapping the same position from its screen without the card. On a phone, where
    the section's top is far above the board."""
    ctx = browser.new_context(viewport={"width": 390, "height": 844})
    tab_a = ctx.new_page()
    table = start_table(tab_a, site, at="round-table")
    tab_b = ctx.new_page()
    tab_b.goto(tab_a.url)
    for tab in (tab_a, tab_b):
        expect(tab.locator(".presenter")).to_have_attribute("data-ready", "1")
        expect(tab.locator("#board-round")).to_be_visible()
    version = tab_a.locator("#present-section").get_attribute("data-version")
    tab_a.locator("#board-round .palette-row").first.get_by_role("button", name=re.compile(r"\[1\]")).click()
    expect(tab_a.locator("#present-section")).not_to_have_attribute("data-version", version)
    shown = tab_a.locator("#present-section").get_attribute("data-version")
    expect(tab_b.locator("#present-section")).to_have_attribute("data-version", shown, timeout=FOLLOW)
    tab_b.route("**/poll/**", lambda route: route.abort())  # tab B misses what A does next

    tab_a.locator('#board-round [data-pos="A1"]').click()
    expect(tab_a.locator("#present-section")).not_to_have_attribute("data-version", shown)
    expect(tab_a.locator("#board-round .entered")).to_contain_text("(A1)")
    now = tab_a.locator("#present-section").get_attribute("data-version")
    expect(tab_b.locator("#board-round .entered")).not_to_contain_text("(A1)")  # B's stale screen
    with tab_b.expect_response(lambda r: "/board/round/" in r.url) as answer:
        tab_b.locator('#board-round [data-pos="A1"]').click()
    assert answer.value.status == 409
    # refused: tab B now shows the table as it is, the card still on A1, and says so where
    # the presenter looks
    expect(tab_b.get_by_test_id("present-note")).to_be_visible()
    expect(tab_b.get_by_test_id("present-note")).to_be_in_viewport()
    expect(tab_b.locator("#present-section")).to_have_attribute("data-version", now)
    expect(tab_b.locator("#board-round .entered")).to_contain_text("(A1)")
    tab_a.reload()
    expect(tab_a.locator("#board-round .entered")).to_contain_text("(A1)")
    table.refresh_from_db()
    assert "0-0r1" in table.board_states["round"] and str(table.version) == now
    ctx.close()


def test_the_presenter_acts_on_two_boards_of_one_section_in_turn(site, browser):
    """A board action moves the table's version on; the section's other boards then act
    from the new version (teach.js), not from the one the page was drawn at."""
    ctx = browser.new_context()
    page = ctx.new_page()
    table = start_table(page, site, full=True)
    section = next(i for i, s in enumerate(sections(table.options)) if {"sandwich", "block"} <= set(s.boards))
    table.change(table.version, section=section)
    page.reload()
    expect(page.locator(".presenter")).to_have_attribute("data-ready", "1")
    for board in ("sandwich", "block"):
        version = page.locator("#present-section").get_attribute("data-version")
        with page.expect_response(lambda r, board=board: f"/board/{board}/" in r.url) as answer:
            page.locator(f"#board-{board}").get_by_test_id("next-step").click()
        assert answer.value.status == 200, board
        expect(page.locator("#present-section")).not_to_have_attribute("data-version", version)
    table.refresh_from_db()
    assert set(table.board_states) >= {"sandwich", "block"}
    ctx.close()


def test_a_second_tap_while_the_first_is_on_its_way_is_dropped(site, browser):
    """Two board taps in one moment (a double tap on two controls): the first is sent, the
    second is not, so the presenter never sees the stale-table note for their own tap."""
    ctx = browser.new_context()
    page = ctx.new_page()
    table = start_table(page, site, at="round-table")
    statuses: list[int] = []
    page.on("response", lambda r: statuses.append(r.status) if "/board/round/" in r.url else None)
    version = page.locator("#present-section").get_attribute("data-version")
    taps = page.locator("#board-round .palette-row").first.get_by_role("button")
    assert taps.count() >= 2
    second = taps.nth(1).element_handle()
    taps.nth(0).evaluate("(first, second) => { first.click(); second.click(); }", second)
    expect(page.locator("#present-section")).not_to_have_attribute("data-version", version)
    page.wait_for_function("() => document.documentElement.dataset.requests === '0'")
    assert statuses == [200]
    expect(page.get_by_test_id("present-note")).to_have_count(0)
    table.refresh_from_db()
    assert table.version == int(version) + 1
    # a tap and, while it is on its way, Next: the tap is made, Next is not (the section
    # stays); the tap's answer is held back until Next was clicked, whatever the machine's speed
    version = str(table.version)
    expect(page.locator("#present-section")).to_have_attribute("data-version", version)
    section = page.locator("#present-section").get_attribute("data-index")
    held: list = []

    def hold(route):
        held.append(route)

    page.route("**/board/round/**", hold)
    taps.nth(1).click()
    page.wait_for_function("() => document.documentElement.dataset.requests !== '0'")
    while not held:
        page.wait_for_timeout(20)
    page.locator('[data-nav="next"]').click()
    held[0].continue_()
    page.unroute("**/board/round/**", hold)
    expect(page.locator("#present-section")).not_to_have_attribute("data-version", version)
    page.wait_for_function("() => document.documentElement.dataset.requests === '0'")
    assert statuses == [200, 200]
    expect(page.get_by_test_id("present-note")).to_have_count(0)
    assert page.locator("#present-section").get_attribute("data-index") == section
    ctx.close()
