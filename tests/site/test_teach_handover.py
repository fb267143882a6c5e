"""Handing a table's presenter role to another device: a link that works once, for ten
minutes, whose key the table keeps only hashed."""

from __future__ import annotations

import logging
import re
from datetime import timedelta
from html import unescape
from urllib.parse import urlsplit

import pytest
from django.test import Client, RequestFactory
from django.utils import timezone, translation
from django.utils.translation import gettext

from tests.site.test_races import _at_once
from tutorials.models import Table, hash_key
from tutorials.teach.access import PRESENTER
from tutorials.teach.handover import HandoverRefused, take
from tutorials.web.log_filters import HideLinkKeys

pytestmark = pytest.mark.django_db


def _start(client: Client) -> str:
    response = client.post("/en/teach/", {"players": "4", "mode": "action", "script": "full"})
    assert response.status_code == 302
    return response["Location"].rstrip("/").split("/")[-1]


def _link(client: Client, code: str, lang: str = "en") -> str:
    """Make a handover link on the presenter's screen; its address as the QR code has it."""
    response = client.post(f"/{lang}/teach/{code}/handover/")
    assert response.status_code == 200, response.content[:300]
    html = response.content.decode()
    found = re.search(r'<a href="([^"]+)" data-testid="handover-link">', html)
    assert found, "the presenter's page shows no handover link"
    return unescape(found.group(1))


def _path(link: str) -> str:
    return urlsplit(link).path


def _key_of(link: str) -> str:
    return _path(link).rstrip("/").split("/")[-1]


def _presenter_key(client: Client, code: str) -> str | None:
    holder = RequestFactory().get("/")
    holder.COOKIES = {name: morsel.value for name, morsel in client.cookies.items()}
    return PRESENTER.read(holder, code)


def _take(client: Client, link: str, lang: str = "en"):
    """Open the link on another device (it lands in that device's language), then confirm."""
    landed = client.get(_path(link), HTTP_ACCEPT_LANGUAGE=lang)
    assert landed.status_code == 302 and landed["Location"].startswith(f"/{lang}/teach/")
    return client.post(landed["Location"])


def _can_move(client: Client, code: str) -> bool:
    """Whether ``client`` moves the table (a move is refused with 403 to anyone else)."""
    version = Table.objects.get(code=code).version
    status = client.post(f"/en/teach/{code}/go/", {"to": "1", "v": str(version)}).status_code
    assert status in (302, 403), status
    return status == 302


def test_making_a_link_needs_the_presenter(client):
    code = _start(client)
    guest = Client()
    guest.get(f"/en/t/{code}/")
    refused = guest.post(f"/en/teach/{code}/handover/")
    assert refused.status_code == 403 and refused["Problem-Code"] == "not-presenter"
    assert Table.objects.get(code=code).handover_key_hash == ""
    # a link, not a form, cannot make one; nor can another site's form
    assert client.get(f"/en/teach/{code}/handover/").status_code == 405
    cross_site = Client(enforce_csrf_checks=True)
    cross_site.cookies = client.cookies
    assert cross_site.post(f"/en/teach/{code}/handover/").status_code == 403
    assert Table.objects.get(code=code).handover_key_hash == ""


def test_the_presenters_page_offers_the_handover_as_a_form_with_csrf(client):
    code = _start(client)
    html = client.get(f"/en/teach/{code}/").content.decode()
    form = re.search(rf'<form method="post" action="/en/teach/{code}/handover/#handover">(.*?)</form>',
                     html, re.S)
    assert form and 'name="csrfmiddlewaretoken"' in form.group(1)
    assert "Hand over to another device" in form.group(1)
    assert 'data-testid="handover-link"' not in html


def test_the_link_moves_the_role_to_the_device_that_takes_it(client):
    code = _start(client)
    link = _link(client, code)
    assert link.startswith("http://testserver/teach/")  # absolute, in no one language
    page = client.post(f"/en/teach/{code}/handover/").content.decode()
    assert "<svg" in page.split('data-testid="handover"', 1)[1]  # its QR code
    assert "this device becomes a guest" in page and "It works once, within 10 minutes." in page
    replaced = link
    link = _link(client, code)  # the newest link replaces the one before
    assert _take(Client(), replaced).status_code == 403
    assert _can_move(client, code)

    laptop_key = _presenter_key(client, code)
    phone = Client()
    confirm = phone.get(phone.get(_path(link))["Location"])
    assert confirm.status_code == 200 and confirm["Cache-Control"].startswith("max-age=0")
    assert f"Take over teaching table {code}?" in confirm.content.decode()
    assert Table.objects.get(code=code).presented_by(laptop_key)  # a look takes nothing

    taken = _take(phone, link)
    assert taken.status_code == 302 and taken["Location"] == f"/en/teach/{code}/"
    assert phone.get(f"/en/teach/{code}/").status_code == 200  # the presenter's page
    assert _can_move(phone, code)
    # the old device is a guest now: its moves and polls are refused, its page follows
    refused = client.post(f"/en/teach/{code}/go/", {"to": "2", "v": "3"})
    assert refused.status_code == 403 and refused["Problem-Code"] == "not-presenter"
    assert client.get(f"/en/teach/{code}/poll/?v=1").status_code == 403
    assert client.get(f"/en/teach/{code}/")["Location"] == f"/en/t/{code}/"
    assert client.post(f"/en/teach/{code}/handover/").status_code == 403
    table = Table.objects.get(code=code)
    assert not table.presented_by(laptop_key) and table.presented_by(_presenter_key(phone, code))
    assert (table.handover_key_hash, table.handover_until) == ("", None)


def test_the_old_device_is_told_that_it_no_longer_teaches(client):
    code = _start(client)
    _take(Client(), _link(client, code))
    for lang, said in (("en", "This device no longer teaches the table"),
                       ("de", "nicht mehr die erklärende Person"), ("ja", "説明役ではなくなりました")):
        html = client.get(f"/{lang}/t/{code}/").content.decode()
        notice = re.search(r'<p data-problem="not-presenter">(.*?)</p>', html, re.S).group(1)
        assert said in notice, (lang, notice)
        assert "handed over" in notice or lang != "en"


def test_the_link_works_once(client):
    code = _start(client)
    link = _link(client, code)
    phone, tablet = Client(), Client()
    assert _take(phone, link).status_code == 302
    again = _take(tablet, link)
    assert again.status_code == 403 and 'data-kind="wrong"' in again.content.decode()
    assert "works only once" in again.content.decode()
    assert not _can_move(tablet, code) and _can_move(phone, code)
    # nor twice on the device that took it
    assert _take(phone, link).status_code == 403


def test_a_link_taken_at_the_same_moment_elsewhere_says_it_was_used(client):
    """Both devices read the table with the link still open; only one is written."""
    code = _start(client)
    key = _key_of(_link(client, code))
    first, second = Table.objects.get(code=code), Table.objects.get(code=code)
    new_key = take(first, key)
    with pytest.raises(HandoverRefused) as refused:
        take(second, key)
    assert refused.value.kind == "used" and refused.value.status == 410
    assert Table.objects.get(code=code).presented_by(new_key)


@pytest.mark.django_db(transaction=True)
def test_two_devices_taking_at_once_make_one_presenter(client):
    """Both read the table with the link still open (tests.site.test_races holds each
    after its read until the other has read too); only one is written."""
    code = _start(client)
    link = _link(client, code)
    devices = [Client(), Client()]
    landed = [d.get(_path(link))["Location"] for d in devices]
    answers = _at_once(*[lambda d=d, at=at: d.post(at) for d, at in zip(devices, landed, strict=True)])
    assert sorted(a.status_code for a in answers) == [302, 410], answers
    loser = next(a for a in answers if a.status_code == 410).content.decode()
    assert 'data-kind="used"' in loser and "a moment ago" in loser
    table = Table.objects.get(code=code)
    assert [table.presented_by(_presenter_key(d, code)) for d in devices].count(True) == 1


def test_an_expired_link_is_refused(client):
    code = _start(client)
    link = _link(client, code)
    Table.objects.filter(code=code).update(handover_until=timezone.now() - timedelta(seconds=1))
    phone = Client()
    for answer in (phone.get(phone.get(_path(link))["Location"]), _take(phone, link)):
        assert answer.status_code == 410
        html = answer.content.decode()
        assert 'data-kind="expired"' in html and "10 minutes" in html
        assert f'href="/en/t/{code}/"' in html  # a way on: the table as a guest
    assert not _can_move(phone, code) and _can_move(client, code)


def test_a_link_opens_for_ten_minutes():
    table, _key = Table.start({})
    before = timezone.now()
    key = table.offer_handover()
    table.refresh_from_db()
    opens_for = table.handover_until - before
    assert timedelta(minutes=9, seconds=59) <= opens_for <= timedelta(minutes=10, seconds=5)
    assert table.handover_key_hash == hash_key(key)


def test_a_wrong_key_is_refused_and_counted(client, settings):
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "table-miss": "3/10m"}
    code = _start(client)
    link = _link(client, code)
    key = _key_of(link)
    guesser = Client()
    guesser.get(f"/en/t/{code}/")  # a guest's cookie does not lift the limit on keys
    wrong = [key[:-1] + ("A" if key[-1] != "A" else "B"), "short", "x" * 32]
    for guess in wrong:
        answer = guesser.post(f"/en/teach/{code}/take/{guess}/")
        assert answer.status_code == 403, guess
        assert 'data-kind="wrong"' in answer.content.decode()
    # its failed lookups used up, even the right key is refused for a while
    limited = guesser.post(f"/en/teach/{code}/take/{key}/")
    assert limited.status_code == 429 and limited["Retry-After"]
    assert not _can_move(guesser, code)
    assert Table.objects.get(code=code).handover_key_hash == hash_key(key)  # still open
    assert _take(Client(REMOTE_ADDR="10.1.2.3"), link).status_code == 302


def test_the_key_is_stored_only_as_a_hash(client):
    code = _start(client)
    key = _key_of(_link(client, code))
    assert re.fullmatch(r"[A-Za-z0-9_-]{32}", key)  # 24 random bytes
    row = Table.objects.filter(code=code).values().get()
    assert key not in str(row) and row["handover_key_hash"] == hash_key(key)
    phone = Client()
    _take(phone, _link(client, code))
    new_key = _presenter_key(phone, code)
    assert new_key and new_key not in str(Table.objects.filter(code=code).values().get())


@pytest.mark.parametrize("lang, asks, button", [
    ("ja", "を引き継ぎますか", "説明を引き継ぐ"),
    ("de", "übernehmen?", "Erklären übernehmen"),
])
def test_the_pages_speak_the_visitors_language(client, lang, asks, button):
    code = _start(client)
    link = _link(client, code)
    phone = Client()
    landed = phone.get(_path(link), HTTP_ACCEPT_LANGUAGE=lang)
    assert landed["Location"].startswith(f"/{lang}/teach/{code}/take/")
    html = phone.get(landed["Location"]).content.decode()
    assert f'lang="{lang}"' in html and asks in html and button in html and code in html
    assert "Take over" not in html
    Table.objects.filter(code=code).update(handover_until=timezone.now() - timedelta(seconds=1))
    expired = phone.post(landed["Location"])
    assert expired.status_code == 410
    with translation.override(lang):
        heading = gettext("This handover link has expired")
    assert heading != "This handover link has expired" and heading in expired.content.decode()
    wrong = phone.get(f"/{lang}/teach/{code}/take/{'A' * 32}/").content.decode()
    with translation.override(lang):
        heading = gettext("This handover link does not work")
    assert heading != "This handover link does not work" and heading in wrong
    # the presenter's own page says what the link does, in the presenter's language
    presenter = client.post(f"/{lang}/teach/{code}/handover/").content.decode()
    with translation.override(lang):
        control = gettext("Make a new handover link")
    assert control != "Make a new handover link" and control in presenter


def test_a_take_of_an_ended_table_says_the_table_has_ended(client):
    code = _start(client)
    link = _link(client, code)
    Table.objects.filter(code=code).update(expires_at=timezone.now() - timedelta(minutes=1))
    phone = Client()
    assert phone.post(phone.get(_path(link))["Location"]).status_code == 410
    assert phone.get(f"/en/teach/nosuch/take/{_key_of(link)}/").status_code == 404


def test_a_take_that_is_not_a_form_is_refused():
    code = _start(Client())
    address = f"/en/teach/{code}/take/{'A' * 32}/"
    response = Client().post(address, '{"a": 1}', content_type="application/json")
    assert response.status_code == 415
    assert Client().generic("PUT", address).status_code == 405


def test_the_log_never_shows_a_key(client):
    code = _start(client)
    key = _key_of(_link(client, code))
    console = [h for h in logging.getLogger().handlers
               if any(isinstance(f, HideLinkKeys) for f in h.filters)]
    assert console, "the site's log handler hides no keys"
    record = logging.LogRecord("django.request", logging.WARNING, __file__, 1, "%s: %s",
                               ("Forbidden", f"/de/teach/{code}/take/{key}/"), None)
    assert console[0].filter(record)
    assert key not in record.getMessage() and f"/de/teach/{code}/take/" in record.getMessage()
