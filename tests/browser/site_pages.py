"""Every page of the site, for the checks that must hold on all of them (focus after a
swap, no horizontal overflow on phones): the static pages by address, and a table's
presenter and guest pages, which need a table first (:func:`table_pages`).

A page added to the site belongs here; `test_every_page_is_listed` fails when a named URL
pattern of the site is not reached by any address below.
"""

from __future__ import annotations

from tutorials.tutorial.script import LESSONS

EX_BATTLE = "Rbg_11.13r3.22.14-15.16b1.23.24r2-26.33.34g1.35-36g0.44.45.46"

#: url name -> addresses ({lang} is the language prefix)
STATIC_PAGES: dict[str, list[str]] = {
    "index": ["/{lang}/tutorial/"],
    "lesson": [f"/{{lang}}/tutorial/{lesson.slug}/" for lesson in LESSONS],
    "rules": ["/{lang}/rules/"],
    "analyze": ["/{lang}/analyze/", "/{lang}/analyze/?pos=" + EX_BATTLE,
                "/{lang}/analyze/?view=explain&step=3&pos=" + EX_BATTLE],
    "sheets": ["/{lang}/sheets/"],
    "teach": ["/{lang}/teach/"],
    "teach-find": ["/{lang}/teach/join/"],
    "play": ["/{lang}/play/"],
    "not-found": ["/{lang}/no-such-page/"],
}

#: url names reached by table_pages() or not pages at all (PDFs, images, htmx parts, moves)
NOT_STATIC = {"home", "board", "rules-answers", "analyze-edit", "analyze-what-if", "analyze-save",
              "analyze-pdf",
              "sheet-pdf", "sheet-preview", "teach-present", "teach-go", "teach-present-poll", "teach-screen",
              "teach-board", "teach-handover", "teach-take", "teach-guest", "teach-poll",
              "play-game", "play-act", "play-guided", "play-replay", "play-shared", "teach-seat",
              "teach-hand", "teach-seats", "teach-card", "teach-seat-part"}


def static_addresses(lang: str) -> list[str]:
    """Every static page's address in language ``lang``."""
    return [a.format(lang=lang) for addresses in STATIC_PAGES.values() for a in addresses]


def table_pages(page, site: str, lang: str) -> list[str]:
    """Start a 4-player full-script table in ``page`` (a Playwright page whose context
    becomes the presenter) and return the presenter's addresses worth checking: the first
    section, a section with example boards, the guided round's "resolve our table", and the
    guest page. ``?at=<n>`` is not a real parameter: the caller moves the table with
    :func:`go_to_section`."""
    page.goto(f"{site}/{lang}/teach/")
    page.locator('input[name="script"][value="full"]').check()
    page.locator("form.teach-form button[type=submit]").click()
    page.wait_for_url("**/teach/*/")
    code = page.get_by_test_id("table-code").inner_text()
    return [f"/{lang}/teach/{code}/", f"/{lang}/t/{code}/"]


def start_table(page, site: str, lang: str = "en", *, full: bool = False, at: str | None = None,
                board_states: dict | None = None):
    """Start a 4-player table in ``page`` (its context becomes the presenter), move it to the
    section with slug ``at`` (and its boards to ``board_states``) directly in the database,
    and return the table, its page ready."""
    from tutorials.models import Table
    from tutorials.tutorial.teaching import sections

    page.goto(f"{site}/{lang}/teach/")
    if full:
        page.locator('input[name="script"][value="full"]').check()
    page.locator("form.teach-form button[type=submit]").click()
    page.wait_for_selector('.presenter[data-ready="1"]')
    table = Table.objects.get(code=page.get_by_test_id("table-code").inner_text())
    if at is not None:
        slugs = [s.slug for s in sections(table.options)]
        fields = {"section": slugs.index(at)} | ({"board_states": board_states} if board_states else {})
        table.change(table.version, **fields)
        page.reload()
        page.wait_for_selector('.presenter[data-ready="1"]')
    return table


def sections_with_boards(code: str) -> list[int]:
    """Indices of the sections of table ``code`` that show example boards or the table's own
    board (one of each kind of board)."""
    from tutorials.models import Table
    from tutorials.tutorial.teaching import sections

    session = Table.objects.get(code=code)
    seen: set[tuple[str, ...]] = set()
    found = []
    for i, section in enumerate(sections(session.options)):
        kinds = tuple(section.boards)
        if kinds and kinds not in seen:
            seen.add(kinds)
            found.append(i)
    return found


def go_to_section(code: str, index: int) -> None:
    """Move table ``code`` to section ``index`` directly in the database."""
    from tutorials.models import Table

    Table.objects.filter(code=code).update(section=index, board_states={})


def press_on_presenter(page, key: str) -> None:
    """Press ``key`` on a presenter page and wait for what it does: the table moves (a new
    version of the section) or the page scrolls (until it comes to rest)."""
    import time

    def state():
        return page.evaluate("[document.getElementById('present-section').dataset.version, window.scrollY]")

    before = state()
    page.keyboard.press(key)
    deadline = time.monotonic() + 10
    now = state()
    while now == before and time.monotonic() < deadline:
        page.wait_for_timeout(50)
        now = state()
    assert now != before, f"{key} neither moved the table nor scrolled"
    if now[0] != before[0]:
        page.wait_for_selector(f'#present-section[data-version="{now[0]}"]')
        return
    while True:  # a smooth scroll: until it rests
        page.wait_for_timeout(120)
        rest = state()
        if rest == now:
            return
        now = rest
