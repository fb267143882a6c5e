"""The database as a part that may fail.

When it cannot be reached (PostgreSQL stopped or restarting, the network to it down, every
connection taken), Django raises :data:`ERRORS` from the first query of a request. Every
request that needs the database then gets 503 with ``Retry-After``, as a reader expects of
a fault that passes: the wait page in the page's language, or under ``/api/`` the API's
problem ``unavailable``. What needs no database (the tutorial, the analyzer, decoding a
notation, ``/healthz``, static files) goes on as usual, and nothing is restarted: a
connection found dead is replaced when a request next asks for one (``CONN_HEALTH_CHECKS``
in the settings), so the first request after the database is back is answered.

The error reaches one of three places, and each answers with :func:`unavailable`: a
view's goes to :class:`DatabaseOutageMiddleware`, an API endpoint's to the API's own
handler (:mod:`tutorials.api.problems`), and one raised before any view (a middleware) to
``handler500`` (:mod:`tutorials.web.server_error`).

The log says it once per outage in each process, not once per request: a warning when the
process first answers so, and one when it connects again, with how long it lasted and how
many requests were answered 503 meanwhile. Django's own line per refused request (with a
traceback where ``handler500`` answered) is left out by
:class:`~tutorials.web.log_filters.HideDatabaseOutageRequests`. The state is the process's
own, as for the shared cache (:mod:`tutorials.web.shared_cache`): each process finds the
outage on its own connections, and keeping the state in the shared cache would make this
log depend on a second part that may be down at the same time (a host cut off from both);
the lines are bounded by the number of processes, not of requests.
"""

from __future__ import annotations

import logging
import threading
import time

from django.db import InterfaceError, OperationalError
from django.db.backends.signals import connection_created
from django.http import HttpRequest, HttpResponse
from django.utils import translation
from django.utils.translation import gettext as _

from tutorials.web.language import page_language
from tutorials.web.log_filters import DATABASE_OUTAGE
from tutorials.web.middleware import wait_page
from tutorials.web.problem_json import api_problem

logger = logging.getLogger(__name__)

#: What Django raises when the database cannot be reached or cannot answer now (refused or
#: lost connections, a server shutting down or starting up, a connection already closed).
ERRORS = (OperationalError, InterfaceError)

#: Seconds a reader is asked to wait (``Retry-After``): about what a PostgreSQL restart takes.
RETRY_AFTER = 10

#: The problem code of the answer (the API's for any 503; pages and htmx notices read it too).
CODE = "unavailable"


class _Outage:
    """This process's view of the database (guarded by ``lock``)."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.since: float | None = None  # monotonic time of the first refused request
        self.answered = 0  # requests answered 503 since then


_outage = _Outage()


def _refused(error: BaseException) -> None:
    with _outage.lock:
        _outage.answered += 1
        if _outage.since is not None:
            return
        _outage.since = time.monotonic()
    logger.warning("database unreachable (%s: %s): requests that need it are answered 503 until "
                   "it answers again", type(error).__name__, str(error).strip())


def _connected(sender, connection, **kwargs) -> None:
    """A new connection was made: the database answers (again)."""
    if _outage.since is None:
        return
    with _outage.lock:
        if _outage.since is None:
            return
        lasted, answered = time.monotonic() - _outage.since, _outage.answered
        _outage.since, _outage.answered = None, 0
    logger.warning("database answers again after %.0f s; meanwhile %d requests were answered 503",
                   lasted, answered)


connection_created.connect(_connected, dispatch_uid="tutorials.web.database")


def is_down() -> bool:
    """Whether this process answered a request 503 for the database and has not connected since."""
    return _outage.since is not None


def reset() -> None:
    """Forget the outage (tests start from a database that answers)."""
    global _outage
    _outage = _Outage()


def unavailable(request: HttpRequest, error: BaseException) -> HttpResponse:
    """503 for ``request``, which needed the database and met ``error`` (of :data:`ERRORS`):
    under ``/api/`` the problem ``unavailable``, else the wait page in the page's language;
    both with ``Retry-After``."""
    _refused(error)
    setattr(request, DATABASE_OUTAGE, True)
    if request.path_info.startswith("/api/"):
        response = api_problem(request, 503, CODE)
        response["Retry-After"] = str(RETRY_AFTER)
        return response
    lang = page_language(request)
    with translation.override(lang):
        message = _("The site cannot reach its stored games, tables and positions right now. Please "
                    "try again in %(seconds)s seconds.") % {"seconds": RETRY_AFTER}
        response = wait_page(request, message, 503, CODE, RETRY_AFTER)
    response["Content-Language"] = lang
    return response


class DatabaseOutageMiddleware:
    """Answer a view that met :data:`ERRORS` with :func:`unavailable`."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        return unavailable(request, exception) if isinstance(exception, ERRORS) else None
