"""A browser's EventSource on a table's live stream, as a thread (the deploy tests and
``bin/bench-teach``): it reads the stream through nginx, notes when each event arrived, and
reconnects as a browser does (after the stream's ``retry``, sending ``Last-Event-ID``)."""

from __future__ import annotations

import contextlib
import http.client
import threading
import time
from dataclasses import dataclass, field


@dataclass
class Event:
    id: str
    kind: str
    arrived: float  # time.monotonic()


@dataclass
class Follower:
    """One stream of table ``code`` through ``proxy`` (a harness.Proxy) from the loopback
    address ``source``; :meth:`start` it, :meth:`stop` it."""

    proxy: object
    code: str
    source: str = "127.0.0.1"
    events: list[Event] = field(default_factory=list)
    statuses: list[int] = field(default_factory=list)  # every connection's status
    drops: int = 0            # connections that ended or broke
    heartbeats: int = 0
    last_id: str = ""
    retry: float = 1.0
    _stop: threading.Event = field(default_factory=threading.Event)
    _conn: http.client.HTTPSConnection | None = None
    _thread: threading.Thread | None = None
    _new_event: threading.Condition = field(default_factory=threading.Condition)

    def start(self) -> Follower:
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        conn = self._conn
        if conn is not None and conn.sock is not None:
            with contextlib.suppress(OSError):
                conn.sock.shutdown(2)
        if self._thread is not None:
            self._thread.join(timeout=10)

    @property
    def connections(self) -> int:
        return sum(1 for s in self.statuses if s == 200)

    def wait_for(self, mark: str, timeout: float = 10) -> Event | None:
        """The event whose id is ``mark`` (or a later one), once it has come."""
        deadline = time.monotonic() + timeout
        with self._new_event:
            while True:
                for event in self.events:
                    if event.id and _later_or_same(event.id, mark):
                        return event
                left = deadline - time.monotonic()
                if left <= 0:
                    return None
                self._new_event.wait(left)

    def wait_since(self, moment: float, timeout: float = 10) -> Event | None:
        """The first event that arrived after ``moment`` (``time.monotonic()``), once it has
        come."""
        deadline = time.monotonic() + timeout
        with self._new_event:
            while True:
                for event in self.events:
                    if event.arrived > moment:
                        return event
                left = deadline - time.monotonic()
                if left <= 0:
                    return None
                self._new_event.wait(left)

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                self._conn = conn = self.proxy.connection(source=self.source, timeout=40)
                headers = {"Accept": "text/event-stream", "Cache-Control": "no-cache"}
                if self.last_id:
                    headers["Last-Event-ID"] = self.last_id
                conn.request("GET", f"/live/{self.code}/", headers=headers)
                response = conn.getresponse()
                self.statuses.append(response.status)
                if response.status == 200:
                    self._read(response)
                conn.close()
            except (OSError, http.client.HTTPException):
                pass
            self.drops += 1
            if not self._stop.is_set():
                time.sleep(self.retry)

    def _read(self, response: http.client.HTTPResponse) -> None:
        fields: dict[str, str] = {}
        while not self._stop.is_set():
            raw = response.readline()
            if not raw:
                return
            arrived = time.monotonic()
            line = raw.decode().rstrip("\r\n")
            if line == "":
                if fields:
                    self._dispatch(fields, arrived)
                fields = {}
            elif line.startswith(":"):
                self.heartbeats += 1
            else:
                name, _colon, value = line.partition(":")
                fields[name] = value[1:] if value.startswith(" ") else value

    def _dispatch(self, fields: dict[str, str], arrived: float) -> None:
        if "retry" in fields and fields["retry"].isdigit():
            self.retry = int(fields["retry"]) / 1000
        if "data" not in fields:
            return
        if fields.get("event") == "beat":
            self.heartbeats += 1
            return
        if "id" in fields:
            self.last_id = fields["id"]
        with self._new_event:
            self.events.append(Event(fields.get("id", ""), fields.get("event", "message"), arrived))
            self._new_event.notify_all()


def _later_or_same(mark: str, than: str) -> bool:
    a, b = (tuple(int(n) for n in m.split(".")) for m in (mark, than))
    return all(x >= y for x, y in zip(a, b, strict=True))
