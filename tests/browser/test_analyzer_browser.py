"""The analyzer in headless chromium: build EX-BATTLE by mouse and keyboard, step through."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def cell(page: Page, label: str):
    return page.locator(f'#analyzer .grid .cell[data-pos="{label}"]')


def wait_settled(page: Page):
    """Wait until no htmx request is in flight and the last swap has settled."""
    page.wait_for_function("() => document.documentElement.dataset.busy !== '1'")
    page.wait_for_load_state("networkidle")


def act(page: Page, do):
    """Run ``do`` (a click or key press that sends one htmx request) and wait for its swap."""
    with page.expect_response(lambda r: "/analyze/" in r.url):
        do()
    wait_settled(page)


def test_build_ex_battle_and_step_through(site, page: Page):
    page.goto(f"{site}/en/analyze/")
    expect(page.locator("html")).to_have_attribute("data-ready", "1")
    # seats red, blue, green: take white out (mouse)
    act(page, lambda: page.locator("#analyzer .seats li", has_text="white")
        .get_by_role("link", name="Remove").click())
    expect(page).to_have_url(re.compile(r"pos=Rbg_"))
    # keyboard: choose colour and value, then place with Enter on a focused position
    for keys, label in (("r3", "B1"), ("b1", "B2"), ("r2", "D2"), ("g1", "C3"), ("g0", "A4")):
        # typed quickly: the page queues the second key until the first edit has arrived
        with page.expect_response(lambda r: "op=value" in r.url):
            page.keyboard.press(keys[0])
            page.keyboard.press(keys[1])
        expect(page).to_have_url(re.compile(f"tool={keys}"))
        wait_settled(page)
        cell(page, label).focus()
        act(page, lambda: page.keyboard.press("Enter"))
        expect(cell(page, label).locator(".card .token-value")).to_have_text(keys[1])
    # a refused edit says why and keeps the position
    act(page, lambda: page.keyboard.press("b"))
    act(page, lambda: page.keyboard.press("1"))
    expect(page).to_have_url(re.compile("tool=b1"))
    act(page, lambda: cell(page, "A1").click())
    expect(page.get_by_test_id("analyzer-error")).to_contain_text("Boarding Melee")
    expect(cell(page, "A1").locator(".card")).to_have_count(0)
    # ask the question and step through to the end
    act(page, lambda: page.get_by_test_id("explain").click())
    for _ in range(30):
        if not page.get_by_test_id("next-step").count():
            break
        act(page, lambda: page.get_by_test_id("next-step").click())
    table = page.get_by_test_id("winnings")
    expect(table.locator('tr[data-colour="red"] td')).to_have_text("1 (D2)")
    expect(table.locator('tr[data-colour="blue"] td')).to_have_text("0")
    expect(table.locator('tr[data-colour="green"] td')).to_have_text("1 (A4)")
    expect(page.locator("#analyzer .explanations")).to_contain_text("before its turn")
    # the language switch keeps the position and the step
    url_before = page.url
    page.get_by_role("link", name="Deutsch").click()
    expect(page).to_have_url(re.compile(r"/de/analyze/\?pos=Rbg_"))
    assert url_before.split("?", 1)[1] == page.url.split("?", 1)[1]
    expect(page.locator("html")).to_have_attribute("lang", "de")
    # the back button shows a full page, not a fragment
    page.go_back()
    wait_settled(page)
    expect(page.locator("header.site-header")).to_have_count(1)
    expect(page.locator("#analyzer")).to_have_count(1)
    page.go_back()
    wait_settled(page)
    expect(page.locator("header.site-header")).to_have_count(1)
    expect(page.locator("#analyzer")).to_have_count(1)


def test_open_in_analyzer_from_tutorial(site, page: Page):
    page.goto(f"{site}/ja/tutorial/battle-time/")
    page.locator("#board-battle .open-analyzer a").click()
    expect(page).to_have_url(re.compile(r"/ja/analyze/\?pos=Rbg_11\.13r3"))
    expect(page.locator("#analyzer .grid .card")).to_have_count(5)


def test_z_undoes_many_steps_y_redoes_and_the_board_keeps_the_focus(site, page: Page):
    page.goto(f"{site}/de/tutorial/")
    page.goto(f"{site}/de/analyze/")
    expect(page.locator("html")).to_have_attribute("data-ready", "1")
    for colour, label in (("r", "A1"), ("b", "B2"), ("g", "C3")):  # one [3] of each colour
        for key in colour + "3":
            act(page, lambda k=key: page.keyboard.press(k))
        cell(page, label).focus()
        act(page, lambda: page.keyboard.press(" "))  # Space places like Enter
    expect(page.locator("#analyzer .grid .card")).to_have_count(3)
    for left in (2, 1, 0):
        act(page, lambda: page.keyboard.press("z"))
        expect(page.locator("#analyzer .grid .card")).to_have_count(left)
        # the focus stays on the board, so the arrow keys go on moving there
        expect(cell(page, "C3")).to_be_focused()
    page.keyboard.press("ArrowLeft")
    expect(cell(page, "B3")).to_be_focused()
    act(page, lambda: page.keyboard.press("y"))
    act(page, lambda: page.keyboard.press("Shift+Z"))
    expect(page.locator("#analyzer .grid .card")).to_have_count(2)
    expect(cell(page, "B2").locator(".card .token-value")).to_have_text("3")
    expect(cell(page, "B3")).to_be_focused()
    # nothing left to undo: Z stays on the page
    for _ in range(2):
        act(page, lambda: page.keyboard.press("z"))
    page.evaluate("() => { window.stayed = true; }")
    page.keyboard.press("z")
    wait_settled(page)
    assert page.evaluate("() => window.stayed === true")
    expect(page).to_have_url(re.compile(r"/de/analyze/"))
    expect(page.locator('#analyzer [data-action="undo"]')).to_be_disabled()


def test_no_content_security_policy_violations_while_editing(site, page: Page):
    page.add_init_script("window.__csp = []; document.addEventListener('securitypolicyviolation',"
                         " e => window.__csp.push(e.violatedDirective + ' ' + e.blockedURI));")
    page.goto(f"{site}/de/tutorial/")
    page.goto(f"{site}/de/analyze/")
    expect(page.locator("html")).to_have_attribute("data-ready", "1")
    for key in "r3":
        act(page, lambda k=key: page.keyboard.press(k))
    cell(page, "B2").focus()
    act(page, lambda: page.keyboard.press(" "))
    act(page, lambda: page.keyboard.press("z"))  # Undo is a request of its own: wait for it
    cell(page, "C3").focus()
    act(page, lambda: page.keyboard.press("Enter"))
    act(page, lambda: page.get_by_test_id("explain").click())
    act(page, lambda: page.get_by_test_id("next-step").click())
    assert page.evaluate("window.__csp") == []


def test_what_ifs_arrive_after_the_answer_and_open_on_click(site, page: Page):
    """The answer comes first, the what-if panel loads by itself, its links edit."""
    pos = "Rbgw_11r1.12g2.13g5.14w4-15w1.16b0.22w2.23b4-24r0.25g4.26r5.33w5-34b1.35b2.36g1.44r2"
    page.goto(f"{site}/en/analyze/?pos={pos}")
    panel = page.locator("#what-ifs")
    expect(panel.locator(".whatifs li").first).to_be_visible()
    expect(panel).to_contain_text("Blue as start player")
    act(page, lambda: panel.get_by_role("link", name="Blue as start player").click())
    expect(page).to_have_url(re.compile(r"pos=rBgw_"))
    # the new position's panel loads again, once
    expect(page.locator("#what-ifs")).to_contain_text("Red as start player")
    expect(page.locator("#what-ifs")).to_have_count(1)


EX_BATTLE = "Rbg_11.13r3.22.14-15.16b1.23.24r2-26.33.34g1.35-36g0.44.45.46"


def test_undo_button_takes_the_last_change_back(site, page: Page):
    """Issue: the Undo button threw "undo is not a function"; the keys were the only undo."""
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(f"{site}/en/analyze/?pos={EX_BATTLE}")
    expect(page.locator("html")).to_have_attribute("data-ready", "1")
    act(page, lambda: cell(page, "A1").click())  # the default tool: red [5]
    expect(cell(page, "A1").locator(".card .token-value")).to_have_text("5")
    # choosing a tool is not a step: Undo still takes the placement back
    act(page, lambda: page.locator("#analyzer .palette").get_by_role("link", name="blue").click())
    page.locator('#analyzer .palette [data-action="undo"]').click()
    expect(cell(page, "A1").locator(".card")).to_have_count(0)
    expect(page).to_have_url(re.compile(r"pos=Rbg_11\.13r3"))
    wait_settled(page)
    assert errors == []


def test_undo_works_without_javascript(site, browser):
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    try:
        page.goto(f"{site}/en/analyze/?pos={EX_BATTLE}")
        with page.expect_navigation():
            cell(page, "A1").click()
        expect(cell(page, "A1").locator(".card .token-value")).to_have_text("5")
        with page.expect_navigation():
            page.locator('#analyzer .palette [data-action="undo"]').click()
        expect(cell(page, "A1").locator(".card")).to_have_count(0)
        expect(page).to_have_url(re.compile(r"pos=Rbg_11\.13r3"))
    finally:
        context.close()


def _box(page: Page, selector: str) -> dict:
    """``selector``'s box in the viewport (top, bottom, height) and on the page (page_top)."""
    return page.evaluate("""(sel) => {
        const el = document.querySelector(sel);
        if (!el) return null;
        const r = el.getBoundingClientRect();
        return {top: r.top, bottom: r.bottom, height: r.height, page_top: r.top + scrollY};
    }""", selector)


def _overflow(page: Page) -> list[str]:
    """Elements sticking out of the viewport on the right, when the page scrolls sideways."""
    return page.evaluate("""() => {
        if (document.documentElement.scrollWidth <= innerWidth) return [];
        return [...document.querySelectorAll('body *')]
            .filter(e => e.getBoundingClientRect().right > innerWidth + 0.5)
            .slice(0, 5).map(e => e.tagName + '.' + e.className);
    }""")


def _small_controls(page: Page) -> list[str]:
    """Analyzer controls smaller than 24×24 CSS px (board positions: 44×44)."""
    return page.evaluate("""() => {
        const small = [];
        const sel = ['.chip', '.button', '.toggle', 'input:not([type=hidden])', 'summary', 'button',
                     '.step-list a'].map(s => '#analyzer ' + s).join(', ');
        for (const el of document.querySelectorAll(sel)) {
            const r = el.getBoundingClientRect();
            if (!r.width) continue;
            if (r.width < 24 || r.height < 24) {
                small.push(el.outerHTML.slice(0, 80) + ` ${r.width}x${r.height}`);
            }
        }
        for (const el of document.querySelectorAll('#analyzer .grid .cell')) {
            const r = el.getBoundingClientRect();
            if (r.width < 44 || r.height < 44) small.push(`cell ${el.dataset.pos} ${r.width}x${r.height}`);
        }
        return small;
    }""")


@pytest.mark.parametrize("width,height", [(320, 568), (390, 844)])
def test_phone_keeps_board_and_its_controls_on_one_screen(site, browser, width, height):
    """Issue: on a phone the palette sat 900-1,500 px below the board, and stepping through
    an explanation scrolled the board out of view."""
    context = browser.new_context(viewport={"width": width, "height": height}, has_touch=True,
                                  is_mobile=True, device_scale_factor=1)
    page = context.new_page()
    try:
        for lang in ("ja", "en", "de"):
            page.goto(f"{site}/{lang}/analyze/?pos={EX_BATTLE}")
            assert not _overflow(page), (lang, "edit", _overflow(page))
            assert not _small_controls(page), (lang, _small_controls(page))
            grid, palette = _box(page, "#analyzer .grid"), _box(page, "#analyzer .palette")
            assert palette["page_top"] - grid["page_top"] < height, (lang, grid, palette)
            # using the bottom of the palette, the board is still in full view
            page.locator("#analyzer .palette").evaluate("el => el.scrollIntoView({block: 'end'})")
            grid, palette = _box(page, "#analyzer .grid"), _box(page, "#analyzer .palette")
            assert grid["top"] >= 0 and grid["bottom"] <= height, (lang, grid)
            assert palette["bottom"] <= height + 1, (lang, palette)
            # touch screens are told to tap, not to click
            hint = page.locator("#analyzer .board-hint")
            expect(hint).to_be_visible()
            assert "click" not in hint.inner_text().lower() and "klick" not in hint.inner_text().lower()
            # explain step by step: the current step is shown next to the board, step after step
            act(page, lambda: page.get_by_test_id("explain").click())
            assert not _overflow(page), (lang, "explain", _overflow(page))
            for _ in range(3):
                grid, step = _box(page, "#analyzer .grid"), _box(page, "#analyzer [data-testid=current-step]")
                assert grid["top"] >= 0 and grid["bottom"] <= height, (lang, grid)
                assert step and 0 <= step["top"] < height - 40, (lang, grid, step)
                assert page.get_by_test_id("next-step").is_visible()
                box = page.get_by_test_id("next-step").bounding_box()
                assert box and box["y"] + box["height"] <= height, (lang, box)
                act(page, lambda: page.get_by_test_id("next-step").click())
            assert not _small_controls(page), (lang, _small_controls(page))
    finally:
        context.close()


def test_focus_returns_to_the_control_that_was_used(site, page: Page):
    """A palette chip, a seat chip or a rule switch keeps the focus across the swap it causes
    (it used to jump to the last board position that had the focus)."""
    page.goto(f"{site}/en/analyze/?pos={EX_BATTLE}")
    expect(page.locator("html")).to_have_attribute("data-ready", "1")
    cell(page, "A1").focus()
    act(page, lambda: page.keyboard.press("Enter"))
    expect(cell(page, "A1")).to_be_focused()
    analyzer = page.locator("#analyzer")
    steps = [
        (lambda: analyzer.locator(".palette").get_by_role("link", name="blue"), "blue"),
        (lambda: analyzer.get_by_role("switch", name=re.compile("Reversed speed")), "Reversed speed"),
        (lambda: analyzer.locator(".seats li", has_text="white").get_by_role("link", name="Seat"), "Remove"),
    ]
    for control, words in steps:
        control().focus()
        act(page, lambda: page.keyboard.press("Enter"))
        focused = page.evaluate("document.activeElement.textContent")
        assert words in focused, (words, focused)
    expect(analyzer.locator(".seats li", has_text="white").get_by_role("link", name="Remove")).to_be_focused()
    expect(analyzer.get_by_role("switch", name=re.compile("Reversed speed"))).to_have_attribute(
        "aria-checked", "true")


def test_a_skip_link_takes_the_keyboard_to_the_board(site, page: Page):
    page.goto(f"{site}/de/analyze/")
    expect(page.locator("html")).to_have_attribute("data-ready", "1")
    page.keyboard.press("Tab")  # the first stop: skip to the content
    page.keyboard.press("Tab")
    skip = page.get_by_role("link", name="Zur Auslage springen")
    expect(skip).to_be_focused()
    expect(skip).to_be_in_viewport()  # shown once it has the focus
    page.keyboard.press("Enter")
    page.keyboard.press("Tab")
    focused = page.evaluate("() => document.activeElement.closest('#analyzer .grid .cell')?.dataset.pos")
    assert focused == "A1"
