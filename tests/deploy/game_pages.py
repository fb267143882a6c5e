"""The site's own practice-game page in a browser (Playwright): start a game with the given
choices and bring it to Dice Time (the deploy tests and ``bin/bench-play``)."""

from __future__ import annotations

import re

#: sets a start-form choice, which may sit in a closed details element
_CHOOSE = "([n, v]) => { document.querySelector(`[name='${n}'][value='${v}']`).checked = true; }"
#: true once the game area shows a version other than ``v``
MOVED = "v => document.querySelector('#play-area')?.dataset.version !== v"


def begin_dice_time(page, site: str, lang: str, choices: dict[str, str]) -> str:
    """Start a game with ``choices`` at ``site`` in ``lang`` and go on until Dice Time has
    begun; the game's code."""
    page.goto(f"{site}/{lang}/play/")
    for name, value in choices.items():
        page.evaluate(_CHOOSE, [name, value])
    page.get_by_test_id("start-game").click()
    page.wait_for_url(re.compile(rf"/{lang}/play/\w+/$"))
    code = page.url.rstrip("/").rsplit("/", 1)[1]
    while not page.get_by_test_id("play-live").count():  # go on to the round, begin Dice Time
        version = page.locator("#play-area").get_attribute("data-version")
        page.locator('[data-testid="play-continue"], [data-testid="play-begin"]').first.click()
        page.wait_for_function(MOVED, arg=version)
    return code
