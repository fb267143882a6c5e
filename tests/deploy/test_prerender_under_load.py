"""The release step on a live host: ``prerender_sheets`` runs with the site's environment while
readers ask nginx for PDFs. It asks the host's render pool (``RENDER_POOL_URL``) for each
sheet straight, so it waits its turn in the pool's queue behind the readers' renders instead
of failing: every sheet is rendered, it exits 0, and meanwhile, under the operator's load
through nginx (tests/deploy/operator_load.py, until a few of its PDFs were asked for while the
release step renders), nginx answers every PDF (200, or 503 with ``Retry-After`` when every
worker of the pool is rendering) and every other request as usual, never a 500.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from django.conf import settings

from harness import manage, serve_behind_nginx
from operator_load import NORMAL, OperatorLoad
from processes import wait_for
from tutorials.sheets import render as sheets

#: PDFs the load asks for while the release step renders
PDFS_MEANWHILE = 4


@pytest.fixture(scope="module")
def proxy(bare_release, tmp_path_factory):
    cache = tmp_path_factory.mktemp("prerender-under-load") / "sheets"
    # a render may take its time on a busy test machine; the site's limits stay as deployed
    with serve_behind_nginx(bare_release, workers=2, streams=1, env={
            "DJANGO_SHEET_CACHE_DIR": str(cache), "DJANGO_RATE_LIMITS": "pdf=100000/m",
            "DJANGO_RENDER_LIMIT": "2"}) as running:
        yield running


def test_prerender_sheets_while_the_site_renders(proxy):
    server = proxy.server
    cache = Path(server.env["DJANGO_SHEET_CACHE_DIR"])
    # the operator's load: its PDFs are position PDFs not asked for before (each a render)
    # and sheets (rendered by the first request, read by the next)
    with OperatorLoad(proxy) as load:
        # the site has rendered a PDF before the release step
        load.wait_for_every_kind()
        # the release step with the site's environment: its render pool
        assert server.env["RENDER_POOL_URL"] == f"http://127.0.0.1:{proxy.pool.port}"
        release = manage("prerender_sheets", env=server.env)
        begun = time.monotonic()
        # the load goes on while the release step renders, until each kind was answered and
        # a few PDFs were asked for meanwhile; the rest of the release step runs alone
        wait_for(lambda: release.poll() is not None or (
            load.answered_normally(begun, ("poll", "move", "save"))
            and len(load.since(begun, "pdf")) >= PDFS_MEANWHILE), 300,
            f"the load got no answers while prerender_sheets ran: {load.summary()}")
    output, _ = release.communicate(timeout=1500)
    assert release.returncode == 0, output
    assert load.since(begun, "pdf"), load.summary()  # the site rendered while the release step ran
    [version] = [p for p in cache.iterdir() if p.is_dir()]
    expected = {f"{sheets.sheet_stem(name, audience)}-{lang}-{paper}" for name in sheets.SHEETS
                for audience in sheets.audiences_of(name) for lang, _ in settings.LANGUAGES
                for paper in sheets.PAPERS}
    assert len(expected) == 60
    assert {p.stem for p in version.glob("*.pdf")} == expected
    assert {p.stem for p in version.glob("*.png")} == expected
    assert "not cached" not in output and "Traceback" not in output
    assert not load.server_errors(), (load.server_errors()[:5], load.summary())
    # a PDF: 200, or the render limit's 503 with Retry-After when every slot is taken
    pdfs = load.since(0, "pdf")
    assert pdfs and all(a.status == 200 or (a.status == 503 and a.retry_after) for a in pdfs), load.summary()
    assert sum(a.status == 200 for a in pdfs) >= 2
    assert all(a.status in NORMAL[a.kind] for a in load.answers if a.kind != "pdf"), load.summary()
