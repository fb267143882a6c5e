"""The production steps of docs/production.md, run in subprocesses, shared by the deploy tests.

* ``redis_base`` — a real ``redis-server``: the one ``bin/test`` started (``REDIS_URL``),
  or one started here for a plain ``pytest`` run; each server below gets its own
  database number in it.
* ``deploy_database_url`` — a fresh database for the production processes: a new
  PostgreSQL database on the server of ``DATABASE_URL`` when that is PostgreSQL (dropped
  at the end), else an SQLite file.
* ``release`` — the release steps with the production environment (secret key set, so
  DEBUG is off and the manifest storage hashes static names): ``migrate``,
  ``collectstatic`` into a temporary ``DJANGO_STATIC_ROOT``, ``prerender_sheets``;
  ``bare_release`` the same without ``prerender_sheets``.
* :func:`harness.serve` — gunicorn on a free port with that environment.
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import sync_playwright

from harness import Release, release_steps, start_redis

HERE = Path(__file__).resolve().parent


#: the deploy tests that need the pre-rendered sheets (the whole release step); the others
#: start their servers from a release without it
WITH_SHEETS = {"test_production.py"}


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(items):
    """Every test here is a ``deploy`` test. They form two pytest-xdist groups, so each
    group's release steps run once, on one worker, beside the other group: the tests of
    the pre-rendered sheets, and those of the servers' limits and answers."""
    for item in items:
        if HERE in item.path.parents:
            item.add_marker(pytest.mark.deploy)
            group = "deploy-sheets" if item.path.name in WITH_SHEETS else "deploy-servers"
            item.add_marker(pytest.mark.xdist_group(group))


@pytest.fixture(scope="session")
def redis_base(tmp_path_factory) -> Iterator[str]:
    """``redis://127.0.0.1:<port>`` of a running redis-server (no database number)."""
    if os.environ.get("REDIS_URL"):
        parts = urlsplit(os.environ["REDIS_URL"])
        yield f"{parts.scheme}://{parts.netloc}"
        return
    with start_redis(tmp_path_factory.mktemp("redis")) as url:
        yield url


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
    """Every release step, ``prerender_sheets`` included."""
    return release_steps(tmp_path_factory.mktemp("production"), redis_base, deploy_database_url)


@pytest.fixture(scope="session")
def bare_release(tmp_path_factory, redis_base, deploy_database_url) -> Release:
    """The release steps without ``prerender_sheets``: a sheet is rendered when first asked for."""
    return release_steps(tmp_path_factory.mktemp("bare-release"), redis_base, deploy_database_url,
                         prerender=False)


@pytest.fixture
def browser(browser_type_launch_args):
    """A chromium of this test's own: pytest-playwright's session browser would leave its
    event loop running in this worker, where the database tests that follow would then
    refuse to run (SynchronousOnlyOperation)."""
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(**browser_type_launch_args)
        yield launched
        launched.close()
