"""Printable PDF rule sheets and position PDFs (WeasyPrint), cached per sheet (or position),
language, paper and code version.

* :data:`SHEETS` — the fixed sheets: ``rules``, ``reference``, ``quick-start``, ``teach``;
  the two teaching sheets in a version for each audience (:data:`~tutorials.tutorial.audience.AUDIENCES`:
  2 or 3-4 players, action or strategy mode).
* :func:`sheet_pdf` — a fixed sheet's PDF bytes; rendered once per
  ``(sheet, audience, language, paper, code version)`` and then read from ``SHEET_CACHE_DIR``
  (``manage.py prerender_sheets`` fills it at release time).
* :func:`position_pdf` — the analyzer's position with its step-by-step answer, rendered on
  the first request and then kept beside the sheets (per position, share link, saved title,
  language and paper), the same way (:func:`kept_pdf`).
* :func:`preview_png` — page 1 as a PNG (``pdftoppm``), cached beside the PDF.

Renders run in the process that serves the request (in production a worker of the render
pool, at the lowest CPU priority), and WeasyPrint reads only the static files the page
refers to: :mod:`tutorials.rendering.pdf`, which every PDF of the site goes through (the
teaching table's card too).
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import os
import re
import subprocess
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import segno
from django.conf import settings
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.translation import gettext_lazy as _

from tutorials.rendering.pdf import Rendered, render_pdf
from tutorials.sheets.content import AUDIENCE_SHEETS, context_for, position_context
from tutorials.sheets.typesetting import typeset_japanese
from tutorials.tutorial.audience import AUDIENCES, DEFAULT_AUDIENCE, Audience
from tutorials.wording.facts import facts

logger = logging.getLogger(__name__)

PAPERS = {"a4": "A4", "letter": "letter"}
CACHE_DIR = Path(settings.SHEET_CACHE_DIR)


@dataclass(frozen=True)
class Sheet:
    """A printable sheet: its ``name`` (URL), title, template and expected page range."""

    name: str
    title: object
    description: object
    template: str
    pages: tuple[int, int]


SHEETS = {
    "rules": Sheet("rules", _("Complete rules"),
                   _("Components, setup, the four phases, every card, sandwiches, the end, strategy mode, "
                     "variants and answers to common questions."),
                   "sheets/rules.html", (2, 4)),
    "reference": Sheet("reference", _("Quick reference"),
                       _("One page for the table: phases, the attack cards with their ranges, when the bell "
                         "may ring, who goes first, and what changes with two players and in strategy "
                         "mode."),
                       "sheets/reference.html", (1, 1)),
    "quick-start": Sheet("quick-start", _("Quick start"),
                         _("The short teaching script: the goal, the core rules with a battle and a "
                           "sandwich drawn out, and the rules to explain when they come up."),
                         "sheets/teach.html", (1, 2)),
    "teach": Sheet("teach", _("Teaching script"),
                   _("The full read-aloud script, with the hands-on moments set apart and the "
                     "examples drawn out."),
                   "sheets/teach.html", (2, 6)),
}


class SheetError(LookupError):
    """Unknown sheet or paper."""


def audiences_of(name: str) -> tuple[Audience, ...]:
    """The audiences a sheet has a version for: every one for a teaching sheet, else one."""
    return AUDIENCES if name in AUDIENCE_SHEETS else (DEFAULT_AUDIENCE,)


#: What shapes a sheet, relative to ``BASE_DIR``: every file below these folders
#: (recursively, so modules moved into subpackages still count).
SHEET_INPUTS = ("captain", "tutorials", "templates", "static", "locale")
_NOT_INPUTS = {"__pycache__"}


def sheet_input_files(base: Path) -> list[Path]:
    """Every file below :data:`SHEET_INPUTS` in ``base``, sorted; ``__pycache__`` left out."""
    files = []
    for root in SHEET_INPUTS:
        folder = base / root
        if not folder.is_dir():
            continue
        for path in folder.rglob("*"):
            if path.is_file() and not _NOT_INPUTS.intersection(path.relative_to(base).parts) \
                    and path.suffix != ".pyc":
                files.append(path)
    return sorted(files)


def tree_digest(base: Path) -> str:
    """A 12-hex-digit hash of the names and contents of :func:`sheet_input_files`."""
    digest = hashlib.sha256()
    for path in sheet_input_files(base):
        digest.update(path.relative_to(base).as_posix().encode())
        digest.update(b"\0")
        digest.update(path.read_bytes())
        digest.update(b"\0")
    return digest.hexdigest()[:12]


@lru_cache(maxsize=1)
def code_version() -> str:
    """The sheet cache key: :func:`tree_digest` of the code, templates, static files and catalogs.

    Computed once per process, when the app starts (``TutorialsConfig.ready``), so it
    matches the code and catalogs that process renders with; restart after a change.
    """
    return tree_digest(Path(settings.BASE_DIR))


def render_sheet(name: str, lang: str, paper: str = "a4", *,
                 audience: Audience = DEFAULT_AUDIENCE) -> Rendered:
    """Render a fixed sheet now, in this process, without the cache. Raises
    :class:`SheetError` for an unknown sheet or paper."""
    return render_pdf(printed_html(sheet_html(name, lang, paper, audience=audience), lang))


#: What only a screen shows (a pointer to the interactive board next to the text): paper
#: leaves it out rather than hiding it, so no printed text points at a board that is not there.
_WEB_ONLY = re.compile(r'<(p|div|span)\b[^>]*class="web-only"[^>]*>.*?</\1>\s*', re.DOTALL)


def sheet_html(name: str, lang: str, paper: str = "a4", *, audience: Audience = DEFAULT_AUDIENCE) -> str:
    """The HTML a fixed sheet is printed from, in ``lang``, for ``audience`` where the sheet
    has a version per audience. Raises :class:`SheetError` for an unknown sheet or paper."""
    sheet = SHEETS.get(name)
    if sheet is None or paper not in PAPERS:
        raise SheetError(f"unknown sheet {name!r} or paper {paper!r}")
    with translation.override(lang):
        html = render_to_string(sheet.template, {**context_for(name, audience), "sheet": sheet,
                                                 "facts": facts(), "paper": PAPERS[paper], "lang": lang})
    return _WEB_ONLY.sub("", html)


def printed_html(html: str, lang: str) -> str:
    """``html`` as it goes to the printer: Japanese typeset as a publisher would
    (:mod:`tutorials.sheets.typesetting`); the text itself unchanged."""
    return typeset_japanese(html) if lang == "ja" else html


def cache_path(name: str, lang: str, paper: str, suffix: str = "pdf", *,
               audience: Audience = DEFAULT_AUDIENCE) -> Path:
    """Where the sheet's file for this code version is cached (``suffix`` pdf or png)."""
    return CACHE_DIR / code_version() / f"{sheet_stem(name, audience)}-{lang}-{paper}.{suffix}"


def sheet_stem(name: str, audience: Audience = DEFAULT_AUDIENCE) -> str:
    """A sheet version's name in files: a teaching sheet for another audience than the
    default one carries that audience (``quick-start-2-strategy``); the default keeps the sheet's name,
    the file its URL without a query has always had."""
    return f"{name}-{audience.slug}" if name in AUDIENCE_SHEETS and audience != DEFAULT_AUDIENCE else name


#: A kept file's mode: the release step (``prerender_sheets``) may run as another user than
#: the web server, which must still read what it kept.
KEPT_MODE = 0o644


def store(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` atomically, readable by every user (:data:`KEPT_MODE`):
    written beside it under a name of its own, then renamed over it, so a reader never sees
    half a file. On any error (a full disk) the partial file is removed and the error
    raised: ``path`` stays as it was."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, partial = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".part")
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(data)
            out.flush()
            os.fchmod(out.fileno(), KEPT_MODE)
        os.replace(partial, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(partial)
        raise


def keep(path: Path, data: bytes) -> bool:
    """:func:`store` ``data`` at ``path`` for the next reader; whether it was kept. A file
    that cannot be written (a full or read-only disk) is logged, not raised: the caller
    holds the bytes and serves them anyway, and the next request renders again."""
    try:
        store(path, data)
    except OSError as error:
        logger.warning("%s served but not kept: %s", path.name, error)
        return False
    return True


def _nothing() -> None:
    pass


def sheet_pdf(name: str, lang: str, paper: str = "a4", admitted: Callable[[], None] = _nothing, *,
              audience: Audience = DEFAULT_AUDIENCE) -> bytes:
    """The sheet's PDF from the cache, rendering it first if needed; ``admitted`` is called
    just before a render starts (where a caller counts renders: a cache hit counts
    nothing), and may refuse it by raising.

    A render that logged a WeasyPrint warning (a stylesheet or image it could not load)
    is served but never cached, and the warnings are logged as an error.
    Raises :class:`SheetError` for an unknown sheet or paper.
    """
    return kept_pdf(cache_path(name, lang, paper, audience=audience),
                    lambda: printed_html(sheet_html(name, lang, paper, audience=audience), lang), admitted)


def kept_pdf(path: Path, html: Callable[[], str], admitted: Callable[[], None] = _nothing) -> bytes:
    """The PDF kept at ``path``, else the PDF of ``html()`` rendered now and kept there:
    every cached PDF of the site, sheets and positions alike.

    ``admitted`` is called before anything of the render, its page included: where it
    refuses or hands the render over, the page is not made for nothing. A render that
    logged warnings is served but never kept (see :func:`sheet_pdf`)."""
    if path.exists():
        return path.read_bytes()
    admitted()
    rendered = render_pdf(html())
    if rendered.warnings:
        logger.error("PDF sheet %s rendered with warnings, not cached: %s", path.stem,
                     "; ".join(rendered.warnings))
    else:
        keep(path, rendered.pdf)
    return rendered.pdf


def preview_png(name: str, lang: str, paper: str = "a4", admitted: Callable[[], None] = _nothing, *,
                audience: Audience = DEFAULT_AUDIENCE) -> bytes:
    """Page 1 of the sheet as a PNG (about 300 px wide), cached; ``admitted`` as for
    :func:`sheet_pdf`."""
    path = cache_path(name, lang, paper, "png", audience=audience)
    if path.exists():
        return path.read_bytes()
    pdf = sheet_pdf(name, lang, paper, admitted, audience=audience)
    with tempfile.TemporaryDirectory() as tmp:
        src = Path(tmp) / "sheet.pdf"
        src.write_bytes(pdf)
        subprocess.run(["pdftoppm", "-png", "-singlefile", "-f", "1", "-l", "1",
                        "-scale-to-x", "420", "-scale-to-y", "-1", str(src), str(Path(tmp) / "page")],
                       check=True, capture_output=True, timeout=60)
        data = (Path(tmp) / "page.png").read_bytes()
    # never keep a preview of a render with warnings
    if cache_path(name, lang, paper, audience=audience).exists():
        keep(path, data)
    return data


def is_cached(name: str, lang: str, paper: str, *, audience: Audience = DEFAULT_AUDIENCE) -> bool:
    """Whether :func:`sheet_pdf` would answer from the cache, without rendering."""
    return cache_path(name, lang, paper, audience=audience).exists()


def position_cache_path(situation, *, lang: str, paper: str, share_url: str, title: str = "") -> Path:
    """Where the position's PDF for this code version is kept: one file per position,
    share link (printed as the QR code), saved title, language and paper."""
    if paper not in PAPERS:
        raise SheetError(f"unknown paper {paper!r}")
    key = hashlib.sha256("\0".join((situation.to_notation(), share_url, title)).encode()).hexdigest()[:32]
    return CACHE_DIR / code_version() / "positions" / f"{key}-{lang}-{paper}.pdf"


def position_pdf(situation, *, lang: str, paper: str, share_url: str, title: str = "",
                 admitted: Callable[[], None] = _nothing) -> bytes:
    """The analyzer's position with its whole step-by-step answer and a QR code of
    ``share_url``, under the ``title`` it was saved with (if any): rendered once, then
    kept like the sheets (:func:`kept_pdf`); ``admitted`` as for :func:`sheet_pdf`.

    Raises :class:`SheetError` for an unknown paper.
    """
    path = position_cache_path(situation, lang=lang, paper=paper, share_url=share_url, title=title)
    return kept_pdf(path, lambda: position_html(situation, lang=lang, paper=paper, share_url=share_url,
                                                title=title), admitted)


def position_html(situation, *, lang: str, paper: str, share_url: str, title: str = "") -> str:
    """The HTML a position's PDF is printed from (see :func:`position_pdf`)."""
    with translation.override(lang):
        qr = segno.make(share_url, error="m")
        # its <title> is the QR code's text alternative (the Figure's /Alt in the tagged PDF)
        svg = qr.svg_inline(scale=3, dark="#1d2430", light=None,
                            title=_("QR code: this position in the analyzer, %(url)s") % {"url": share_url})
        html = render_to_string("sheets/position.html", {
            **position_context(situation), "paper": PAPERS[paper], "lang": lang,
            "share_url": share_url, "qr_svg": svg, "title": title})
    return printed_html(html, lang)
