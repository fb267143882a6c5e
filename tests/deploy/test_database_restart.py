"""PostgreSQL stopped for ten seconds under a running production server while readers go on,
and the operator's load through nginx (tests/deploy/operator_load.py):
no request answers 500; every request that needs the database answers 503 with
``Retry-After`` in its reader's language (the wait page, or the API's problem JSON) while
it is down, the rest of the site 200; once PostgreSQL is back the site answers as before,
without a restart, and the log holds a line when each worker found the outage and when it
connected again, not a traceback per request.

The test runs a PostgreSQL cluster of its own (never the suite's shared one, which other
servers use), as bin/test does: as the postgres user when the tests run as root.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import tempfile
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import psycopg
import pytest
from django.conf import settings

from harness import finish, free_port, manage, serve_behind_nginx
from operator_load import DATABASE_KINDS, OperatorLoad
from operator_load import NORMAL as LOAD_NORMAL

#: seconds PostgreSQL stays stopped
OUTAGE = 10
WORKERS = 2
LANGS = ("ja", "en", "de")
POSITION = "Rb_11r1.12b2"


def _pg_bin() -> Path | None:
    found = sorted(Path("/usr/lib/postgresql").glob("*/bin/pg_ctl"),
                   key=lambda p: [int(n) for n in p.parent.parent.name.split(".") if n.isdigit()])
    if found:
        return found[-1].parent
    pg_ctl = shutil.which("pg_ctl")
    return Path(pg_ctl).parent if pg_ctl else None


class Cluster:
    """A PostgreSQL cluster in ``folder`` on a free port, trust on loopback, that can be
    stopped (fast: connections cut, as a restart does) and started again on the same port."""

    def __init__(self, folder: Path, bin_dir: Path) -> None:
        self.folder, self.bin = folder, bin_dir
        self.port = free_port()
        self.url = f"postgres://captain@127.0.0.1:{self.port}/captain"
        # PostgreSQL refuses to run as root: its cluster belongs to the postgres user then
        self.as_db = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
        if self.as_db:
            shutil.chown(folder, "postgres", "postgres")

    def _run(self, *args: str) -> None:
        subprocess.run([*self.as_db, *args], check=True, stdout=subprocess.DEVNULL, timeout=120)

    def init(self) -> None:
        self._run(str(self.bin / "initdb"), "-D", str(self.folder / "pg"), "-U", "captain", "--auth=trust",
                  "-E", "UTF8", "--locale=C.UTF-8")
        self.start()
        with psycopg.connect(f"postgres://captain@127.0.0.1:{self.port}/postgres", autocommit=True) as conn:
            conn.execute('CREATE DATABASE "captain"')

    def start(self) -> None:
        self._run(str(self.bin / "pg_ctl"), "-D", str(self.folder / "pg"), "-l", str(self.folder / "pg.log"),
                  "-w", "-t", "60", "start", "-o",
                  f"-p {self.port} -k {self.folder} -c listen_addresses=127.0.0.1 -c fsync=off "
                  "-c synchronous_commit=off -c full_page_writes=off")

    def stop(self) -> None:
        self._run(str(self.bin / "pg_ctl"), "-D", str(self.folder / "pg"), "-m", "fast", "-w", "stop")

    def running(self) -> bool:
        return (self.folder / "pg" / "postmaster.pid").exists()


@pytest.fixture(scope="module")
def cluster() -> Iterator[Cluster]:
    bin_dir = _pg_bin()
    if bin_dir is None or not (bin_dir / "initdb").exists():
        pytest.skip("PostgreSQL's initdb is not installed (Debian package postgresql)")
    # not below pytest's own folder, which only its owner may enter (the postgres user must)
    folder = Path(tempfile.mkdtemp(prefix="captain-own-postgresql-"))
    try:
        own = Cluster(folder, bin_dir)
        own.init()
        try:
            yield own
        finally:
            if own.running():
                own.stop()
    finally:
        shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture(scope="module")
def proxy(bare_release, cluster):
    env = {**bare_release.env, "DATABASE_URL": cluster.url}
    finish(manage("migrate", "--noinput", env=env), "migrate (own PostgreSQL)")
    rates = ",".join(f"{group}=100000/m" for group in settings.RATE_LIMITS)
    with serve_behind_nginx(bare_release, workers=WORKERS, streams=1,
                            env={"DATABASE_URL": cluster.url, "DJANGO_RATE_LIMITS": rates,
                                 "GUNICORN_THREADS": "4"}) as running:
        yield running


@dataclass(frozen=True)
class Answer:
    kind: str          # what was asked (see _requests)
    lang: str
    database: bool     # whether the request needs the database
    started: float
    ended: float
    status: int
    retry_after: str | None
    content_language: str | None
    problem: str | None
    body: bytes


def _requests(code: str, lang: str) -> list[tuple[str, str, str, bytes | None, dict[str, str], bool]]:
    """``(kind, method, path, body, headers, needs the database)`` of one reader's round."""
    accept = {"Accept-Language": lang}
    return [
        ("short link", "GET", f"/p/{code}/", None, accept, True),
        ("table lookup", "GET", f"/{lang}/teach/join/?code=abcde", None, {}, True),
        ("api read", "GET", f"/api/v1/positions/{code}", None, accept, True),
        ("api save", "POST", "/api/v1/positions", json.dumps({"notation": POSITION, "title": lang}).encode(),
         {**accept, "Content-Type": "application/json"}, True),
        ("tutorial", "GET", f"/{lang}/tutorial/", None, {}, False),
        ("decode", "GET", f"/api/v1/positions/{POSITION}", None, accept, False),
        ("healthz", "GET", "/healthz", None, {}, False),
    ]


#: what each kind answers while the database is there
NORMAL = {"short link": 302, "table lookup": 404, "api read": 200, "api save": 201, "tutorial": 200,
          "decode": 200, "healthz": 200}


def _reader(server, code: str, lang: str, stop: threading.Event, answers: list[Answer]) -> None:
    while not stop.is_set():
        for kind, method, path, body, headers, database in _requests(code, lang):
            started = time.monotonic()
            status, head, content = server.request(method, path, body=body, headers=headers, timeout=60)
            answers.append(Answer(kind, lang, database, started, time.monotonic(), status,
                                  head.get("Retry-After"), head.get("Content-Language"),
                                  head.get("Problem-Code"), content[:2000]))


def _wait(condition, what: str, timeout: float = 90) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.1)


def test_postgresql_stopped_under_load_gives_503s_and_the_site_recovers(proxy, cluster):
    server = proxy.server  # the readers ask the site itself; the operator's load goes through nginx
    status, _headers, body = server.request("POST", "/api/v1/positions", body=json.dumps(
        {"notation": POSITION}).encode(), headers={"Content-Type": "application/json"})
    assert status == 201, body[:500]
    code = json.loads(body)["code"]
    log_start = server.log_size()
    answers: list[Answer] = []
    stop = threading.Event()

    def since(moment: float, kinds: set[str], status: int | None = None) -> bool:
        """Whether each kind of ``kinds`` was asked and answered after ``moment`` (with ``status``)."""
        seen = {(a.kind, a.lang) for a in list(answers)
                if a.started > moment and (status is None or a.status == status)}
        return all((kind, lang) in seen for kind in kinds for lang in LANGS)

    kinds = set(NORMAL)
    database_kinds = {kind for kind, *_rest, database in _requests(code, "en") if database}
    with ThreadPoolExecutor(len(LANGS)) as pool, OperatorLoad(proxy) as load:
        readers = [pool.submit(_reader, server, code, lang, stop, answers) for lang in LANGS]
        try:
            begun = time.monotonic()
            _wait(lambda: since(begun, kinds), "a round of every request before the outage")
            load.wait_for_every_kind(begun)
            cluster.stop()
            stopped = time.monotonic()
            _wait(lambda: since(stopped, database_kinds, 503) and time.monotonic() - stopped >= OUTAGE,
                  f"{OUTAGE} s of outage with every database request answered 503")
            restarting = time.monotonic()
            cluster.start()
            back = time.monotonic()
            _wait(lambda: all((kind, lang) in {(a.kind, a.lang) for a in list(answers)
                                               if a.started > back and a.status == NORMAL[a.kind]}
                              for kind in kinds for lang in LANGS),
                  "every request answered as before once PostgreSQL is back")
            load.wait_for_every_kind(back)
        finally:
            stop.set()
            for reader in readers:
                reader.result(timeout=120)

    statuses = sorted({a.status for a in answers})
    assert 500 not in statuses and all(s in (*NORMAL.values(), 503) for s in statuses), statuses
    for answer in answers:
        if not answer.database:
            assert answer.status == NORMAL[answer.kind], answer
        elif answer.status != NORMAL[answer.kind]:
            assert answer.status == 503, answer
            assert answer.retry_after == "10" and answer.content_language == answer.lang, answer
            assert answer.problem == "unavailable", answer
            if answer.kind.startswith("api"):
                problem = json.loads(answer.body)["detail"][0]
                assert problem["code"] == "unavailable", answer
            else:
                assert f'<html lang="{answer.lang}">'.encode() in answer.body, answer
    down = [a for a in answers if a.database and a.started > stopped and a.ended < restarting]
    assert down and all(a.status == 503 for a in down), {a.status for a in down}
    assert len(down) >= len(database_kinds) * len(LANGS)
    log = server.log_since(log_start)
    assert "Traceback" not in log and "Service Unavailable" not in log and "Internal Server Error" not in log
    # a line per worker that found the outage, and one when it connected again, not one per
    # refused request; a worker may meet the server once more while it is starting up
    assert 1 <= log.count("database unreachable") <= 2 * WORKERS, log
    assert 1 <= log.count("database answers again") <= log.count("database unreachable"), log
    status, _headers, body = server.get(f"/api/v1/positions/{code}")
    assert status == 200 and json.loads(body)["notation"] == POSITION
    _check_the_load(load, stopped, restarting)


def _check_the_load(load: OperatorLoad, stopped: float, restarting: float) -> None:
    """The operator's load met the outage as the readers did: no 500 and no failed request;
    what needs the database 503 with ``Retry-After`` in the request's language, or as usual;
    everything else as usual; whatever needed it while it was down, 503."""
    assert not load.server_errors(), (load.server_errors()[:5], load.summary())
    for answer in load.answers:
        if answer.kind not in DATABASE_KINDS:
            assert answer.status in LOAD_NORMAL[answer.kind], (answer, load.summary())
        elif answer.status not in LOAD_NORMAL[answer.kind]:
            assert answer.status == 503, (answer, load.summary())
            assert answer.retry_after == "10" and answer.content_language == answer.lang, answer
            assert answer.problem == "unavailable", answer
    down = [a for a in load.answers
            if a.kind in DATABASE_KINDS and a.started > stopped and a.ended < restarting]
    assert {a.kind for a in down} >= {"poll", "move", "save"}, load.summary()
    assert all(a.status == 503 for a in down), [(a.kind, a.status) for a in down if a.status != 503]
    assert any(a.kind == "pdf" and stopped < a.started and a.ended < restarting for a in load.answers)
    # the streams: none answered 500 (a stream opened while the database was down may be refused)
    assert all(500 not in f.statuses and f.events for f in load.followers), load.summary()
