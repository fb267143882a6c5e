"""Browser tests only: Playwright's sync API keeps an event loop running in the main
thread, so Django must be told that its synchronous database calls there are fine."""

from __future__ import annotations

import os
import time

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


@pytest.fixture(autouse=True)
def clocks_stop_with_their_pages():
    """A practice game's clock runs while a page holds the game's stream; the browser gone,
    the stream ends at its next heartbeat and the clock with it — before the test's
    database goes, so that no clock strikes a database that is no longer there."""
    yield
    from tutorials.http.streams import THREAD_HEARTBEAT_SECONDS
    from tutorials.play import clock

    deadline = time.monotonic() + THREAD_HEARTBEAT_SECONDS + clock.STRIKE_SECONDS + 3
    while clock.running() and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not clock.running(), f"game clocks still running without a page: {clock.running()}"
