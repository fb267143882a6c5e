"""The projector view of a table: the current section's read-aloud text in large type and
its example boards, as a slide show that follows the presenter.

A section is shown as one or more *screens*, each made to fit 1920 × 1080 without
scrolling: its read-aloud paragraphs packed by a size budget (:func:`screens`), then each
board on a screen of its own. The split is the server's and the same in every language of
the site (each paragraph is measured in the language where it is longest), so the
presenter's page, in any language, knows the screen the projector shows. While a projector
asks for the table (:data:`OPEN_SECONDS`), the presenter's Next and Back step through the
screens of a section before they move on (:func:`go`).
"""

from __future__ import annotations

import json
import math
import unicodedata
from dataclasses import dataclass
from datetime import timedelta
from functools import cache, lru_cache

import segno
from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from tutorials.forms import Query
from tutorials.models import Table, table_changed
from tutorials.teach import seats
from tutorials.teach.access import forbidden, is_presenter, live_session, table_view
from tutorials.teach.plan import load_board, move
from tutorials.teach.round import RoundBoard
from tutorials.tutorial.reading import Paragraph, paragraphs
from tutorials.tutorial.teaching import Section, script_context, sections, stored_options
from tutorials.web.link_tokens import TABLE_LINK

#: a projector that asked for the table this recently is open: its screens take the
#: presenter's Next and Back first
OPEN_SECONDS = 10

# The measure of a text screen (static/css/screen.css): 46 px type, 1.35 line height,
# in a text column about 32 em wide, with room for about 13 lines under the title. The
# budget keeps a line spare, and the estimate errs wide (a Latin letter is nearer 0.5 em),
# for words wrapped early and for wider fonts on the projector's computer: measured in
# chromium at 1920 × 1080, the fullest screen (German) ends about two lines above the edge.
LINE_EM = 31.0
SCREEN_LINES = 12.0
#: a paragraph's space after it, and a hands-on aside's label, in lines
GAP_LINES = 0.45
LABEL_LINES = 1.0
#: the width of a character in em: CJK and full-width characters are square
WIDE_EM, NARROW_EM = 1.0, 0.56


@dataclass(frozen=True)
class Screen:
    """One screen of a section: read-aloud paragraphs (``items``, their indices in the
    section's text) or one example board (``board``, its id)."""

    items: tuple[int, ...] = ()
    board: str = ""


def read_aloud_of(options, section: Section) -> list[Paragraph]:
    """The read-aloud paragraphs of ``section`` (``class="say"``) in the active language."""
    return [p for p in paragraphs(section, options, presenter=False) if p.kind == "say"]


def read_aloud(options, section: Section) -> list[Paragraph]:
    """The paragraphs a projector shows of ``section`` at a table with ``options``, in the
    active language: its read-aloud text, else its lead (the guided round's sections)."""
    found = paragraphs(section, options, presenter=False)
    return [p for p in found if p.kind == "say"] or [p for p in found if p.kind == "round-lead"]


def _lines(item: Paragraph) -> float:
    """The lines ``item`` takes on a text screen, its space after it included."""
    width = sum(WIDE_EM if unicodedata.east_asian_width(c) in "WF" else NARROW_EM for c in item.text)
    return math.ceil(width / LINE_EM) + GAP_LINES + (LABEL_LINES if item.hands_on else 0)


def _pack(sizes: list[float]) -> list[tuple[int, ...]]:
    """Consecutive paragraphs of ``sizes`` (in lines) in as few screens of
    :data:`SCREEN_LINES` as they fit, as evenly filled as that number allows (a calm
    show: no screen of one line after a full one). A paragraph longer than a screen gets
    one of its own."""
    count, load = 1, 0.0
    for size in sizes:
        if load and load + size > SCREEN_LINES:
            count, load = count + 1, 0.0
        load += size
    n = len(sizes)

    @cache
    def best(start: int, parts: int) -> tuple[float, tuple[int, ...]]:
        # the fullest screen's load and where each screen after the first starts
        if parts == 1:
            return sum(sizes[start:]), ()
        options = []
        for cut in range(start + 1, n - parts + 2):
            rest, cuts = best(cut, parts - 1)
            options.append((max(sum(sizes[start:cut]), rest), (cut, *cuts)))
        return min(options)

    count = min(count, n)
    bounds = [0, *best(0, count)[1], n]
    return [tuple(range(a, b)) for a, b in zip(bounds, bounds[1:], strict=False)]


@lru_cache(maxsize=256)
def _screens(options_key: str, index: int) -> tuple[Screen, ...]:
    options = json.loads(options_key)
    section = sections(options)[index]
    measured = []
    for lang, _name in settings.LANGUAGES:
        with translation.override(lang):
            measured.append([_lines(item) for item in read_aloud(options, section)])
    # each paragraph as long as in the language where it is longest (the templates give
    # every language the same paragraphs)
    sizes = [max(column) for column in zip(*measured, strict=False)]
    # the guided round's lead says what the table does; where it has a board, the board
    # shows that (and the presenter's keys step the board's steps, not a text screen)
    if section.boards and not read_aloud_of(options, section):
        sizes = []
    text = [Screen(items=chunk) for chunk in _pack(sizes)] if sizes else []
    shown = text + [Screen(board=b) for b in section.boards]
    return tuple(shown) or (Screen(),)


def screens(options, index: int) -> tuple[Screen, ...]:
    """The screens of section ``index`` of the script for ``options``: its read-aloud text
    in as few screens as fit (measured in each of the site's languages, the longest
    counting), then each of its boards on a screen of its own; a section with neither has
    one screen, its title."""
    options = stored_options(options)
    index = max(0, min(index, len(sections(options)) - 1))
    return _screens(json.dumps(options, sort_keys=True), index)


def projector_open(session) -> bool:
    """Whether a projector asked for the table in the last :data:`OPEN_SECONDS`."""
    seen = session.projector_seen_at
    return seen is not None and timezone.now() - seen < timedelta(seconds=OPEN_SECONDS)


def shown_screen(session) -> int:
    """The screen of the current section the projector shows (within its screens)."""
    return min(session.screen, len(screens(session.options, session.section)) - 1)


def go(session, to: int, seen: int) -> list:
    """The presenter's move to section ``to`` from version ``seen``
    (:func:`~tutorials.teach.plan.move`), but while a projector is open a move by one
    section steps its screen first: Next to the section's next screen, Back to its previous
    one, and Back from the first screen to the previous section's last. A screen step is a
    change of the table (a new version), refused as stale as any move."""
    step = to - session.section
    if step not in (1, -1) or not projector_open(session):
        return move(session, to, seen)
    session.expect(seen)
    at = shown_screen(session) + step
    if 0 <= at < len(screens(session.options, session.section)):
        session.change(seen, screen=at)
        return []
    if step == -1 and to >= 0:
        return move(session, to, seen, screen=len(screens(session.options, to)) - 1)
    return move(session, to, seen)


def present_stamp(session) -> str:
    """What the presenter's poll compares beside the version: the seats' entries
    (:func:`~tutorials.teach.seats.entries_stamp`) and whether a projector is open, so the
    presenter's page says so soon after one opens or closes."""
    return seats.entries_stamp(session) + ("p" if projector_open(session) else "")


def for_presenter(session) -> dict:
    """What the presenter's page says of the projector: ``None`` while none is open, else
    the screen shown (from 1), their count, and what to scroll to there (the first
    paragraph's index in the section's text, or the board's id); and the stamp its poll
    sends (:func:`present_stamp`)."""
    if not projector_open(session):
        return {"projector": None, "seat_stamp": present_stamp(session)}
    shown = screens(session.options, session.section)
    at = shown_screen(session)
    return {"seat_stamp": present_stamp(session),
            "projector": {"number": at + 1, "count": len(shown), "board": shown[at].board,
                          "item": shown[at].items[0] if shown[at].items else "",
                          "more": at + 1 < len(shown), "back": at > 0}}


# --- the projector's page ------------------------------------------------------------------


def _board(session, section: Section, board_id: str):
    """Board ``board_id`` as the guests see it: read-only, at the table's own step."""
    board = load_board(session, section, board_id)
    board.note = ""
    board.readonly = True
    page = reverse("tutorials:teach-guest", args=[session.code])
    board.page_base = page
    if isinstance(board, RoundBoard):
        board.follow(lambda _step: page, page, None)
    return board


def _context(request: HttpRequest, session) -> dict:
    options = stored_options(session.options)
    script = sections(options)
    index = min(session.section, len(script) - 1)
    section = script[index]
    shown = screens(options, index)
    at = shown_screen(session)
    items = read_aloud(options, section)
    guest_path = reverse("teach-join", args=[session.code])
    return {**script_context(options), "session": session, "section": section, "index": index,
            "count": len(script), "screen_number": at + 1, "screen_count": len(shown),
            "items": [items[i] for i in shown[at].items if i < len(items)],
            "board": _board(session, section, shown[at].board) if shown[at].board else None,
            "guest_url": request.build_absolute_uri(guest_path),
            "qr_svg": segno.make(request.build_absolute_uri(TABLE_LINK.url(guest_path, session.code)),
                                 error="m").svg_inline(scale=5, dark="#11394a")}


@require_safe
@table_view
def teach_screen(request: HttpRequest, code: str) -> HttpResponse:
    """The projector's page (presenter only: it opens in the presenter's browser), and
    with htmx its poll (``?v=<version>``): 204 while the table is where the projector
    shows it, else the new screen. Every request notes that a projector is open."""
    session = live_session(request, code)
    if not is_presenter(request, session):
        if request.htmx:
            return forbidden(_("Only the person teaching can move the table along."))
        return redirect(TABLE_LINK.carried(request, reverse("tutorials:teach-guest", args=[session.code]),
                                           session.code))
    opened = not projector_open(session)
    session.projector_asked()
    if opened:  # the presenter's page says so at once, not at its next poll
        table_changed.send(Table, code=session.code, always=True)
    if request.htmx and Query(request).get("v", "") == str(session.version):
        return HttpResponse(status=204)
    template = "teach/screen.html#screen" if request.htmx else "teach/screen.html"
    return render(request, template, _context(request, session))
