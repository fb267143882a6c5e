"""The sheet cache: its key follows every input, it never keeps a render with warnings,
the fetcher reads hashed static names from disk, and the release step fills the cache."""

from __future__ import annotations

import errno
import http.server
import logging
import os
import shutil
import stat
import threading

import pytest
from django.conf import settings
from django.contrib.staticfiles.storage import staticfiles_storage
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import Client, override_settings

from tutorials.rendering import pdf
from tutorials.rendering.pdf import RELEASE_HEADER, release_token
from tutorials.sheets import render as sheets

MANIFEST = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.ManifestStaticFilesStorage"},
}


@pytest.fixture
def cache_dir(tmp_path, monkeypatch):
    monkeypatch.setattr(sheets, "CACHE_DIR", tmp_path / "sheets")
    return tmp_path / "sheets"


# --- the cache key ------------------------------------------------------------------------------
def _tree(base):
    for rel, text in {"tutorials/analyzer/deep/edits.py": "A = 1\n", "templates/sheets/x.html": "<p>",
                      "static/css/sheet.css": "p {}", "locale/de/LC_MESSAGES/django.mo": "mo",
                      "captain/rules/resolve/battle.py": "B = 1\n"}.items():
        path = base / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


def test_key_changes_with_a_nested_module(tmp_path):
    _tree(tmp_path)
    before = sheets.tree_digest(tmp_path)
    assert sheets.tree_digest(tmp_path) == before  # stable
    (tmp_path / "tutorials/analyzer/deep/edits.py").write_text("A = 2\n")
    assert sheets.tree_digest(tmp_path) != before


@pytest.mark.parametrize("rel", ["captain/rules/resolve/battle.py", "templates/sheets/x.html",
                                 "static/css/sheet.css", "locale/de/LC_MESSAGES/django.mo"])
def test_key_changes_with_every_kind_of_input(tmp_path, rel):
    _tree(tmp_path)
    before = sheets.tree_digest(tmp_path)
    (tmp_path / rel).write_text("changed")
    assert sheets.tree_digest(tmp_path) != before


def test_key_changes_when_a_module_moves_and_ignores_bytecode(tmp_path):
    _tree(tmp_path)
    before = sheets.tree_digest(tmp_path)
    cache = tmp_path / "tutorials/analyzer/deep/__pycache__"
    cache.mkdir()
    (cache / "edits.cpython-313.pyc").write_bytes(b"\0\1")
    assert sheets.tree_digest(tmp_path) == before
    (tmp_path / "tutorials/analyzer/deep/edits.py").rename(tmp_path / "tutorials/analyzer/edits.py")
    assert sheets.tree_digest(tmp_path) != before


def test_key_covers_every_module_of_the_real_tree():
    base = settings.BASE_DIR
    inputs = set(sheets.sheet_input_files(base))
    modules = {p for root in ("captain", "tutorials") for p in (base / root).rglob("*.py")
               if "__pycache__" not in p.parts}
    assert modules <= inputs
    assert any(len(p.relative_to(base).parts) >= 4 for p in modules & inputs)  # nested packages
    assert base / "static/css/sheet.css" in inputs


# --- never cache a render with warnings ----------------------------------------------------------
def test_render_with_warnings_is_served_but_not_cached(cache_dir, monkeypatch, caplog):
    monkeypatch.setattr(pdf, "static_file_for", lambda url: None)  # the stylesheet cannot load
    with caplog.at_level(logging.ERROR, logger="tutorials.sheets.render"):
        data = sheets.sheet_pdf("reference", "en", "a4")
    assert data.startswith(b"%PDF")
    assert not sheets.cache_path("reference", "en", "a4").exists()
    assert any("not cached" in r.getMessage() and "sheet" in r.getMessage() for r in caplog.records)
    sheets.preview_png("reference", "en", "a4")
    assert not sheets.cache_path("reference", "en", "a4", "png").exists()


def test_a_table_version_with_warnings_is_not_cached_either(cache_dir, monkeypatch, caplog):
    monkeypatch.setattr(pdf, "static_file_for", lambda url: None)
    audience = sheets.Audience(2, "strategy")
    with caplog.at_level(logging.ERROR, logger="tutorials.sheets.render"):
        assert sheets.sheet_pdf("quick-start", "ja", "letter", audience=audience).startswith(b"%PDF")
    assert not sheets.cache_path("quick-start", "ja", "letter", audience=audience).exists()
    assert any("quick-start-2-strategy-ja-letter" in r.getMessage() for r in caplog.records)


def test_clean_render_is_cached(cache_dir):
    sheets.sheet_pdf("reference", "de", "letter")
    assert sheets.cache_path("reference", "de", "letter").read_bytes().startswith(b"%PDF")


# --- position PDFs, kept like the sheets ---------------------------------------------------------
POSITION = "Rbg_11.13r3.22.14-15.16b1.23.24r2-26.33.34g1.35-36g0.44.45.46"


@pytest.fixture
def counted_renders(cache_dir, monkeypatch):
    """The renders, counted: a stand-in PDF per render, naming the render."""
    calls: list[str] = []

    def fake(html):
        calls.append(html)
        return pdf.Rendered(f"%PDF-stand-in {len(calls)}".encode(), ())

    monkeypatch.setattr(sheets, "render_pdf", fake)
    return calls


@pytest.mark.django_db
def test_a_position_pdf_is_rendered_once_then_kept(client, counted_renders):
    url = f"/en/analyze/position.pdf?pos={POSITION}"
    first = client.get(url)
    second = client.get(url)
    assert first.status_code == second.status_code == 200
    assert second.content == first.content == b"%PDF-stand-in 1"
    assert len(counted_renders) == 1
    assert list(sheets.CACHE_DIR.glob(f"{sheets.code_version()}/positions/*-en-a4.pdf"))


@pytest.mark.django_db
def test_each_language_paper_and_saved_title_is_its_own_pdf(client, counted_renders):
    from tutorials.services import save_position

    saved, _situation = save_position(POSITION, "Regelheft, Seite 6")
    untitled, _situation = save_position(POSITION, "")
    urls = [f"/en/analyze/position.pdf?pos={POSITION}", f"/de/analyze/position.pdf?pos={POSITION}",
            f"/en/analyze/position.pdf?pos={POSITION}&paper=letter",
            f"/en/analyze/position.pdf?pos={POSITION}&saved={saved.code}",
            f"/en/analyze/position.pdf?pos={POSITION}&saved={untitled.code}"]
    bodies = [client.get(url).content for url in urls + urls]
    assert len(counted_renders) == len(urls)
    assert bodies[:len(urls)] == bodies[len(urls):]
    assert len(set(bodies)) == len(urls)
    assert "Regelheft, Seite 6" in counted_renders[3] and "Regelheft" not in counted_renders[4]


@pytest.mark.django_db
def test_a_kept_position_pdf_counts_no_quota(client, counted_renders, settings):
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "pdf": "1/d"}
    url = f"/de/analyze/position.pdf?pos={POSITION}"
    assert client.get(url, REMOTE_ADDR="10.20.30.50").status_code == 200
    assert [client.get(url, REMOTE_ADDR="10.20.30.50").status_code for _ in range(3)] == [200] * 3
    assert len(counted_renders) == 1
    other = f"/de/analyze/position.pdf?pos={POSITION}&paper=letter"
    assert client.get(other, REMOTE_ADDR="10.20.30.50").status_code == 429  # not kept: a render


def test_a_position_pdf_with_warnings_is_served_but_not_kept(cache_dir, monkeypatch, caplog):
    from captain.rules import notation

    monkeypatch.setattr(pdf, "static_file_for", lambda url: None)  # the stylesheet cannot load
    which = {"lang": "en", "paper": "a4", "share_url": "https://example.org/p/x/"}
    situation = notation.parse(POSITION)
    with caplog.at_level(logging.ERROR, logger="tutorials.sheets.render"):
        assert sheets.position_pdf(situation, **which).startswith(b"%PDF")
    assert not sheets.position_cache_path(situation, **which).exists()
    assert any("not cached" in r.getMessage() for r in caplog.records)


# --- the fetcher ------------------------------------------------------------------------------------
def test_fetcher_reads_hashed_names_of_the_manifest_storage(tmp_path):
    with override_settings(STATIC_ROOT=tmp_path / "static", STORAGES=MANIFEST, DEBUG=False):
        call_command("collectstatic", "--noinput", verbosity=0)
        hashed = staticfiles_storage.url("css/sheet.css")
        assert hashed != "/static/css/sheet.css"
        resources = pdf.static_resources(f'<link rel="stylesheet" href="{hashed}">')
        data, mime = resources["file://" + hashed]
        assert b"@page" in data and mime == "text/css"
    shutil.rmtree(tmp_path / "static")


@pytest.mark.parametrize("url", [
    "https://example.org/static/css/sheet.css",
    "http://localhost/static/css/sheet.css",
    "file://evil.example/static/css/sheet.css",
    "file:///etc/passwd",
    "file:///static/../captain/settings.py",
    "file:///static/%2e%2e/captain/settings.py",
    "file:///static/css/no-such.1234567890ab.css",
    "file:///static/",
])
def test_fetcher_refuses_everything_else(url):
    assert pdf.static_file_for(url) is None


def test_a_render_refuses_what_is_not_a_static_file():
    rendered = pdf.render_pdf('<link rel="stylesheet" href="https://example.org/x.css"><p>x</p>')
    assert rendered.pdf.startswith(b"%PDF") and any("refused" in w for w in rendered.warnings)


def test_renders_run_in_the_process_that_serves_the_request():
    """The render pool in production (tests/deploy/test_render_pool.py), here the tests'."""
    import os

    rendered = pdf.render_pdf('<link rel="stylesheet" href="/static/css/sheet.css"><p>x</p>')
    assert rendered.pdf.startswith(b"%PDF") and rendered.warnings == ()
    assert rendered.pid == os.getpid() and rendered.niceness == os.nice(0)


# --- the release step -----------------------------------------------------------------------------
@pytest.fixture
def fast_render(monkeypatch):
    """A real, tiny PDF instead of the sheet, so the command's own logic is what is tested."""
    import weasyprint

    tiny = weasyprint.HTML(string="<p>x</p>").write_pdf()
    calls = []

    def render(name, lang, paper="a4", *, audience=sheets.DEFAULT_AUDIENCE):
        calls.append((name, audience, lang, paper))
        return sheets.Rendered(tiny, ())

    monkeypatch.setattr(sheets, "render_sheet", render)
    return calls


def test_release_step_renders_every_combination_and_serves_hits(cache_dir, fast_render, client, monkeypatch):
    old = cache_dir / "0123456789ab"
    old.mkdir(parents=True)
    (old / "rules-en-a4.pdf").write_bytes(b"%PDF-old")
    call_command("prerender_sheets", verbosity=0)
    expected = {(n, t, lang, p) for n in sheets.SHEETS for t in sheets.audiences_of(n)
                for lang, _ in settings.LANGUAGES for p in sheets.PAPERS}
    # the teaching sheets once per audience: 2 or 3-4 players, action or strategy mode
    assert {t for n, t, _l, _p in expected if n == "quick-start"} == set(sheets.AUDIENCES)
    assert len(sheets.AUDIENCES) == 4
    assert set(fast_render) == expected and len(fast_render) == len(expected)
    for name, audience, lang, paper in expected:
        assert sheets.cache_path(name, lang, paper, audience=audience).exists()
        assert sheets.cache_path(name, lang, paper, "png", audience=audience).exists()
    assert not old.exists(), "old code versions are pruned"

    # the first request after the release step renders nothing
    def no_render(*args, **kwargs):
        raise AssertionError("rendered although the release step cached it")

    monkeypatch.setattr(sheets, "render_sheet", no_render)
    for lang, _ in settings.LANGUAGES:
        for name in sheets.SHEETS:
            assert client.get(f"/{lang}/sheets/{name}.pdf?paper=letter").status_code == 200
            assert client.get(f"/{lang}/sheets/{name}.png").status_code == 200
            for audience in sheets.audiences_of(name):
                query = f"players={audience.players_param}&mode={audience.mode}"
                assert client.get(f"/{lang}/sheets/{name}.pdf?{query}").status_code == 200


def test_release_step_is_idempotent_and_forceable(cache_dir, fast_render):
    call_command("prerender_sheets", verbosity=0)
    fast_render.clear()
    call_command("prerender_sheets", verbosity=0)
    assert fast_render == []
    call_command("prerender_sheets", "--force", verbosity=0)
    versions = sum(len(sheets.audiences_of(name)) for name in sheets.SHEETS)
    assert versions == 2 + 2 * 4  # rules and reference once, the teaching sheets per audience
    assert len(fast_render) == versions * len(settings.LANGUAGES) * len(sheets.PAPERS)


def test_release_step_fails_on_a_render_with_warnings(cache_dir, monkeypatch):
    """Every render warns (a stylesheet that cannot load, as the render with warnings above
    shows for real): nothing is cached, and the command fails naming every sheet."""
    def unstyled(name, lang, paper="a4", *, audience=sheets.DEFAULT_AUDIENCE):
        return sheets.Rendered(b"%PDF-unstyled", ("Failed to load stylesheet at file:///static/css/sheet.css",))

    monkeypatch.setattr(sheets, "render_sheet", unstyled)
    with pytest.raises(CommandError, match="warnings") as failed:
        call_command("prerender_sheets", verbosity=0)
    assert not list(cache_dir.rglob("*.pdf"))
    total = sum(len(sheets.audiences_of(n)) for n in sheets.SHEETS) * 3 * 2
    assert f"{total} not cached" in str(failed.value) and "teach-34-strategy-de-letter (" in str(failed.value)


def test_release_step_goes_on_past_a_failure_and_names_what_is_missing(cache_dir, fast_render, monkeypatch):
    real_render = sheets.render_sheet

    def render(name, lang, paper="a4", *, audience=sheets.DEFAULT_AUDIENCE):
        if (name, lang, paper) == ("rules", "de", "letter"):
            raise RuntimeError("the render fell over")
        if (name, lang, paper, audience) == ("quick-start", "ja", "a4", sheets.Audience(2, "strategy")):
            return sheets.Rendered(b"%PDF-unstyled", ("stylesheet not found",))
        return real_render(name, lang, paper, audience=audience)

    monkeypatch.setattr(sheets, "render_sheet", render)
    with pytest.raises(CommandError) as failed:
        call_command("prerender_sheets", verbosity=0)
    message = str(failed.value)
    assert "2 not cached: " in message
    assert "rules-de-letter (the render failed: RuntimeError: the render fell over)" in message
    assert "quick-start-2-strategy-ja-a4 (rendered with warnings: stylesheet not found)" in message
    cached = {p.name for p in cache_dir.rglob("*.pdf")}
    total = sum(len(sheets.audiences_of(n)) for n in sheets.SHEETS) * 3 * 2
    assert len(cached) == total - 2
    assert "rules-de-letter.pdf" not in cached and "rules-en-letter.pdf" in cached


# --- a disk that cannot keep what was rendered --------------------------------------------------
class _FillsUp:
    """A file on a disk with room for half of what is written to it: the first half reaches
    the disk, then the write fails as on a full disk (``ENOSPC``)."""

    def __init__(self, real) -> None:
        self.real = real

    def write(self, data: bytes) -> int:
        self.real.write(data[:len(data) // 2])
        self.real.flush()
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    def __getattr__(self, name):
        return getattr(self.real, name)

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        self.real.close()


@pytest.fixture
def full_disk(monkeypatch):
    real_fdopen = os.fdopen
    monkeypatch.setattr(os, "fdopen", lambda fd, *args, **kwargs: _FillsUp(real_fdopen(fd, *args, **kwargs)))


def _files(folder):
    return sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file())


@pytest.mark.django_db
def test_a_full_disk_serves_the_pdf_and_leaves_nothing_half_written(client, counted_renders, full_disk,
                                                                     caplog):
    url = f"/de/analyze/position.pdf?pos={POSITION}"
    with caplog.at_level(logging.WARNING, logger="tutorials.sheets.render"):
        first, second = client.get(url), client.get(url)
        sheet = client.get("/ja/sheets/reference.pdf")
    assert first.status_code == second.status_code == sheet.status_code == 200
    assert first.content == b"%PDF-stand-in 1" and second.content == b"%PDF-stand-in 2"  # rendered again
    assert sheet["Content-Type"] == "application/pdf" and sheet.content == b"%PDF-stand-in 3"
    assert _files(sheets.CACHE_DIR) == []  # no partial file, no empty one
    not_kept = [r.getMessage() for r in caplog.records if "served but not kept" in r.getMessage()]
    assert len(not_kept) == 3 and all("No space left on device" in m for m in not_kept)


def test_a_failed_write_leaves_the_kept_file_as_it_was(cache_dir, monkeypatch):
    path = cache_dir / "v" / "reference-en-a4.pdf"
    sheets.store(path, b"%PDF-kept")
    real_fdopen = os.fdopen
    monkeypatch.setattr(os, "fdopen", lambda fd, *args, **kwargs: _FillsUp(real_fdopen(fd, *args, **kwargs)))
    with pytest.raises(OSError) as failed:
        sheets.store(path, b"%PDF-new and longer")
    assert failed.value.errno == errno.ENOSPC
    assert path.read_bytes() == b"%PDF-kept" and _files(cache_dir) == ["v/reference-en-a4.pdf"]


def test_kept_files_are_readable_by_every_user(cache_dir, counted_renders, client):
    """Whatever the umask of the process that kept it (the release step may run as another
    user than the web server, with a strict umask)."""
    before = os.umask(0o077)
    try:
        sheets.store(cache_dir / "v" / "rules-en-a4.pdf", b"%PDF-x")
        client.get("/en/sheets/reference.pdf")
    finally:
        os.umask(before)
    kept = [p for p in cache_dir.rglob("*") if p.is_file()]
    assert len(kept) == 2
    assert {stat.S_IMODE(p.stat().st_mode) for p in kept} == {0o644}


# --- the release step through the host's render pool ----------------------------------------------
class _Pool(http.server.ThreadingHTTPServer):
    """Stands in for the render pool (gunicorn_pdf.conf.py): passes each request to the site
    (Django's test client, as a pool worker would serve it), but answers 502 for ``broken``,
    as nginx would for a worker ended past the render timeout; records what it was asked."""

    def __init__(self, broken: str) -> None:
        self.broken, self.asked, self.at_once, self.in_hand = broken, [], 0, 0
        self.lock = threading.Lock()
        super().__init__(("127.0.0.1", 0), _PoolHandler)


class _PoolHandler(http.server.BaseHTTPRequestHandler):
    def do_GET(self):  # noqa: N802 (http.server's name)
        pool = self.server
        with pool.lock:
            pool.in_hand += 1
            pool.at_once = max(pool.at_once, pool.in_hand)
        try:
            pool.asked.append((self.path, dict(self.headers)))
            if self.path.startswith(pool.broken):
                self.send_response(502)
                self.end_headers()
                return
            answer = Client().get(self.path, headers={name: value for name, value in self.headers.items()
                                                      if name.lower() != "host"},
                                  HTTP_HOST=self.headers["Host"])
            self.send_response(answer.status_code)
            self.end_headers()
            self.wfile.write(answer.content)
        finally:
            with pool.lock:
                pool.in_hand -= 1

    def log_message(self, *args):
        pass


def test_release_step_asks_the_render_pool_one_sheet_at_a_time(cache_dir, fast_render, settings, monkeypatch):
    import weasyprint

    made = weasyprint.HTML(string="<p>from the pool</p>").write_pdf()
    monkeypatch.setattr(sheets, "render_pdf", lambda html: sheets.Rendered(made, ()))
    pool = _Pool(broken="/de/sheets/rules.pdf?paper=letter")
    threading.Thread(target=pool.serve_forever, daemon=True).start()
    settings.RENDER_POOL_URL = f"http://127.0.0.1:{pool.server_address[1]}"
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "pdf": "1/d"}  # the release's renders count none
    try:
        with pytest.raises(CommandError) as failed:
            call_command("prerender_sheets", verbosity=0)
    finally:
        pool.shutdown()
        pool.server_close()
    assert "1 not cached: rules-de-letter (the render pool answered 502)" in str(failed.value)
    total = sum(len(sheets.audiences_of(n)) for n in sheets.SHEETS) * 3 * 2
    assert len(pool.asked) == total and pool.at_once == 1  # in turn, never beside itself
    assert all(headers[RELEASE_HEADER] == release_token() for _path, headers in pool.asked)
    assert fast_render == []  # rendered by the pool, not by the release step itself
    kept = list(cache_dir.rglob("*.pdf"))
    assert len(kept) == total - 1 and all(p.read_bytes() == made for p in kept)
    assert "rules-de-letter.pdf" not in {p.name for p in kept}
