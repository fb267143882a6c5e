"""Checks the browser tests share: axe-core's serious findings, a page that fits a phone,
and screenshots kept on request."""

from __future__ import annotations

import os
from pathlib import Path

from tests.browser.test_phones import OVERFLOW_JS, TARGETS_JS

AXE = Path(__file__).resolve().parents[2] / "node_modules" / "axe-core" / "axe.min.js"
PHONE = {"width": 390, "height": 844}
#: set PLAY_SHOTS=/some/dir to keep screenshots of the game page
SHOTS = os.environ.get("PLAY_SHOTS", "")


def fits(page, where: str) -> None:
    assert page.evaluate(OVERFLOW_JS) == [], f"{where}: wider than the screen"
    assert page.evaluate(TARGETS_JS) == [], f"{where}: small targets"


def shot(page, name: str) -> None:
    if SHOTS:
        os.makedirs(SHOTS, exist_ok=True)
        page.screenshot(path=os.path.join(SHOTS, f"{name}.png"), full_page=True)


def run_axe(page) -> list[dict]:
    """The serious and critical WCAG 2.1 AA violations axe-core finds on ``page``."""
    page.evaluate(AXE.read_text(encoding="utf-8"))
    result = page.evaluate("""async () => {
        const tags = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];
        const r = await axe.run(document, {runOnly: {type: 'tag', values: tags}});
        return r.violations.map(v => ({id: v.id, impact: v.impact, help: v.help,
                                       nodes: v.nodes.slice(0, 3).map(n => n.target.join(' '))}));
    }""")
    return [v for v in result if v["impact"] in ("serious", "critical")]
