"""A guest's own pace through the sections, the late joiner's digest, the warning before a
table ends and what a guest can work on their own phone (the server's side; the browser's
in tests/browser/test_teach_catch_up_browser.py)."""

from __future__ import annotations

import re
from datetime import timedelta
from urllib.parse import parse_qs, urlsplit

import pytest
from django.test import Client
from django.utils import timezone

from tutorials.models import Table
from tutorials.tutorial.teaching import sections

pytestmark = pytest.mark.django_db

HX = {"HTTP_HX_REQUEST": "true"}


def _start(client: Client, slug: str, script: str = "quick") -> Table:
    response = client.post("/en/teach/", {"players": "4", "mode": "action", "script": script})
    table = Table.objects.get(code=response["Location"].rstrip("/").split("/")[-1])
    table.change(table.version, section=[s.slug for s in sections(table.options)].index(slug))
    return table


def _titles(table: Table) -> list[str]:
    return [str(s.title) for s in sections(table.options)]


def _title(html: str) -> str:
    return re.search(r'data-testid="guest-title"[^>]*>([^<]*)<', html)[1]


def test_a_late_joiner_gets_the_covered_sections_once_and_reads_any_of_them(client):
    table = _start(client, "treasure-time")
    titles = _titles(table)
    guest = Client()
    first = guest.get(f"/en/t/{table.code}/").content.decode()
    digest = re.search(r'data-testid="digest">(.*?)</details>', first, re.S)[1]
    assert re.findall(r">([^<>]+)</a>", digest) == titles[:table.section]
    assert f"You joined after {table.section} sections" in digest
    again = guest.get(f"/en/t/{table.code}/").content.decode()
    assert 'data-testid="digest"' not in again  # a reload: the list at the page's foot is enough
    listed = re.findall(r'<li value="\d+">(?:<a [^>]*>|<strong [^>]*>)([^<]+)<', again)
    assert listed == titles[:table.section + 1]

    back = guest.get(f"/en/t/{table.code}/?at=1").content.decode()
    assert _title(back) == titles[1]
    assert 'data-testid="back-to-table"' in back and f"the table is at “{titles[table.section]}”" in back
    assert 'data-own-section' in back and "&amp;at=1" in back  # its poll keeps the own section
    assert re.search(r'href="[^"]*\?at=0"[^>]*rel="prev"', back)
    assert re.search(r'\?at=2"[^>]*rel="next"', back)
    for asked in (str(table.section), "99", "-1", "x", "1.5"):  # the table's own, or no own section
        page = guest.get(f"/en/t/{table.code}/?at={asked}").content.decode()
        assert _title(page) == titles[table.section] and 'data-testid="back-to-table"' not in page, asked


def test_a_poll_at_an_own_section_stays_there_and_says_where_the_table_went(client):
    table = _start(client, "treasure-time")
    titles = _titles(table)
    guest = Client()
    guest.get(f"/en/t/{table.code}/")
    table.refresh_from_db()
    v = table.version
    assert guest.get(f"/en/t/{table.code}/poll/?v={v}&s={table.seating}&i=1&at=1", **HX).status_code == 204
    client.post(f"/en/teach/{table.code}/go/", {"to": str(table.section + 1), "v": str(v)})
    poll = guest.get(f"/en/t/{table.code}/poll/?v={v}&s={table.seating}&i=1&at=1", **HX).content.decode()
    assert _title(poll) == titles[1] and f"the table is at “{titles[table.section + 1]}”" in poll
    # a phone that followed the table and was reading further down asks the same way
    live = guest.get(f"/en/t/{table.code}/poll/?v={v}&s={table.seating}&i={table.section}&at={table.section}",
                     **HX).content.decode()
    assert _title(live) == titles[table.section] and 'data-testid="back-to-table"' in live
    moved = guest.get(f"/en/t/{table.code}/poll/?v={v}&s={table.seating}&i={table.section}", **HX)
    assert _title(moved.content.decode()) == titles[table.section + 1]


def test_the_links_of_a_guest_who_came_by_the_qr_code_keep_its_token(client):
    table = _start(client, "treasure-time")
    presenter = client.get(f"/en/teach/{table.code}/").content.decode()
    link = urlsplit(re.search(r'href="([^"]+)" data-testid="guest-link"', presenter)[1])
    token = parse_qs(link.query)["k"][0]
    page = Client().get(f"{link.path}?{link.query}", follow=True).content.decode()
    own = re.findall(r'href="(/en/t/[^"]*\?at=\d+[^"]*)"', page)
    assert own and all(f"k={token}" in url for url in own), own


def test_every_screen_warns_in_the_tables_last_half_hour(client):
    table = _start(client, "goal")
    guest = Client()
    for url, who in ((f"/en/teach/{table.code}/", client), (f"/de/t/{table.code}/", guest)):
        calm = who.get(url).content.decode()
        assert re.search(r'data-testid="ends-soon" hidden', calm), url  # drawn for the script's clock
    Table.objects.filter(pk=table.pk).update(expires_at=timezone.now() + timedelta(minutes=20))
    presenter = client.get(f"/en/teach/{table.code}/").content.decode()
    assert re.search(r'data-testid="ends-soon">This table ends within half an hour', presenter)
    phone = guest.get(f"/de/t/{table.code}/").content.decode()
    assert re.search(r'data-testid="ends-soon">[^<]*halben Stunde', phone)


def test_a_guest_works_the_check_on_their_own_phone_and_opens_boards_in_the_analyzer(client):
    table = _start(client, "battle-time", script="full")
    guest = Client().get(f"/en/t/{table.code}/").content.decode()
    copy = re.search(r'href="([^"]+)" target="_blank" rel="noopener" data-testid="own-copy"', guest)
    assert copy, "the check links to a copy of its own"
    lesson = Client().get(copy[1].replace("&amp;", "&"))
    assert lesson.status_code == 200 and 'id="board-quiz-battle"' in lesson.content.decode()
    assert "/tutorial/" in copy[1]
    quiz = re.search(r'id="board-quiz-battle".*?</section>', guest, re.S)[0]
    assert "Check my answer" not in quiz  # the table's copy: the person teaching checks it
    analyzer = re.findall(r'<a href="(/en/analyze/[^"]+)" target="_blank" rel="noopener">', guest)
    assert analyzer, "a guest's example boards open in the analyzer, in a tab of its own"
