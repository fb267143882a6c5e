"""Production settings from the environment; CSP and other headers."""

from __future__ import annotations

import os
import re
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


@pytest.mark.parametrize("subdomains, preload", [("1", "0"), ("1", "1")])
def test_check_deploy_is_clean_with_either_hsts_choice(tmp_path, subdomains, preload):
    proc = _check_deploy(tmp_path, REDIS_URL="redis://127.0.0.1:6379/0", WEB_CONCURRENCY="3",
                         DJANGO_HSTS_INCLUDE_SUBDOMAINS=subdomains, DJANGO_HSTS_PRELOAD=preload)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def _hsts_header(**env) -> subprocess.CompletedProcess:
    """The Strict-Transport-Security header of an HTTPS answer under the production
    settings with ``env``, from a fresh process."""
    clean = {k: v for k, v in os.environ.items() if not k.startswith("DJANGO_")}
    code = ("import django; django.setup(); from django.http import HttpResponse; "
            "from django.test import RequestFactory; "
            "from django.middleware.security import SecurityMiddleware; "
            "r = RequestFactory().get('/', secure=True); "
            "print(SecurityMiddleware(lambda q: HttpResponse())(r)['Strict-Transport-Security'])")
    return subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, env={
        **clean, "DJANGO_SETTINGS_MODULE": "captain.settings", "DJANGO_SECRET_KEY": "x" * 60,
        "DJANGO_ALLOWED_HOSTS": "testserver", "DJANGO_SECURE": "1", **env})


@pytest.mark.parametrize("env, header", [
    ({}, "max-age=31536000"),  # no subdomain is committed unless chosen
    ({"DJANGO_HSTS_INCLUDE_SUBDOMAINS": "1"}, "max-age=31536000; includeSubDomains"),
    ({"DJANGO_HSTS_INCLUDE_SUBDOMAINS": "1", "DJANGO_HSTS_PRELOAD": "1"},
     "max-age=31536000; includeSubDomains; preload"),
])
def test_hsts_covers_subdomains_and_preload_only_by_choice(env, header):
    proc = _hsts_header(**env)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == header


def test_hsts_preload_without_subdomains_refuses_to_start():
    proc = _hsts_header(DJANGO_HSTS_PRELOAD="1")
    assert proc.returncode != 0
    assert "ImproperlyConfigured" in proc.stderr and "DJANGO_HSTS_INCLUDE_SUBDOMAINS=1" in proc.stderr


@pytest.mark.parametrize("method, status", [("GET", 301), ("HEAD", 301), ("POST", 308), ("PUT", 308),
                                            ("DELETE", 308)])
def test_the_ssl_redirect_keeps_an_unsafe_requests_method(settings, method, status):
    """A 301 is followed by an empty GET: a form or JSON body sent over plain HTTP would be lost."""
    from django.test import Client

    settings.SECURE_SSL_REDIRECT = True
    response = Client().generic(method, "/api/v1/positions?x=1", data=b'{"notation": "Rb_11"}',
                                content_type="application/json")
    assert response.status_code == status
    assert response["Location"] == "https://testserver/api/v1/positions?x=1"


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
