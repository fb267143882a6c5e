"""A presentation clicker at a projector (1920 × 1080): its "next" is Page Down, so Page
Down must bring every board of every quick-start section onto the screen before the table
moves on, however long the section."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.site_pages import press_on_presenter, start_table

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

#: a board counts as reached when this share of it (or of the screen, for a board taller
#: than the screen above the pinned Next / Back bar) was on the screen at once
SHOWN = 0.9

_SHOWN_BOARDS = """() => {
  const s = document.getElementById('present-section');
  const nav = s.querySelector('.present-nav').getBoundingClientRect();
  const bottom = Math.min(window.innerHeight, nav.top);
  return [s.dataset.index, [...s.querySelectorAll('.board-panel')].map(b => {
    const r = b.getBoundingClientRect();
    const seen = Math.max(0, Math.min(r.bottom, bottom) - Math.max(r.top, 0));
    return [b.id, seen / Math.min(r.height, bottom)];
  })];
}"""


def test_page_down_reaches_every_board_of_every_quick_start_section(site, browser):
    ctx = browser.new_context(viewport={"width": 1920, "height": 1080})
    page = ctx.new_page()
    table = start_table(page, site, "en")
    # a card on the table's round, or "resolve our table" would not let the table go on
    table.change(table.version, board_states={"round": "r-0|0-0r1"})
    page.reload()
    expect(page.locator(".presenter")).to_have_attribute("data-ready", "1")
    boards: dict[tuple[str, str], float] = {}
    for _ in range(300):
        index, shown = page.evaluate(_SHOWN_BOARDS)
        for board_id, share in shown:
            boards[(index, board_id)] = max(boards.get((index, board_id), 0.0), share)
        if page.locator('#present-section [data-nav="next"]').is_disabled():
            at_end = page.evaluate("document.getElementById('present-section')"
                                   ".getBoundingClientRect().bottom <= innerHeight + 4")
            if at_end:
                break
        press_on_presenter(page, "PageDown")
    else:
        raise AssertionError("Page Down never reached the end of the script")
    table.refresh_from_db()
    from tutorials.tutorial.teaching import sections

    script = sections(table.options)
    assert table.section == len(script) - 1
    expected = {(str(i), f"board-{b}") for i, s in enumerate(script) for b in s.boards}
    assert expected and set(boards) == expected, set(boards) ^ expected
    missed = {key: round(share, 2) for key, share in boards.items() if share < SHOWN}
    assert not missed, f"boards Page Down never brought onto the screen: {missed}"
    ctx.close()
