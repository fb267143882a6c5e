"""A table's guests share one rendering of its section, compressed; what is a seat's own
comes apart and is never compressed.

A guest seated with a hand asks every address its page and its polls and fragments can ask
(the page, a poll behind the table, at its own step and section, after a jump, its seat
part, its seat and hand actions): no answer with ``Content-Encoding`` holds any of its
secrets (its cookies' values and keys, its hand, the presenter's key, the handover key, the
link token, a CSRF token), and the shared section goes out gzipped. The section is rendered
once per move for every guest, and a guest still sees their own hand, and only they.
"""

from __future__ import annotations

import gzip
import re

import pytest
from django.test import Client

from tutorials.models import Table
from tutorials.tutorial.teaching import sections
from tutorials.web.link_tokens import TABLE_LINK

pytestmark = pytest.mark.django_db
HX = {"HTTP_HX_REQUEST": "true"}
GZIP = {"HTTP_ACCEPT_ENCODING": "gzip, br"}
HAND = 'data-testid="my-hand"'


def _index(table: Table, slug: str) -> int:
    return [s.slug for s in sections(table.options)].index(slug)


def _body(response) -> str:
    content = response.content
    if response.get("Content-Encoding") == "gzip":
        content = gzip.decompress(content)
    return content.decode()


def _cookie_secrets(client: Client) -> set[str]:
    """Every cookie's value, and the key inside each signed one (``key:time:signature``)."""
    out = set()
    for morsel in client.cookies.values():
        if morsel.value:
            out |= {morsel.value, morsel.value.rsplit(":", 2)[0]}
    return {s for s in out if len(s) >= 6}


class Table4:
    """A 4-player table at its first round's Setting Time; a guest seated at red who laid a
    card, and a watcher."""

    def __init__(self) -> None:
        self.presenter = Client()
        start = self.presenter.post("/en/teach/", {"players": "4", "mode": "action", "script": "quick"})
        self.table = Table.objects.get(code=start["Location"].rstrip("/").split("/")[-1])
        self.code = self.table.code
        self.go("round-setting")
        self.guest = Client()
        self.guest.get(f"/en/t/{self.code}/")
        assert self.guest.post(f"/en/t/{self.code}/seat/", {"do": "take", "at": "red"}).status_code == 302
        laid = self.guest.post(f"/en/t/{self.code}/hand/", {"do": "lay", "card": "3", "at": "1-2"}, **HX)
        assert laid.status_code == 200 and HAND in laid.content.decode()
        self.watcher = Client()
        self.watcher.get(f"/en/t/{self.code}/")

    def go(self, slug: str) -> None:
        self.table.refresh_from_db()
        moved = self.presenter.post(f"/en/teach/{self.code}/go/", {"to": str(_index(self.table, slug)),
                                                                  "v": str(self.table.version)}, **HX)
        assert moved.status_code == 200
        self.table.refresh_from_db()

    def mark(self) -> str:
        """The table's mark as its stream announces it."""
        self.table.refresh_from_db()
        return f"{self.table.version}.{self.table.seating}.0"

    def seat_id(self, client: Client, query: str = "") -> str:
        """The id of the seat part in ``client``'s poll: the part a page keeps while it stays."""
        return re.search(r'<div id="(guest-seat[^"]*)"', _body(self.poll(client, query)))[1]

    def poll(self, client: Client, query: str = "", lang: str = "en"):
        """``client``'s poll, by default from the table's previous section and version."""
        query = query or f"v={self.table.version - 1}&s=0&i={self.table.section - 1}"
        return client.get(f"/{lang}/t/{self.code}/poll/?{query}", **HX, **GZIP)


def test_no_compressed_answer_holds_a_seats_secret_and_the_shared_section_is_compressed():
    t = Table4()
    handover = t.presenter.post(f"/en/teach/{t.code}/handover/", follow=True)
    handover_key = re.search(r"/take/([\w-]+)/", handover.content.decode())[1]
    token = TABLE_LINK.of(t.code)
    secrets = _cookie_secrets(t.guest) | _cookie_secrets(t.presenter) | {handover_key, token}
    markers = (HAND, 'data-testid="my-seat"', "csrfmiddlewaretoken", "X-CSRFToken",
               'data-testid="hand-cell-1-2" aria-label')

    index = t.table.section
    answers = {
        "page": t.guest.get(f"/en/t/{t.code}/", **GZIP),
        "a watcher's page": t.watcher.get(f"/en/t/{t.code}/", **GZIP),
        "a watcher's page by the QR link": t.watcher.get(f"/en/t/{t.code}/", {"k": token}, **GZIP),
        "page by the QR link": t.guest.get(f"/en/t/{t.code}/", {"k": token}, **GZIP),
        "own step": t.guest.get(f"/en/t/{t.code}/", {"step": "1"}, **HX, **GZIP),
        "poll": t.poll(t.guest),
        "poll by the QR link": t.poll(t.guest, f"v=0&s=0&i={index - 1}&k={token}"),
        "poll at its own step": t.poll(t.guest, f"v=0&s=0&i={index}&step=1"),
        "poll at its own section": t.poll(t.guest, "v=0&s=0&i=0&at=0"),
        "poll after a jump": t.poll(t.guest, "v=0&s=0&i=0"),
        "live poll": t.poll(t.guest, f"v=0&s=0&i={index - 1}&m={t.mark()}"),
        "live poll by the QR link": t.poll(t.guest, f"v=0&s=0&i={index - 1}&k={token}&m={t.mark()}"),
        "seat part": t.guest.get(f"/en/t/{t.code}/mine/", **HX, **GZIP),
        "seat part by the QR link": t.guest.get(f"/en/t/{t.code}/mine/", {"k": token}, **HX, **GZIP),
        "ready": t.guest.post(f"/en/t/{t.code}/hand/", {"do": "ready"}, **HX, **GZIP),
        "not ready": t.guest.post(f"/en/t/{t.code}/hand/", {"do": "unready"}, **HX, **GZIP),
    }
    csrf = ("csrfmiddlewaretoken", "X-CSRFToken")
    for name, answer in answers.items():
        assert answer.status_code == 200, (name, answer.status_code)
        if answer.has_header("Content-Encoding"):
            text = _body(answer)
            # a page of its own may carry the CSRF token, masked anew for every answer as on
            # every page of the site; what is shared between guests never does
            shared = name != "a watcher's page"
            for secret in (*secrets, *(m for m in markers if shared or m not in csrf)):
                assert secret not in text, (name, secret)
    # the guest's own things are where they were: on its own uncompressed answers
    assert all(HAND in _body(answers[n]) for n in ("page", "seat part", "own step", "ready"))
    assert "Content-Encoding" not in answers["seat part"]
    # the section every guest shares goes out compressed, but for one that carries the link's token
    assert answers["poll"]["Content-Encoding"] == "gzip"
    assert "accept-encoding" in answers["poll"]["Vary"].lower()
    assert "Content-Encoding" not in answers["poll by the QR link"]
    assert f'hx-get="/en/t/{t.code}/mine/?k={token}"' in _body(answers["poll by the QR link"])
    shared = _body(answers["poll"])
    assert 'id="guest-section"' in shared and f'hx-get="/en/t/{t.code}/mine/"' in shared
    # a guest's page that holds nothing of theirs goes out compressed; one with their seat
    # and hand, or the link's token, does not
    assert answers["a watcher's page"]["Content-Encoding"] == "gzip"
    assert 'data-testid="seat-bar"' in _body(answers["a watcher's page"])
    assert "Content-Encoding" not in answers["page"]
    assert "Content-Encoding" not in answers["a watcher's page by the QR link"]
    # without gzip, the same section uncompressed
    plain = t.guest.get(f"/en/t/{t.code}/poll/?v=0&s=0&i={index - 1}", **HX)
    assert "Content-Encoding" not in plain and plain.content.decode() == shared


def test_the_section_is_rendered_once_per_move_for_every_guest_and_language():
    t = Table4()
    first = t.poll(t.guest)
    assert first.templates, "the first guest to ask renders the section"
    again = t.poll(t.watcher)
    assert again.templates == [], "the next guest gets it as rendered"
    assert _body(again) == _body(first)
    german = t.poll(t.watcher, lang="de")
    assert german.templates and _body(german) != _body(first)
    t.go("round-dice")
    moved = t.poll(t.watcher, f"v={t.table.version - 1}&s={t.table.seating}&i={t.table.section - 1}")
    assert moved.templates and _body(moved) != _body(first), "a move renders the new section"


def test_a_guest_sees_its_own_hand_as_before_and_nobody_else_sees_it():
    t = Table4()
    page = t.guest.get(f"/en/t/{t.code}/").content.decode()
    inline = re.search(r'<div id="guest-seat[^"]*"[^>]*>(.*?)</div>\n  <div class="script">', page, re.S)[1]
    mine = t.guest.get(f"/en/t/{t.code}/mine/", **HX).content.decode()
    csrf = re.compile(r'name="csrfmiddlewaretoken" value="[^"]*"')
    assert HAND in mine and csrf.sub("", mine).strip() == csrf.sub("", inline).strip()
    assert 'data-testid="hand-cell-1-2" aria-label' in mine
    watched = t.watcher.get(f"/en/t/{t.code}/mine/", **HX).content.decode()
    assert HAND not in watched and 'data-testid="seat-bar"' in watched
    assert HAND not in _body(t.poll(t.guest)) and HAND not in _body(t.poll(t.watcher))


def test_a_live_poll_gets_the_section_rendered_for_its_mark_without_reading_the_table(
        django_assert_num_queries):
    t = Table4()
    behind = f"v={t.table.version - 1}&s=0&i={t.table.section - 1}"
    mark = t.mark()
    first = t.poll(t.watcher, f"{behind}&m={mark}")
    assert first.templates, "nothing was rendered for the mark yet: the table is read"
    shown = f"v={t.table.version}&s={t.table.seating}&i={t.table.section}"
    with django_assert_num_queries(0):
        again = t.poll(t.guest, f"{behind}&m={mark}")
        # a mark the page shows already: nothing new (another seat's card, say)
        same = t.poll(t.guest, f"{shown}&m={mark}")
    assert again.templates == [] and again["Content-Encoding"] == "gzip" and _body(again) == _body(first)
    assert same.status_code == 204
    # a mark nothing was rendered for (the table moved on since): the table as it is now
    t.go("round-dice")
    moved = t.poll(t.guest, f"v={t.table.version - 1}&s=0&i={t.table.section - 1}"
                            f"&m={t.table.version + 5}.{t.table.seating}.0")
    assert moved.templates and f'data-version="{t.table.version}"' in _body(moved)
    # a poll at the phone's own step is its own, whatever it names
    own = t.poll(t.guest, f"{behind}&step=1&m={t.mark()}")
    assert own.templates and "Content-Encoding" not in own


def test_a_page_asks_for_its_seat_again_only_when_what_it_shows_of_the_table_changed():
    t = Table4()
    behind = f"v=0&s=0&i={t.table.section - 1}"
    page = t.guest.get(f"/en/t/{t.code}/").content.decode()
    at_setting = t.seat_id(t.watcher, behind)
    # the page drawn with the seat names the id the shared section gives its part
    assert f'<div id="{at_setting}"' in page and 'hx-preserve="true"' in _body(t.poll(t.watcher, behind))
    t.go("round-dice")   # the hand, no longer laid: the part changes
    at_dice = t.seat_id(t.watcher, behind)
    assert at_dice != at_setting
    t.go("dice-time")    # no hand in the section: it changes again
    before_the_round = t.seat_id(t.watcher, behind)
    assert before_the_round != at_dice
    t.go("bell")         # a move that changes nothing of the seats: the part the page has stays
    assert t.seat_id(t.watcher, behind) == before_the_round
    another = Client()
    another.get(f"/en/t/{t.code}/")
    assert another.post(f"/en/t/{t.code}/seat/", {"do": "take", "at": "blue"}).status_code == 302
    assert t.seat_id(t.watcher, behind) != before_the_round, "a seat taken changes every seat part"


def test_while_no_one_sits_a_move_into_the_round_keeps_every_seat_part():
    t = Table4()
    assert t.guest.post(f"/en/t/{t.code}/seat/", {"do": "leave"}).status_code == 302
    t.go("dice-time")
    behind = f"v=0&s=0&i={t.table.section - 1}"
    before_the_round = t.seat_id(t.watcher, behind)
    t.go("round-setting")  # no one has a hand to lay: nothing of the seats changed
    assert t.seat_id(t.watcher, behind) == before_the_round
