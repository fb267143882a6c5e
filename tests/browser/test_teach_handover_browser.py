"""The presenter's role moves to a phone by the handover link: the phone confirms in its
own language and presents; the laptop's screen says on its next poll that it no longer
teaches the table."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_phone_takes_over_from_the_laptop(site, browser, tmp_path):
    laptop = browser.new_context(locale="en-GB", viewport={"width": 1280, "height": 800}).new_page()
    laptop.goto(f"{site}/en/teach/")
    laptop.locator("form.teach-form button[type=submit]").click()
    expect(laptop).to_have_url(re.compile(r"/en/teach/\w+/$"))
    expect(laptop.locator(".presenter")).to_have_attribute("data-ready", "1")
    code = laptop.get_by_test_id("table-code").inner_text()

    laptop.get_by_role("button", name="Hand over to another device").click()
    link = laptop.get_by_test_id("handover-link")
    expect(link).to_be_visible()
    expect(laptop.get_by_test_id("handover")).to_contain_text("this device becomes a guest")
    expect(laptop.locator("#handover .qr svg")).to_be_visible()
    address = link.get_attribute("href")
    assert address and "/take/" in address and "/en/" not in address

    phone_context = browser.new_context(locale="ja-JP", viewport={"width": 320, "height": 640})
    phone = phone_context.new_page()
    phone.goto(address)
    expect(phone).to_have_url(re.compile(rf"/ja/teach/{code}/take/"))
    expect(phone.locator("h1")).to_contain_text("説明を引き継ぎますか")
    phone.get_by_test_id("take-button").click()
    expect(phone).to_have_url(re.compile(rf"/ja/teach/{code}/$"))
    expect(phone.locator(".presenter")).to_have_attribute("data-ready", "1")
    width = phone.evaluate("document.documentElement.scrollWidth")
    assert width <= 320, width

    notice = laptop.get_by_test_id("request-notice")
    expect(notice).to_be_visible(timeout=10000)
    expect(notice).to_have_attribute("data-code", "not-presenter")
    expect(notice).to_contain_text("This device no longer teaches the table")

    # the link worked once
    again = browser.new_context(locale="de-DE").new_page()
    again.goto(address)
    expect(again.get_by_test_id("handover-refused")).to_have_attribute("data-kind", "wrong")
    expect(again.locator("h1")).to_contain_text("Übergabelink")
