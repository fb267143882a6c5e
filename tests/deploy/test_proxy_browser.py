"""A table taught through nginx as deployed (docs/production.md): HTTPS and HTTP/2, the static
files from nginx, the per-address request rate; a presenter and six guests' phones behind
one address, as at a café, each guest asking once a second."""

from __future__ import annotations

import re
import time

from harness import serve_behind_nginx
from playwright.sync_api import expect

GUEST_LANGUAGES = ("en", "de", "ja", "en", "de", "ja")


def test_a_table_is_taught_through_nginx_to_phones_behind_one_address(bare_release, browser):
    with serve_behind_nginx(bare_release) as proxy:
        site = f"https://127.0.0.1:{proxy.port}"
        failed: list[str] = []

        def watch(page):
            page.on("response", lambda r: r.status >= 400 and failed.append(f"{r.status} {r.url}"))
            page.on("console", lambda m: m.type == "error" and failed.append(f"console: {m.text}"))
            return page

        presenter_ctx = browser.new_context(ignore_https_errors=True, locale="ja-JP",
                                            extra_http_headers={"Accept-Language": "ja"})
        presenter = watch(presenter_ctx.new_page())
        presenter.goto(f"{site}/ja/teach/")
        presenter.locator("form.teach-form button[type=submit]").click()
        expect(presenter).to_have_url(re.compile(r"/ja/teach/\w+/$"))
        code = presenter.get_by_test_id("table-code").inner_text()
        # the stylesheet came from nginx and was applied (CSP and content type as they must be)
        assert presenter.evaluate("[...document.styleSheets].reduce((n, s) => n + s.cssRules.length, 0)") > 50

        guests = []
        for lang in GUEST_LANGUAGES:
            context = browser.new_context(ignore_https_errors=True, viewport={"width": 390, "height": 844},
                                          locale=lang, extra_http_headers={"Accept-Language": lang})
            guest = watch(context.new_page())
            guest.goto(f"{site}/t/{code}/")
            expect(guest).to_have_url(re.compile(rf"/{lang}/t/{code}/$"))
            guests.append(guest)
        first_titles = [guest.get_by_test_id("guest-title").inner_text() for guest in guests]

        time.sleep(4)  # a few rounds of polls from every phone
        presenter.locator('button[data-nav="next"]').click()
        expect(presenter.locator("#present-section")).to_have_attribute("data-index", "1")
        for guest, title in zip(guests, first_titles, strict=True):
            expect(guest.get_by_test_id("guest-title")).not_to_have_text(title, timeout=5000)
            expect(guest.get_by_test_id("request-notice")).to_be_hidden()
        access_log = (proxy.prefix / "access.log").read_text()

    assert not failed, failed
    polls = [line for line in access_log.splitlines() if f"/t/{code}/poll" in line]
    assert len(polls) >= 6 * 4, f"only {len(polls)} polls reached nginx"
    assert all('"GET ' in line and " HTTP/2.0\" 20" in line for line in polls), polls[:3]
