"""The answer view on every surface that steps through a round: the analyzer, the practice
game, its replay, the tutorial's boards and a teaching table's own round. Each is stepped
through to the end, with the buttons and with the arrow key, at a laptop's, a desktop's
and two phones' sizes; after every step the whole board and the current step's heading lie
on the screen, uncovered (not under a pinned board, not under the presenter's bar)."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from tests.site.play_helpers import CHOICES, first_move, page_version
from tutorials.models import Table

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SIZES = [(1366, 768), (1920, 1080), (390, 844), (320, 640)]

#: four players, every kind of step: a speed tie, cards removed before their turn, a player
#: who wins nothing
FOUR = "Rbgw_11.13r3.22.14w1-15.16b1.23.24r2-26.33.34g1.35w4-36g0.44.45.46b2"

#: what keeps the board or the current step's heading from being seen, as sentences
PROBLEMS_JS = """(surface) => {
  const board = surface.querySelector('[data-walk-board]');
  const title = surface.querySelector('[data-step-nav] .current-step-title');
  if (!board || !title) return ['no board or no current step'];
  let bottom = innerHeight;
  const bar = document.querySelector('.present-nav');
  if (bar && getComputedStyle(bar).position === 'sticky') {
    bottom = Math.min(bottom, bar.getBoundingClientRect().top);
  }
  const b = board.getBoundingClientRect(), t = title.getBoundingClientRect();
  const at = (r) => `${Math.round(r.top)}..${Math.round(r.bottom)}, screen 0..${Math.round(bottom)}`;
  const out = [];
  if (b.top < -1 || b.bottom > bottom + 1) out.push('board at ' + at(b));
  if (t.top < -1 || t.bottom > bottom + 1) out.push('step heading at ' + at(t));
  const hit = document.elementFromPoint(t.left + Math.min(20, t.width / 2), t.top + t.height / 2);
  if (!out.length && !title.contains(hit)) {
    out.push('step heading covered by ' + (hit ? hit.className || hit.tagName : 'nothing'));
  }
  return out;
}"""


def _number(surface) -> int:
    return int(surface.locator("[data-step-nav]").get_attribute("data-step"))


def _step_through(page, surface_css: str, where: str, *, key_from: int = 3) -> int:
    """Step ``surface_css`` from where it stands to its last step, checking after each;
    from step ``key_from`` on, with the right arrow key. Returns the steps seen."""
    for seen in range(1, 41):
        surface = page.locator(surface_css)
        problems = surface.evaluate(PROBLEMS_JS)
        number = _number(surface)
        assert not problems, f"{where}, step {number}: {problems}"
        nxt = surface.locator('[data-step-move="next"]')
        if not nxt.count():
            return seen
        shown = page.evaluate("document.documentElement.dataset.stepsShown || '0'")
        if number >= key_from:
            nxt.focus()
            page.keyboard.press("ArrowRight")
        else:
            nxt.click()
        page.wait_for_function("(was) => (document.documentElement.dataset.stepsShown || '0') !== was",
                               arg=shown)
        assert _number(page.locator(surface_css)) == number + 1, f"{where}: step {number} did not move on"
    raise AssertionError(f"{where}: no last step")


def _each_size(browser, setup, surface_css: str, name: str, *, cookies=None, site="") -> None:
    for width, height in SIZES:
        ctx = browser.new_context(viewport={"width": width, "height": height})
        if cookies:
            ctx.add_cookies([{"name": k, "value": v, "url": site} for k, v in cookies.items()])
        page = ctx.new_page()
        setup(page)
        where = f"{name} at {width}×{height}"
        assert _step_through(page, surface_css, where) >= 6, where
        ctx.close()


def test_the_analyzer(site, browser):
    def setup(page):
        page.goto(f"{site}/en/analyze/?pos={FOUR}")
        page.get_by_test_id("explain").click()
        page.locator("#analyzer [data-walk]").wait_for()

    _each_size(browser, setup, "#analyzer [data-walk]", "analyzer")


def _played_round(players: str = "4") -> tuple[str, dict[str, str]]:
    """A practice game whose first round has just been played: its address and cookies."""
    client = Client()
    url = client.post("/en/play/", {**CHOICES, "players": players})["Location"]
    for _turn in range(800):
        html = client.get(url).content.decode()
        if 'data-testid="next-step"' in html:
            return url, {k: v.value for k, v in client.cookies.items()}
        client.post(url + "act/", {**first_move(html), "version": page_version(html)})
    raise AssertionError("no round was played")


def test_the_practice_game_and_its_replay(site, browser):
    url, cookies = _played_round()
    _each_size(browser, lambda page: page.goto(site + url), "#play-area [data-walk]", "practice game",
               cookies=cookies, site=site)
    _each_size(browser, lambda page: page.goto(f"{site}{url}replay/"), "#replay-area [data-walk]", "replay",
               cookies=cookies, site=site)


def test_the_tutorial_boards(site, browser):
    def battle(page):
        page.goto(f"{site}/en/tutorial/battle-time/")
        page.locator("#board-battle").get_by_role("link", name="Reveal all cards").click()
        page.locator("#board-battle [data-step-nav]").wait_for()

    def sandwich(page):  # its first step is where the lesson's reader scrolls to
        page.goto(f"{site}/en/tutorial/treasure-time/")
        page.locator("#board-sandwich").evaluate("el => el.scrollIntoView()")

    _each_size(browser, battle, "#board-battle", "battle board")
    _each_size(browser, sandwich, "#board-sandwich", "sandwich board (4 players)")


def test_a_teaching_tables_own_round(site, browser):
    from tutorials.tutorial.teaching import sections

    client = Client()
    response = client.post("/en/teach/", {"players": "4", "mode": "action", "script": "full"})
    code = response["Location"].rstrip("/").split("/")[-1]
    slugs = [s.slug for s in sections(Table.objects.get(code=code).options)]
    cookies = {k: v.value for k, v in client.cookies.items()}

    def setup(page):
        # blue rang the bell; the cards as the presenter entered them; the first step
        Table.objects.filter(code=code).update(
            section=slugs.index("round-resolve"), board_states={"round": "b-0|00r1.03g4.11b1.20w2.33g0"})
        page.goto(f"{site}/en/teach/{code}/")
        page.locator("#board-round [data-step-nav]").wait_for()
        assert re.search(r"Step 1 of \d+", page.locator("#board-round .current-step").inner_text())
        page.locator("#board-round").evaluate("el => el.scrollIntoView()")  # under the section's words

    _each_size(browser, setup, "#board-round", "teaching table", cookies=cookies, site=site)


def test_a_guests_phone_stepping_the_tables_round_at_its_own_pace(site, browser):
    from tutorials.tutorial.teaching import sections

    client = Client()
    response = client.post("/en/teach/", {"players": "4", "mode": "action", "script": "quick"})
    code = response["Location"].rstrip("/").split("/")[-1]
    slugs = [s.slug for s in sections(Table.objects.get(code=code).options)]
    Table.objects.filter(code=code).update(
        section=slugs.index("round-resolve"), board_states={"round": "b-0|00r1.03g4.11b1.20w2.33g0"})

    def setup(page):  # a guest, under the section's words; the presenter stays at the first step
        page.goto(f"{site}/en/t/{code}/")
        page.locator("#board-round [data-step-nav]").wait_for()
        page.locator("#board-round").evaluate("el => el.scrollIntoView()")

    _each_size(browser, setup, "#board-round", "a guest's own steps")
    assert Table.objects.get(code=code).board_states["round"] == "b-0|00r1.03g4.11b1.20w2.33g0"
