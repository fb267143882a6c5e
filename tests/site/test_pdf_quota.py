"""The ``pdf`` quota counts renders, not tries: a render refused because every slot is
taken (503) uses up none of it, and the quota still holds for renders let in."""

from __future__ import annotations

import contextlib
import types

import pytest

from tutorials.rendering.render_limit import RenderBusy
from tutorials.sheets import render as sheets

pytestmark = pytest.mark.django_db

POSITION_PDF = "/en/analyze/position.pdf?pos=Rb_11r1.12b2"
SHEET_PDF = "/en/sheets/rules.pdf?paper=letter"


@contextlib.contextmanager
def _every_slot_taken():
    raise RenderBusy()
    yield


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
def test_renders_refused_busy_leave_the_quota_whole(client, quota_of_two, monkeypatch, url):
    free_slots = sheets.render_slot
    monkeypatch.setattr(sheets, "render_slot", _every_slot_taken)
    for _ in range(5):
        assert client.get(url, REMOTE_ADDR="10.20.30.40").status_code == 503
    monkeypatch.setattr(sheets, "render_slot", free_slots)
    statuses = [client.get(url, REMOTE_ADDR="10.20.30.40").status_code for _ in range(3)]
    assert statuses == [200, 200, 429]  # the two renders let in, then the quota


def test_a_client_over_its_quota_takes_no_render_slot(client, quota_of_two, monkeypatch):
    for _ in range(2):
        assert client.get(POSITION_PDF, REMOTE_ADDR="10.20.30.41").status_code == 200
    monkeypatch.setattr(sheets, "render_slot", _every_slot_taken)
    # refused for its quota before it asks for a slot: 429, not the busy 503
    assert client.get(POSITION_PDF, REMOTE_ADDR="10.20.30.41").status_code == 429
