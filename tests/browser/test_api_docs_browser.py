"""Swagger UI at /api/docs really renders in chromium under the site's CSP.

Uses pytest-playwright's ``browser`` fixture like every other browser test (a private
``sync_playwright()`` clashed with its event loop when this test ran after another
browser test).
"""

from __future__ import annotations

import pytest


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_swagger_ui_renders_without_csp_violations(live_server, browser, tmp_path):
    console, hosts = [], set()
    context = browser.new_context(viewport={"width": 1280, "height": 1400})
    try:
        page = context.new_page()
        page.on("console", lambda m: console.append(f"{m.type}: {m.text}"))
        page.on("request", lambda r: hosts.add(r.url.split("/")[2]))
        page.add_init_script(
            "window.__csp = []; document.addEventListener('securitypolicyviolation',"
            " e => window.__csp.push(e.violatedDirective + ' ' + e.blockedURI));")
        page.goto(f"{live_server.url}/api/docs")
        page.wait_for_selector("#operations-default-solve", timeout=15000)
        assert page.locator(".opblock").count() == 7  # solve, positions (2), games (3), rules search
        assert "Captain Dice rules API" in page.inner_text(".info .title")
        # open "solve", try it out with the example body, and run it
        page.click("#operations-default-solve .opblock-summary-control")
        page.click("#operations-default-solve .try-out__btn")
        page.click("#operations-default-solve .execute")
        page.wait_for_selector("#operations-default-solve .live-responses-table .response",
                               timeout=15000)
        status = page.inner_text("#operations-default-solve .live-responses-table "
                                 ".response .response-col_status")
        assert status.strip().startswith("200")
        page.screenshot(path=str(tmp_path / "api-docs.png"))
        violations = page.evaluate("window.__csp")
    finally:
        context.close()
    assert violations == []
    assert not [line for line in console if line.startswith("error")], console
    assert hosts == {live_server.url.split("/")[2]}
