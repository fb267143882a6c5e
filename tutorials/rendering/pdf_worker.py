"""The PDF render itself, run in one of the host's render children at the lowest CPU
priority (:mod:`tutorials.rendering.render_children` starts them and hands them the renders).

Rendering a sheet keeps a core busy for seconds. Done inside a web worker, it would
compete with ordinary pages on equal terms; in a child process niced to 19 the operating
system runs page requests first and renders with the time left over. The child knows
nothing of Django: it gets the HTML and the static files the HTML refers to (already read
by :func:`tutorials.rendering.pdf.render_pdf`), and refuses every other URL.

This module imports nothing of Django, so that a spawned child starts quickly.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Mapping

#: Niceness of the render children: the lowest priority there is.
NICENESS = 19

#: ``write_pdf`` options of every render: a tagged PDF (structure tree, ``/MarkInfo``,
#: ``/Lang`` from ``<html lang>``, the title shown instead of the file name), so screen
#: readers read the sheets in order, and every ``<svg>`` becomes a ``/Figure`` whose ``/Alt``
#: is the SVG's own ``<title>`` child. Not the ``pdf/ua-1`` variant: that would claim a
#: conformance nobody has checked (WeasyPrint calls its PDF/UA support experimental).
PDF_OPTIONS = {"pdf_tags": True}


def lower_priority() -> None:
    """Run at the lowest CPU priority, and load WeasyPrint now (it takes a second or two)
    rather than on the first render: the render children's supervisor does this before it
    forks them (:mod:`tutorials.rendering.render_children`)."""
    current = os.nice(0)
    if current < NICENESS:
        os.nice(NICENESS - current)
    import weasyprint  # noqa: F401  (loaded ahead of the first render)


class _Collect(logging.Handler):
    def __init__(self) -> None:
        super().__init__(level=logging.WARNING)
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        message = record.getMessage()
        if not message.startswith(_NO_LANG):
            self.messages.append(message)


#: WeasyPrint's complaint about a tagged document without ``<html lang>``. Not a render
#: warning: the render is complete (with an empty ``/Lang``), and every page the site prints
#: has a language (tests/site/test_pdf_accessibility.py checks ``/Lang`` of each).
_NO_LANG = 'Missing required "lang" attribute'


def make_fetcher(resources: Mapping[str, tuple[bytes, str]]):
    """A WeasyPrint URL fetcher that answers only the URLs of ``resources`` (URL →
    ``(bytes, content type)``) and refuses everything else, the network above all
    (``ValueError``: WeasyPrint leaves the resource out and logs a warning)."""
    from weasyprint.urls import URLFetcher, URLFetcherResponse  # loaded with WeasyPrint, late

    class MappingFetcher(URLFetcher):
        def fetch(self, url, headers=None):
            found = resources.get(url)
            if found is None:
                raise ValueError(f"network access refused for {url!r}")
            data, mime = found
            return URLFetcherResponse(url, data, {"Content-Type": mime})

    return MappingFetcher()


def render(html: str, resources: Mapping[str, tuple[bytes, str]]) -> tuple[bytes, tuple[str, ...], int, int]:
    """Render ``html`` with WeasyPrint; ``resources`` maps each URL it may fetch to
    ``(bytes, content type)``. Returns ``(pdf, warnings logged, process id, niceness)``.

    The PDF is tagged (:data:`PDF_OPTIONS`); WeasyPrint's complaint about an ``<img>``
    without ``alt`` is a logged error, so it is among the warnings returned (a missing
    ``<html lang>`` is not: see :data:`_NO_LANG`)."""
    import weasyprint  # a second or two to load: only in the render children

    collect = _Collect()
    weasy_logger = logging.getLogger("weasyprint")
    weasy_logger.addHandler(collect)
    try:
        pdf = weasyprint.HTML(string=html, base_url="/", url_fetcher=make_fetcher(resources)).write_pdf(
            **PDF_OPTIONS)
    finally:
        weasy_logger.removeHandler(collect)
    return pdf, tuple(collect.messages), os.getpid(), os.nice(0)
