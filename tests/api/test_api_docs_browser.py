"""Swagger UI at /api/docs really renders in chromium under the site's CSP.

Drives Debian's chromium through Playwright's sync API directly (the suite may run with
``-p no:playwright``); skipped when either is missing.
"""

from __future__ import annotations

import shutil

import pytest

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_swagger_ui_renders_without_csp_violations(live_server, monkeypatch, tmp_path):
    sync_api = pytest.importorskip("playwright.sync_api")
    if not shutil.which(CHROMIUM):
        pytest.skip("no chromium")
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    console, hosts = [], set()
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=[
            "--no-sandbox", "--disable-gpu", "--disable-background-networking",
            "--disable-component-update", "--no-first-run"])
        try:
            page = browser.new_page(viewport={"width": 1280, "height": 1400})
            page.on("console", lambda m: console.append(f"{m.type}: {m.text}"))
            page.on("request", lambda r: hosts.add(r.url.split("/")[2]))
            page.add_init_script(
                "window.__csp = []; document.addEventListener('securitypolicyviolation',"
                " e => window.__csp.push(e.violatedDirective + ' ' + e.blockedURI));")
            page.goto(f"{live_server.url}/api/docs")
            page.wait_for_selector("#operations-default-solve", timeout=15000)
            assert page.locator(".opblock").count() == 6  # solve, positions (2), games (3)
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
            browser.close()
    assert violations == []
    assert not [line for line in console if line.startswith("error")], console
    assert hosts == {live_server.url.split("/")[2]}
