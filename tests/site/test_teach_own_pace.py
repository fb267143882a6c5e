"""A guest's phone steps through the table's round at its own pace: by plain GETs that
change neither the table nor anyone else's phone, kept by the poll while the presenter
steps on, given up for the table's step by "Back to live" or when the table moves to
another section."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from tutorials.models import Table
from tutorials.tutorial.teaching import sections

pytestmark = pytest.mark.django_db

HX = {"HTTP_HX_REQUEST": "true"}


def _start(client: Client) -> Table:
    response = client.post("/en/teach/", {"players": "3", "mode": "action", "script": "quick",
                                          "seats": ["blue", "red", "green", "white"]})
    assert response.status_code == 302
    return Table.objects.get(code=response["Location"].rstrip("/").split("/")[-1])


def _slug_index(table: Table, slug: str) -> int:
    return [s.slug for s in sections(table.options)].index(slug)


def _go(client: Client, table: Table, slug: str) -> None:
    table.refresh_from_db()
    response = client.post(f"/en/teach/{table.code}/go/", {"to": str(_slug_index(table, slug)),
                                                           "v": str(table.version)})
    assert response.status_code == 302, response.content[:300]


def _act(client: Client, table: Table, do: str, at: str = "") -> str:
    table.refresh_from_db()
    response = client.post(f"/en/teach/{table.code}/board/round/",
                           {"do": do, "at": at, "v": str(table.version)}, **HX)
    assert response.status_code == 200
    return response.content.decode()


def _step(html: str) -> tuple[str, str | None]:
    """The step the guest's board shows and, on a guest's phone, the table's step."""
    board = re.search(r'<section class="board-panel round-board[^>]*>', html)[0]
    live = re.search(r'data-live-step="(\d+)"', board)
    return re.search(r'data-step="(\d+)"', board)[1], live[1] if live else None


def _poll_url(html: str) -> str:
    return re.search(r'id="guest-section"[^>]*hx-get="([^"]+)"', html)[1].replace("&amp;", "&")


@pytest.fixture
def table(client) -> Table:
    """A three-player table at "resolve our table" with its cards entered (red [1] A1 and
    blue [1] B1, red rang the bell), the presenter at step 4."""
    table = _start(client)
    _go(client, table, "round-table")
    for do, at in (("brush", "r1"), ("put", "00"), ("brush", "b1"), ("put", "01"), ("start", "r")):
        _act(client, table, do, at)
    _go(client, table, "round-resolve")
    for n in range(1, 5):
        _act(client, table, "step", str(n))
    table.refresh_from_db()
    assert re.match(r"r[rbgw][0-5]4\|", table.board_states["round"]), table.board_states
    return table


def test_a_guest_steps_back_on_their_own_phone_without_changing_the_table(client, table):
    guest = Client()
    live = guest.get(f"/de/t/{table.code}/").content.decode()
    assert _step(live) == ("4", "4")
    assert 'data-testid="own-step"' not in live
    # the guest's moves are links to their own page, not the presenter's forms
    back = re.search(r'<a [^>]*data-step-move="back"[^>]*>', live)[0]
    assert f'href="/de/t/{table.code}/?step=3#board-round"' in back
    assert f'hx-get="/de/t/{table.code}/?step=3"' in back and "hx-push-url" not in back
    assert 'name="csrfmiddlewaretoken"' not in re.search(r'<div class="walk-steps".*?</div>', live, re.S)[0]
    version, state = table.version, table.board_states["round"]

    # without JavaScript: the whole page at the guest's step; with htmx: the section
    page = guest.get(f"/de/t/{table.code}/?step=2").content.decode()
    assert _step(page) == ("2", "4") and "<html" in page
    section = guest.get(f"/de/t/{table.code}/?step=2", **HX).content.decode()
    assert section.lstrip().startswith('<section id="guest-section"') and _step(section) == ("2", "4")
    assert "Schritt 3 von" in section and "Nächster Schritt" in section  # in the guest's language
    assert 'data-testid="own-step"' in section and f'href="/de/t/{table.code}/#board-round"' in section
    assert "step=2" in _poll_url(section)
    table.refresh_from_db()
    assert (table.version, table.board_states["round"]) == (version, state)
    # another phone still follows the table
    assert _step(Client().get(f"/en/t/{table.code}/").content.decode()) == ("4", "4")


def test_the_poll_keeps_the_guests_step_while_the_presenter_steps_on(client, table):
    guest = Client()
    html = guest.get(f"/en/t/{table.code}/?step=1", **HX).content.decode()
    assert "Back to live (step 5)" in html
    poll = _poll_url(html)
    assert guest.get(poll).status_code == 204  # nothing changed
    _act(client, table, "step", "5")
    _act(client, table, "step", "6")
    moved = guest.get(poll)
    assert moved.status_code == 200
    html = moved.content.decode()
    assert _step(html) == ("1", "6") and "Step 2 of" in html
    assert "Back to live (step 7)" in html  # the table's step, as the presenter's screen counts it
    poll = _poll_url(html)
    assert "step=1" in poll and guest.get(poll).status_code == 204
    # another guest's poll from the same old screen, without a step of its own, follows the table
    other = re.sub(r"v=\d+", "v=1", re.sub(r"&step=\d+", "", poll))
    assert _step(Client().get(other).content.decode()) == ("6", "6")

    # back to live: the table's step, followed again by the next polls
    back_to_live = re.search(r'hx-get="([^"]+)" data-testid="back-to-live"', html)[1]
    live = guest.get(back_to_live, **HX).content.decode()
    assert _step(live) == ("6", "6") and 'data-testid="own-step"' not in live
    assert "step=" not in _poll_url(live)
    _act(client, table, "step", "3")
    assert _step(guest.get(_poll_url(live)).content.decode()) == ("3", "3")


def test_a_section_move_makes_the_guest_follow_the_table_again(client, table):
    guest = Client()
    html = guest.get(f"/en/t/{table.code}/?step=2", **HX).content.decode()
    poll = _poll_url(html)
    _go(client, table, "round-next")
    moved = guest.get(poll).content.decode()
    assert f'data-index="{_slug_index(table, "round-next")}"' in moved
    assert "step=" not in _poll_url(moved) and 'data-testid="own-step"' not in moved
    # and back at the steps, the phone shows the table's step, not the one it had
    _go(client, table, "round-resolve")
    back = guest.get(_poll_url(moved)).content.decode()
    assert _step(back) == ("4", "4") and "step=" not in _poll_url(back)
    # a step asked for where the table has no round steps is no step
    _go(client, table, "round-next")
    page = guest.get(f"/en/t/{table.code}/?step=2")
    assert page.status_code == 200 and "step=" not in _poll_url(page.content.decode())


@pytest.mark.parametrize("step", ["abc", "-1", "2.5", "１", "", "0x2", "1234", "9" * 50])
def test_a_step_that_is_no_number_follows_the_table(client, table, step):
    guest = Client()
    for headers in ({}, HX):
        response = guest.get(f"/en/t/{table.code}/", {"step": step}, **headers)
        assert response.status_code == 200
        html = response.content.decode()
        assert _step(html) == ("4", "4") and "step=" not in _poll_url(html)
    poll = guest.get(f"/en/t/{table.code}/poll/", {"v": "1", "i": str(table.section), "step": step})
    assert poll.status_code == 200 and _step(poll.content.decode()) == ("4", "4")


def test_a_step_past_the_last_shows_the_last(client, table):
    html = Client().get(f"/en/t/{table.code}/?step=999", **HX).content.decode()
    shown, live = _step(html)
    assert live == "4" and int(shown) > 4 and 'data-testid="next-step"' not in html
    assert f"step={shown}" in _poll_url(html) and "Start again" in html
    # twice given, the last counts (as Django reads a query): never an error
    assert Client().get(f"/en/t/{table.code}/?step=1&step=2", **HX).status_code == 200


def test_the_guest_links_keep_the_tables_link_token_and_the_presenter_still_posts(client, table):
    from tutorials.web.link_tokens import TABLE_LINK

    token = TABLE_LINK.of(table.code)
    html = Client().get(f"/en/t/{table.code}/", {"k": token, "step": "2"}, **HX).content.decode()
    assert f"/en/t/{table.code}/?step=1&amp;k={token}" in html  # Step back
    live = f"/en/t/{table.code}/?k={token}"
    assert f'href="{live}#board-round" hx-get="{live}" data-testid="back-to-live"' in html
    assert f"k={token}" in _poll_url(html) and "step=2" in _poll_url(html)
    presenter = client.get(f"/en/teach/{table.code}/").content.decode()
    assert 'name="do" value="step"' in presenter and "?step=" not in presenter
    assert 'data-testid="own-step"' not in presenter and "data-live-step" not in presenter
