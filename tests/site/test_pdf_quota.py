"""The ``pdf`` quota counts renders, not tries: a PDF answered from the cache uses up none of
it, and the quota holds for renders let in. The release step's renders through the render
pool (``prerender_sheets``, with the release's own header) count against no client. Behind
nginx the site hands each render to the render pool, which counts it, and answers what is
kept itself."""

from __future__ import annotations

import types

import pytest

from tutorials.rendering.pdf import RELEASE_HEADER, release_token
from tutorials.sheets import render as sheets
from tutorials.web.render_pool import RENDER_POOL_HEADER, RENDER_POOL_LOCATION

pytestmark = pytest.mark.django_db

POSITION_PDF = "/en/analyze/position.pdf?pos=Rb_11r1.12b2"
SHEET_PDF = "/en/sheets/rules.pdf?paper=letter"


def _fake_render(*args, **kwargs):
    return types.SimpleNamespace(pdf=b"%PDF-1.7 stand-in", warnings=())


@pytest.fixture
def quota_of_two(settings, monkeypatch, tmp_path):
    """A quota of two renders; renders stand-ins, never cached (each GET renders)."""
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "pdf": "2/d"}
    monkeypatch.setattr(sheets, "CACHE_DIR", tmp_path / "empty-cache")
    monkeypatch.setattr(sheets, "render_pdf", _fake_render)
    monkeypatch.setattr(sheets, "render_sheet", _fake_render)
    monkeypatch.setattr(sheets, "store", lambda path, data: None)


@pytest.mark.parametrize("url", [POSITION_PDF, SHEET_PDF])
def test_the_quota_holds_for_renders(client, quota_of_two, url):
    statuses = [client.get(url, REMOTE_ADDR="10.20.30.40").status_code for _ in range(3)]
    assert statuses == [200, 200, 429]


@pytest.mark.parametrize("url", [POSITION_PDF, SHEET_PDF])
def test_the_release_steps_renders_count_against_no_client(client, quota_of_two, url):
    release = {RELEASE_HEADER: release_token()}
    assert [client.get(url, REMOTE_ADDR="10.20.30.41", headers=release).status_code
            for _ in range(4)] == [200] * 4
    # a header that is not the release's own counts as any request does
    forged = {RELEASE_HEADER: release_token()[:-1] + "0"}
    statuses = [client.get(url, REMOTE_ADDR="10.20.30.41", headers=forged).status_code for _ in range(3)]
    assert statuses == [200, 200, 429]


@pytest.mark.parametrize("url", [POSITION_PDF, SHEET_PDF])
def test_behind_nginx_a_render_is_handed_to_the_pool_and_the_pool_counts_it(client, quota_of_two, monkeypatch,
                                                                           url):
    renders = []
    monkeypatch.setattr(sheets, "render_pdf", lambda *args, **kwargs: renders.append(args) or _fake_render())
    through_nginx = {RENDER_POOL_HEADER: "1"}
    for _ in range(3):
        response = client.get(url, REMOTE_ADDR="10.20.30.42", headers=through_nginx)
        assert response.status_code == 200 and response.content == b""
        assert response["X-Accel-Redirect"] == RENDER_POOL_LOCATION + url
    assert renders == []
    # the pool's answers (nginx gives it no such header) render, and count
    statuses = [client.get(url, REMOTE_ADDR="10.20.30.42").status_code for _ in range(3)]
    assert statuses == [200, 200, 429] and len(renders) == 2
    # a client over its quota is refused by the site at once, handed nowhere
    refused = client.get(url, REMOTE_ADDR="10.20.30.42", headers=through_nginx)
    assert refused.status_code == 429 and "X-Accel-Redirect" not in refused


def test_behind_nginx_a_kept_pdf_is_the_sites_own_answer(client, settings, monkeypatch, tmp_path):
    monkeypatch.setattr(sheets, "CACHE_DIR", tmp_path / "cache")
    kept = sheets.cache_path("rules", "en", "letter")
    kept.parent.mkdir(parents=True)
    kept.write_bytes(b"%PDF-1.7 kept")
    response = client.get(SHEET_PDF, headers={RENDER_POOL_HEADER: "1"})
    assert response.status_code == 200 and response.content == b"%PDF-1.7 kept"
    assert "X-Accel-Redirect" not in response
