"""The OpenAPI schema says exactly what the server does: schemathesis against the site.

schemathesis generates requests from /api/openapi.json, schema-valid ones and ones that
break the schema, sends them through the WSGI application and checks every answer:
never a server error, only documented status codes and content types, bodies that match
their schemas, and schema-breaking input refused. Schema-valid positions may still be
refused (422) when the rules forbid them: the engine judges positions, the schema their
shape. Rate limits are off here (they are tested in tests/deploy): this test is about
shapes, and a 429 would hide them.

The number of requests sent is printed, and appended to the file named by
``SCHEMATHESIS_COUNT_FILE`` when set (the benchmark reads it).
"""

from __future__ import annotations

import os
import threading

import pytest
import schemathesis
from django.core.signals import request_finished, request_started
from django.core.wsgi import get_wsgi_application
from django.db import close_old_connections
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    negative_data_rejection,
    response_schema_conformance,
    status_code_conformance,
)

from profiles import examples

CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance,
          response_schema_conformance, negative_data_rejection]
#: Examples per operation and generation phase (a fixed budget: the run takes seconds).
EXAMPLES = examples(300)

schema = schemathesis.openapi.from_wsgi("/api/openapi.json", get_wsgi_application())
_sent = {"count": 0}
_lock = threading.Lock()


@pytest.fixture(autouse=True)
def no_rate_limits(settings):
    settings.RATELIMIT_ENABLE = False


@pytest.fixture(autouse=True)
def keep_connection():
    """Requests go straight to the WSGI handler, which closes database connections when a
    request finishes; the test's transaction needs its connection (Django's test client
    does the same)."""
    for signal in (request_started, request_finished):
        signal.disconnect(close_old_connections)
    yield
    for signal in (request_started, request_finished):
        signal.connect(close_old_connections)


@pytest.fixture(scope="module", autouse=True)
def report_count():
    yield
    line = f"schemathesis: {_sent['count']} requests"
    print(f"\n{line}")
    if os.environ.get("SCHEMATHESIS_COUNT_FILE"):
        with open(os.environ["SCHEMATHESIS_COUNT_FILE"], "a", encoding="utf-8") as fh:
            fh.write(f"{_sent['count']}\n")


@pytest.mark.django_db
@schema.parametrize()
@settings(max_examples=EXAMPLES, deadline=None, derandomize=True,
          suppress_health_check=list(HealthCheck))
def test_api_matches_its_schema(case):
    with _lock:
        _sent["count"] += 1
    # schemathesis sends requests' Accept-Encoding (gzip) but its WSGI transport hands the
    # body on as the site wrote it, without undoing the gzip: ask for it uncompressed
    case.call_and_validate(checks=CHECKS, headers={"Accept-Encoding": "identity"})
