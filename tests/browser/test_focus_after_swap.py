"""After every htmx swap the keyboard focus stays where the user is.

Not a hand-picked list: on every page of the site (tests/browser/site_pages.py) every
element that htmx acts on by user action (``hx-get``/``hx-post`` links, buttons and forms)
is focused and activated with Enter, like a keyboard user would. After the swap the focus
must be on the control that acted or its replacement (the same stable attribute or the
same words: never another control, where a second Enter would do something else), or, when
the content moved on, on the new content's heading; never on ``<body>`` or on an element no
longer in the page.
"""

from __future__ import annotations

import pytest

from tests.browser.site_pages import go_to_section, sections_with_boards, static_addresses, table_pages

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# The controls htmx acts on when the user activates them: links and buttons with hx-get /
# hx-post, and the submit buttons (or, lacking one, the first field) of hx forms. Elements
# htmx drives by itself (hx-trigger="load", "every 2s") are not the user's.
# What makes a control "the same" after a swap: any of its stable attributes, or its words.
IDENTITY_JS = """
function identity(el) {
  const cell = el.closest('[data-pos]');
  return {id: el.id, focus: el.dataset.focusId, nav: el.dataset.nav, key: el.dataset.key,
          testid: el.dataset.testid, pos: cell ? cell.dataset.pos : '',
          nameValue: el.name ? el.name + '=' + el.value : '',
          words: (el.getAttribute('aria-label') || el.textContent || el.value || '')
            .replace(/\\s+/g, ' ').trim()};
}"""

CONTROLS_JS = """(focusAt) => {
  """ + IDENTITY_JS + """
  const out = [];
  const visible = el => el.checkVisibility({visibilityProperty: true}) && !el.disabled;
  for (const el of document.querySelectorAll('[hx-get], [hx-post]')) {
    const trigger = el.getAttribute('hx-trigger') || '';
    if (/\\b(load|every|revealed|intersect)\\b/.test(trigger)) continue;
    if (el.tagName === 'FORM') {
      const submits = el.querySelectorAll('button:not([type=button]), input[type=submit]');
      const controls = submits.length ? submits : el.querySelectorAll('input:not([type=hidden]), select');
      for (const c of controls) if (visible(c)) out.push(c);
    } else if (el.matches('a[href], button') && visible(el)) {
      out.push(el);
    }
  }
  const labels = out.map(el => (el.getAttribute('aria-label') || el.textContent || el.name || '')
    .trim().slice(0, 40));
  if (focusAt !== null && out[focusAt]) {
    out[focusAt].focus();
    window.acted = identity(out[focusAt]);
  }
  return labels;
}"""

# what happened to the focus during the last action, for the failure message
LOG_JS = """() => {
  window.focusLog = [];
  for (const name of ['htmx:beforeSwap', 'htmx:afterSettle', 'focusin', 'focusout']) {
    document.addEventListener(name, e => {
      const el = (e.detail && e.detail.target) || e.target;
      window.focusLog.push(name + ' ' + (el.id || el.tagName) + ' active=' + document.activeElement.tagName);
    }, true);
  }
}"""

FOCUS_JS = """() => {
  """ + IDENTITY_JS + """
  const a = document.activeElement;
  if (!a || a === document.body || a === document.documentElement || !a.isConnected) return null;
  const now = identity(a), was = window.acted || {};
  const same = Object.keys(now).some(k => now[k] && now[k] === was[k]);
  return {tag: a.tagName, text: (a.textContent || '').trim().slice(0, 40),
          heading: /^H[1-6]$|^LEGEND$/.test(a.tagName),
          control: a.matches('a[href], button, input, select, textarea, summary') && same};
}"""


def _settled(page) -> int:
    return int(page.evaluate("() => parseInt(document.documentElement.dataset.settled || '0', 10)"))


# Quiet: a swap has settled since ``before``, no htmx request is on its way, no part of the
# page still waits to load itself in the background (the analyzer's "What if…" list: a
# link of it pressed between its swap and htmx's processing is followed as a plain link,
# which CI once caught), and nothing has settled for 80 ms (a request's end comes before
# htmx's settle delay). Such a part loads on "load"; the header's search box, in the
# background too, waits for typing.
BACKGROUND_JS = "document.querySelector('[data-background][hx-trigger=\"load\"]')"
IDLE_JS = """(before) => {
  const d = document.documentElement.dataset;
  const settled = parseInt(d.settled || '0', 10);
  if (settled <= before || d.requests !== '0' || """ + BACKGROUND_JS + """) {
    window.quiet = null; return false;
  }
  if (!window.quiet || window.quiet.settled !== settled) {
    window.quiet = {settled, since: performance.now()};
    return false;
  }
  return performance.now() - window.quiet.since > 80;
}"""


def _wait_settled(page, before: int, timeout: int = 5000) -> bool:
    """Wait until a swap has settled after ``before`` and no htmx request is on its way."""
    try:
        page.wait_for_function(IDLE_JS, arg=before, timeout=timeout, polling=50)
    except Exception:  # noqa: BLE001 - Playwright's TimeoutError; the caller reports it
        return False
    return True


def _check_every_control(page, address: str, reset=None) -> tuple[int, list[str]]:
    """Activate every control of the page at ``address`` once, by its place in the page.

    An action that changes the page but not its number of controls (a chip, a board
    position) is followed by the next control of the changed page; an action that changes
    the number of controls (a new section or step) sends the check back to ``address``
    (``reset()`` first puts a table back where it was)."""
    problems: list[str] = []

    def load():
        if reset:
            reset()
        page.goto(address)
        page.wait_for_function("() => document.documentElement.dataset.requests === '0' && !"
                               + BACKGROUND_JS)
        # htmx processes swapped content when it has settled: its marker classes are gone
        page.wait_for_function("() => !document.querySelector('.htmx-added, .htmx-settling, .htmx-swapping')")
        page.evaluate(LOG_JS)
        return page.evaluate(CONTROLS_JS, None)

    labels = load()
    for i in range(len(labels)):
        current = page.evaluate(CONTROLS_JS, i)
        if len(current) != len(labels):
            load()
            current = page.evaluate(CONTROLS_JS, i)
        label = current[i]
        page.evaluate("() => { window.focusLog = []; }")
        before = _settled(page)
        page.keyboard.press("Enter")
        if not _wait_settled(page, before):
            problems.append(f"{address} [{i}] {label!r}: no swap after Enter")
            continue
        focus = page.evaluate(FOCUS_JS)
        if focus is None or not (focus["heading"] or focus["control"]):
            log = page.evaluate("() => window.focusLog || ['(a new page was loaded)']")
            problems.append(f"{address} [{i}] {label!r}: focus went to {focus} ({'; '.join(log)})")
    return len(labels), problems


@pytest.fixture
def keyboard_page(browser):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    yield context.new_page()
    context.close()


@pytest.mark.parametrize("address", static_addresses("en"))
def test_focus_survives_every_swap(live_server, keyboard_page, address):
    checked, problems = _check_every_control(keyboard_page, live_server.url + address)
    assert not problems, "\n".join(problems)
    if "/analyze/" in address or "/tutorial/dice-time/" in address:
        assert checked > 10, f"only {checked} controls found: the enumeration is broken"


def test_focus_survives_every_swap_at_a_table(live_server, keyboard_page):
    """In Japanese: the pages above are checked in English, so a control found again by
    its words (site.js keyOf) is checked in both scripts."""
    page = keyboard_page
    presenter, guest = table_pages(page, live_server.url, "ja")
    code = presenter.rstrip("/").rsplit("/", 1)[1]
    problems: list[str] = []
    checked = 0
    for index in sections_with_boards(code):
        def reset(index=index):
            go_to_section(code, index)
        n, found = _check_every_control(page, live_server.url + presenter, reset)
        checked, problems = checked + n, problems + found
    assert checked > 10, f"only {checked} controls found: the enumeration is broken"
    assert not problems, "\n".join(problems)

def test_presenter_next_twice_with_enter(live_server, browser):
    """The issue's example: Enter on the presenter's Next, then Enter again, moves twice."""
    context = browser.new_context()
    page = context.new_page()
    presenter, _guest = table_pages(page, live_server.url, "en")
    page.goto(live_server.url + presenter)
    page.locator('[data-nav="next"]').focus()
    for index in ("1", "2"):
        before = _settled(page)
        page.keyboard.press("Enter")
        assert _wait_settled(page, before)
        assert page.locator("#present-section").get_attribute("data-index") == index
        assert page.evaluate("() => document.activeElement.dataset.nav") == "next"
    context.close()
