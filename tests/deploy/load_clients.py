"""Clients that cost a site without nginx its threads, run as a process of their own beside
a deploy test (tests/deploy/test_proxy_load.py), so that their work takes nothing from the
test's own measurements; prints what each kind of client got, as JSON, when done.

    python load_clients.py --port P --ca tls.crt --seconds 6 \\
        --slow-headers 50 --slow-bodies 50 --refused 60 --long-every 0.2 [--use-up 61]

* slow headers: sockets sending a request's header lines one every two seconds;
* slow bodies: sockets announcing a 60 KB body, then sending one byte every two seconds;
* refused: clients asking for short links that do not exist as fast as they are answered,
  after ``--use-up`` such requests have used up their address's failed lookups, so that
  every later one is refused;
* long: every ``--long-every`` seconds, an analyzer address with a notation of 900
  full-width characters (about 8 KB once encoded).

Each kind sends from its own loopback address, so each is its own client to the limits.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import json
import secrets
import ssl
import time

SLOW_SOURCE, REFUSED_SOURCE, LONG_SOURCE = "127.0.6.1", "127.0.5.1", "127.0.4.1"
LONG_PATH = "/de/analyze/?pos=" + "%E3%80%80" * 900


async def _connect(args, source: str):
    context = ssl.create_default_context(cafile=args.ca)
    return await asyncio.open_connection("127.0.0.1", args.port, ssl=context, local_addr=(source, 0),
                                         server_hostname="127.0.0.1")


async def _answer(reader) -> tuple[int, bytes]:
    """Read one answer (with Content-Length, as nginx and the site send): status, body."""
    head = await reader.readuntil(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    length = 0
    for line in lines[1:]:
        name, _sep, value = line.partition(":")
        if name.strip().lower() == "content-length":
            length = int(value)
    body = await reader.readexactly(length) if length else b""
    return int(lines[0].split()[1]), body


def _get(path: str) -> bytes:
    return f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept-Language: de\r\n\r\n".encode()


async def _trickle(args, until: float, got: collections.Counter, kind: str, start: bytes, more) -> None:
    """Send ``start``, then ``more()`` every two seconds until ``until``, on one connection
    after another: counts each held to the end, or closed by the server first."""
    while time.monotonic() < until:
        try:
            _reader, writer = await _connect(args, SLOW_SOURCE)
            writer.write(start)
            while time.monotonic() < until:
                await asyncio.sleep(2)
                writer.write(more())
                await writer.drain()
            writer.close()
            got[f"{kind} held"] += 1
        except (OSError, asyncio.IncompleteReadError, ssl.SSLError):
            got[f"{kind} closed by the server"] += 1
            await asyncio.sleep(0.5)


def slow_headers(args, until: float, got: collections.Counter):
    return _trickle(args, until, got, "headers", b"GET /en/tutorial/ HTTP/1.1\r\nHost: 127.0.0.1\r\n",
                    lambda: f"X-Slow-{secrets.token_hex(2)}: 1\r\n".encode())


def slow_body(args, until: float, got: collections.Counter):
    return _trickle(args, until, got, "body", b"POST /api/v1/solve HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                    b"Content-Type: application/json\r\nContent-Length: 60000\r\n\r\n{", lambda: b" ")


async def refused(args, until: float, got: collections.Counter) -> None:
    reader, writer = await _connect(args, REFUSED_SOURCE)
    while time.monotonic() < until:
        writer.write(_get(f"/p/zz{secrets.token_hex(4)}/"))
        status, _body = await _answer(reader)
        got[str(status)] += 1
    writer.close()


async def long_addresses(args, until: float, got: collections.Counter) -> None:
    while time.monotonic() < until:
        reader, writer = await _connect(args, LONG_SOURCE)
        writer.write(_get(LONG_PATH))
        status, body = await _answer(reader)
        got[f"{status} the site's page" if b'data-testid="proxy-error"' in body
            and b'lang="de"' in body else str(status)] += 1
        writer.close()
        await asyncio.sleep(args.long_every)


async def main(args) -> dict:
    got = {kind: collections.Counter() for kind in ("slow", "refused", "long", "used up")}
    if args.use_up:
        reader, writer = await _connect(args, REFUSED_SOURCE)
        for _ in range(args.use_up):
            writer.write(_get(f"/p/zz{secrets.token_hex(4)}/"))
            got["used up"][str((await _answer(reader))[0])] += 1
        writer.close()
    until = time.monotonic() + args.seconds
    tasks = ([slow_headers(args, until, got["slow"]) for _ in range(args.slow_headers)]
             + [slow_body(args, until, got["slow"]) for _ in range(args.slow_bodies)]
             + [refused(args, until, got["refused"]) for _ in range(args.refused)]
             + ([long_addresses(args, until, got["long"])] if args.long_every else []))
    await asyncio.gather(*tasks)
    return {kind: dict(counter) for kind, counter in got.items()}


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--ca", required=True)
    parser.add_argument("--seconds", type=float, default=6)
    parser.add_argument("--slow-headers", type=int, default=0)
    parser.add_argument("--slow-bodies", type=int, default=0)
    parser.add_argument("--refused", type=int, default=0)
    parser.add_argument("--long-every", type=float, default=0)
    parser.add_argument("--use-up", type=int, default=0)
    print(json.dumps(asyncio.run(main(parser.parse_args()))))
