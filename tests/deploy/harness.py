"""Helpers of the deploy tests (imported as ``harness``; the fixtures are in conftest.py).

The fixtures (``redis_base``, ``deploy_database_url``, ``release``) are described in
conftest.py; here:

* :func:`serve` — gunicorn on a free port with the release's environment, any number of
  workers and its own Redis database; :class:`Server` sends requests to it as the
  HTTPS proxy of docs/production.md would.
* :func:`serve_streams` — the ASGI stream process beside it.
* :func:`serve_pdf` — the render pool beside it (gunicorn_pdf.conf.py), which nginx sends
  the PDF addresses to (:func:`serve_behind_nginx`).

Each is started as their systemd units say (:class:`Unit`): the release steps write the
units with ``manage.py systemd_units``, and the harness runs their own ``ExecStart`` (and
``ExecReload``, :meth:`Server.reload`) in the unit's ``WorkingDirectory``, with the
environment systemd would give it: the unit's ``Environment=`` lines, then the release's
settings standing for its ``EnvironmentFile=`` (which overrides them, as in systemd), where
the harness sets the addresses the units read (``SITE_BIND``, ``STREAM_BIND``) to ports of
its own; ``$MAINPID`` is the started process. Each runs in a session of its own, standing for
the unit's control group: :meth:`Server.stop` does what ``systemctl stop`` does with
``KillMode=control-group``.
"""

from __future__ import annotations

import contextlib
import http.client
import itertools
import os
import pwd
import re
import secrets
import shlex
import shutil
import signal
import socket
import ssl
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.cookies import SimpleCookie
from pathlib import Path
from urllib.parse import urlencode

import pytest
import redis
from django.conf import settings

from processes import children, in_session

BASE_DIR = Path(settings.BASE_DIR)


def _listening_ports() -> range:
    """Where this test process's servers listen: below the kernel's ephemeral ports (a port
    the kernel picked would be as free for the source of any outgoing connection, and one
    such connection is enough to make the server's bind fail), a range of its own per
    pytest-xdist worker."""
    low, _high = (int(n) for n in Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split())
    worker = int(os.environ.get("PYTEST_XDIST_WORKER", "gw0").removeprefix("gw") or 0)
    width = max(200, (low - 10000) // 8)
    start = 10000 + width * (worker % 8)
    return range(start, start + width)


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now, in this process's range."""
    ports = _listening_ports()
    for _ in range(500):
        port = secrets.choice(ports)
        with socket.socket() as sock:
            try:
                sock.bind(("0.0.0.0", port))
            except OSError:
                continue
            return port
    raise RuntimeError(f"no free port in {ports}")


def wait_for_port(port: int, process: subprocess.Popen, what: str, log: Path | None = None,
                  timeout: float = 60) -> None:
    """Wait until ``port`` accepts connections; fail the test if ``process`` exits first."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return
        except OSError:
            if process.poll() is not None or time.monotonic() > deadline:
                pytest.fail(f"{what} did not start:\n{log.read_text() if log else ''}")
            time.sleep(0.1)


def base_env() -> dict[str, str]:
    """This process's environment without the site's own settings."""
    env = {k: v for k, v in os.environ.items()
           if not k.startswith("DJANGO_") and k not in ("DATABASE_URL", "REDIS_URL", "WEB_CONCURRENCY")}
    env["DJANGO_SETTINGS_MODULE"] = "captain.settings"
    env["PYTHONUNBUFFERED"] = "1"
    return env


def manage(*args: str, env: dict[str, str], **kwargs) -> subprocess.Popen:
    """``manage.py <args>`` in a subprocess, output (stdout and stderr) in a pipe."""
    return subprocess.Popen([sys.executable, "manage.py", *args], cwd=BASE_DIR, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, **kwargs)


def finish(process: subprocess.Popen, what: str, timeout: float = 600) -> str:
    """Wait for ``process``; its output, or a test failure showing it."""
    output, _ = process.communicate(timeout=timeout)
    assert process.returncode == 0, f"{what} failed:\n{output}"
    return output


# --- Redis ---------------------------------------------------------------------------------
class RedisServer:
    """A redis-server of this test process on a free loopback port, no persistence, that
    can be stopped and started again on the same port (a Redis that goes away and comes
    back, as in a restart); ``url`` is its base URL, without a database number."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}"
        self.process: subprocess.Popen | None = None

    def start(self) -> None:
        server = shutil.which("redis-server")
        if server is None:
            pytest.fail("redis-server is not installed: run bin/setup (Debian package redis-server)")
        self.process = subprocess.Popen(
            [server, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "no", "--dir", str(self.folder), "--databases", str(REDIS_DATABASES)],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        wait_for_port(self.port, self.process, "redis-server")

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=30)
        self.process = None


@contextlib.contextmanager
def start_redis(folder: Path) -> Iterator[str]:
    """A :class:`RedisServer` for the ``with`` block; yields its base URL."""
    server = RedisServer(folder)
    try:
        server.start()
        yield server.url
    finally:
        server.stop()


#: redis-server runs with this many databases: 0 to 15 belong to the test processes
#: themselves (one per pytest-xdist worker, tests/conftest.py), and each test process
#: gives its servers sixteen of the rest (16-31 for the first worker, 32-47 the second…, for
#: up to six workers), one for each server running at once
SERVERS_PER_WORKER = 16
REDIS_DATABASES = 16 + SERVERS_PER_WORKER * 6
_WORKER = int(os.environ.get("PYTEST_XDIST_WORKER", "gw0").removeprefix("gw") or 0)
_free_databases = list(range(16 + SERVERS_PER_WORKER * _WORKER, 16 + SERVERS_PER_WORKER * (_WORKER + 1)))


@contextlib.contextmanager
def redis_database(redis_base: str) -> Iterator[str]:
    """A Redis URL with a database number no running server of this test process uses,
    emptied first (a server before it, or another run, may have used it), for the ``with``
    block; the number is free again after it."""
    assert _free_databases, "more servers at once than this worker's databases"
    number = _free_databases.pop(0)
    url = f"{redis_base}/{number}"
    redis.Redis.from_url(url).flushdb()
    try:
        yield url
    finally:
        _free_databases.append(number)


# --- position PDFs ---------------------------------------------------------------------------
#: the full 4x4 battle of bin/bench-analyzer, without its seating: about a second's render
FULL_BATTLE_CELLS = "_11r1.12g2.13g5.14w4-15w1.16b0.22w2.23b4-24r0.25g4.26r5.33w5-34b1.35b2.36g1.44r2"
FULL_BATTLE = "Rbgw" + FULL_BATTLE_CELLS
_SHORT = tuple(f"Rb_11r{a}.12b{b}" for a in range(6) for b in range(6))
_LONG = tuple("R" + "".join(seats) + FULL_BATTLE_CELLS for seats in itertools.permutations("bgw"))
_left: dict[tuple[bool, str], Iterator[tuple[str, str]]] = {}


def fresh_position_pdf(lang: str = "en", *, long: bool = False) -> str:
    """The address of a position PDF that no request of this test process has asked for:
    a position PDF is kept once rendered (docs/production.md), so a test that needs a render
    asks for a new one each time. ``long``: the full 4x4 battle under another seating (12
    of them with both papers, per language), else a position of two cards (72)."""
    left = _left.setdefault((long, lang), itertools.product(_LONG if long else _SHORT, ("a4", "letter")))
    position, paper = next(left, (None, None))
    assert position, "no fresh position PDF left: add positions to harness.fresh_position_pdf"
    return f"/{lang}/analyze/position.pdf?{urlencode({'pos': position, 'paper': paper})}"


# --- the database --------------------------------------------------------------------------
# --- the release steps -----------------------------------------------------------------------
@dataclass
class Release:
    """What the release steps of docs/production.md left behind, and the environment they ran with."""

    env: dict[str, str]
    tmp: Path
    sheet_dir: Path          # the production sheet cache, this code version's folder
    output: str              # what prerender_sheets printed
    redis_base: str
    units: Path              # what manage.py systemd_units wrote

    def unit(self, name: str) -> Unit:
        return Unit.read(self.units / name)


def release_steps(tmp: Path, redis_base: str, database_url: str, *, prerender: bool = True) -> Release:
    """The release steps of docs/production.md with the production environment, writing below ``tmp``:
    ``migrate``, ``collectstatic`` (hashed names checked) and ``prerender_sheets``; and the
    install step that writes the systemd units (``systemd_units``, run as this user)."""
    env = {**base_env(),
           "DJANGO_SECRET_KEY": secrets.token_urlsafe(50),
           "DJANGO_ALLOWED_HOSTS": "127.0.0.1",
           "DJANGO_CSRF_TRUSTED_ORIGINS": "https://127.0.0.1",
           "DATABASE_URL": database_url,
           "DJANGO_STATIC_ROOT": str(tmp / "static"),
           "DJANGO_SHEET_CACHE_DIR": str(tmp / "sheets"),
           # the HTTPS proxy of docs/production.md in front: one hop appending to X-Forwarded-For
           "DJANGO_TRUSTED_PROXY_HOPS": "1"}
    # (translations are compiled by bin/setup already)
    finish(manage("migrate", "--noinput", env=env), "migrate")
    finish(manage("collectstatic", "--noinput", env=env), "collectstatic")
    css = (tmp / "static" / "css").iterdir()
    assert any(re.fullmatch(r"sheet\.[0-9a-f]{12}\.css", p.name) for p in css), \
        "collectstatic did not write hashed names: is the manifest storage on?"
    output = ""
    sheet_dir = tmp / "sheets"
    if prerender:
        output = finish(manage("prerender_sheets", env=env), "prerender_sheets (production)")
        [sheet_dir] = [p for p in (tmp / "sheets").iterdir() if p.is_dir()]
    units = tmp / "units"
    finish(manage("systemd_units", str(units), "--user", pwd.getpwuid(os.geteuid()).pw_name,
                  "--environment-file", str(tmp / "site.env"), env=env), "systemd_units")
    return Release(env, tmp, sheet_dir, output, redis_base, units)


@contextlib.contextmanager
def bench_release() -> Iterator[Release]:
    """A benchmark's own production release: a throwaway folder, Redis server and SQLite
    database, and the release steps without prerendering the sheets."""
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        (folder / "redis").mkdir()
        with start_redis(folder / "redis") as redis_base:
            yield release_steps(folder / "production", redis_base, f"sqlite:///{folder / 'db.sqlite3'}",
                                prerender=False)


# --- the systemd units -----------------------------------------------------------------------
@dataclass
class Unit:
    """A service unit as ``manage.py systemd_units`` wrote it: its ``[Service]`` settings,
    each key's values in order (``Environment=`` may come more than once)."""

    path: Path
    service: dict[str, list[str]]

    @classmethod
    def read(cls, path: Path) -> Unit:
        service: dict[str, list[str]] = {}
        section = ""
        # a line ending in a backslash goes on in the next one
        for line in path.read_text().replace("\\\n", " ").splitlines():
            line = line.strip()
            if not line or line.startswith(("#", ";")):
                continue
            if line.startswith("["):
                section = line
            elif section == "[Service]":
                key, _equals, value = line.partition("=")
                service.setdefault(key.strip(), []).append(value.strip())
        return cls(path, service)

    def setting(self, key: str) -> str:
        """The setting's value (the last, as systemd takes it)."""
        assert key in self.service, f"{self.path.name} has no {key}="
        return self.service[key][-1]

    def environment(self) -> dict[str, str]:
        """What its ``Environment=`` lines set."""
        return dict(word.split("=", 1) for line in self.service.get("Environment", ())
                    for word in shlex.split(line))

    def command(self, key: str, env: dict[str, str]) -> list[str]:
        """The command line of ``key`` (``ExecStart``, ``ExecReload``) as systemd runs it:
        ``${NAME}`` replaced within a word, ``$NAME`` alone split into words at white space.
        A name ``env`` lacks fails the test (systemd would put nothing there)."""
        words = []
        for word in shlex.split(self.setting(key)):
            alone = re.fullmatch(r"\$(\w+)", word)
            if alone:
                words.extend(env[alone[1]].split())
            else:
                words.append(re.sub(r"\$\{(\w+)\}", lambda m: env[m[1]], word))
        return words

    def stop_timeout(self) -> float:
        """``TimeoutStopSec``, in seconds: how long systemd waits after the SIGTERM."""
        value = self.setting("TimeoutStopSec")
        assert value.isdigit(), f"{self.path.name}: TimeoutStopSec={value} (plain seconds, please)"
        return float(value)


# --- gunicorn ------------------------------------------------------------------------------
def exchange(conn: http.client.HTTPConnection, method: str, path: str, body: bytes | None,
             headers: dict[str, str]) -> tuple[int, http.client.HTTPMessage, bytes]:
    """One request on ``conn``, which is closed after: ``(status, headers, body)``."""
    try:
        conn.request(method, path, body=body, headers=headers)
        response = conn.getresponse()
        return response.status, response.headers, response.read()
    finally:
        conn.close()


@dataclass
class Stopped:
    """What a stop took: seconds until the last process of the group ended, and the
    processes still there when the unit's ``TimeoutStopSec`` ran out (systemd then kills them)."""

    seconds: float
    killed: list[int]


@dataclass
class Server:
    """A running gunicorn with the production settings, started as its unit says."""

    url: str
    port: int
    log: Path
    process: subprocess.Popen
    env: dict[str, str] = field(repr=False)
    unit: Unit | None = field(default=None, repr=False)
    stopped: Stopped | None = None

    def request(self, method: str, path: str, *, body: bytes | None = None,
                headers: dict[str, str] | None = None, client: str | None = None,
                timeout: float = 120) -> tuple[int, http.client.HTTPMessage, bytes]:
        """One request as the HTTPS proxy of docs/production.md would pass it on.

        ``client`` is the address the proxy saw (``X-Forwarded-For``). Returns
        ``(status, headers, body)``; the headers are looked up without regard to case,
        and ``headers.get_all("Set-Cookie")`` gives every cookie.
        """
        sent = {"X-Forwarded-Proto": "https", "Host": "127.0.0.1", **(headers or {})}
        if client:
            sent["X-Forwarded-For"] = client
        return exchange(http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout),
                        method, path, body, sent)

    def get(self, path: str, **kwargs) -> tuple[int, http.client.HTTPMessage, bytes]:
        return self.request("GET", path, **kwargs)

    def connection(self, *, source: str = "127.0.0.1", timeout: float = 60) -> http.client.HTTPConnection:
        """A connection straight to this server from the loopback address ``source``, each
        request on it passed as the HTTPS proxy would (``source`` the client it saw): a
        :class:`live_clients.Follower` reads one host's streams through it."""
        return _Proxied("127.0.0.1", self.port, timeout=timeout, source_address=(source, 0))

    def log_size(self) -> int:
        return self.log.stat().st_size

    def log_since(self, offset: int) -> str:
        with self.log.open("rb") as fh:
            fh.seek(offset)
            return fh.read().decode(errors="replace")

    def workers(self) -> list[int]:
        """Process ids of the gunicorn workers (the arbiter's children)."""
        return children(self.process.pid)

    def group(self) -> list[int]:
        """Every live process of the unit: its session (the control group's stand-in)."""
        return in_session(self.process.pid)

    def reload(self) -> None:
        """The unit's ``ExecReload``, with ``$MAINPID`` the started process (``systemctl reload``)."""
        assert self.unit is not None
        subprocess.run(self.unit.command("ExecReload", {**self.env, "MAINPID": str(self.process.pid)}),
                       check=True)

    def stop(self) -> Stopped:
        """``systemctl stop`` with ``KillMode=control-group``: SIGTERM to every process of
        the unit, then up to ``TimeoutStopSec`` for them to end, then SIGKILL to any left."""
        if self.stopped is not None:
            return self.stopped
        started = time.monotonic()
        timeout = self.unit.stop_timeout() if self.unit else 30
        for pid in self.group():
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGTERM)
        left: list[int] = []
        while time.monotonic() - started < timeout:
            self.process.poll()  # reap the main process, which would stay a zombie
            if not (left := self.group()):
                break
            time.sleep(0.05)
        for pid in left:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        self.process.wait()
        self.stopped = Stopped(time.monotonic() - started, left)
        return self.stopped


class _Proxied(http.client.HTTPConnection):
    """A connection whose requests carry what the HTTPS proxy adds (:meth:`Server.request`)."""

    def request(self, method, url, body=None, headers=None, **kwargs):
        sent = {"X-Forwarded-Proto": "https", "Host": "127.0.0.1",
                "X-Forwarded-For": self.source_address[0], **(headers or {})}
        super().request(method, url, body, sent, **kwargs)


#: gunicorn's own environment variable for options on top of its config file: the deploy
#: tests' machine is shared and loaded, so a worker's heartbeat may come late
TEST_SITE_OPTIONS = {"GUNICORN_CMD_ARGS": "--timeout 120"}


@contextlib.contextmanager
def serve(release: Release, *, workers: int = 2, env: dict[str, str] | None = None,
          name: str = "gunicorn", port: int | None = None) -> Iterator[Server]:
    """gunicorn ``captain.wsgi`` as its unit (``captain-site.service``) starts it, with the
    release's environment, its own Redis database (unless ``env`` names one), ``workers``
    workers (``WEB_CONCURRENCY``, which gunicorn.conf.py and the site read) and ``env`` on
    top, on ``port`` (default: a free one); stopped as the unit is (:meth:`Server.stop`)
    when the block ends."""
    port = port or free_port()
    log = release.tmp / f"{name}-{port}.log"
    with contextlib.ExitStack() as stack:
        database = (env or {}).get("REDIS_URL") or stack.enter_context(redis_database(release.redis_base))
        server_env = {**release.env, **TEST_SITE_OPTIONS, "REDIS_URL": database,
                      "WEB_CONCURRENCY": str(workers), "SITE_BIND": f"127.0.0.1:{port}", **(env or {})}
        yield stack.enter_context(_running(release.unit("captain-site.service"), port, log, server_env))


@contextlib.contextmanager
def serve_streams(site: Server, *, workers: int = 2, name: str = "streams",
                  port: int | None = None) -> Iterator[Server]:
    """The ASGI stream process of docs/production.md as its unit (``captain-streams.service``)
    starts it, ``workers`` workers (``STREAM_WORKERS``), beside gunicorn ``site``, with its
    environment (the same database and Redis), on ``port`` (default: a free one): it holds the
    tables' live streams (``/live/<code>/``)."""
    port = port or free_port()
    log = site.log.parent / f"{name}-{port}.log"
    env = {key: value for key, value in site.env.items() if key not in TEST_SITE_OPTIONS}
    env.update({"STREAM_WORKERS": str(workers), "STREAM_BIND": f"127.0.0.1:{port}"})
    assert site.unit is not None
    with _running(Unit.read(site.unit.path.with_name("captain-streams.service")), port, log, env) as running:
        yield running


@contextlib.contextmanager
def serve_pdf(site: Server, *, name: str = "pdf", port: int | None = None) -> Iterator[Server]:
    """The render pool of docs/production.md as its unit (``captain-pdf.service``) starts it,
    beside gunicorn ``site``, with its environment (``DJANGO_RENDER_LIMIT`` workers,
    ``DJANGO_RENDER_TIMEOUT``), on ``port`` (default: a free one); its log has a line per
    request it answered (gunicorn's access log), so a test can tell which PDFs it made."""
    port = port or free_port()
    log = site.log.parent / f"{name}-{port}.log"
    env = {key: value for key, value in site.env.items() if key not in TEST_SITE_OPTIONS}
    env.update({"PDF_BIND": f"127.0.0.1:{port}", "GUNICORN_CMD_ARGS": "--access-logfile -"})
    assert site.unit is not None
    with _running(Unit.read(site.unit.path.with_name("captain-pdf.service")), port, log, env) as running:
        yield running


@contextlib.contextmanager
def _running(unit: Unit, port: int, log: Path, env: dict[str, str]) -> Iterator[Server]:
    """The unit's ``ExecStart`` in its ``WorkingDirectory``, with its ``Environment=`` under
    ``env`` (the environment file's part), in a session of its own, its output in ``log``,
    until it listens on ``port``; stopped as the unit is (:meth:`Server.stop`) when the block
    ends."""
    env = {**unit.environment(), **env}
    with log.open("wb") as log_file:
        process = subprocess.Popen(unit.command("ExecStart", env), cwd=unit.setting("WorkingDirectory"),
                                   env=env, stdout=log_file, stderr=subprocess.STDOUT, start_new_session=True)
    server = Server(f"http://127.0.0.1:{port}", port, log, process, env, unit)
    try:
        wait_for_port(port, process, unit.path.name, log)
        yield server
    finally:
        server.stop()


# --- a browser --------------------------------------------------------------------------------
#: what a browser sends with a form on the HTTPS site of docs/production.md (Django checks the origin)
HTTPS = {"Referer": "https://127.0.0.1/", "Origin": "https://127.0.0.1"}


class Browser:
    """One client's cookies and CSRF token, as a browser would keep them."""

    def __init__(self, server: Server, client: str, lang: str = "en") -> None:
        self.server, self.client, self.lang = server, client, lang
        self.cookies: dict[str, str] = {}
        self.token = ""

    def request(self, method: str, path: str, form: dict | None = None, **headers):
        sent = {"Accept-Language": self.lang, **headers}
        if self.cookies:
            sent["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        body = None
        if form is not None:
            body = urlencode({"csrfmiddlewaretoken": self.token, **form}, doseq=True).encode()
            sent.update({"Content-Type": "application/x-www-form-urlencoded", **HTTPS})
        status, response_headers, content = self.server.request(method, path, body=body, headers=sent,
                                                                 client=self.client)
        for value in response_headers.get_all("Set-Cookie") or ():
            for morsel in SimpleCookie(value).values():
                self.cookies[morsel.key] = morsel.value
        token = re.search(rb'"X-CSRFToken": "([^"]+)"', content)
        if token:
            self.token = token[1].decode()
        return status, response_headers, content

    def start_table(self) -> str:
        self.request("GET", f"/{self.lang}/teach/")
        status, headers, body = self.request("POST", f"/{self.lang}/teach/",
                                             {"players": "4", "mode": "action"})
        assert status == 302, body[:1000]
        return headers["Location"].rstrip("/").rsplit("/", 1)[-1]


# --- nginx in front ------------------------------------------------------------------------
#: nginx's main configuration around the site's part (docs/production.md: Debian's
#: /etc/nginx/nginx.conf plays this part), every path below the test's own folder
NGINX_MAIN = """\
daemon off;
load_module /usr/lib/nginx/modules/ngx_stream_module.so;
worker_processes 1;
pid {prefix}/nginx.pid;
error_log {prefix}/error.log warn;
{user}
events {{ worker_connections 4096; }}
stream {{
    include {site}/stream.conf;
}}
http {{
    include /etc/nginx/mime.types;
    default_type application/octet-stream;
    access_log {prefix}/access.log;
    client_body_temp_path {prefix}/body;
    proxy_temp_path {prefix}/proxy;
    fastcgi_temp_path {prefix}/fastcgi;
    uwsgi_temp_path {prefix}/uwsgi;
    scgi_temp_path {prefix}/scgi;
    include {site}/site.conf;
}}
"""


def tls_certificate(folder: Path) -> tuple[Path, Path]:
    """A self-signed certificate for 127.0.0.1 (certificate, key), made once per folder."""
    cert, key = folder / "tls.crt", folder / "tls.key"
    if not cert.exists():
        subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", str(key),
                        "-out", str(cert), "-days", "2", "-subj", "/CN=127.0.0.1",
                        "-addext", "subjectAltName=IP:127.0.0.1"],
                       check=True, capture_output=True)
    return cert, key


@dataclass
class Host:
    """One application host behind nginx: its gunicorn site, its stream process (if any) and
    its render pool."""

    name: str                # its servers' log names
    site: Server
    streams: Server | None
    pool: Server | None = None


@dataclass
class Proxy:
    """nginx in front of a :class:`Server`, as docs/production.md sets it up: HTTPS on
    ``port``, plain HTTP (a redirect) on ``http_port``."""

    port: int
    http_port: int
    prefix: Path
    site: Path               # what manage.py nginx_site wrote
    process: subprocess.Popen
    server: Server | None    # None: nginx in front of an address where nothing answers
    streams: Server | None = None  # the ASGI stream process, when one was started
    #: every application host behind nginx (the first is ``server`` and ``streams``)
    hosts: tuple[Host, ...] = ()

    @property
    def pool(self) -> Server | None:
        """The first host's render pool."""
        return self.hosts[0].pool if self.hosts else None

    def connection(self, *, source: str = "127.0.0.1", timeout: float = 60) -> http.client.HTTPSConnection:
        """A connection to nginx from the loopback address ``source`` (each its own client)."""
        context = ssl.create_default_context(cafile=str(self.prefix / "tls.crt"))
        return http.client.HTTPSConnection("127.0.0.1", self.port, timeout=timeout, context=context,
                                           source_address=(source, 0))

    def request(self, method: str, path: str, *, body: bytes | None = None,
                headers: dict[str, str] | None = None, source: str = "127.0.0.1",
                client: str | None = None, timeout: float = 60) -> tuple[int, http.client.HTTPMessage, bytes]:
        """One request on a new connection: ``(status, headers, body)``; ``client`` (as
        :class:`Browser` gives it) is a loopback address to send from, like ``source``."""
        return exchange(self.connection(source=client or source, timeout=timeout),
                        method, path, body, headers or {})

    def get(self, path: str, **kwargs) -> tuple[int, http.client.HTTPMessage, bytes]:
        return self.request("GET", path, **kwargs)

    def error_log(self) -> str:
        return (self.prefix / "error.log").read_text(errors="replace")


@contextlib.contextmanager
def serve_behind_nginx(release: Release, *, workers: int = 2, env: dict[str, str] | None = None,
                       upstream: str | None = None, options: tuple[str, ...] = (),
                       streams: int = 0, hosts: int = 1) -> Iterator[Proxy]:
    """gunicorn (:func:`serve`) with nginx in front, configured by ``manage.py nginx_site``
    as docs/production.md says, with ``options`` on top, the render pool (:func:`serve_pdf`)
    that nginx sends the PDF addresses to, and with ``streams`` processes of
    the ASGI stream process (:func:`serve_streams`; 0: none, the pages poll); with
    ``upstream`` (a port where nothing answers, say) nginx alone, in front of that
    (``Proxy.server`` is ``None``).

    ``hosts`` > 1: that many application hosts behind the one nginx (``Proxy.hosts``), as
    docs/production.md's "More than one host" sets them up: each its own gunicorn, stream
    process and render pool; all sharing the release (its database and secret key) and one
    Redis database. Each host's ``RENDER_POOL_URL`` is its own pool (the release step's)."""
    if shutil.which("nginx") is None and not Path("/usr/sbin/nginx").exists():
        pytest.fail("nginx is not installed: run bin/setup (Debian package nginx)")
    port, http_port = free_port(), free_port()
    # a folder of its own: an nginx before it in this release may have had the same port
    prefix = Path(tempfile.mkdtemp(prefix=f"nginx-{port}-", dir=release.tmp))
    cert, key = tls_certificate(prefix)
    # (the origin without a port is what harness.Browser sends)
    server_env = {"DJANGO_CSRF_TRUSTED_ORIGINS": f"https://127.0.0.1:{port},https://127.0.0.1", **(env or {})}
    with contextlib.ExitStack() as stack:
        running: list[Host] = []
        if not upstream:
            if hosts > 1 and "REDIS_URL" not in server_env:
                server_env["REDIS_URL"] = stack.enter_context(redis_database(release.redis_base))
            for number in range(1, hosts + 1):
                name = f"host-{number}" if hosts > 1 else ""
                pdf_port = free_port()
                host_env = {**server_env, "RENDER_POOL_URL": f"http://127.0.0.1:{pdf_port}"}
                site_server = stack.enter_context(serve(release, workers=workers, env=host_env,
                                                        name=f"gunicorn-{name}" if name else "gunicorn"))
                live = (stack.enter_context(serve_streams(site_server, workers=streams,
                                                          name=f"streams-{name}" if name else "streams"))
                        if streams else None)
                pool = stack.enter_context(serve_pdf(site_server, name=f"pdf-{name}" if name else "pdf",
                                                     port=pdf_port))
                running.append(Host(name, site_server, live, pool))
        addresses = [("--upstream", f"127.0.0.1:{host.site.port}") for host in running] or [
            ("--upstream", upstream or "")]
        addresses += ([("--stream-upstream", f"127.0.0.1:{host.streams.port}") for host in running
                       if host.streams] or [("--stream-upstream", "none")])
        addresses += ([("--pdf-upstream", f"127.0.0.1:{host.pool.port}") for host in running
                       if host.pool] or [("--pdf-upstream", "none")])
        site = prefix / "site"
        finish(manage("nginx_site", str(site), "--host", f"127.0.0.1:{port}",
                      *(part for pair in addresses for part in pair),
                      "--certificate", str(cert), "--certificate-key", str(key),
                      "--https-port", str(port), "--http-port", str(http_port), "--no-ipv6", *options,
                      env={**release.env, **server_env}), "manage.py nginx_site")
        user = "user root;" if os.geteuid() == 0 else ""
        (prefix / "nginx.conf").write_text(NGINX_MAIN.format(prefix=prefix, site=site, user=user))
        nginx = shutil.which("nginx") or "/usr/sbin/nginx"
        log = prefix / "error.log"
        process = subprocess.Popen(
            [nginx, "-p", str(prefix), "-e", str(log), "-c", str(prefix / "nginx.conf")],
            stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
        try:
            wait_for_port(port, process, "nginx", log)
            yield Proxy(port, http_port, prefix, site, process, running[0].site if running else None,
                        running[0].streams if running else None, tuple(running))
        finally:
            process.send_signal(signal.SIGQUIT)  # graceful: finish what is in flight
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
