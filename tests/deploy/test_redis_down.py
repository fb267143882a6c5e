"""Redis stops under a running production server: the site degrades instead of failing, and
the limits count again when Redis comes back, without a restart.

The test starts a redis-server of its own (never the suite's shared one, which other
servers use), points gunicorn with the production settings at it, stops it mid-run and
starts it again on the same port. Every limit is two a day, so that one request more
than the limit shows whether it was counted.
"""

from __future__ import annotations

import json
import time

import pytest
import redis
from django.conf import settings

from harness import Browser, RedisServer, Server, fresh_position_pdf, serve

POSITION = "Rb_11r1.12b2"
GAME = {"seats": ["red", "blue", "green"], "learner": "red"}
PLAY = {"players": "3", "colour": "red", "start": "random", "strength": "greedy",
        "collection": "sequential", "mode": "action", "pace": "table"}
LIMIT = 2
#: seconds a worker leaves Redis alone after it failed (the setting, shortened for the test)
RETRY_SECONDS = 1


@pytest.fixture(scope="module")
def own_redis(tmp_path_factory):
    server = RedisServer(tmp_path_factory.mktemp("own-redis"))
    server.start()
    yield server
    server.stop()


@pytest.fixture(scope="module")
def server(bare_release, own_redis):
    rates = ",".join(f"{group}={LIMIT}/d" for group in settings.RATE_LIMITS)
    with serve(bare_release, workers=2, name="redis-down", env={
            "REDIS_URL": f"{own_redis.url}/0", "DJANGO_RATE_LIMITS": rates,
            "DJANGO_RENDER_LIMIT": "2", "DJANGO_SHARED_CACHE_RETRY_SECONDS": str(RETRY_SECONDS)}) as running:
        yield running


def _api(server: Server, method: str, path: str, client: str, data: dict | None = None):
    body = json.dumps(data).encode() if data is not None else None
    return server.request(method, path, client=client, body=body,
                          headers={"Content-Type": "application/json"} if body else {})


def _pdf(server: Server, client: str):
    """A position PDF rendered now (one asked for before would be read from disk, uncounted)."""
    return server.get(fresh_position_pdf(), client=client)


def _each_limit(server: Server, client: str) -> dict[str, list[int]]:
    """One request more than the limit of every group, each group from its own client
    address (``client`` with a suffix): the statuses, by group."""
    out: dict[str, list[int]] = {}
    tries = range(LIMIT + 1)
    out["save"] = [_api(server, "POST", "/api/v1/positions", f"{client}1", {"notation": POSITION})[0]
                   for _ in tries]
    out["game"] = [_api(server, "POST", "/api/v1/games", f"{client}2", GAME)[0] for _ in tries]
    out["code-miss"] = [server.get("/p/zzzzzzz/", client=f"{client}3")[0] for _ in tries]
    out["game-miss"] = [server.get("/api/v1/games/nosuchgame", client=f"{client}4")[0] for _ in tries]
    finder = Browser(server, f"{client}5")
    out["table-miss"] = [finder.request("GET", "/en/teach/join/?code=nosuch")[0] for _ in tries]
    starter = Browser(server, f"{client}6")
    starter.request("GET", "/en/teach/")
    out["table"] = [starter.request("POST", "/en/teach/", {"players": "4", "mode": "action"})[0]
                    for _ in tries]
    out["pdf"] = [_pdf(server, f"{client}7")[0] for _ in tries]
    return out


OVER_THE_LIMIT = {"save": 201, "game": 201, "code-miss": 404, "game-miss": 404, "table-miss": 404,
                  "table": 302, "pdf": 200}


def test_the_site_degrades_while_redis_is_down_and_limits_count_again_after(server, own_redis):
    # made while Redis answers: a saved position and a table
    status, _headers, body = _api(server, "POST", "/api/v1/positions", "198.51.100.1",
                                  {"notation": POSITION})
    assert status == 201, body
    code = json.loads(body)["code"]
    presenter = Browser(server, "198.51.100.2")
    table = presenter.start_table()

    own_redis.stop()
    log_at = server.log_size()

    # every path that needs a counter or a lease, each answered without Redis
    answers = {
        "short link": server.get(f"/p/{code}/", client="198.51.100.3")[0],
        "API read": server.get(f"/api/v1/positions/{code}", client="198.51.100.3")[0],
    }
    saver = Browser(server, "198.51.100.4")
    saver.request("GET", "/en/analyze/")
    answers["form save"] = saver.request("POST", "/en/analyze/save/", {"pos": POSITION})[0]
    guest = Browser(server, "198.51.100.5", lang="de")
    joined = guest.request("GET", f"/t/{table}/")
    answers["guest join"] = joined[0]
    answers["guest page"] = guest.request("GET", joined[1]["Location"])[0]
    answers["guest poll"] = guest.request("GET", f"/de/t/{table}/poll/?v=0")[0]
    answers["presenter moves on"] = presenter.request("POST", f"/en/teach/{table}/go/",
                                                      {"to": "1", "v": "1"})[0]
    player = Browser(server, "198.51.100.6")
    player.request("GET", "/en/play/")
    answers["play form"] = player.request("POST", "/en/play/", PLAY)[0]
    status, _headers, pdf = _pdf(server, "198.51.100.7")
    answers["position PDF"] = status
    assert pdf.startswith(b"%PDF"), pdf[:300]
    assert answers == {"short link": 302, "API read": 200, "form save": 302, "guest join": 302,
                       "guest page": 200, "guest poll": 200, "presenter moves on": 302,
                       "play form": 302, "position PDF": 200}, server.log_since(log_at)[-3000:]
    # and the limits let everything through: one more than each limit, none refused
    assert _each_limit(server, "198.51.100.10") == {
        group: [status] * (LIMIT + 1) for group, status in OVER_THE_LIMIT.items()}
    log = server.log_since(log_at)
    assert "shared cache unreachable" in log and "Traceback" not in log, log[-3000:]

    own_redis.start()  # empty, as after a restart without persistence
    # each worker asks Redis again once its retry time after the last failure has passed
    time.sleep(RETRY_SECONDS + 0.5)
    log_at = server.log_size()
    counted = _each_limit(server, "198.51.100.20")
    assert counted == {group: [status] * LIMIT + [429] for group, status in OVER_THE_LIMIT.items()}
    assert redis.Redis.from_url(f"{own_redis.url}/0").dbsize() > 0  # the counts are back in Redis
    log = server.log_since(log_at)
    assert "shared cache answers again" in log and "Traceback" not in log, log[-3000:]
