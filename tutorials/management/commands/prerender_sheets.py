"""``python manage.py prerender_sheets``: the release step that fills the sheet cache.

Renders every sheet in :data:`tutorials.sheets.render.SHEETS` × every table it is printed for
(the teaching sheets: 2 or 3-4 players, action or strategy mode) × every language × every
paper, with its preview, into ``SHEET_CACHE_DIR/<code version>/``, so the first reader after a
deploy gets a cached file instead of waiting for a render. Run it after ``collectstatic``
(production renders read the collected, hashed stylesheet). Fails — and caches nothing for
that sheet — when a render logs a WeasyPrint warning, so a release never ships unstyled
sheets. Folders of other code versions are removed unless ``--keep-old`` is given.
"""

from __future__ import annotations

import shutil
import time

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from tutorials.sheets import render as sheets


class Command(BaseCommand):
    help = "Render every PDF sheet in every language and paper into the sheet cache (release step)."

    def add_arguments(self, parser):
        parser.add_argument("--force", action="store_true",
                            help="render again even where this code version's file exists")
        parser.add_argument("--keep-old", action="store_true",
                            help="keep the cache folders of other code versions")

    def handle(self, *args, force: bool, keep_old: bool, **options):
        version = sheets.code_version()
        languages = [code for code, _name in settings.LANGUAGES]
        started = time.perf_counter()
        rendered = kept = 0
        for name in sheets.SHEETS:
            for table in sheets.tables_of(name):
                for lang in languages:
                    for paper in sheets.PAPERS:
                        path = sheets.cache_path(name, lang, paper, table=table)
                        if path.exists() and not force:
                            kept += 1
                        else:
                            result = sheets.render_sheet(name, lang, paper, table=table)
                            if result.warnings:
                                raise CommandError(
                                    f"{path.stem} rendered with warnings, not cached: "
                                    + "; ".join(result.warnings))
                            sheets.store(path, result.pdf)
                            sheets.cache_path(name, lang, paper, "png", table=table).unlink(missing_ok=True)
                            rendered += 1
                        sheets.preview_png(name, lang, paper, table=table)
                        label = f"{sheets.sheet_stem(name, table)}-{lang}-{paper}"
                        self.stdout.write(f"{label}: {path}", ending="\n")
        removed = []
        if not keep_old:
            for folder in sheets.CACHE_DIR.iterdir():
                if folder.is_dir() and folder.name != version:
                    shutil.rmtree(folder, ignore_errors=True)
                    removed.append(folder.name)
        self.stdout.write(self.style.SUCCESS(
            f"code version {version}: {rendered} rendered, {kept} already cached, "
            f"{len(removed)} old version(s) removed, {time.perf_counter() - started:.1f} s"))
