"""Shared fixtures, and the switches ``bin/test`` runs the suite with.

* Hypothesis profiles (``profiles.py``): ``HYPOTHESIS_PROFILE=ci`` or ``dev``.
* Under pytest-xdist each worker clears the cache before every test, so each worker gets
  a Redis database of its own: its number is the worker's (``gw1`` → 1). The production
  servers of ``tests/deploy/`` take numbers from 16 up (``harness.redis_database``).
* ``--database-only``: only the tests that use the database, and the deploy suite (whose
  production processes use a database of their own): ``bin/test``'s PostgreSQL run.
* ``--no-database``: the tests that use no database, and those that drive the whole site
  (browser and smoke tests): ``bin/test``'s SQLite run, which leaves the database tests to
  the PostgreSQL run (``bin/test --quick`` runs them on SQLite).
* ``--slow``: also the tests marked ``slow`` (checks too long for ``bin/test``'s budget);
  without it they are deselected. ``bin/test --slow`` runs them.
* Browser tests use Debian's chromium through Playwright.
"""

from __future__ import annotations

import os
import shutil
from urllib.parse import urlsplit

import pytest
from django.conf import settings
from django.test.utils import override_settings

import profiles

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"

#: fixtures through which a test reaches the database
DATABASE_FIXTURES = frozenset({"db", "transactional_db", "django_db_reset_sequences",
                               "django_db_serialized_rollback", "live_server", "django_user_model",
                               "admin_user", "admin_client"})


def _own_redis_database() -> None:
    worker = os.environ.get("PYTEST_XDIST_WORKER", "")
    cache = settings.CACHES["default"]
    if not worker.startswith("gw") or not cache["BACKEND"].endswith("RedisCache"):
        return
    location = urlsplit(cache["LOCATION"])._replace(path=f"/{int(worker[2:])}").geturl()
    override_settings(CACHES={"default": {**cache, "LOCATION": location}}).enable()


_own_redis_database()


def pytest_configure(config):
    profiles.load()


def pytest_addoption(parser):
    parser.addoption("--database-only", action="store_true",
                     help="run only tests that use the database, and the deploy suite")
    parser.addoption("--no-database", action="store_true",
                     help="leave out the tests that use the database, but the browser and smoke tests")
    parser.addoption("--slow", action="store_true", help="also run the tests marked slow")


def uses_database(item: pytest.Item) -> bool:
    return bool(item.get_closest_marker("django_db") or item.get_closest_marker("deploy")
                or DATABASE_FIXTURES & set(getattr(item, "fixturenames", ())))


def whole_site(item: pytest.Item) -> bool:
    return bool(item.get_closest_marker("browser") or item.get_closest_marker("smoke"))


def pytest_collection_modifyitems(config, items):
    keep, drop = [], []
    for item in items:
        wanted = ((config.getoption("--slow") or not item.get_closest_marker("slow"))
                  and (not config.getoption("--database-only") or uses_database(item))
                  and (not config.getoption("--no-database") or not uses_database(item)
                       or whole_site(item)))
        (keep if wanted else drop).append(item)
    if drop:
        config.hook.pytest_deselected(items=drop)
        items[:] = keep


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    """Launch Debian's chromium (Playwright cannot download its own browser here)."""
    if not os.path.exists(CHROMIUM):
        pytest.fail("chromium is not installed: run bin/setup (Debian package chromium)")
    return {
        **browser_type_launch_args,
        "executable_path": CHROMIUM,
        "args": ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"],
    }


@pytest.fixture(autouse=True)
def fresh_cache():
    """Every test starts with an empty cache: no rate-limit counts left by
    another test (the cache is Redis under bin/test, local memory otherwise)."""
    from django.core.cache import cache

    cache.clear()
