"""The ``pdf`` quota counts renders, not tries: a PDF answered from the cache uses up none of
it, and the quota holds for renders let in. The release step's renders through the render
pool (``prerender_sheets``, with the release's own header) count against no client."""

from __future__ import annotations

import types

import pytest

from tutorials.rendering.pdf import RELEASE_HEADER, release_token
from tutorials.sheets import render as sheets

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
