"""The operator's load (../shared/reviews/operator.md, "Faults under load"), shared by the
deploy fault tests: while a test injects its fault, one table is used as a café uses it.

* 8 guests on the table's guest page, asking for its section as the page does without a
  live stream (the section's ``hx-get`` at its ``hx-trigger="every …"``, address and delay
  taken from each answer, as htmx swaps it in), in ja, en and de;
* 3 browsers following the table's live stream (:class:`live_clients.Follower`);
* the presenter moving the table on every 4 s;
* a save every 2 s: the analyzer's "save" form and the API's ``POST /api/v1/positions``
  in turn, in ja, en and de;
* a PDF every 2 s through nginx: a position PDF not asked for before
  (:func:`harness.fresh_position_pdf`) and a sheet in turn.

Each kind runs on a thread of the test process, one request at a time on the wall clock's
schedule (a request still running when the next is due delays it; none is skipped to catch
up). Every answer is kept (:class:`Answer`): status, ``Retry-After``, ``Content-Language``,
and a connection error as status 0; the followers keep their streams' events. The clients
send from loopback addresses of this load's own, so the site's rate limits count them as
the café's many users, not as one.

    with OperatorLoad(proxy) as load:
        load.wait_for_every_kind()
        ...  # the fault
    assert not load.server_errors(), load.summary()
"""

from __future__ import annotations

import html
import http.client
import itertools
import json
import re
import threading
import time
from collections import Counter
from dataclasses import dataclass

from harness import Browser, fresh_position_pdf
from live_clients import Follower

LANGS = ("ja", "en", "de")
#: a saved position: two cards on the board
POSITION = "Rb_11r1.12b2"
#: what each kind answers when all is well
NORMAL = {"guest page": {200}, "poll": {200, 204}, "presenter page": {200}, "analyzer page": {200},
          "move": {302}, "save": {302, 201}, "pdf": {200}}
#: the kinds that need the database (a position PDF or a sheet does not)
DATABASE_KINDS = {"guest page", "poll", "presenter page", "move", "save"}
#: the sections the presenter goes to in turn (each differs from the one before)
SECTIONS = (1, 2, 3, 2)
_SECTION = re.compile(r'<section id="(?:guest|present)-section"[^>]*>')
_loads = itertools.count(1)


@dataclass(frozen=True)
class Answer:
    kind: str                    # a key of NORMAL
    lang: str                    # the language the request asked for
    path: str
    started: float               # time.monotonic()
    ended: float
    status: int                  # 0: no answer (the error says why)
    error: str = ""
    retry_after: str | None = None
    content_language: str | None = None
    problem: str | None = None   # the Problem-Code header (the site's 503s carry one)
    body: bytes = b""            # its first 2,000 bytes


def _section(body: bytes) -> tuple[int, str, float] | None:
    """The section's version, its ``hx-get`` and its poll's delay in seconds, as the page
    shows them, or ``None`` when ``body`` holds no section."""
    tag = _SECTION.search(body.decode(errors="replace"))
    if tag is None:
        return None
    attrs = dict(re.findall(r'([\w-]+)="([^"]*)"', tag[0]))
    every = re.search(r"every (\d+)(ms|s)\b", attrs.get("hx-trigger", ""))
    assert every and "hx-get" in attrs and "data-version" in attrs, tag[0]
    delay = int(every[1]) / (1000 if every[2] == "ms" else 1)
    return int(attrs["data-version"]), html.unescape(attrs["hx-get"]), delay


class OperatorLoad:
    """The operator's load on a new table through ``proxy`` (a harness.Proxy), as a ``with``
    block. Each part may go elsewhere: the presenter (``presenter_via``), the polling guests
    (``guests_via``) and the followers (``streams_via``) to one host's site or stream process
    (a harness.Server), say; the PDFs go through ``proxy`` always (nginx routes them)."""

    def __init__(self, proxy, *, presenter_via=None, guests_via=None, streams_via=None,
                 guests: int = 8, followers: int = 3, move_every: float = 4.0,
                 save_every: float = 2.0, pdf_every: float = 2.0) -> None:
        self.proxy = proxy
        self.presenter_via = presenter_via or proxy
        self.guests_via = guests_via or proxy
        self.streams_via = streams_via or proxy
        self.guest_count, self.follower_count = guests, followers
        self.move_every, self.save_every, self.pdf_every = move_every, save_every, pdf_every
        # addresses of this load's own: 127.<n>.0.x for load n of this test process
        self.network = f"127.{100 + next(_loads) % 150}.0"
        self.answers: list[Answer] = []
        self.moves: list[tuple[int, float]] = []    # (version the move made, when answered)
        self.seen: list[dict[int, float]] = []      # per guest: version -> first shown
        self.followers: list[Follower] = []
        self.code = ""
        self.version = 0                            # the table's version as the presenter knows it
        self._stop = threading.Event()
        self._threads: list[threading.Thread] = []

    # --- the block ----------------------------------------------------------------------
    def __enter__(self) -> OperatorLoad:
        self.presenter = Browser(self.presenter_via, f"{self.network}.1")
        self.code = self.presenter.start_table()
        assert self._read_version(), self.summary()
        self.followers = [Follower(self.streams_via, self.code, f"{self.network}.{10 + i}").start()
                          for i in range(self.follower_count)]
        parts = [(self._guest, (i,)) for i in range(self.guest_count)]
        parts += [(self._presenter, ()), (self._saves, ()), (self._pdfs, ())]
        for target, args in parts:
            thread = threading.Thread(target=target, args=args, daemon=True)
            thread.start()
            self._threads.append(thread)
        return self

    def __exit__(self, *exc) -> None:
        self.stop()

    def stop(self) -> None:
        """Ends every part (a request on its way is answered first)."""
        self._stop.set()
        for thread in self._threads:
            thread.join(timeout=200)
        for follower in self.followers:
            follower.stop()

    # --- what happened ----------------------------------------------------------------------
    def since(self, moment: float, kind: str | None = None) -> list[Answer]:
        """The answers to requests sent after ``moment`` (``time.monotonic()``)."""
        return [a for a in list(self.answers) if a.started > moment and kind in (None, a.kind)]

    def server_errors(self) -> list[Answer]:
        """Answers that are the site's or nginx's failure: 500, 502, 504 (a 503 is the site's
        own "try again"), or no answer at all."""
        return [a for a in list(self.answers) if a.status in (0, 500, 502, 504)]

    def statuses(self, kind: str | None = None) -> Counter:
        return Counter(a.status for a in list(self.answers) if kind in (None, a.kind))

    def summary(self) -> str:
        """Every kind's statuses, the followers' connections and events: for a failure's message."""
        kinds = {kind: dict(self.statuses(kind)) for kind in NORMAL if self.statuses(kind)}
        streams = [(f.statuses, len(f.events)) for f in self.followers]
        return f"table {self.code}: {kinds}; moves {[v for v, _ in self.moves]}; streams {streams}"

    def answered_normally(self, moment: float, kinds=("poll", "move", "save", "pdf")) -> bool:
        """Whether each of ``kinds`` had an answer as when all is well to a request sent after
        ``moment``."""
        normal = {a.kind for a in self.since(moment) if a.status in NORMAL[a.kind]}
        return all(kind in normal for kind in kinds)

    def wait_for_every_kind(self, moment: float | None = None, timeout: float = 120) -> None:
        """Waits until every kind had a normal answer after ``moment`` (default: now) and every
        follower's stream is open; fails the test after ``timeout`` seconds."""
        moment = time.monotonic() if moment is None else moment
        deadline = time.monotonic() + timeout
        while not (self.answered_normally(moment) and all(f.events for f in self.followers)):
            assert time.monotonic() < deadline, f"the load did not get going: {self.summary()}"
            self._stop.wait(0.1)

    def wait_for_moves(self, count: int, timeout: float = 120) -> None:
        """Waits until the presenter has made ``count`` more moves."""
        target = len(self.moves) + count
        deadline = time.monotonic() + timeout
        while len(self.moves) < target:
            assert time.monotonic() < deadline, f"the presenter made no {count} moves: {self.summary()}"
            self._stop.wait(0.1)

    def marks(self) -> list[str]:
        """The stream's mark of each move made (the table's mark: its version first)."""
        return [f"{version}.0.0" for version, _when in self.moves]

    # --- the parts ------------------------------------------------------------------------
    def _ask(self, browser: Browser, kind: str, method: str, path: str, lang: str, *,
             form: dict | None = None, body: bytes | None = None, timeout: float = 60,
             **headers) -> tuple[Answer, bytes]:
        """One request of ``browser``'s, kept in :attr:`answers`: the answer and its body. A
        form or a page goes as the browser sends it (its cookies, its CSRF token); a request
        with a ``body`` of its own, or a PDF, without cookies."""
        started = time.monotonic()
        content = b""
        try:
            if body is None and kind != "pdf":
                status, head, content = browser.request(method, path, form, **headers)
            else:
                status, head, content = browser.server.request(
                    method, path, body=body, headers={"Accept-Language": lang, **headers},
                    client=browser.client, timeout=timeout)
        except (OSError, http.client.HTTPException) as error:
            answer = Answer(kind, lang, path, started, time.monotonic(), 0,
                            f"{type(error).__name__}: {error}")
        else:
            answer = Answer(kind, lang, path, started, time.monotonic(), status, "", head.get("Retry-After"),
                            head.get("Content-Language"), head.get("Problem-Code"), content[:2000])
        self.answers.append(answer)
        return answer, content

    def _every(self, period: float):
        """Yields at each moment the schedule gives, until the load stops."""
        due = time.monotonic()
        while not self._stop.wait(max(0.0, due - time.monotonic())):
            yield
            due = max(due + period, time.monotonic())

    def _guest(self, number: int) -> None:
        lang = LANGS[number % len(LANGS)]
        guest = Browser(self.guests_via, f"{self.network}.{20 + number}", lang)
        seen: dict[int, float] = {}
        self.seen.append(seen)
        section = None
        delay = 1.0
        due = time.monotonic()
        while not self._stop.wait(max(0.0, due - time.monotonic())):
            if section is None:  # (re)load the page, as a guest does who opens the link
                answer, content = self._ask(guest, "guest page", "GET", f"/{lang}/t/{self.code}/", lang)
            else:
                answer, content = self._ask(guest, "poll", "GET", section[1], lang, **{"HX-Request": "true"})
            if answer.status == 200:
                found = _section(content)
                if found:
                    section, delay = found, found[2]
                    seen.setdefault(found[0], time.monotonic())
            due = max(due + delay, time.monotonic())

    def _read_version(self) -> bool:
        answer, content = self._ask(self.presenter, "presenter page", "GET", f"/en/teach/{self.code}/", "en")
        found = _section(content) if answer.status == 200 else None
        if found:
            self.version = found[0]
        return found is not None

    def _presenter(self) -> None:
        sections = itertools.cycle(SECTIONS)
        to = next(sections)
        stale = False
        for _ in self._every(self.move_every):
            if stale and not self._read_version():
                continue
            answer, _content = self._ask(self.presenter, "move", "POST", f"/en/teach/{self.code}/go/", "en",
                               form={"to": str(to), "v": str(self.version)})
            # a move refused as stale, or whose answer was lost, is made anew from the page
            stale = answer.status not in (302, 503)
            if answer.status == 302:
                self.version += 1
                self.moves.append((self.version, answer.ended))
                to = next(sections)

    def _saves(self) -> None:
        forms = [Browser(self.proxy, f"{self.network}.{40 + i}", lang) for i, lang in enumerate(LANGS)]
        for browser in forms:  # the analyzer page gives the form its CSRF token
            self._ask(browser, "analyzer page", "GET", f"/{browser.lang}/analyze/", browser.lang)
        api = [Browser(self.proxy, f"{self.network}.{50 + i}", lang) for i, lang in enumerate(LANGS)]
        turns = itertools.cycle(itertools.chain.from_iterable(zip(forms, api, strict=True)))
        for number, _ in enumerate(self._every(self.save_every)):
            browser = next(turns)
            title = f"load {number}"
            if browser in forms:
                self._ask(browser, "save", "POST", f"/{browser.lang}/analyze/save/", browser.lang,
                          form={"pos": POSITION, "title": title})
            else:
                self._ask(browser, "save", "POST", "/api/v1/positions", browser.lang,
                          body=json.dumps({"notation": POSITION, "title": title}).encode(),
                          **{"Content-Type": "application/json"})

    def _pdfs(self) -> None:
        readers = [Browser(self.proxy, f"{self.network}.{60 + i}", lang) for i, lang in enumerate(LANGS)]
        sheets = itertools.cycle(f"/{lang}/sheets/{name}.pdf?paper={paper}" for paper in ("a4", "letter")
                                 for name in ("reference", "rules") for lang in LANGS)
        for number, _ in enumerate(self._every(self.pdf_every)):
            reader = readers[number % len(readers)]
            path = fresh_position_pdf(reader.lang) if number % 2 == 0 else next(sheets)
            lang = path.split("/")[1]
            self._ask(reader, "pdf", "GET", path, lang, timeout=180)
