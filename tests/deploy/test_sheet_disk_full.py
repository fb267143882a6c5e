"""The sheet cache's disk full under a running production server and the operator's load
(tests/deploy/operator_load.py), through nginx: every PDF (sheets, their previews, position
PDFs) is still served, 200, from the render in memory, and no request answers 500; nothing half
written is left in the cache; once there is room again, renders are kept as before, each
readable by every user (0644).

The cache is a small tmpfs of the test's own, mounted for it: that needs root (the tests
run as root in bin/test's container); elsewhere the test is skipped, and
tests/site/test_sheet_cache.py makes the writes fail at the file's write instead.
"""

from __future__ import annotations

import errno
import os
import shutil
import stat
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from harness import fresh_position_pdf, serve_behind_nginx
from operator_load import NORMAL, OperatorLoad


@pytest.fixture(scope="module")
def small_disk() -> Iterator[Path]:
    folder = Path(tempfile.mkdtemp(prefix="captain-small-disk-"))
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=2m,mode=0755", "tmpfs", str(folder)],
                             capture_output=True, text=True) if os.geteuid() == 0 else None
    if mounted is None or mounted.returncode != 0:
        folder.rmdir()
        pytest.skip("mounting a small tmpfs needs root: "
                    + (mounted.stderr.strip() if mounted else "not root"))
    try:
        yield folder
    finally:
        subprocess.run(["umount", "--lazy", str(folder)], check=False)
        shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture(scope="module")
def proxy(bare_release, small_disk):
    with serve_behind_nginx(bare_release, workers=2, streams=1, env={
            "DJANGO_SHEET_CACHE_DIR": str(small_disk / "sheets"),
            "DJANGO_RATE_LIMITS": "pdf=1000/m"}) as running:
        yield running


def _fill(disk: Path) -> Path:
    """Fill ``disk`` to the last byte; the file that did it."""
    filler = disk / "filler"
    with filler.open("wb") as out:
        try:
            while True:
                out.write(b"\0" * 65536)
                out.flush()
        except OSError as error:
            assert error.errno == errno.ENOSPC, error
    return filler


def _files(disk: Path) -> set[str]:
    return {p.relative_to(disk).as_posix() for p in (disk / "sheets").rglob("*") if p.is_file()}


def test_pdfs_are_served_from_a_full_disk_and_nothing_half_written_is_left(proxy, small_disk):
    pool = proxy.pool  # nginx sends every PDF address to the render pool, which keeps the files
    assert pool is not None
    status, _headers, body = proxy.get("/en/sheets/reference.pdf")
    assert status == 200 and body.startswith(b"%PDF")
    kept = _files(small_disk)
    assert len(kept) == 1
    [first] = kept
    assert stat.S_IMODE((small_disk / first).stat().st_mode) == 0o644
    filler = _fill(small_disk)
    try:
        log_start = pool.log_size()
        # the operator's load while the disk is full: its PDFs too are renders not kept
        with OperatorLoad(proxy) as load:
            load.wait_for_every_kind()  # (its first PDF a position PDF: rendered on the full disk)
            asked = [("/de/sheets/reference.pdf", "application/pdf", b"%PDF"),
                     ("/de/sheets/reference.png", "image/png", b"\x89PNG"),
                     (fresh_position_pdf("ja"), "application/pdf", b"%PDF")]
            for path, content_type, magic in asked:
                status, headers, body = proxy.get(path, timeout=180)
                assert status == 200, (path, body[:300])
                assert headers["Content-Type"] == content_type and body.startswith(magic), path
        assert _files(small_disk) == kept, "a file was left in the cache of the full disk"
        log = pool.log_since(log_start)
        assert log.count("served but not kept") >= 4 and "No space left on device" in log, log
        assert "Traceback" not in log and "Internal Server Error" not in log, log
    finally:
        filler.unlink()
    assert not load.server_errors(), (load.server_errors()[:5], load.summary())
    assert all(a.status in NORMAL[a.kind] for a in load.answers), load.summary()  # PDFs 200
    # room again: the next render is kept, readable by every user
    assert proxy.get("/de/sheets/reference.pdf")[0] == 200
    now = _files(small_disk)
    assert len(now) == 2 and all(stat.S_IMODE((small_disk / p).stat().st_mode) == 0o644 for p in now)
