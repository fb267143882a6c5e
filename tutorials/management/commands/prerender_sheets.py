"""``python manage.py prerender_sheets``: the release step that fills the sheet cache.

Renders every sheet in :data:`tutorials.sheets.render.SHEETS` × every audience it is printed for
(the teaching sheets: 2 or 3-4 players, action or strategy mode) × every language × every
paper, with its preview, into ``SHEET_CACHE_DIR/<code version>/``, so the first reader after a
deploy gets a cached file instead of waiting for a render. Run it after ``collectstatic``
(production renders read the collected, hashed stylesheet), with the site's environment.

A release runs on a live host, so it renders as the site does: each render takes one of the
host's render slots (the same ``RENDER_LIMIT`` the site's renders share), and when every
slot is taken it waits its turn (``--wait``) instead of giving up; a render may take
``--timeout`` seconds, not a request's ``RENDER_TIMEOUT``. A sheet that fails (a render that
logs a WeasyPrint warning is never cached, so a release never ships unstyled sheets; a
render that takes too long; a disk that cannot keep it) does not stop the others: the
command goes on, then exits non-zero naming every sheet that is not in the cache and why.
Folders of other code versions are removed unless ``--keep-old`` is given.
"""

from __future__ import annotations

import shutil
import subprocess
import time

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from tutorials.rendering.render_limit import RenderBusy, render_slot_in_turn
from tutorials.sheets import render as sheets


class Command(BaseCommand):
    help = "Render every PDF sheet in every language and paper into the sheet cache (release step)."

    def add_arguments(self, parser):
        parser.add_argument("--force", action="store_true",
                            help="render again even where this code version's file exists")
        parser.add_argument("--keep-old", action="store_true",
                            help="keep the cache folders of other code versions")
        parser.add_argument("--wait", type=float, default=900, metavar="SECONDS",
                            help="how long each render waits for a free render slot (default 900)")
        parser.add_argument("--timeout", type=float, default=600, metavar="SECONDS",
                            help="how long one render may take (default 600)")

    def handle(self, *args, force: bool, keep_old: bool, wait: float, timeout: float, **options):
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
                            failure = self._render(name, lang, paper, audience, wait, timeout)
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

    @staticmethod
    def _render(name: str, lang: str, paper: str, audience, wait: float, timeout: float) -> str:
        """Render one sheet into the cache, in its turn; what went wrong, or "" when it is kept."""
        path = sheets.cache_path(name, lang, paper, audience=audience)
        holding = False
        try:
            with render_slot_in_turn(wait) as lease:
                holding = True
                result = sheets.render_sheet(name, lang, paper, lease, audience=audience, timeout=timeout)
        except RenderBusy:
            if holding:
                return f"the render took over {timeout:.0f} s"
            return f"no render slot came free in {wait:.0f} s"
        except Exception as error:  # whatever else failed, the other sheets still render
            return f"the render failed: {type(error).__name__}: {error}"
        if result.warnings:
            return "rendered with warnings: " + "; ".join(result.warnings)
        try:
            sheets.store(path, result.pdf)
        except OSError as error:
            return f"could not be written: {error}"
        sheets.cache_path(name, lang, paper, "png", audience=audience).unlink(missing_ok=True)
        return ""
