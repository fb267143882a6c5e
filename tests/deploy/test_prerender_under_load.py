"""The release step on a live host: ``prerender_sheets`` runs with the site's environment while
readers ask nginx for PDFs. It asks the host's render pool (``RENDER_POOL_URL``) for each
sheet straight, so it waits its turn in the pool's queue behind the readers' renders instead
of failing: every sheet is rendered, it exits 0, and meanwhile nginx answers every PDF (200,
or 503 with ``Retry-After`` when every worker of the pool is rendering, never a 500).
"""

from __future__ import annotations

import itertools
import threading
import time
from pathlib import Path

import pytest
from django.conf import settings

from harness import fresh_position_pdf, manage, serve_behind_nginx
from tutorials.sheets import render as sheets

LANGS = ("ja", "en", "de")


@pytest.fixture(scope="module")
def server(bare_release, tmp_path_factory):
    cache = tmp_path_factory.mktemp("prerender-under-load") / "sheets"
    # a render may take its time on a busy test machine; the site's limits stay as deployed
    with serve_behind_nginx(bare_release, workers=2, env={
            "DJANGO_SHEET_CACHE_DIR": str(cache), "DJANGO_RATE_LIMITS": "pdf=100000/m",
            "DJANGO_RENDER_LIMIT": "2"}) as running:
        yield running


def _readers(server, stop: threading.Event, answers: list[tuple[str, int, str | None]]) -> None:
    """One reader after another asking for a PDF, first position PDFs not asked for before
    (each a render), then sheets (rendered by the first request, read by the next), and a
    page between two PDFs."""
    fresh = iter([fresh_position_pdf(lang) for _ in range(12) for lang in LANGS])
    sheet_pdfs = itertools.cycle(f"/{lang}/sheets/{name}.pdf?paper={paper}" for lang in LANGS
                                 for name in ("reference", "rules") for paper in ("a4", "letter"))
    while not stop.is_set():
        path = next(fresh, None) or next(sheet_pdfs)
        status, headers, _body = server.get(path, timeout=180)
        answers.append((path, status, headers.get("Retry-After")))
        answers.append(("/en/tutorial/", server.get("/en/tutorial/")[0], None))


def test_prerender_sheets_while_the_site_renders(server):
    cache = Path(server.server.env["DJANGO_SHEET_CACHE_DIR"])
    answers: list[tuple[str, int, str | None]] = []
    stop = threading.Event()
    reader = threading.Thread(target=_readers, args=(server, stop, answers))
    reader.start()
    try:
        deadline = time.monotonic() + 120
        while not any(status == 200 and ".pdf" in path for path, status, _retry in list(answers)):
            assert time.monotonic() < deadline, "the site rendered no PDF before the release step"
            time.sleep(0.1)
        # the release step with the site's environment: its render pool
        assert server.server.env["RENDER_POOL_URL"] == f"http://127.0.0.1:{server.pool.port}"
        release = manage("prerender_sheets", env=server.server.env)
        output, _ = release.communicate(timeout=1500)
    finally:
        stop.set()
        reader.join(timeout=300)
    assert release.returncode == 0, output
    [version] = [p for p in cache.iterdir() if p.is_dir()]
    expected = {f"{sheets.sheet_stem(name, audience)}-{lang}-{paper}" for name in sheets.SHEETS
                for audience in sheets.audiences_of(name) for lang, _ in settings.LANGUAGES
                for paper in sheets.PAPERS}
    assert len(expected) == 60
    assert {p.stem for p in version.glob("*.pdf")} == expected
    assert {p.stem for p in version.glob("*.png")} == expected
    assert "not cached" not in output and "Traceback" not in output
    pdfs = [(path, status, retry) for path, status, retry in answers if path != "/en/tutorial/"]
    assert pdfs and all(status == 200 or (status == 503 and retry) for _path, status, retry in pdfs), pdfs
    assert sum(status == 200 for _path, status, _retry in pdfs) >= 2
    assert all(status == 200 for path, status, _retry in answers if path == "/en/tutorial/")
