"""Phones: every page in every language fits a 320 px and a 390 px
screen without scrolling sideways, and every control is at least 24 × 24 CSS px (WCAG 2.2
AA, 2.5.8), board positions larger; plus the user's motion and contrast settings."""

from __future__ import annotations

import pytest

from tests.browser.site_pages import go_to_section, sections_with_boards, static_addresses, table_pages

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Elements wider than the screen, and what makes the page scroll sideways
OVERFLOW_JS = """() => {
  const width = document.documentElement.clientWidth;
  if (document.documentElement.scrollWidth <= width) return [];
  const wide = [];
  for (const el of document.querySelectorAll('body *')) {
    const r = el.getBoundingClientRect();
    if (r.right > width + 1 && r.width > 0 && getComputedStyle(el).position !== 'fixed') {
      if (!el.closest('.visually-hidden, .skip-link')) wide.push(
        el.tagName.toLowerCase() + '.' + String(el.className.baseVal ?? el.className).split(' ')[0] +
        ' right=' + Math.round(r.right));
    }
  }
  return wide.slice(0, 5).concat(['scrollWidth=' + document.documentElement.scrollWidth]);
}"""

# Controls smaller than 24 x 24 CSS px. Links inside running text are exempt (2.5.8's
# "inline" exception), as are controls hidden from everyone.
TARGETS_JS = """() => {
  const small = [];
  const sel = 'button, input:not([type=hidden]), select, summary, a.chip, a.button, a.cell, ' +
              'button.cell, .site-nav a, .lang-switch a, .toggle, label.choice';
  for (const el of document.querySelectorAll(sel)) {
    if (!el.checkVisibility({visibilityProperty: true})) continue;
    if (el.closest('.visually-hidden, .skip-link')) continue;
    // a radio button or checkbox inside its label: the label is the target
    if (el.matches('input[type=radio], input[type=checkbox]') && el.closest('label')) continue;
    const r = el.getBoundingClientRect();
    const min = el.matches('.cell') ? 40 : 24;
    if (r.width < min - 0.5 || r.height < min - 0.5) {
      const name = (el.textContent || el.value || '').trim().slice(0, 20);
      small.push(el.tagName.toLowerCase() + '.' + String(el.className).split(' ')[0] + ' "' + name + '" ' +
                 Math.round(r.width) + 'x' + Math.round(r.height));
    }
  }
  return small.slice(0, 8);
}"""


def _check(page, address: str, problems: list[str]) -> None:
    page.goto(address)
    page.wait_for_load_state("load")
    wide = page.evaluate(OVERFLOW_JS)
    if wide:
        problems.append(f"{address}: wider than the screen: {wide}")
    small = page.evaluate(TARGETS_JS)
    if small:
        problems.append(f"{address}: small targets: {small}")


@pytest.mark.parametrize("width", [320, 390])
@pytest.mark.parametrize("lang", ["ja", "en", "de"])
def test_every_page_fits_a_phone(live_server, browser, lang, width):
    context = browser.new_context(viewport={"width": width, "height": 740}, is_mobile=True, has_touch=True,
                                  device_scale_factor=2)
    page = context.new_page()
    problems: list[str] = []
    for address in static_addresses(lang):
        _check(page, live_server.url + address, problems)
    presenter, guest = table_pages(page, live_server.url, lang)
    code = presenter.rstrip("/").rsplit("/", 1)[1]
    for index in sections_with_boards(code):
        go_to_section(code, index)
        _check(page, live_server.url + presenter, problems)
        _check(page, live_server.url + guest, problems)
    context.close()
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("address", ["/en/tutorial/battle-time/?battle=3", "/en/analyze/?pos=Rb_11r3.12b1"])
def test_boards_survive_forced_colors(live_server, browser, address):
    """Windows high contrast: the board's grid lines, the cards' outlines and the
    highlight of the current choice stay visible (the colours of the dice already carry
    letters and patterns)."""
    context = browser.new_context(forced_colors="active")
    page = context.new_page()
    page.goto(live_server.url + address)
    assert page.evaluate("() => matchMedia('(forced-colors: active)').matches")
    cells = page.evaluate("""() => [...document.querySelectorAll('.grid .cell')].map(c => {
        const s = getComputedStyle(c);
        return s.borderTopStyle !== 'none' && parseFloat(s.borderTopWidth) > 0; })""")
    assert cells and all(cells), "board positions lose their outline in forced colours"
    active = page.evaluate("""() => [...document.querySelectorAll('.chip.active, .chip[aria-current]')]
      .map(c => {
        const s = getComputedStyle(c);
        return parseFloat(s.borderTopWidth) >= 2 || s.outlineStyle !== 'none'; })""")
    assert all(active), "the current choice loses its highlight in forced colours"
    context.close()


def test_reduced_motion_stops_animation_and_smooth_scrolling(live_server, browser):
    context = browser.new_context(reduced_motion="reduce")
    page = context.new_page()
    page.goto(live_server.url + "/en/tutorial/battle-time/?battle=3")
    moving = page.evaluate("""() => [...document.querySelectorAll('*')].filter(el => {
        const s = getComputedStyle(el);
        return (s.animationName !== 'none' && parseFloat(s.animationDuration) > 0.01) ||
               parseFloat(s.transitionDuration) > 0.01; }).map(el => el.tagName + '.' + el.className)""")
    assert moving == []
    assert page.evaluate("() => getComputedStyle(document.documentElement).scrollBehavior") != "smooth"
    context.close()
