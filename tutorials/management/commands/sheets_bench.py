"""``python manage.py sheets_bench``: cold and warm times per sheet and language."""

from __future__ import annotations

import tempfile
import time
from pathlib import Path

from django.core.management.base import BaseCommand

from tutorials.sheets import render as sheets


class Command(BaseCommand):
    help = "Print cold (render) and warm (cache) times for every sheet and language."

    def add_arguments(self, parser):
        parser.add_argument("--paper", choices=sorted(sheets.PAPERS), default="a4")

    def handle(self, *args, paper: str, **options):
        original = sheets.CACHE_DIR
        with tempfile.TemporaryDirectory() as tmp:
            sheets.CACHE_DIR = Path(tmp)
            try:
                self.stdout.write(f"{'sheet':<10} {'lang':<4} {'cold s':>8} {'warm ms':>8} {'KiB':>6}")
                for name in sheets.SHEETS:
                    for lang in ("ja", "en", "de"):
                        t = time.perf_counter()
                        data = sheets.sheet_pdf(name, lang, paper)
                        cold = time.perf_counter() - t
                        t = time.perf_counter()
                        sheets.sheet_pdf(name, lang, paper)
                        warm = time.perf_counter() - t
                        self.stdout.write(f"{name:<10} {lang:<4} {cold:>8.2f} {warm * 1000:>8.2f} "
                                          f"{len(data) / 1024:>6.0f}")
            finally:
                sheets.CACHE_DIR = original
