"""Printable PDF rule sheets (WeasyPrint), cached per sheet, language, paper and code version.

* :data:`SHEETS` — the fixed sheets: ``rules``, ``reference``, ``teach``.
* :func:`sheet_pdf` — a fixed sheet's PDF bytes; rendered once per
  ``(sheet, language, paper, code version)`` and then read from ``var/sheets/``.
* :func:`position_pdf` — the analyzer's position with its step-by-step answer, on demand.
* :func:`preview_png` — page 1 as a PNG (``pdftoppm``), cached beside the PDF.

WeasyPrint never touches the network: :func:`make_url_fetcher` serves ``/static/…``
from disk and refuses everything else.
"""

from __future__ import annotations

import hashlib
import logging
import subprocess
import tempfile
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from django.conf import settings
from django.contrib.staticfiles import finders
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.translation import gettext_lazy as _

logger = logging.getLogger(__name__)

PAPERS = {"a4": "A4", "letter": "letter"}
CACHE_DIR = Path(settings.BASE_DIR) / "var" / "sheets"


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
                   _("Components, setup, the four phases, every card, sandwiches, the end, strategy mode, variants and answers to common questions."),
                   "sheets/rules.html", (2, 4)),
    "reference": Sheet("reference", _("Quick reference"),
                       _("One page for the table: phases, the six cards with their ranges, when the bell may ring, who goes first."),
                       "sheets/reference.html", (1, 1)),
    "teach": Sheet("teach", _("Teaching script"),
                   _("The read-aloud script for staff, with the hands-on moments set apart."),
                   "sheets/teach.html", (2, 6)),
}


class SheetError(LookupError):
    """Unknown sheet or paper."""


def _static_file(url: str) -> Path | None:
    path = url
    for prefix in ("file://", "http://localhost", "https://localhost"):
        if path.startswith(prefix):
            path = path[len(prefix):]
    if path.startswith(settings.STATIC_URL):
        found = finders.find(path[len(settings.STATIC_URL):])
        if found:
            return Path(found)
    return None


def make_url_fetcher():
    """A WeasyPrint URL fetcher that reads ``/static/…`` from disk and refuses the network.

    Any other URL raises ``ValueError``: WeasyPrint leaves the resource out and logs a
    warning (the tests assert there are none).
    """
    from weasyprint.urls import URLFetcher, URLFetcherResponse

    class StaticOnlyFetcher(URLFetcher):
        def fetch(self, url, headers=None):
            found = _static_file(url)
            if found is None:
                raise ValueError(f"network access refused for {url!r}")
            mime = {".css": "text/css", ".svg": "image/svg+xml", ".png": "image/png"}.get(
                found.suffix, "application/octet-stream")
            return URLFetcherResponse(url, found.read_bytes(), {"Content-Type": mime})

    return StaticOnlyFetcher()


@lru_cache(maxsize=1)
def code_version() -> str:
    """A hash of everything that shapes a sheet: templates, CSS, compiled translations, code.

    Computed once per process, when the app starts (``TutorialsConfig.ready``), so it
    matches the code and catalogs that process renders with; restart after a change.
    """
    base = Path(settings.BASE_DIR)
    digest = hashlib.sha256()
    patterns = ["templates/sheets/*.html", "templates/tutorials/*.html", "templates/tutorials/steps/*.html",
                "templates/teach/*.html", "static/css/sheet.css", "locale/*/LC_MESSAGES/django.mo",
                "tutorials/*.py", "captain/rules/*.py"]
    for pattern in patterns:
        for path in sorted(base.glob(pattern)):
            digest.update(str(path.relative_to(base)).encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()[:12]


def _render(html: str, base_url: str | None = None) -> bytes:
    import weasyprint

    return weasyprint.HTML(string=html, base_url=base_url or "/",
                           url_fetcher=make_url_fetcher()).write_pdf()


def render_sheet(name: str, lang: str, paper: str = "a4") -> bytes:
    """Render a fixed sheet now (no cache). Raises :class:`SheetError`."""
    sheet = SHEETS.get(name)
    if sheet is None or paper not in PAPERS:
        raise SheetError(f"unknown sheet {name!r} or paper {paper!r}")
    from .sheet_content import context_for

    with translation.override(lang):
        html = render_to_string(sheet.template, {**context_for(name), "sheet": sheet,
                                                 "paper": PAPERS[paper], "lang": lang})
        return _render(html)


def cache_path(name: str, lang: str, paper: str, suffix: str = "pdf") -> Path:
    return CACHE_DIR / code_version() / f"{name}-{lang}-{paper}.{suffix}"


def sheet_pdf(name: str, lang: str, paper: str = "a4") -> bytes:
    """The sheet's PDF from the cache, rendering it first if needed."""
    path = cache_path(name, lang, paper)
    if path.exists():
        return path.read_bytes()
    data = render_sheet(name, lang, paper)
    path.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.NamedTemporaryFile(dir=path.parent, delete=False) as tmp:
        tmp.write(data)
    Path(tmp.name).replace(path)  # atomic: a reader never sees half a file
    return data


def preview_png(name: str, lang: str, paper: str = "a4") -> bytes:
    """Page 1 of the sheet as a PNG (about 300 px wide), cached."""
    path = cache_path(name, lang, paper, "png")
    if path.exists():
        return path.read_bytes()
    pdf = sheet_pdf(name, lang, paper)
    with tempfile.TemporaryDirectory() as tmp:
        src = Path(tmp) / "sheet.pdf"
        src.write_bytes(pdf)
        subprocess.run(["pdftoppm", "-png", "-singlefile", "-f", "1", "-l", "1",
                        "-scale-to-x", "420", "-scale-to-y", "-1", str(src), str(Path(tmp) / "page")],
                       check=True, capture_output=True, timeout=60)
        data = (Path(tmp) / "page.png").read_bytes()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    return data


def position_pdf(situation, *, lang: str, paper: str, share_url: str) -> bytes:
    """The analyzer's position with its whole step-by-step answer and a QR code."""
    import segno

    from .sheet_content import position_context

    if paper not in PAPERS:
        raise SheetError(f"unknown paper {paper!r}")
    with translation.override(lang):
        qr = segno.make(share_url, error="m")
        svg = qr.svg_inline(scale=3, dark="#1d2430", light=None)
        html = render_to_string("sheets/position.html", {
            **position_context(situation), "paper": PAPERS[paper], "lang": lang,
            "share_url": share_url, "qr_svg": svg})
        return _render(html)
