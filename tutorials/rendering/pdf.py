"""Every PDF the site prints goes through here: WeasyPrint in the process that serves the
request, with the static files the page refers to read from disk (:func:`static_resources`)
and nothing else reachable: no render ever fetches ``/static/…`` from this very server, or
anything from the network. Rule sheets (:mod:`tutorials.sheets.render`) and the teaching
table's card (:mod:`tutorials.teach.card`) share it: one set of fonts, one base URL, one
fetcher.

In production that process is a worker of the render pool (``gunicorn_pdf.conf.py``,
``captain-pdf.service``): the site answers what is kept and hands each render to nginx
(:class:`RenderInPool`), which passes it to the pool, at most ``RENDER_LIMIT`` at once; the
pool renders at the lowest CPU priority, one render per worker, killing a render that runs
past ``RENDER_TIMEOUT``. In development and in the tests, the site's own process renders.
"""

from __future__ import annotations

import logging
import os
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from urllib.parse import unquote, urlsplit

from django.conf import settings
from django.contrib.staticfiles import finders
from django.contrib.staticfiles.storage import staticfiles_storage
from django.http import HttpRequest
from django.utils.crypto import constant_time_compare, salted_hmac

from tutorials.web.limits import check_limit, hit
from tutorials.web.render_pool import RENDER_POOL_HEADER, RENDER_POOL_LOCATION, RenderInPool

logger = logging.getLogger(__name__)


def static_file_for(url: str) -> Path | None:
    """The file on disk behind a ``/static/…`` URL as WeasyPrint sees it, or ``None``.

    ``url`` is absolute, as WeasyPrint resolves it against the base URL ``/``:
    ``file:///static/css/sheet.css`` under DEBUG, ``file:///static/css/sheet.1a2b3c4d5e6f.css``
    with the manifest storage of production (``{% static %}`` gives the hashed name).
    Original names come from the staticfiles finders (the source files); hashed names
    from the manifest storage, which knows them and keeps them in ``STATIC_ROOT``.
    Anything else — another scheme or host, a path outside ``STATIC_URL``, ``..`` — is
    ``None``.
    """
    parts = urlsplit(url)
    if parts.scheme != "file" or parts.netloc not in ("", "localhost"):
        return None
    path = unquote(parts.path)
    if not path.startswith(settings.STATIC_URL):
        return None
    name = path[len(settings.STATIC_URL):]
    if not name or ".." in PurePosixPath(name).parts:
        return None
    found = finders.find(name)
    if found:
        return Path(found)
    if name in _hashed_static_names():
        candidate = Path(staticfiles_storage.path(name))
        if candidate.is_file():
            return candidate
    return None


def _hashed_static_names() -> frozenset[str]:
    """The hashed names the manifest storage has recorded (empty without a manifest)."""
    hashed_files = getattr(staticfiles_storage, "hashed_files", None) or {}
    return frozenset(hashed_files.values())


@dataclass(frozen=True)
class Rendered:
    """A rendered PDF, the WeasyPrint warnings its render logged (empty when clean), and
    the process that rendered it (its id and niceness)."""

    pdf: bytes
    warnings: tuple[str, ...]
    pid: int = 0
    niceness: int = 0


_STATIC_REF = re.compile(r"""(?:href|src)=["'](/static/[^"']+)["']|url\(\s*["']?(/static/[^"')]+)""")


def static_resources(text: str) -> dict[str, tuple[bytes, str]]:
    """The static files ``text`` (HTML or CSS) refers to, and the ones those refer to:
    ``file://`` URL as WeasyPrint asks for it → ``(bytes, content type)``. Files that do
    not resolve (:func:`static_file_for`) are left out: the render then warns."""
    found: dict[str, tuple[bytes, str]] = {}
    pending = [text]
    while pending:
        for match in _STATIC_REF.finditer(pending.pop()):
            url = "file://" + (match.group(1) or match.group(2))
            if url in found:
                continue
            path = static_file_for(url)
            if path is None:
                continue
            data = path.read_bytes()
            mime = _MIME.get(path.suffix, "application/octet-stream")
            found[url] = (data, mime)
            if mime == "text/css":
                pending.append(data.decode("utf-8", "replace"))
    return found


_MIME = {".css": "text/css", ".svg": "image/svg+xml", ".png": "image/png"}


#: ``write_pdf`` options of every render: a tagged PDF (structure tree, ``/MarkInfo``,
#: ``/Lang`` from ``<html lang>``, the title shown instead of the file name), so screen
#: readers read the sheets in order, and every ``<svg>`` becomes a ``/Figure`` whose ``/Alt``
#: is the SVG's own ``<title>`` child. Not the ``pdf/ua-1`` variant: that would claim a
#: conformance nobody has checked (WeasyPrint calls its PDF/UA support experimental).
PDF_OPTIONS = {"pdf_tags": True}

#: WeasyPrint's complaint about a tagged document without ``<html lang>``. Not a render
#: warning: the render is complete (with an empty ``/Lang``), and every page the site prints
#: has a language (tests/site/test_pdf_accessibility.py checks ``/Lang`` of each).
_NO_LANG = 'Missing required "lang" attribute'


class _Collect(logging.Handler):
    def __init__(self) -> None:
        super().__init__(level=logging.WARNING)
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        message = record.getMessage()
        if not message.startswith(_NO_LANG):
            self.messages.append(message)


def make_fetcher(resources: Mapping[str, tuple[bytes, str]]):
    """A WeasyPrint URL fetcher that answers only the URLs of ``resources`` (URL →
    ``(bytes, content type)``) and refuses everything else, the network above all
    (``ValueError``: WeasyPrint leaves the resource out and logs a warning)."""
    from weasyprint.urls import URLFetcher, URLFetcherResponse  # loaded with WeasyPrint

    class MappingFetcher(URLFetcher):
        def fetch(self, url, headers=None):
            found = resources.get(url)
            if found is None:
                raise ValueError(f"network access refused for {url!r}")
            data, mime = found
            return URLFetcherResponse(url, data, {"Content-Type": mime})

    return MappingFetcher()


def render_pdf(html: str) -> Rendered:
    """Render ``html`` with WeasyPrint in this process, with the static files it refers to
    read from disk (:func:`static_resources`) and nothing else reachable.

    The PDF is tagged (:data:`PDF_OPTIONS`); WeasyPrint's complaint about an ``<img>``
    without ``alt`` is a logged error, so it is among the warnings returned (a missing
    ``<html lang>`` is not: see :data:`_NO_LANG`)."""
    import weasyprint  # a second or two to load: the render pool loads it before it forks

    collect = _Collect()
    weasy_logger = logging.getLogger("weasyprint")
    weasy_logger.addHandler(collect)
    try:
        pdf = weasyprint.HTML(string=html, base_url="/",
                              url_fetcher=make_fetcher(static_resources(html))).write_pdf(**PDF_OPTIONS)
    finally:
        weasy_logger.removeHandler(collect)
    return Rendered(pdf, tuple(collect.messages), os.getpid(), os.nice(0))


#: The header by which the release step (``prerender_sheets``) asks the render pool for a
#: sheet (:func:`release_token`): a render of the release, not a reader's, so it counts
#: against no client's ``pdf`` quota.
RELEASE_HEADER = "X-Captain-Release"


def release_token() -> str:
    """The value of :data:`RELEASE_HEADER`: derived from ``SECRET_KEY``, which the release
    step and the pool share, so no reader can send it."""
    return salted_hmac("captain-dice release step", "prerender_sheets").hexdigest()


def _from_the_release(request: HttpRequest) -> bool:
    return constant_time_compare(request.headers.get(RELEASE_HEADER, ""), release_token())


def pdf_quota(request: HttpRequest) -> Callable[[], None]:
    """Refuse a client that has used up its ``pdf`` quota at once (429, nothing rendered),
    and give the render what counts it: called just before the render starts, so a request
    that fails before it (a bad paper, a cache hit) uses up none of the quota. The count
    itself decides, so clients that passed this check together still render no more than
    the quota. The release step's renders (:data:`RELEASE_HEADER`) count nothing.

    Behind nginx (:data:`RENDER_POOL_HEADER`) the site renders nothing: where the render
    would start, :class:`RenderInPool` hands the request to the render pool, which counts it."""
    if _from_the_release(request):
        return lambda: None
    check_limit(request, "pdf")
    if request.headers.get(RENDER_POOL_HEADER) == "1":
        def hand_over() -> None:
            raise RenderInPool(RENDER_POOL_LOCATION + request.get_full_path())
        return hand_over
    return lambda: hit(request, "pdf")
