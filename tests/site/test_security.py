"""Production settings from the environment; CSP and other headers."""

from __future__ import annotations

import re

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _check_deploy(tmp_path, **extra) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items()
           if not k.startswith("DJANGO_") and k not in ("REDIS_URL", "WEB_CONCURRENCY")}
    env.update({
        "DJANGO_SECRET_KEY": "x9!" + "k" * 60 + "Q7#mZ2",
        "DJANGO_ALLOWED_HOSTS": "dice.example.org",
        "DJANGO_DEBUG": "0",
        "DATABASE_URL": f"sqlite:///{tmp_path / 'prod.sqlite3'}",
        **extra,
    })
    return subprocess.run([sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
                          cwd=ROOT, env=env, capture_output=True, text=True)


def test_check_deploy_is_clean_with_production_environment(tmp_path):
    # docs/production.md: three workers sharing Redis
    proc = _check_deploy(tmp_path, REDIS_URL="redis://127.0.0.1:6379/0", WEB_CONCURRENCY="3")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "no issues" in proc.stdout


@pytest.mark.parametrize("workers", ["3", None])
def test_check_deploy_fails_for_several_workers_without_a_shared_cache(tmp_path, workers):
    proc = _check_deploy(tmp_path, **({"WEB_CONCURRENCY": workers} if workers else {}))
    assert proc.returncode != 0
    assert "captain.E001" in proc.stderr and "REDIS_URL" in proc.stderr


def test_check_deploy_accepts_one_worker_without_a_shared_cache(tmp_path):
    proc = _check_deploy(tmp_path, WEB_CONCURRENCY="1")
    assert proc.returncode == 0, proc.stdout + proc.stderr


@pytest.mark.django_db
def test_csp_header_and_no_inline_styles(client):
    response = client.get("/en/tutorial/battle-time/?battle=3")
    csp = response["Content-Security-Policy"]
    assert "default-src 'self'" in csp and "script-src 'self'" in csp
    assert "unsafe-inline" not in csp
    html = response.content.decode()
    assert ' style="' not in html and "<style" not in html
    assert "<script>" not in html  # only external scripts from our static files


@pytest.mark.django_db
def test_htmx_is_served_locally_and_pinned(client):
    import json

    html = client.get("/en/tutorial/").content.decode()
    pinned = json.loads((ROOT / "package.json").read_text())["dependencies"]["htmx.org"]
    assert f"/static/vendor/htmx-{pinned}.min.js" in html
    # no script or stylesheet from elsewhere (the page's random CSRF token may spell "cdn")
    sources = re.findall(r'(?:src|href)="([^"]+)"', html)
    external = [u for u in sources if "unpkg" in u or "cdn" in u.lower()
                or (u.startswith(("http:", "https:", "//")) and not u.startswith("http://testserver"))]
    assert not external, external
    vendored = (ROOT / "static" / "vendor" / f"htmx-{pinned}.min.js").read_text()
    assert f'version:"{pinned}"' in vendored
