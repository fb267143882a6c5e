"""The deployed configuration, run the way docs/production.md runs it.

In subprocesses with the production environment (secret key set, so DEBUG is off and the
manifest static storage hashes file names): ``migrate``, ``collectstatic`` into a temporary
``STATIC_ROOT``, the release step ``prerender_sheets``, then gunicorn with two workers
(the ``release`` fixture and :func:`serve` in ``conftest.py``).
Every sheet in the registry × ja/en/de × A4/Letter and the analyzer's position PDF must
come out like the same PDF rendered under DEBUG (page count, embedded fonts), the sheets
straight from the cache the release step filled, and no process may log a WeasyPrint
warning or a refused fetch. Every teaching sheet's version for each audience prints within
its page range with its audience's subtitle.
"""

from __future__ import annotations

import re
import secrets
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest
from django.conf import settings
from django.utils import translation

from harness import Server, base_env, finish, manage, serve
from tutorials.sheets.content import AUDIENCE_SHEETS
from tutorials.sheets.render import PAPERS, SHEETS
from tutorials.tutorial.audience import AUDIENCE_NAMES, AUDIENCES, DEFAULT_AUDIENCE

LANGUAGES = [code for code, _name in settings.LANGUAGES]
POSITION = ("Rbgw_11r1.12g2.13g5.14w4-15w1.16b0.22w2.23b4-24r0.25g4.26r5.33w5-34b1.35b2.36g1.44r2")
# One combination the release step's cache does not hold when the server starts, so a
# worker renders it under the production settings itself.
RENDERED_LIVE = ("reference", "ja", "a4")
# What a log line looks like when WeasyPrint could not load something, or anything failed.
LOG_TROUBLE = re.compile(r"weasyprint|failed to load|refused|warning|traceback|error", re.IGNORECASE)


@dataclass
class Production:
    """The running production-configured server and what the release step left behind."""

    server: Server
    sheet_dir: Path          # the production sheet cache, this code version's folder
    debug_sheet_dir: Path    # the same sheets rendered under DEBUG settings
    cache_before: dict[str, tuple[int, int]]  # file name -> (inode, mtime_ns) at start
    release_output: str

    def get(self, path: str) -> tuple[int, dict[str, str], bytes]:
        return self.server.get(path)

    def log_size(self) -> int:
        return self.server.log_size()

    def log_since(self, offset: int) -> str:
        return self.server.log_since(offset)


@pytest.fixture(scope="module")
def debug_reference(tmp_path_factory):
    """The sheets rendered under DEBUG settings, started first so that the DEBUG renders
    run beside the release steps (two cores, half the wait); the process is returned."""
    tmp = tmp_path_factory.mktemp("debug-sheets")
    return tmp, manage("prerender_sheets", env={**base_env(), "DJANGO_SHEET_CACHE_DIR": str(tmp)})


@pytest.fixture(scope="module")
def production(debug_reference, release):
    debug_tmp, reference = debug_reference
    finish(reference, "prerender_sheets (DEBUG)")
    sheet_dir = release.sheet_dir
    [debug_sheet_dir] = [p for p in debug_tmp.iterdir() if p.is_dir()]
    assert sheet_dir.name == debug_sheet_dir.name, "production and DEBUG disagree on the code version"
    name, lang, paper = RENDERED_LIVE
    for suffix in ("pdf", "png"):
        (sheet_dir / f"{name}-{lang}-{paper}.{suffix}").unlink(missing_ok=True)
    cache_before = {p.name: (p.stat().st_ino, p.stat().st_mtime_ns) for p in sheet_dir.iterdir()}
    with serve(release, workers=2) as server:
        yield Production(server, sheet_dir, debug_sheet_dir, cache_before, release.output)


def _pdf_facts(data: bytes, tmp_path: Path) -> tuple[int, list[tuple[str, str]]]:
    """(page count, sorted [(font name without subset prefix, embedded yes/no)])."""
    pdf = tmp_path / f"facts-{secrets.token_hex(4)}.pdf"
    pdf.write_bytes(data)
    info = subprocess.run(["pdfinfo", str(pdf)], capture_output=True, text=True, check=True).stdout
    pages = int(re.search(r"^Pages:\s+(\d+)", info, re.MULTILINE).group(1))
    listing = subprocess.run(["pdffonts", str(pdf)], capture_output=True, text=True, check=True).stdout
    fonts = []
    for line in listing.splitlines()[2:]:
        columns = line.split()
        name = columns[0].split("+", 1)[-1]
        embedded = columns[-5]
        fonts.append((name, embedded))
    return pages, sorted(set(fonts))


def test_release_step_reported_every_sheet(production):
    for name in SHEETS:
        for lang in LANGUAGES:
            for paper in PAPERS:
                assert f"{name}-{lang}-{paper}:" in production.release_output
    assert not LOG_TROUBLE.search(production.release_output), production.release_output


@pytest.mark.parametrize("paper", list(PAPERS))
@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("name", list(SHEETS))
def test_sheet_in_production(production, tmp_path, name, lang, paper):
    offset = production.log_size()
    status, headers, body = production.get(f"/{lang}/sheets/{name}.pdf?paper={paper}")
    assert status == 200, body[:500]
    assert headers["Content-Type"] == "application/pdf"
    debug_pdf = (production.debug_sheet_dir / f"{name}-{lang}-{paper}.pdf").read_bytes()
    pages, fonts = _pdf_facts(body, tmp_path)
    assert (pages, fonts) == _pdf_facts(debug_pdf, tmp_path), "production PDF differs from DEBUG"
    assert all(embedded == "yes" for _font, embedded in fonts), fonts
    if lang == "ja":
        assert any("CJK" in font for font, _ in fonts), fonts
    else:  # Latin text in the Latin font (Debian's fonts-noto-core on the host)
        assert any(font in ("Noto-Sans", "Noto-Sans-Bold") for font, _ in fonts), fonts

    cached = production.sheet_dir / f"{name}-{lang}-{paper}.pdf"
    if (name, lang, paper) == RENDERED_LIVE:
        assert cached.exists(), "a clean production render was not cached"
    else:
        stat = cached.stat()
        assert (stat.st_ino, stat.st_mtime_ns) == production.cache_before[cached.name], \
            "the first request after the release step rendered the sheet again"
    # preview images come from the same cache
    status, headers, png = production.get(f"/{lang}/sheets/{name}.png?paper={paper}")
    assert status == 200 and png.startswith(b"\x89PNG")
    trouble = [line for line in production.log_since(offset).splitlines() if LOG_TROUBLE.search(line)]
    assert not trouble, trouble


@pytest.mark.parametrize("paper", list(PAPERS))
@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("audience", AUDIENCES, ids=lambda t: t.slug)
@pytest.mark.parametrize("name", AUDIENCE_SHEETS)
def test_every_table_version_prints_in_its_page_range(production, tmp_path, name, audience, lang, paper):
    """Each teaching sheet's version for each audience, as the release step rendered it:
    within the sheet's page range, its subtitle naming the audience."""
    stem = name if audience == DEFAULT_AUDIENCE else f"{name}-{audience.slug}"
    data = (production.sheet_dir / f"{stem}-{lang}-{paper}.pdf").read_bytes()
    pages, _fonts = _pdf_facts(data, tmp_path)
    low, high = SHEETS[name].pages
    assert low <= pages <= high, (stem, lang, paper, pages)
    pdf = tmp_path / "version.pdf"
    pdf.write_bytes(data)
    text = " ".join(subprocess.run(["pdftotext", str(pdf), "-"], capture_output=True, text=True,
                                   check=True).stdout.split())
    with translation.override(lang):
        subtitle = str(AUDIENCE_NAMES[audience.players, audience.mode])
    assert subtitle in (text.replace(" ", "") if lang == "ja" else text), (stem, lang, subtitle)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_position_pdf_in_production(production, tmp_path, lang, client):
    offset = production.log_size()
    status, headers, body = production.get(f"/{lang}/analyze/position.pdf?pos={POSITION}")
    assert status == 200, body[:500]
    assert headers["Content-Type"] == "application/pdf"
    debug = client.get(f"/{lang}/analyze/position.pdf", {"pos": POSITION})
    assert debug.status_code == 200
    assert _pdf_facts(body, tmp_path) == _pdf_facts(debug.content, tmp_path)
    trouble = [line for line in production.log_since(offset).splitlines() if LOG_TROUBLE.search(line)]
    assert not trouble, trouble
