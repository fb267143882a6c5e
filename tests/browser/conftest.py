"""Browser tests only: Playwright's sync API keeps an event loop running in the main
thread, so Django must be told that its synchronous database calls there are fine."""

from __future__ import annotations

import os

import pytest


@pytest.fixture(scope="session", autouse=True)
def allow_async_unsafe():
    previous = os.environ.get("DJANGO_ALLOW_ASYNC_UNSAFE")
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    yield
    if previous is None:
        os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
    else:
        os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = previous


@pytest.fixture(autouse=True)
def test_hooks(settings):
    """Pages load static/js/test-hooks.js, whose markers the tests wait on."""
    settings.TEST_HOOKS = True


@pytest.fixture
def site(live_server) -> str:
    """The address of the live server the browser tests open pages on."""
    return live_server.url
