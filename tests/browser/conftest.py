"""Browser tests only.

* Playwright's sync API keeps an event loop running in the main thread, so Django must be
  told that its synchronous database calls there are fine.
* ``live_server`` (pytest-django's fixture, under its name, so that the tests using it get
  a transactional database as before) serves the site on ASGI, as the development server
  does: pages, static files from their sources, and the tables' live streams, which
  Django's own live server (WSGI only) cannot hold. It is uvicorn on a thread of the test
  process, so the settings and patches a test makes reach it; its synchronous views run on
  asgiref's thread.
"""

from __future__ import annotations

import os
import socket
import threading
import time
from collections.abc import Iterator

import pytest
import uvicorn
from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler
from django.core.asgi import get_asgi_application
from django.test.utils import modify_settings


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


@pytest.fixture(autouse=True)
def no_page_outlives_its_test(request):
    """Close every page the test opened in the session's browser. The live server is the
    session's too: a page left open (a table's, whose live stream reconnects when it ends)
    would ask it for the table during a later test, whose database it may not touch, and
    Django's test client would fail that test with the stream's error."""
    yield
    if "browser" in request.fixturenames:
        for context in request.getfixturevalue("browser").contexts:
            context.close()


@pytest.fixture
def site(live_server) -> str:
    """The address of the live server the browser tests open pages on."""
    return live_server.url


class ASGILiveServer:
    """The site on uvicorn at :attr:`url`, on a port of its own, until :meth:`stop`."""

    host = "localhost"

    def __init__(self) -> None:
        self.socket = socket.socket()
        self.socket.bind(("127.0.0.1", 0))
        self.url = f"http://{self.host}:{self.socket.getsockname()[1]}"
        # pytest-django's _live_server_helper lets the host in for each test that uses it
        self._live_server_modified_settings = modify_settings(ALLOWED_HOSTS={"append": self.host})
        config = uvicorn.Config(ASGIStaticFilesHandler(get_asgi_application()), lifespan="off",
                                log_level="warning", timeout_graceful_shutdown=1)
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, kwargs={"sockets": [self.socket]},
                                       name="asgi-live-server", daemon=True)
        self.thread.start()
        deadline = time.monotonic() + 30
        while not self.server.started:
            assert self.thread.is_alive() and time.monotonic() < deadline, "uvicorn did not start"
            time.sleep(0.02)

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=10)
        self.socket.close()

    def __str__(self) -> str:
        return self.url


@pytest.fixture(scope="session")
def live_server() -> Iterator[ASGILiveServer]:
    server = ASGILiveServer()
    yield server
    server.stop()
