"""The README's production steps, run in subprocesses, shared by the deploy tests.

* ``redis_base`` — a real ``redis-server``: the one ``bin/test`` started (``REDIS_URL``),
  or one started here for a plain ``pytest`` run; each server below gets its own
  database number in it.
* ``deploy_database_url`` — a fresh database for the production processes: a new
  PostgreSQL database on the server of ``DATABASE_URL`` when that is PostgreSQL (dropped
  at the end), else an SQLite file.
* ``release`` — the release steps with the production environment (secret key set, so
  DEBUG is off and the manifest storage hashes static names): ``migrate``,
  ``collectstatic`` into a temporary ``DJANGO_STATIC_ROOT``, ``prerender_sheets``.
* :func:`harness.serve` — gunicorn on a free port with that environment.
"""

from __future__ import annotations

import os
import re
import secrets
import shutil
import subprocess
from collections.abc import Iterator
from urllib.parse import urlsplit

import pytest
from harness import Release, base_env, finish, free_port, manage, wait_for_port


@pytest.fixture(scope="session")
def redis_base(tmp_path_factory) -> Iterator[str]:
    """``redis://127.0.0.1:<port>`` of a running redis-server (no database number)."""
    if os.environ.get("REDIS_URL"):
        parts = urlsplit(os.environ["REDIS_URL"])
        yield f"{parts.scheme}://{parts.netloc}"
        return
    server = shutil.which("redis-server")
    if server is None:
        pytest.fail("redis-server is not installed: run bin/setup (Debian package redis-server)")
    folder = tmp_path_factory.mktemp("redis")
    port = free_port()
    process = subprocess.Popen([server, "--port", str(port), "--bind", "127.0.0.1", "--save", "",
                                "--appendonly", "no", "--dir", str(folder)],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_for_port(port, process, "redis-server")
        yield f"redis://127.0.0.1:{port}"
    finally:
        process.terminate()
        process.wait(timeout=30)


@pytest.fixture(scope="session")
def deploy_database_url(tmp_path_factory) -> Iterator[str]:
    """A fresh, empty database for the production processes (URL for DATABASE_URL)."""
    url = os.environ.get("DATABASE_URL", "")
    if not url.startswith(("postgres://", "postgresql://")):
        yield f"sqlite:///{tmp_path_factory.mktemp('deploy-db') / 'db.sqlite3'}"
        return
    import psycopg

    parts = urlsplit(url)
    name = f"captain_deploy_{secrets.token_hex(4)}"
    admin = parts._replace(path="/postgres").geturl()
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    try:
        yield parts._replace(path=f"/{name}").geturl()
    finally:
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture(scope="session")
def release(tmp_path_factory, redis_base, deploy_database_url) -> Release:
    tmp = tmp_path_factory.mktemp("production")
    env = {**base_env(),
           "DJANGO_SECRET_KEY": secrets.token_urlsafe(50),
           "DJANGO_ALLOWED_HOSTS": "127.0.0.1",
           "DJANGO_CSRF_TRUSTED_ORIGINS": "https://127.0.0.1",
           "DATABASE_URL": deploy_database_url,
           "DJANGO_STATIC_ROOT": str(tmp / "static"),
           "DJANGO_SHEET_CACHE_DIR": str(tmp / "sheets"),
           # the README's HTTPS proxy in front: one hop appending to X-Forwarded-For
           "DJANGO_TRUSTED_PROXY_HOPS": "1"}
    # The README's release steps (translations are compiled by bin/setup already).
    finish(manage("migrate", "--noinput", env=env), "migrate")
    finish(manage("collectstatic", "--noinput", env=env), "collectstatic")
    assert any(re.fullmatch(r"sheet\.[0-9a-f]{12}\.css", p.name) for p in (tmp / "static" / "css").iterdir()), \
        "collectstatic did not write hashed names: is the manifest storage on?"
    output = finish(manage("prerender_sheets", env=env), "prerender_sheets (production)")
    [sheet_dir] = [p for p in (tmp / "sheets").iterdir() if p.is_dir()]
    return Release(env, tmp, sheet_dir, output, redis_base)


