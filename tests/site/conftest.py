"""Fixtures of the site tests.

``clock``: the practice games' clock, moved by the test instead of waiting.

``sheet_renders``: every printable sheet is rendered once per test process, through the
site, and the sheet, accessibility and preview tests read the one render. Every test of
one sheet joins that sheet's pytest-xdist group, so a parallel run renders each sheet
once too, and the sheets spread over the workers.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path

import pytest
from django.test import Client
from django.utils import timezone

from tutorials.practice import games
from tutorials.sheets import render as sheets


@pytest.fixture
def clock(monkeypatch):
    """The server's clock, moved by the test: ``clock.wait(seconds)``."""

    class Clock:
        now = timezone.now()

        def wait(self, seconds: float) -> None:
            self.now += timedelta(seconds=seconds)

    fake = Clock()
    monkeypatch.setattr(games, "_now", lambda now=None: now if now is not None else fake.now)
    return fake


@dataclass(frozen=True)
class SheetRender:
    """One sheet as the site served it, the HTML it was rendered from, and the warnings
    WeasyPrint gave while rendering it (collected from WeasyPrint's log by the render itself)."""

    status: int
    content_type: str
    data: bytes
    html: str
    warnings: tuple[str, ...]


class SheetRenders:
    """``get(name, lang, paper)`` renders into a fresh cache (:attr:`cache_dir`) on first use."""

    def __init__(self, cache_dir: Path) -> None:
        self.cache_dir = cache_dir
        self._done: dict[tuple[str, str, str], SheetRender] = {}

    def get(self, name: str, lang: str, paper: str = "a4") -> SheetRender:
        key = (name, lang, paper)
        if key not in self._done:
            rendered: list[tuple[str, sheets.Rendered]] = []
            real_render = sheets.render_pdf

            def recording_render(html):
                result = real_render(html)
                rendered.append((html, result))
                return result

            with pytest.MonkeyPatch.context() as patch:
                patch.setattr(sheets, "CACHE_DIR", self.cache_dir)
                patch.setattr(sheets, "render_pdf", recording_render)
                response = Client().get(f"/{lang}/sheets/{name}.pdf?paper={paper}")
            assert len(rendered) == 1, f"{key}: expected exactly one render, got {len(rendered)}"
            html, result = rendered[0]
            self._done[key] = SheetRender(response.status_code, response.get("Content-Type", ""),
                                          response.content, html, tuple(result.warnings))
        return self._done[key]


def _sheet_of(item: pytest.Item) -> str:
    """The sheet a test reads: its ``name`` parameter, or a ``what`` like ``sheet:rules``;
    the quick reference for the tests that name none."""
    params = getattr(getattr(item, "callspec", None), "params", {})
    what = str(params.get("what", ""))
    return params.get("name") or (what.split(":", 1)[1] if what.startswith("sheet:") else "reference")


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(items):
    for item in items:
        if "sheet_renders" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.xdist_group(f"sheet-{_sheet_of(item)}"))


@pytest.fixture(scope="session")
def sheet_renders(tmp_path_factory) -> Iterator[SheetRenders]:
    yield SheetRenders(tmp_path_factory.mktemp("sheet-renders"))
