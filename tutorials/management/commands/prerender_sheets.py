"""``python manage.py prerender_sheets``: the release step that fills the sheet cache.

Renders every sheet in :data:`tutorials.sheets.render.SHEETS` × every audience it is printed for
(the teaching sheets: 2 or 3-4 players, action or strategy mode) × every language × every
paper, with its preview, into ``SHEET_CACHE_DIR/<code version>/``, so the first reader after a
deploy gets a cached file instead of waiting for a render. Run it after ``collectstatic``
(production renders read the collected, hashed stylesheet), with the site's environment.

A release runs on a live host, so it renders as the site does. With ``RENDER_POOL_URL``
(the host's render pool, ``gunicorn_pdf.conf.py``) it asks the pool for each sheet in turn,
straight, not through nginx's limit: its request waits in the pool's queue behind the site's
renders, so together they never render more than the pool's ``RENDER_LIMIT`` at once, and
the pool keeps the sheet. Without it (development) it renders in its own process. A sheet
that fails (a render that logs a WeasyPrint warning is never cached, so a release never
ships unstyled sheets; a render the pool ended past ``RENDER_TIMEOUT``; no answer within
``--timeout``; a disk that cannot keep it) does not stop the others: the command goes on,
then exits non-zero naming every sheet that is not in the cache and why.
Folders of other code versions are removed unless ``--keep-old`` is given.
"""

from __future__ import annotations

import http.client
import shutil
import subprocess
import time
import urllib.error
import urllib.request
from urllib.parse import urlencode

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from tutorials.rendering.pdf import RELEASE_HEADER, release_token
from tutorials.sheets import render as sheets


class Command(BaseCommand):
    help = "Render every PDF sheet in every language and paper into the sheet cache (release step)."

    def add_arguments(self, parser):
        parser.add_argument("--force", action="store_true",
                            help="render again even where this code version's file exists")
        parser.add_argument("--keep-old", action="store_true",
                            help="keep the cache folders of other code versions")
        parser.add_argument("--timeout", type=float, default=900, metavar="SECONDS",
                            help="how long to wait for the render pool's answer for one sheet, its "
                                 "turn behind the site's renders included (default 900)")

    def handle(self, *args, force: bool, keep_old: bool, timeout: float, **options):
        version = sheets.code_version()
        languages = [code for code, _name in settings.LANGUAGES]
        started = time.perf_counter()
        rendered = kept = 0
        missing: list[str] = []
        for name in sheets.SHEETS:
            for audience in sheets.audiences_of(name):
                for lang in languages:
                    for paper in sheets.PAPERS:
                        label = f"{sheets.sheet_stem(name, audience)}-{lang}-{paper}"
                        path = sheets.cache_path(name, lang, paper, audience=audience)
                        if path.exists() and not force:
                            kept += 1
                        else:
                            failure = _render(name, lang, paper, audience, timeout)
                            if failure:
                                missing.append(f"{label} ({failure})")
                                self.stderr.write(f"{label}: not cached: {failure}")
                                continue
                            rendered += 1
                        try:
                            sheets.preview_png(name, lang, paper, audience=audience)
                        except (OSError, subprocess.SubprocessError) as error:
                            missing.append(f"{label} preview ({error})")
                            self.stderr.write(f"{label}: preview not cached: {error}")
                            continue
                        self.stdout.write(f"{label}: {path}", ending="\n")
        removed = []
        if not keep_old and sheets.CACHE_DIR.is_dir():
            for folder in sheets.CACHE_DIR.iterdir():
                if folder.is_dir() and folder.name != version:
                    shutil.rmtree(folder, ignore_errors=True)
                    removed.append(folder.name)
        summary = (f"code version {version}: {rendered} rendered, {kept} already cached, "
                   f"{len(removed)} old version(s) removed, {time.perf_counter() - started:.1f} s")
        if missing:
            raise CommandError(f"{summary}; {len(missing)} not cached: " + "; ".join(missing))
        self.stdout.write(self.style.SUCCESS(summary))


def _render(name: str, lang: str, paper: str, audience, timeout: float) -> str:
    """Render one sheet into the cache, by the host's render pool if there is one (else
    here); what went wrong, or "" when it is kept."""
    if settings.RENDER_POOL_URL:
        return _ask_pool(name, lang, paper, audience, timeout)
    return _render_here(name, lang, paper, audience)


def _render_here(name: str, lang: str, paper: str, audience) -> str:
    """Render one sheet into the cache in this process; what went wrong, or "" when it is kept."""
    try:
        result = sheets.render_sheet(name, lang, paper, audience=audience)
    except Exception as error:  # whatever else failed, the other sheets still render
        return f"the render failed: {type(error).__name__}: {error}"
    if result.warnings:
        return "rendered with warnings: " + "; ".join(result.warnings)
    try:
        sheets.store(sheets.cache_path(name, lang, paper, audience=audience), result.pdf)
    except OSError as error:
        return f"could not be written: {error}"
    sheets.cache_path(name, lang, paper, "png", audience=audience).unlink(missing_ok=True)
    return ""


def _ask_pool(name: str, lang: str, paper: str, audience, timeout: float) -> str:
    """Have the host's render pool render one sheet into the cache (the sheet's own address,
    which renders and keeps it); what went wrong, or "" when it is kept."""
    path = sheets.cache_path(name, lang, paper, audience=audience)
    path.unlink(missing_ok=True)  # the pool answers a kept sheet without rendering it
    sheets.cache_path(name, lang, paper, "png", audience=audience).unlink(missing_ok=True)
    query = urlencode({"paper": paper, **audience.query()})
    request = urllib.request.Request(f"{settings.RENDER_POOL_URL}/{lang}/sheets/{name}.pdf?{query}", headers={
        # as nginx passes a request on: the site's host name, over HTTPS
        "Host": _site_host(), "X-Forwarded-Proto": "https", RELEASE_HEADER: release_token()})
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            response.read()
    except urllib.error.HTTPError as error:
        return f"the render pool answered {error.code}"
    except (OSError, http.client.HTTPException) as error:
        # a worker ended past RENDER_TIMEOUT drops the connection
        return f"no answer from the render pool at {settings.RENDER_POOL_URL}: {error}"
    if not path.exists():
        return "the render pool served it but did not keep it (rendered with warnings, or its disk " \
               "could not keep it: see the pool's log)"
    return ""


def _site_host() -> str:
    """A host name the site answers to (``ALLOWED_HOSTS``), for the requests to the pool."""
    named = [host for host in settings.ALLOWED_HOSTS if host not in ("*", "") and not host.startswith(".")]
    return named[0] if named else "localhost"
