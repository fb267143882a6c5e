"""The analyzer in headless chromium: build EX-BATTLE by mouse and keyboard, step through."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def site(live_server):
    return live_server.url


def cell(page: Page, label: str):
    return page.locator(f'#analyzer .grid .cell[data-pos="{label}"]')


def wait_settled(page: Page):
    """Wait until no htmx request is in flight and the last swap has settled."""
    page.wait_for_function("() => document.body && document.body.dataset.busy !== '1'")
    page.wait_for_load_state("networkidle")


def act(page: Page, do):
    """Run ``do`` (a click or key press that sends one htmx request) and wait for its swap."""
    with page.expect_response(lambda r: "/analyze/" in r.url):
        do()
    wait_settled(page)


def test_build_ex_battle_and_step_through(site, page: Page):
    page.goto(f"{site}/en/analyze/")
    expect(page.locator("html")).to_have_attribute("data-analyzer-keys", "1")
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


def test_z_undoes_placements_but_never_leaves_the_analyzer(site, page: Page):
    page.goto(f"{site}/de/tutorial/")
    page.goto(f"{site}/de/analyze/")
    expect(page.locator("html")).to_have_attribute("data-analyzer-keys", "1")
    for key in "r3":
        act(page, lambda k=key: page.keyboard.press(k))
    expect(page).to_have_url(re.compile("tool=r3"))
    cell(page, "B2").focus()
    act(page, lambda: page.keyboard.press(" "))  # Space places like Enter
    expect(cell(page, "B2").locator(".card .token-value")).to_have_text("3")
    page.keyboard.press("z")  # undo the placement (the tool choice was not a step)
    page.wait_for_load_state("networkidle")
    expect(page.locator('#analyzer .grid .cell[data-pos="B2"] .card')).to_have_count(0)
    expect(page).to_have_url(re.compile(r"/de/analyze/"))
    page.keyboard.press("z")  # nothing left to undo: stay here
    page.wait_for_timeout(500)
    expect(page).to_have_url(re.compile(r"/de/analyze/"))


def test_no_content_security_policy_violations_while_editing(site, page: Page):
    page.add_init_script("window.__csp = []; document.addEventListener('securitypolicyviolation',"
                         " e => window.__csp.push(e.violatedDirective + ' ' + e.blockedURI));")
    page.goto(f"{site}/de/tutorial/")
    page.goto(f"{site}/de/analyze/")
    expect(page.locator("html")).to_have_attribute("data-analyzer-keys", "1")
    for key in "r3":
        act(page, lambda k=key: page.keyboard.press(k))
    cell(page, "B2").focus()
    act(page, lambda: page.keyboard.press(" "))
    page.keyboard.press("z")
    page.wait_for_load_state("networkidle")
    cell(page, "C3").focus()
    act(page, lambda: page.keyboard.press("Enter"))
    act(page, lambda: page.get_by_test_id("explain").click())
    act(page, lambda: page.get_by_test_id("next-step").click())
    assert page.evaluate("window.__csp") == []


def test_what_ifs_arrive_after_the_answer_and_open_on_click(site, page: Page):
    """Issue 13: the answer comes first, the what-if panel loads by itself, its links edit."""
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
