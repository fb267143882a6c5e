"""The projector view: presenter only, a section's screens decided on the server, and the
presenter's Next and Back stepping an open projector's screens before the sections."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from tutorials.models import Table
from tutorials.teach.screen import OPEN_SECONDS, screens
from tutorials.tutorial.teaching import sections


def _start(client: Client, script: str = "full") -> Table:
    response = client.post("/en/teach/", {"players": "4", "mode": "action", "script": script})
    assert response.status_code == 302
    return Table.objects.get(code=response["Location"].rstrip("/").split("/")[-1])


def _at(code: str) -> tuple[int, int, int]:
    table = Table.objects.get(code=code)
    return table.section, table.screen, table.version


def _go(client: Client, code: str, to: int, v: int):
    return client.post(f"/en/teach/{code}/go/", {"to": str(to), "v": str(v)})


def _many_screens(table: Table) -> int:
    """The first section of ``table`` with more than one screen."""
    return next(i for i in range(len(sections(table.options))) if len(screens(table.options, i)) > 1)


@pytest.mark.django_db
def test_only_the_presenter_opens_the_projector(client):
    table = _start(client)
    page = client.get(f"/de/teach/{table.code}/screen/")
    assert page.status_code == 200
    html = page.content.decode()
    assert 'id="projector-screen"' in html and 'class="site-nav"' not in html
    assert 'lang="de"' in html and "Worum es geht" in html and table.code in html
    guest = Client()
    assert guest.get(f"/de/teach/{table.code}/screen/")["Location"] == f"/de/t/{table.code}/"
    assert guest.get(f"/de/teach/{table.code}/screen/?v=1", headers={"HX-Request": "true"}).status_code == 403
    # the guest's refused look is no projector: Next still moves the section
    assert Table.objects.get(code=table.code).projector_seen_at is not None
    Table.objects.filter(code=table.code).update(projector_seen_at=None)
    guest.get(f"/de/teach/{table.code}/screen/")
    assert Table.objects.get(code=table.code).projector_seen_at is None


@pytest.mark.django_db
def test_the_projector_polls_cheaply_and_ended_tables_say_so(client):
    table = _start(client)
    poll = f"/en/teach/{table.code}/screen/?v={table.version}"
    assert client.get(poll, headers={"HX-Request": "true"}).status_code == 204
    _go(client, table.code, 1, table.version)  # the projector opened: its first screen's step
    answer = client.get(poll, headers={"HX-Request": "true"})
    assert answer.status_code == 200 and 'data-screen="2"' in answer.content.decode()
    Table.objects.filter(code=table.code).update(expires_at=timezone.now() - timedelta(minutes=1))
    gone = client.get(poll, headers={"HX-Request": "true", "Accept-Language": "ja"})
    assert gone["HX-Retarget"] == "#projector-screen" and 'id="projector-screen"' in gone.content.decode()
    assert client.get(f"/ja/teach/{table.code}/screen/").status_code == 410


def test_screens_are_decided_by_the_server_the_same_every_time():
    for script in ("quick", "full"):
        options = {"players": 4, "mode": "action", "script": script}
        script_sections = sections(options)
        for i, section in enumerate(script_sections):
            shown = screens(options, i)
            assert shown == screens(dict(options), i)
            # the text first, every paragraph once and in order, then each board alone
            items = [n for s in shown for n in s.items]
            assert items == list(range(len(items)))
            assert [s.board for s in shown if s.board] == list(section.boards)
            assert all(not (s.items and s.board) for s in shown)
    # a long section takes several screens
    assert len(screens({"players": 4, "script": "full"}, 5)) > 2


@pytest.mark.django_db
def test_with_a_projector_next_and_back_step_its_screens_first(client):
    table = _start(client)
    code = table.code
    at = _many_screens(table)
    count = len(screens(table.options, at))
    Table.objects.filter(code=code).update(section=at)
    client.get(f"/en/teach/{code}/screen/")  # the projector opens
    _, _, v = _at(code)
    for screen in range(1, count):
        assert _go(client, code, at + 1, v).status_code == 302
        section, shown, v = _at(code)
        assert (section, shown) == (at, screen)
    html = client.get(f"/en/teach/{code}/").content.decode()
    assert f"Projector: screen {count} of {count}" in html
    _go(client, code, at + 1, v)
    section, shown, v = _at(code)
    assert (section, shown) == (at + 1, 0)  # the next section, at its first screen
    _go(client, code, at, v)  # Back: the previous section's last screen
    section, shown, v = _at(code)
    assert (section, shown) == (at, count - 1)
    _go(client, code, at - 1, v)
    assert _at(code)[:2] == (at, count - 2)
    # a move made from an older version is refused, screen steps as any
    assert _go(client, code, at + 1, v).status_code == 409
    assert _at(code)[:2] == (at, count - 2)


@pytest.mark.django_db
def test_without_a_projector_next_and_back_move_sections(client):
    table = _start(client)
    code = table.code
    at = _many_screens(table)
    Table.objects.filter(code=code).update(section=at)
    _, _, v = _at(code)
    _go(client, code, at + 1, v)
    assert _at(code)[:2] == (at + 1, 0)
    assert "Projector:" not in client.get(f"/en/teach/{code}/").content.decode()
    # a projector closed a while ago no longer takes the moves
    client.get(f"/en/teach/{code}/screen/")
    long_ago = timezone.now() - timedelta(seconds=OPEN_SECONDS + 1)
    Table.objects.filter(code=code).update(projector_seen_at=long_ago)
    _, _, v = _at(code)
    _go(client, code, at, v)
    assert _at(code)[:2] == (at, 0)


@pytest.mark.django_db
def test_the_presenter_page_hears_that_a_projector_opened(client):
    table = _start(client)
    html = client.get(f"/en/teach/{table.code}/").content.decode()
    stamp = re.search(r'data-seating="([^"]*)"', html).group(1)
    poll = f"/en/teach/{table.code}/poll/?v={table.version}&s={stamp}"
    assert client.get(poll, headers={"HX-Request": "true"}).status_code == 204
    client.get(f"/en/teach/{table.code}/screen/")
    answer = client.get(poll, headers={"HX-Request": "true"})
    assert answer.status_code == 200 and "Projector: screen 1 of" in answer.content.decode()
