"""Settings read from the environment: the shared cache, proxy hops, limits; client identity."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.test import RequestFactory

from tutorials.web.clients import client_ip

ROOT = Path(__file__).resolve().parents[2]


def _settings(**env) -> subprocess.CompletedProcess:
    """Import the settings in a fresh process with ``env``; print what the test needs."""
    clean = {k: v for k, v in os.environ.items()
             if not k.startswith("DJANGO_") and k not in ("REDIS_URL", "WEB_CONCURRENCY")}
    code = ("import json; from captain import settings as s; print(json.dumps({'cache': s.CACHES['default'], "
            "'hops': s.TRUSTED_PROXY_HOPS, 'limits': s.RATE_LIMITS, 'render': s.RENDER_LIMIT}))")
    return subprocess.run([sys.executable, "-c", code], cwd=ROOT, env={**clean, **env},
                          capture_output=True, text=True)


def test_redis_url_gives_djangos_redis_cache():
    proc = _settings(REDIS_URL="redis://127.0.0.1:6390/2")
    cache = json.loads(proc.stdout)["cache"]
    assert cache["BACKEND"] == "django.core.cache.backends.redis.RedisCache"
    assert cache["LOCATION"] == "redis://127.0.0.1:6390/2"


def test_without_redis_url_each_process_has_its_own_cache():
    cache = json.loads(_settings().stdout)["cache"]
    assert cache["BACKEND"] == "django.core.cache.backends.locmem.LocMemCache"


def test_limits_and_hops_from_the_environment():
    out = json.loads(_settings(DJANGO_TRUSTED_PROXY_HOPS="2", DJANGO_RATE_LIMITS="save=5/m, pdf=3/10s",
                               DJANGO_RENDER_LIMIT="3").stdout)
    assert out["hops"] == 2 and out["render"] == 3
    assert out["limits"]["save"] == "5/m" and out["limits"]["pdf"] == "3/10s"
    assert out["limits"]["table"] == "10/m"  # the others keep their defaults


@pytest.mark.parametrize("name,value,says", [
    ("DJANGO_TRUSTED_PROXY_HOPS", "one", "DJANGO_TRUSTED_PROXY_HOPS must be a whole number"),
    ("DJANGO_RENDER_LIMIT", "0", "DJANGO_RENDER_LIMIT must be a whole number >= 1"),
    ("DJANGO_RATE_LIMITS", "saves=5/m", "'saves=5/m' is not <group>=<count>/<period>"),
    ("DJANGO_RATE_LIMITS", "save=5 per minute", "'save=5 per minute' is not"),
])
def test_bad_settings_say_what_and_where(name, value, says):
    proc = _settings(**{name: value})
    assert proc.returncode != 0
    assert "ImproperlyConfigured" in proc.stderr and says in proc.stderr


@pytest.mark.parametrize("hops,forwarded,expected", [
    (0, "198.51.100.9", "127.0.0.1"),                  # no proxy: the header is the client's own text
    (1, "198.51.100.9", "198.51.100.9"),               # the proxy's entry
    (1, "6.6.6.6, 198.51.100.9", "198.51.100.9"),      # the client's forged entry is skipped
    (2, "203.0.113.5, 198.51.100.9", "203.0.113.5"),   # two proxies
    (2, "198.51.100.9", "127.0.0.1"),                  # fewer entries than proxies: not from them
    (1, "", "127.0.0.1"),
    (1, "not-an-address", "127.0.0.1"),
    (1, "2001:db8::1", "2001:db8::1"),
])
def test_client_ip_behind_trusted_proxies(settings, hops, forwarded, expected):
    settings.TRUSTED_PROXY_HOPS = hops
    request = RequestFactory().get("/", REMOTE_ADDR="127.0.0.1", HTTP_X_FORWARDED_FOR=forwarded)
    assert client_ip(request) == expected
