"""Every PDF the site prints goes through here: WeasyPrint in one of the host's render
children at the lowest CPU priority (:mod:`tutorials.rendering.render_children`, which runs
:mod:`tutorials.rendering.pdf_worker`), so ordinary pages go first, with the static
files the page refers to read from disk (:func:`static_resources`) and nothing else
reachable: no render ever fetches ``/static/…`` from this very server, or anything from the
network. Rule sheets (:mod:`tutorials.sheets.render`) and the teaching table's card
(:mod:`tutorials.teach.card`) share it: one set of fonts, one base URL, one fetcher.
"""

from __future__ import annotations

import logging
import re
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from urllib.parse import unquote, urlsplit

from django.conf import settings
from django.contrib.staticfiles import finders
from django.contrib.staticfiles.storage import staticfiles_storage
from django.http import HttpRequest

from tutorials.rendering import render_children
from tutorials.rendering.render_limit import Lease, RenderBusy
from tutorials.web.limits import check_limit, hit

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


def render_pdf(html: str, lease: Lease | None = None, timeout: float | None = None) -> Rendered:
    """Render ``html`` in one of the host's render children at the lowest CPU priority
    (:mod:`tutorials.rendering.render_children`), with the static files it refers to read from
    disk here and nothing else reachable. While waiting, renews ``lease`` (the render
    limit's) every third of its life.

    Raises :class:`~tutorials.rendering.render_limit.RenderBusy` when the render is not done after
    ``timeout`` seconds (default ``RENDER_TIMEOUT``, what a request waits; the release step
    waits longer). A render whose child died is tried once more.
    """
    timeout = settings.RENDER_TIMEOUT if timeout is None else timeout
    resources = static_resources(html)
    try:
        try:
            return _render_in_child(html, resources, lease, timeout)
        except render_children.ChildGone:
            logger.warning("a PDF render child died mid-render; trying once more")
            return _render_in_child(html, resources, lease, timeout)
    except TimeoutError:
        logger.error("a PDF render took longer than %s s", timeout)
        raise RenderBusy() from None


def _submit(html: str, resources: dict) -> render_children.Pending:
    return render_children.submit(html, resources, settings.RENDER_LIMIT)


def _render_in_child(html: str, resources: dict, lease: Lease | None, timeout: float) -> Rendered:
    pending = _submit(html, resources)
    step = max(0.5, lease.lease_seconds / 3) if lease is not None else timeout
    deadline = time.monotonic() + timeout
    try:
        while True:
            try:
                left = max(0.0, deadline - time.monotonic())
                pdf, warnings, pid, niceness = pending.result(timeout=min(step, left))
                return Rendered(pdf, warnings, pid, niceness)
            except TimeoutError:
                if time.monotonic() >= deadline:
                    raise
                if lease is not None:
                    lease.renew()
    finally:
        pending.close()


def pdf_quota(request: HttpRequest) -> Callable[[], None]:
    """Refuse a client that has used up its ``pdf`` quota at once (429, no render slot
    taken), and give the render what counts it: called once the render holds its slot, so a
    render refused busy (503) uses up none of the quota. The count itself decides, so
    clients that passed this check together still render no more than the quota."""
    check_limit(request, "pdf")
    return lambda: hit(request, "pdf")
