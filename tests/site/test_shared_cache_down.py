"""Without the shared cache the site degrades instead of failing: rate limits let requests
through (counted, in the log), and once the cache answers again the limits count again,
without a restart.

"Down" here is a real Redis client pointed at a port nothing listens on: the errors are
the ones redis-py raises when Redis stops. tests/deploy/test_redis_down.py stops a real
Redis under gunicorn.
"""

from __future__ import annotations

import json
import logging
import re
import socket

import pytest
from django.test import RequestFactory

from tutorials.models import SavedPosition
from tutorials.web import limits, shared_cache
from tutorials.web.limits import RateLimited

pytestmark = pytest.mark.django_db

POSITION = "Rb_11r1.12b2"
PLAY = {"players": "3", "colour": "red", "start": "random", "strength": "greedy",
        "collection": "sequential", "mode": "action", "pace": "table"}
GAME = {"seats": ["red", "blue", "green"], "learner": "red"}


def _closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]  # free again once the socket closes: nothing listens


@pytest.fixture(autouse=True)
def fresh_state():
    shared_cache.reset()
    yield
    shared_cache.reset()  # the next test starts with a cache that answers


@pytest.fixture
def cache_down(settings):
    """The shared cache is a Redis that does not answer; every limit at one a day."""
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache",
                                   "LOCATION": f"redis://127.0.0.1:{_closed_port()}/0",
                                   "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 1}}}
    settings.RATE_LIMITS = {group: "1/d" for group in settings.RATE_LIMITS}
    return settings


def _up_again(settings) -> None:
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache",
                                   "LOCATION": "up-again"}}


def test_saves_go_on_past_the_limit_while_the_cache_is_down(client, cache_down, caplog):
    with caplog.at_level(logging.WARNING, logger="tutorials.web.shared_cache"):
        for _ in range(3):  # the limit is one a day
            response = client.post("/en/analyze/save/", {"pos": POSITION})
            assert response.status_code == 302, response.content[:300]
            response = client.post("/api/v1/positions", json.dumps({"notation": POSITION}),
                                   content_type="application/json")
            assert response.status_code == 201, response.content
    assert SavedPosition.objects.count() == 6
    assert shared_cache.degraded_counts()["rate-limit"] == 6
    warnings = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert len(warnings) == 1, warnings  # one warning for the outage, not one per request
    assert "shared cache unreachable" in warnings[0] and "rate limits let requests through" in warnings[0]


def test_links_tables_and_games_work_while_the_cache_is_down(client, cache_down):
    saved = SavedPosition.objects.create(code="k3m9xqa", notation=POSITION)
    assert client.get(f"/p/{saved.code}/").status_code == 302
    assert client.get(f"/api/v1/positions/{saved.code}").status_code == 200
    assert client.get("/p/zzzzzzz/").status_code == 404  # a miss, counted nowhere, still a 404
    table = client.post("/en/teach/", {"players": "4", "mode": "action"})
    assert table.status_code == 302
    code = table["Location"].rstrip("/").rsplit("/", 1)[-1]
    guest = client.__class__()
    joined = guest.get(f"/t/{code}/", headers={"Accept-Language": "de"})
    assert joined.status_code == 302
    assert guest.get(joined["Location"]).status_code == 200
    assert guest.get(f"/de/t/{code}/poll/?v=0").status_code in (200, 204)
    assert guest.get("/en/teach/join/?code=nosuch").status_code == 404
    assert client.post("/en/play/", PLAY).status_code == 302
    response = client.post("/api/v1/games", json.dumps(GAME), content_type="application/json")
    assert response.status_code == 201, response.content
    assert client.post("/en/teach/", {"players": "4", "mode": "action"}).status_code == 302  # past 1/d


def test_the_cache_is_left_alone_for_a_while_after_it_failed(cache_down, monkeypatch):
    calls = []
    request = RequestFactory().get("/")
    real = limits.get_usage

    def counted(*args, **kwargs):
        calls.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(limits, "get_usage", counted)
    clock = [1000.0]
    monkeypatch.setattr(shared_cache.time, "monotonic", lambda: clock[0])
    cache_down.SHARED_CACHE_RETRY_SECONDS = 5
    limits.hit(request, "save")
    assert calls == [1] and shared_cache.is_down()
    for _ in range(10):
        limits.hit(request, "save")  # let through without asking the cache
    assert calls == [1]
    clock[0] += 5
    limits.hit(request, "save")
    assert calls == [1, 1]  # asked again after the retry time
    assert shared_cache.degraded_counts()["rate-limit"] == 12


def test_one_request_asks_a_hanging_cache_while_the_others_go_on(cache_down, monkeypatch):
    """Past the retry time, the request that asks the cache again may wait for its
    timeout; the requests that come meanwhile do not ask it too."""
    clock = [1000.0]
    monkeypatch.setattr(shared_cache.time, "monotonic", lambda: clock[0])
    cache_down.SHARED_CACHE_RETRY_SECONDS = 5
    request = RequestFactory().get("/")
    limits.hit(request, "save")
    assert shared_cache.is_down()
    clock[0] += 5
    asked = []

    def hanging(*args, **kwargs):  # while this one waits, another request comes
        asked.append("probe")
        limits.hit(request, "save")
        raise ConnectionError("timed out")

    monkeypatch.setattr(limits, "get_usage", hanging)
    limits.hit(request, "save")
    assert asked == ["probe"]  # the request that came meanwhile went on unasked
    assert shared_cache.degraded_counts()["rate-limit"] == 3


def test_the_limits_count_again_once_the_cache_answers(cache_down, caplog):
    cache_down.SHARED_CACHE_RETRY_SECONDS = 0
    request = RequestFactory().get("/")
    for _ in range(3):
        limits.hit(request, "save")
    assert shared_cache.is_down()
    _up_again(cache_down)  # Redis is back: the same settings, a cache that answers
    with caplog.at_level(logging.WARNING, logger="tutorials.web.shared_cache"):
        limits.hit(request, "save")  # the one allowed a day
        with pytest.raises(RateLimited):
            limits.hit(request, "save")
    assert not shared_cache.is_down()
    [back] = [r.getMessage() for r in caplog.records if "answers again after" in r.getMessage()]
    assert re.search(r"answers again after \d+ s; meanwhile 3 requests without a rate limit", back), back
