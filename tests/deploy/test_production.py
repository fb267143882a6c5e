"""The deployed configuration, run the way the README's "Production" section runs it.

In subprocesses with the production environment (secret key set, so DEBUG is off and the
manifest static storage hashes file names): ``migrate``, ``collectstatic`` into a temporary
``STATIC_ROOT``, the release step ``prerender_sheets``, then gunicorn with two workers.
Every sheet in the registry × ja/en/de × A4/Letter and the analyzer's position PDF must
come out like the same PDF rendered under DEBUG (page count, embedded fonts), the sheets
straight from the cache the release step filled, and no process may log a WeasyPrint
warning or a refused fetch.
"""

from __future__ import annotations

import os
import re
import secrets
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path

import pytest
from django.conf import settings

from tutorials.sheets import PAPERS, SHEETS

BASE_DIR = Path(settings.BASE_DIR)
LANGUAGES = [code for code, _name in settings.LANGUAGES]
POSITION = ("Rbgw_11r1.12g2.13g5.14w4-15w1.16b0.22w2.23b4-24r0.25g4.26r5.33w5-34b1.35b2.36g1.44r2")
# One combination the release step's cache does not hold when the server starts, so a
# worker renders it under the production settings itself.
RENDERED_LIVE = ("reference", "ja", "a4")
# What a log line looks like when WeasyPrint could not load something, or anything failed.
LOG_TROUBLE = re.compile(r"weasyprint|failed to load|refused|warning|traceback|error", re.IGNORECASE)


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _base_env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("DJANGO_") and k != "DATABASE_URL"}
    env["DJANGO_SETTINGS_MODULE"] = "captain.settings"
    env["PYTHONUNBUFFERED"] = "1"
    return env


def _manage(*args: str, env: dict[str, str], **kwargs) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "manage.py", *args], cwd=BASE_DIR, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, **kwargs)


def _finish(process: subprocess.Popen, what: str, timeout: float = 600) -> str:
    output, _ = process.communicate(timeout=timeout)
    assert process.returncode == 0, f"{what} failed:\n{output}"
    return output


@dataclass
class Production:
    """A running production-configured server and what the release step left behind."""

    url: str
    log: Path
    sheet_dir: Path          # the production sheet cache, this code version's folder
    debug_sheet_dir: Path    # the same sheets rendered under DEBUG settings
    cache_before: dict[str, tuple[int, int]]  # file name -> (inode, mtime_ns) at start
    release_output: str

    def get(self, path: str) -> tuple[int, dict[str, str], bytes]:
        request = urllib.request.Request(self.url + path, headers={
            # what the README's HTTPS proxy adds; without it the SSL redirect answers
            "X-Forwarded-Proto": "https"})
        try:
            with urllib.request.urlopen(request, timeout=120) as response:
                return response.status, dict(response.headers), response.read()
        except urllib.error.HTTPError as exc:
            return exc.code, dict(exc.headers), exc.read()

    def log_size(self) -> int:
        return self.log.stat().st_size

    def log_since(self, offset: int) -> str:
        with self.log.open("rb") as fh:
            fh.seek(offset)
            return fh.read().decode(errors="replace")


@pytest.fixture(scope="module")
def production(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("production")
    env = {**_base_env(),
           "DJANGO_SECRET_KEY": secrets.token_urlsafe(50),
           "DJANGO_ALLOWED_HOSTS": "127.0.0.1",
           "DJANGO_CSRF_TRUSTED_ORIGINS": "https://127.0.0.1",
           "DATABASE_URL": f"sqlite:///{tmp / 'db.sqlite3'}",
           "DJANGO_STATIC_ROOT": str(tmp / "static"),
           "DJANGO_SHEET_CACHE_DIR": str(tmp / "sheets")}
    debug_env = {**_base_env(), "DJANGO_SHEET_CACHE_DIR": str(tmp / "debug-sheets")}

    # The DEBUG reference renders run beside the release steps (two cores, half the wait).
    reference = _manage("prerender_sheets", env=debug_env)
    # The README's release steps (translations are compiled by bin/setup already).
    _finish(_manage("migrate", "--noinput", env=env), "migrate")
    _finish(_manage("collectstatic", "--noinput", env=env), "collectstatic")
    assert any(re.fullmatch(r"sheet\.[0-9a-f]{12}\.css", p.name) for p in (tmp / "static" / "css").iterdir()), \
        "collectstatic did not write hashed names: is the manifest storage on?"
    release_output = _finish(_manage("prerender_sheets", env=env), "prerender_sheets (production)")
    _finish(reference, "prerender_sheets (DEBUG)")

    [sheet_dir] = [p for p in (tmp / "sheets").iterdir() if p.is_dir()]
    [debug_sheet_dir] = [p for p in (tmp / "debug-sheets").iterdir() if p.is_dir()]
    assert sheet_dir.name == debug_sheet_dir.name, "production and DEBUG disagree on the code version"
    name, lang, paper = RENDERED_LIVE
    for suffix in ("pdf", "png"):
        (sheet_dir / f"{name}-{lang}-{paper}.{suffix}").unlink()
    cache_before = {p.name: (p.stat().st_ino, p.stat().st_mtime_ns) for p in sheet_dir.iterdir()}

    port = _free_port()
    log = tmp / "gunicorn.log"
    with log.open("wb") as log_file:
        server = subprocess.Popen(
            [sys.executable, "-m", "gunicorn", "captain.wsgi", "--bind", f"127.0.0.1:{port}",
             "--workers", "2", "--timeout", "120"],
            cwd=BASE_DIR, env=env, stdout=log_file, stderr=subprocess.STDOUT)
    try:
        url = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 60
        while True:
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=1):
                    break
            except OSError:
                if server.poll() is not None or time.monotonic() > deadline:
                    pytest.fail(f"gunicorn did not start:\n{log.read_text()}")
                time.sleep(0.2)
        yield Production(url, log, sheet_dir, debug_sheet_dir, cache_before, release_output)
    finally:
        server.terminate()
        server.wait(timeout=30)


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
