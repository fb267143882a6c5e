"""Nobody sees an entered card before the reveal: every endpoint a guest, a watcher, the
presenter and the projector can call, asked between the seats' entries and the reveal,
answers nothing of another seat's cards; after the reveal every one of them sees all.

Two checks: each page asked before and after the entries is the same but for what every
table may know (how many cards each seat entered, who is done); and no answer names a card
another seat entered, in the viewer's language.
"""

from __future__ import annotations

import re
import subprocess

import pytest
from django.test import Client
from django.urls import resolve
from django.utils import translation

from tutorials.models import Table
from tutorials.teach.seats import entries_stamp
from tutorials.tutorial.teaching import sections
from tutorials.web.link_tokens import TABLE_LINK
from tutorials.wording.glossary import position_label
from tutorials.wording.phrases import card_phrase

pytestmark = pytest.mark.django_db
HX = {"HTTP_HX_REQUEST": "true"}

#: what each seated guest lays face down: (language, colour, [(card, position)])
ENTRIES = (("en", "red", [("r3", (1, 2)), ("r5", (0, 0))]),
           ("de", "blue", [("b1", (3, 3))]),
           ("ja", "green", [("g0", (2, 1)), ("g5", (0, 3))]))


def _index(table: Table, slug: str) -> int:
    return [s.slug for s in sections(table.options)].index(slug)


def position_arg(pos) -> str:
    return f"{pos[0]}-{pos[1]}"


def _phrases(lang: str, colours: set[str]) -> list[str]:
    """Every way a page in ``lang`` could name a card the seats of ``colours`` entered."""
    with translation.override(lang):
        out = []
        for _lang, colour, cards in ENTRIES:
            if colour in colours:
                for token, pos in cards:
                    out += [card_phrase(token), f"{position_arg(pos)}{token}",
                            f'hand-cell-{position_arg(pos)}" aria-label="{position_label(pos)}:']
        return out


_VOLATILE = [
    (re.compile(r'name="csrfmiddlewaretoken" value="[^"]*"'), "csrf"),
    (re.compile(r'"X-CSRFToken": "[^"]*"'), "csrf"),
    (re.compile(r"([?&;]s=)[0-9-]+"), r"\1S"),
    (re.compile(r'data-seating="[0-9-]+"'), "seating"),
    # the table's mark a page's stream starts from, which the stream tells every page anyway
    (re.compile(r"([?&;]since=)[0-9.]+"), r"\1MARK"),
    (re.compile(r'<span data-testid="entered-\w+">[^<]*</span>( · ✓ [^<\n]*)?'), "entered"),
    # a guest's first view lists the sections covered before they came
    (re.compile(r'<details class="digest".*?</details>', re.S), ""),
]


def _normal(html: str) -> str:
    for pattern, by in _VOLATILE:
        html = pattern.sub(by, html)
    return html


class TaughtTable:
    """A 4-player table at the first round's Setting Time, its presenter (and a second
    presenter window: the projector), three seated guests, a watcher and the projector's
    guest page opened by the QR code."""

    def __init__(self) -> None:
        self.presenter = Client()
        start = self.presenter.post("/ja/teach/", {"players": "4", "mode": "action", "script": "quick"})
        self.table = Table.objects.get(code=start["Location"].rstrip("/").split("/")[-1])
        self.code = self.table.code
        self.projector = Client()
        self.projector.cookies = self.presenter.cookies
        self.go("round-setting")
        self.guests = {}
        for lang, colour, _cards in ENTRIES:
            guest = Client()
            guest.get(f"/{lang}/t/{self.code}/")
            assert guest.post(f"/{lang}/t/{self.code}/seat/", {"do": "take", "at": colour}).status_code == 302
            self.guests[colour] = (lang, guest)
        self.watcher = Client()
        self.watcher.get(f"/en/t/{self.code}/")
        self.qr = Client()
        self.token = TABLE_LINK.of(self.code)

    def go(self, slug: str):
        self.table.refresh_from_db()
        return self.presenter.post(f"/ja/teach/{self.code}/go/", {"to": str(_index(self.table, slug)),
                                                                  "v": str(self.table.version)}, **HX)

    def enter(self) -> None:
        for lang, colour, cards in ENTRIES:
            guest = self.guests[colour][1]
            for token, pos in cards:
                answer = guest.post(f"/{lang}/t/{self.code}/hand/",
                                    {"do": "lay", "card": token[1], "at": position_arg(pos)}, **HX)
                assert answer.status_code == 200, answer.content[-500:]

    def viewers(self):
        """(who, language, client, colours whose cards they may see, pages they can read)."""
        self.table.refresh_from_db()
        v, s = self.table.version, entries_stamp(self.table)
        guest_pages = [f"/{{lang}}/t/{self.code}/", f"/{{lang}}/t/{self.code}/poll/?v=0&s=0&i=0",
                       f"/{{lang}}/t/{self.code}/mine/"]
        presenter_pages = [f"/ja/teach/{self.code}/", f"/ja/teach/{self.code}/poll/?v=0&s=0"]
        for lang, colour, _cards in ENTRIES:
            yield colour, lang, self.guests[colour][1], {colour}, [p.format(lang=lang) for p in guest_pages]
        yield "watcher", "en", self.watcher, set(), [p.format(lang="en") for p in guest_pages]
        yield "projector guest page", "de", self.qr, set(), [f"/de/t/{self.code}/?k={self.token}",
                                                             f"/de/t/{self.code}/poll/?v=0&s=0&i=0&k={self.token}",
                                                             f"/t/{self.code}/?k={self.token}"]
        yield "presenter", "ja", self.presenter, set(), presenter_pages
        yield "projector presenter window", "ja", self.projector, set(), [*presenter_pages,
                                                                          f"/ja/teach/{self.code}/poll/?v={v}&s={s}"]

    def snapshot(self) -> dict[tuple[str, str], str]:
        out = {}
        for who, _lang, client, _own, pages in self.viewers():
            for page in pages:
                response = client.get(page, follow=True)
                assert response.status_code in (200, 204), (who, page, response.status_code)
                out[(who, page)] = response.content.decode()
        return out


def _answers_of_actions(t: TaughtTable) -> list[tuple[str, str, set[str], str, str]]:
    """The answers of what each viewer can do between entry and reveal: (who, language,
    colours they may see, address, answer)."""
    out = []
    code = t.code

    def post(who, lang, client, own, url, data, headers=HX):
        response = client.post(url, data, **headers)
        assert response.status_code < 500, (who, url, response.status_code)
        out.append((who, lang, own, url, response.content.decode()))

    for lang, colour, _cards in ENTRIES:
        guest = t.guests[colour][1]
        post(colour, lang, guest, {colour}, f"/{lang}/t/{code}/hand/", {"do": "ready"})
        post(colour, lang, guest, {colour}, f"/{lang}/t/{code}/hand/", {"do": "unready"})
        post(colour, lang, guest, {colour}, f"/{lang}/t/{code}/hand/", {"do": "lay", "card": "9"})
        taken = next(c for _l, c, _cards in ENTRIES if c != colour)
        post(colour, lang, guest, {colour}, f"/{lang}/t/{code}/seat/", {"do": "take", "at": taken})
        post(colour, lang, guest, {colour}, f"/{lang}/t/{code}/seat/", {"do": "take", "at": colour})
        for page in (f"/t/{code}/", f"/{lang}/teach/join/?code={code}"):
            response = guest.get(page, follow=True)
            out.append((colour, lang, {colour}, page, response.content.decode()))
    post("watcher", "en", t.watcher, set(), f"/en/t/{code}/seat/", {"do": "take", "at": "red"})
    post("watcher", "en", t.watcher, set(), f"/en/t/{code}/hand/", {"do": "lay", "card": "1", "at": "0-0"})
    post("watcher", "en", t.watcher, set(), f"/en/teach/{code}/seats/", {"do": "reveal", "v": "1"})
    post("watcher", "en", t.watcher, set(), f"/en/teach/{code}/handover/", {})
    t.table.refresh_from_db()
    v = str(t.table.version)
    p = t.presenter
    post("presenter", "ja", p, set(), f"/ja/teach/{code}/seats/", {"do": "auto", "at": "on", "v": v})
    post("presenter", "ja", p, set(), f"/ja/teach/{code}/seats/", {"do": "auto", "at": "off", "v": v})
    post("presenter", "ja", p, set(), f"/ja/teach/{code}/seats/", {"do": "next-round", "v": "0"})  # stale
    post("presenter", "ja", p, set(), f"/ja/teach/{code}/go/", {"to": str(_index(t.table, "round-dice")),
                                                                "v": "0"})  # stale: the table as it is
    post("presenter", "ja", p, set(), f"/ja/teach/{code}/board/round/?v={v}", {"do": "put", "at": "0-0"})
    post("presenter", "ja", p, set(), f"/ja/teach/{code}/handover/", {}, headers={})
    handover = re.search(r"/teach/\w+/take/[\w-]+/", out[-1][4])
    assert handover, "the handover answer shows its link"
    take = f"/de{handover[0]}"
    out.append(("handover page", "de", set(), take, Client().get(take, follow=True).content.decode()))
    card = t.presenter.get(f"/ja/teach/{code}/card.pdf")  # printed: its text, every language
    assert card.status_code == 200
    text = subprocess.run(["pdftotext", "-", "-"], input=card.content, capture_output=True, check=True).stdout
    for lang in ("ja", "en", "de"):
        out.append(("presenter", lang, set(), f"/ja/teach/{code}/card.pdf", text.decode()))
    post("projector presenter window", "ja", t.projector, set(), f"/ja/teach/{code}/go/",
         {"to": str(_index(t.table, "round-setting")), "v": v})
    for screen, headers in ((f"/ja/teach/{code}/screen/", {}), (f"/ja/teach/{code}/screen/?v=0", HX)):
        shown = t.projector.get(screen, **headers).content.decode()
        out.append(("projector view", "ja", set(), screen, shown))
    # the projector closes again: the moves after these are section moves
    Table.objects.filter(pk=t.table.pk).update(projector_seen_at=None)
    return out


def test_no_endpoint_shows_an_entered_card_before_the_reveal():
    t = TaughtTable()
    before = t.snapshot()
    t.enter()
    after = t.snapshot()
    seen_names = set()
    for (who, page), html in after.items():
        seen_names.add(_name(page))
        lang = next(lang for w, lang, *_ in t.viewers() if w == who)
        own = next(own for w, _l, _c, own, _p in t.viewers() if w == who)
        others = {c for _l, c, _cards in ENTRIES} - own
        for phrase in _phrases(lang, others):
            assert phrase not in html, (who, page, phrase)
        if not own and (who, page) in before:  # as it was, but for the counts
            assert _normal(html) == _normal(before[(who, page)]), (who, page)
    presenter = after[("presenter", f"/ja/teach/{t.code}/")]
    assert re.search(r'data-testid="entered-red">[^<]*2', presenter), "the presenter sees how many"
    assert re.search(r'data-testid="entered-blue">[^<]*1', presenter)
    for who, lang, own, url, html in _answers_of_actions(t):
        seen_names.add(_name(url))
        others = {c for _l, c, _cards in ENTRIES} - own
        for phrase in _phrases(lang, others):
            assert phrase not in html, (who, url, phrase)
    t.table.refresh_from_db()
    assert not t.table.revealed and t.table.board_states.get("round", "").split("|")[-1] == ""
    teach_names = {n for n in _url_names() if n.startswith("teach")} - {"teach"}
    assert teach_names <= seen_names | {"teach-join"}, f"not asked: {sorted(teach_names - seen_names)}"

    # the reveal: every screen sees every card, named in its own language
    t.table.refresh_from_db()
    assert t.presenter.post(f"/ja/teach/{t.code}/seats/", {"do": "reveal", "v": str(t.table.version)},
                            **HX).status_code == 200
    assert t.go("round-table").status_code == 200
    for who, lang, client, _own, pages in t.viewers():
        html = client.get(pages[0], follow=True).content.decode()
        with translation.override(lang):
            for _l, _colour, cards in ENTRIES:
                for token, pos in cards:
                    assert f"{card_phrase(token)} ({position_label(pos)})" in html, (who, token)


def _name(url: str) -> str:
    """The url name of ``url`` (with or without its language prefix)."""
    path = url.split("?")[0]
    lang = path.split("/")[1]
    with translation.override(lang if lang in ("ja", "en", "de") else "en"):
        return resolve(path).url_name


def _url_names() -> set[str]:
    from tutorials.urls import urlpatterns

    return {p.name for p in urlpatterns}
