"""Concurrent changes of a teaching table: no lost update, no crash on a taken code.

Two threads act at the same moment: a hook on each thread's database connection holds it
right after it has read the table until the other has read it too, so both start from
the same version, as two gunicorn workers can.
"""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager, suppress

import pytest
from django.db import connection, connections
from django.test import Client

from tutorials.models import Table, TableSeat
from tutorials.tutorial.teaching import sections

pytestmark = pytest.mark.django_db(transaction=True)

TABLE = "tutorials_table"


@contextmanager
def meet_after_reading(barrier: threading.Barrier):
    """Hold this thread after its first read of a table until every party has read."""
    met = False

    def hook(execute, sql, params, many, context):
        nonlocal met
        result = execute(sql, params, many, context)
        if not met and sql.lstrip().upper().startswith("SELECT") and TABLE in sql:
            met = True
            with suppress(threading.BrokenBarrierError):
                barrier.wait(timeout=10)
        return result

    with connection.execute_wrapper(hook):
        yield


def _at_once(*calls):
    """Run the calls in threads that meet after reading the table; their results."""
    barrier = threading.Barrier(len(calls))

    def run(call):
        try:
            with meet_after_reading(barrier):
                return call()
        finally:
            connections.close_all()

    with ThreadPoolExecutor(len(calls)) as pool:
        return [future.result() for future in [pool.submit(run, call) for call in calls]]


def _same_presenter(client: Client) -> Client:
    """Another client with the presenter's cookies (a test client is not thread-safe)."""
    other = Client()
    other.cookies = client.cookies
    return other


def _table(client: Client, section: int) -> Table:
    response = client.post("/en/teach/", {"players": "4", "mode": "action", "script": "full"})
    code = response["Location"].rstrip("/").split("/")[-1]
    client.post(f"/en/teach/{code}/go/", {"to": str(section), "v": "1"})
    return Table.objects.get(code=code)


def test_two_board_actions_at_once_lose_nothing(client):
    table = _table(client, 7)  # Treasure Time: boards sandwich, block, priority, quiz
    before = table.version
    boards = ("sandwich", "block")
    presenters = [_same_presenter(client) for _ in boards]
    results = _at_once(*[lambda board=board, c=c:
                         c.post(f"/en/teach/{table.code}/board/{board}/",
                                {"do": "step", "at": "1", "v": str(before)})
                         for board, c in zip(boards, presenters, strict=True)])
    statuses = [r.status_code for r in results]
    table.refresh_from_db()
    accepted = [board for board, status in zip(boards, statuses, strict=True) if status == 302]
    assert sorted(statuses) == [302, 409], statuses
    assert table.version == before + len(accepted)
    assert sorted(table.board_states) == accepted, "an accepted change was lost"
    refused = next(r for r in results if r.status_code == 409)
    assert "changed at the same moment" in refused.content.decode()


def test_two_moves_at_once_are_one_move_and_one_refusal(client):
    table = _table(client, 1)
    before = table.version
    first, second = _same_presenter(client), _same_presenter(client)
    results = _at_once(lambda: first.post(f"/en/teach/{table.code}/go/", {"to": "3", "v": str(before)}),
                       lambda: second.post(f"/en/teach/{table.code}/go/", {"to": "5", "v": str(before)},
                                           HTTP_HX_REQUEST="true"))
    table.refresh_from_db()
    statuses = [r.status_code for r in results]
    assert sorted(statuses) in ([200, 409], [302, 409]), statuses
    assert table.version == before + 1
    winner = 3 if statuses[0] == 302 else 5
    assert table.section == winner
    # the refused one shows the table as it is now (htmx swaps 409 in, see base.html)
    refused = next(r for r in results if r.status_code == 409)
    assert "changed at the same moment" in refused.content.decode()


def test_a_table_code_taken_between_choosing_and_inserting_is_replaced(monkeypatch):
    """Another worker inserts the same code just before this one does: start() takes the
    next code instead of failing with an integrity error."""
    codes = iter(["aaaaaaa", "bbbbbbb"])
    monkeypatch.setattr("tutorials.models.new_code", lambda: next(codes))
    rival_done = threading.Event()

    def rival():
        try:
            Table.objects.create(code="aaaaa", presenter_key_hash="rival", options={},
                                        expires_at=Table.lifetime_end())
        finally:
            connections.close_all()

    def hook(execute, sql, params, many, context):
        if sql.lstrip().upper().startswith("INSERT") and TABLE in sql and not rival_done.is_set():
            rival_done.set()
            with ThreadPoolExecutor(1) as pool:
                pool.submit(rival).result()
        return execute(sql, params, many, context)

    # SQLite's transactions here begin by taking the write lock, so no other worker can
    # insert inside one; the interleaving this test makes is then PostgreSQL's alone
    connection.ensure_connection()
    monkeypatch.setattr(connection, "transaction_mode", None, raising=False)
    with connection.execute_wrapper(hook):
        session, _key = Table.start({"players": 4})
    assert rival_done.is_set()
    assert session.code == "bbbbb"
    assert Table.objects.get(code="aaaaa").presenter_key_hash == "rival"


def test_two_next_rounds_at_once_are_one_round_and_one_refusal(client):
    """Both read the seats before either writes: the second waits for the first and is
    then refused as stale, never failing on a locked database."""
    response = client.post("/en/teach/", {"players": "4", "mode": "action", "script": "quick"})
    table = Table.objects.get(code=response["Location"].rstrip("/").split("/")[-1])
    slugs = [s.slug for s in sections(table.options)]
    red = Client()
    red.get(f"/en/t/{table.code}/")
    for slug in ("round-setting", "round-table", "round-resolve"):
        if slug == "round-table":
            red.post(f"/en/t/{table.code}/seat/", {"do": "take", "at": "red"})
            red.post(f"/en/t/{table.code}/hand/", {"do": "lay", "card": "2", "at": "1-1"})
        table.refresh_from_db()
        client.post(f"/en/teach/{table.code}/go/", {"to": str(slugs.index(slug)), "v": str(table.version)})
    table.refresh_from_db()
    assert table.revealed and slugs[table.section] == "round-resolve"
    before = table.version
    first, second = _same_presenter(client), _same_presenter(client)
    results = _at_once(*[lambda c=c: c.post(f"/en/teach/{table.code}/seats/",
                                            {"do": "next-round", "at": "", "v": str(before)})
                         for c in (first, second)])
    assert sorted(r.status_code for r in results) == [302, 409], [r.status_code for r in results]
    table.refresh_from_db()
    assert table.round == 2 and not table.revealed
    assert TableSeat.objects.get(session=table, colour="red").discard == [2]
