"""Rate limits hold across gunicorn workers, through the shared Redis cache (the render
limit is the render pool's: tests/deploy/test_render_pool.py).

Each test starts gunicorn with the production settings (``bare_release`` fixture) and several
workers; requests come "through the HTTPS proxy of docs/production.md" (``X-Forwarded-Proto`` and one
trusted ``X-Forwarded-For`` hop), so each test can speak as several clients.
"""

from __future__ import annotations

import json
import re
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.conf import settings

from harness import Browser, Server, fresh_position_pdf, serve
from tutorials.models import CODE_ALPHABET


def _all_at_once(count: int, call) -> list:
    """``call(i)`` for i in range(count) in ``count`` threads released together."""
    barrier = threading.Barrier(count)

    def run(i):
        barrier.wait(timeout=30)
        return call(i)

    with ThreadPoolExecutor(count) as pool:
        return list(pool.map(run, range(count)))


# --- rate limits -------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def limits(bare_release):
    """Three workers with the default counts of every rate limit, except 3 PDF renders
    (quick to reach), all per day: django-ratelimit counts in fixed windows, and a window
    that ended in the middle of a test would start the count afresh."""
    counts = {group: rate.split("/")[0] for group, rate in settings.RATE_LIMITS.items()}
    counts["pdf"] = "3"
    rates = ",".join(f"{group}={count}/d" for group, count in counts.items())
    with serve(bare_release, workers=3, env={"DJANGO_RATE_LIMITS": rates}, name="limits") as server:
        yield server


def _unknown_code(i: int, length: int = 7) -> str:
    """The ``i``-th short code (letters of saved codes) that is certainly not in use."""
    return ("zzzzzzz" + CODE_ALPHABET[i % 31] + CODE_ALPHABET[i // 31])[-length:]


def _save(server: Server, client: str, lang: str = "en"):
    return server.request("POST", "/api/v1/positions", client=client,
                          body=json.dumps({"notation": "Rb_11r1.12b2"}).encode(),
                          headers={"Content-Type": "application/json", "Accept-Language": lang})


def test_saves_are_limited_across_workers_through_form_and_api(limits):
    form = Browser(limits, "203.0.113.10")
    form.request("GET", "/en/analyze/")
    for i in range(30):  # the default: 30 a minute, form and API counted together
        if i % 3:
            status, _headers, body = _save(limits, "203.0.113.10")
            assert status == 201, body
        else:
            status, _headers, body = form.request("POST", "/en/analyze/save/", {"pos": "Rb_11r1.12b2"})
            assert status == 302, body[:500]
    status, headers, body = _save(limits, "203.0.113.10", lang="ja")
    assert status == 429
    assert int(headers["Retry-After"]) > 0
    problem = json.loads(body)["detail"][0]
    assert problem["code"] == "rate-limited" and re.search(r"[\u3040-\u30ff]", problem["message"])
    status, headers, body = form.request("POST", "/en/analyze/save/", {"pos": "Rb_11r1.12b2"})
    assert status == 429 and "Retry-After" in headers and b"Too many positions" in body
    assert _save(limits, "203.0.113.11")[0] == 201  # another client is not affected


def test_starting_tables_is_limited(limits):
    presenter = Browser(limits, "203.0.113.20", lang="de")
    for _ in range(10):
        presenter.start_table()
    status, headers, body = presenter.request("POST", "/de/teach/", {"players": "4"})
    assert status == 429 and int(headers["Retry-After"]) > 0
    assert "zu viele Tische gestartet" in body.decode()


def test_failed_table_lookups_are_limited_but_not_the_tables_own_guests(limits):
    presenter = Browser(limits, "203.0.113.30")
    code = presenter.start_table()
    guest = Browser(limits, "203.0.113.30")
    assert guest.request("GET", f"/en/t/{code}/")[0] == 200
    guesser = Browser(limits, "203.0.113.30")
    for i in range(30):  # the default: 30 failed lookups in 10 minutes
        assert guesser.request("GET", f"/en/teach/join/?code={_unknown_code(i, 5)}")[0] == 404
    status, headers, body = guesser.request("GET", f"/en/t/{code}/")  # even a real code now
    assert status == 429 and int(headers["Retry-After"]) > 0 and b"table codes" in body
    # the guest who opened the table, and the presenter, carry on
    assert guest.request("GET", f"/en/t/{code}/poll/?v=0")[0] == 200
    assert presenter.request("GET", f"/en/teach/{code}/")[0] == 200
    assert Browser(limits, "203.0.113.31").request("GET", f"/en/t/{code}/")[0] == 200


def test_failed_saved_code_lookups_are_limited(limits):
    client = "203.0.113.40"
    for i in range(60):  # the default: 60 in 10 minutes, links and API together
        path = f"/p/{_unknown_code(i)}/" if i % 2 else f"/api/v1/positions/{_unknown_code(i)}"
        assert limits.get(path, client=client)[0] == 404
    status, headers, body = limits.get(f"/api/v1/positions/{_unknown_code(100)}", client=client)
    assert status == 429 and json.loads(body)["detail"][0]["code"] == "rate-limited"
    status, headers, body = limits.get(f"/p/{_unknown_code(101)}/", client=client,
                                       headers={"Accept-Language": "de"})
    assert status == 429 and int(headers["Retry-After"]) > 0 and "Kurzlinks" in body.decode()


def test_pdf_renders_are_limited(limits):
    for _ in range(3):
        assert limits.get(fresh_position_pdf(), client="203.0.113.60")[0] == 200
    status, headers, body = limits.get(fresh_position_pdf(), client="203.0.113.60")
    assert status == 429 and int(headers["Retry-After"]) > 0 and b"Too many PDFs" in body
    # a sheet in the cache is no render: still served (another reader's request put it there)
    assert limits.get("/en/sheets/reference.pdf", client="203.0.113.61")[0] == 200
    assert limits.get("/en/sheets/reference.pdf", client="203.0.113.60")[0] == 200


def test_guests_behind_one_address_are_never_limited(limits):
    """A café's NAT: 25 guests poll a live table once a second while the presenter moves
    through six sections and someone on the same network guesses table codes until refused;
    every guest gets every answer (no 429) and sees every move.

    The limits count per day here, so the guesser's refusal comes after exactly 30 misses
    whatever the clock; the guests are never counted (they opened the table), so a shorter
    window would change nothing for them."""
    cafe = "203.0.113.50"
    presenter = Browser(limits, cafe)
    code = presenter.start_table()
    guests = [Browser(limits, cafe, lang=("ja", "en", "de")[i % 3]) for i in range(25)]
    for guest in guests:
        assert guest.request("GET", f"/{guest.lang}/t/{code}/")[0] == 200
    moves_done = threading.Event()

    def poll(guest: Browser) -> tuple[list[int], set[int]]:
        """Poll once a second until the last move has been seen (at most 30 s)."""
        version, statuses, seen = 0, [], set()
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and not (moves_done.is_set() and version >= 6):
            started = time.monotonic()
            status, _headers, body = guest.request("GET", f"/{guest.lang}/t/{code}/poll/?v={version}")
            statuses.append(status)
            found = re.search(rb'data-version="(\d+)"', body)
            if found:
                version = int(found[1])
                seen.add(version)
            time.sleep(max(0.0, 1 - (time.monotonic() - started)))
        return statuses, seen

    def present() -> list[int]:
        moves = []
        for section in range(1, 7):
            time.sleep(1.5)
            moves.append(presenter.request("POST", f"/en/teach/{code}/go/",
                                          {"to": str(section), "v": str(section)})[0])
        moves_done.set()
        return moves

    def guess() -> list[int]:
        guesser = Browser(limits, cafe)
        return [guesser.request("GET", f"/en/teach/join/?code={_unknown_code(i, 5)}")[0] for i in range(40)]

    with ThreadPoolExecutor(27) as pool:
        polls = [pool.submit(poll, guest) for guest in guests]
        moves = pool.submit(present)
        guesses = pool.submit(guess)
        results = [future.result() for future in polls]
    assert guesses.result() == [404] * 30 + [429] * 10
    assert moves.result() == [302] * 6
    for i, (statuses, seen) in enumerate(results):
        assert set(statuses) <= {200, 204}, (i, sorted(set(statuses)))
        assert len(statuses) >= 6, (i, statuses)
        assert 6 in seen, (i, sorted(seen))  # the last move reached this guest
