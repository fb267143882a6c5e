"""Live updates between processes: what one worker changed reaches the streams another holds.

A *topic* (a table's code) carries small JSON *messages*. With ``REDIS_URL`` they travel
through Redis pub/sub (channel ``captain:live:<topic>``), so a move answered by one gunicorn
worker reaches every stream process, whichever host it runs on. Without it they stay in
this process: the development server serves the pages and the streams alike.

Each process holds one subscription for all its listeners (a pattern over every topic),
read by one thread that hands each message to the listeners of its topic; a listener is
a thread's queue (a stream served by a WSGI thread) or an event loop's (a stream served by
the ASGI stream process). When the subscription is lost (Redis stopped, the network cut),
every listener is told (:data:`DOWN`) and new ones are refused (:class:`BusDown`) until it
is back: the streams end, and the pages poll meanwhile and say so.

Messages are nudges, never the state itself: a stream that missed some (it reconnected,
the bus was down) reads where its topic is now and says that.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import queue
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import redis
from django.conf import settings

logger = logging.getLogger(__name__)

PREFIX = "captain:live:"

#: what a listener gets when the subscription behind it is lost: the stream ends
DOWN = object()

#: seconds a new listener waits for the subscription to come up before it is refused
SUBSCRIBE_WAIT = 2.0

#: seconds between two tries to subscribe again after the subscription was lost
RETRY_SECONDS = 1.0


class BusDown(Exception):
    """The bus cannot carry messages now (Redis cannot be reached)."""


def _client() -> redis.Redis:
    return redis.Redis.from_url(settings.REDIS_URL, socket_connect_timeout=1, socket_timeout=1)


class _Hub:
    """This process's one subscription and its listeners (guarded by ``lock``)."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.listeners: dict[str, set[Callable[[object], None]]] = {}
        self.up = threading.Event()
        self.thread: threading.Thread | None = None
        self.publisher: redis.Redis | None = None
        self.publish_retry_at = 0.0  # after a failed publish, none is tried before this

    # --- the subscription -------------------------------------------------------------
    def ensure_running(self) -> None:
        with self.lock:
            if self.thread is None or not self.thread.is_alive():
                self.thread = threading.Thread(target=self._run, name="live-bus", daemon=True)
                self.thread.start()

    def _run(self) -> None:
        down_reported = False
        while True:
            pubsub = None
            try:
                pubsub = redis.Redis.from_url(settings.REDIS_URL, socket_connect_timeout=1,
                                              socket_timeout=None, health_check_interval=15).pubsub()
                pubsub.psubscribe(PREFIX + "*")
                for message in pubsub.listen():
                    kind = message["type"]
                    if kind == "psubscribe":
                        self.up.set()
                        if down_reported:
                            logger.warning("live bus: subscribed again; streams come back")
                            down_reported = False
                    elif kind == "pmessage":
                        self._dispatch(message["channel"].decode()[len(PREFIX):], message["data"])
            except (redis.exceptions.RedisError, OSError) as error:
                if self.up.is_set() or not down_reported:
                    logger.warning("live bus: subscription lost (%s); pages poll until it is back", error)
                    down_reported = True
                self.up.clear()
                self._tell_all(DOWN)
            finally:
                if pubsub is not None:
                    with contextlib.suppress(redis.exceptions.RedisError, OSError):
                        pubsub.close()
            time.sleep(RETRY_SECONDS)

    def _dispatch(self, topic: str, data: bytes | str) -> None:
        try:
            message = json.loads(data)
        except ValueError:
            logger.warning("live bus: a message on %s was not JSON", topic)
            return
        with self.lock:
            targets = list(self.listeners.get(topic, ()))
        for deliver in targets:
            deliver(message)

    def _tell_all(self, what: object) -> None:
        with self.lock:
            targets = [deliver for group in self.listeners.values() for deliver in group]
        for deliver in targets:
            deliver(what)

    # --- listeners --------------------------------------------------------------------
    def add(self, topic: str, deliver: Callable[[object], None]) -> None:
        """Register ``deliver`` for ``topic``; :class:`BusDown` when the subscription does
        not come up within :data:`SUBSCRIBE_WAIT` seconds."""
        if settings.REDIS_URL:
            self.ensure_running()
            if not self.up.wait(SUBSCRIBE_WAIT):
                raise BusDown("the live bus (Redis) cannot be reached")
        with self.lock:
            self.listeners.setdefault(topic, set()).add(deliver)

    def remove(self, topic: str, deliver: Callable[[object], None]) -> None:
        with self.lock:
            group = self.listeners.get(topic)
            if group is not None:
                group.discard(deliver)
                if not group:
                    del self.listeners[topic]

    # --- publishing -------------------------------------------------------------------
    def publish(self, topic: str, message: dict) -> bool:
        data = json.dumps(message, separators=(",", ":"))
        if not settings.REDIS_URL:
            self._dispatch(topic, data)
            return True
        if time.monotonic() < self.publish_retry_at:
            return False  # a Redis that stopped answering costs no move a timeout
        try:
            if self.publisher is None:
                self.publisher = _client()
            self.publisher.publish(PREFIX + topic, data)
            return True
        except (redis.exceptions.RedisError, OSError) as error:
            self.publish_retry_at = time.monotonic() + RETRY_SECONDS
            logger.warning("live bus: could not publish on %s (%s); its pages poll", topic, error)
            return False


_hub = _Hub()


def publish(topic: str, message: dict) -> bool:
    """Send ``message`` to every stream of ``topic``, in every process. ``False`` when the
    bus is down: nothing is lost but the nudge (pages that poll still see the change)."""
    return _hub.publish(topic, message)


def listening(topic: str) -> int:
    """How many listeners of ``topic`` this process holds."""
    with _hub.lock:
        return len(_hub.listeners.get(topic, ()))


@contextmanager
def listen(topic: str) -> Iterator[queue.Queue]:
    """A thread's inbox of ``topic``'s messages (and :data:`DOWN`) while the block runs.
    Raises :class:`BusDown` when the bus cannot be reached."""
    inbox: queue.Queue = queue.Queue()
    _hub.add(topic, inbox.put)
    try:
        yield inbox
    finally:
        _hub.remove(topic, inbox.put)


class AsyncInbox:
    """An event loop's inbox of a topic's messages (and :data:`DOWN`)."""

    def __init__(self, topic: str) -> None:
        self.topic = topic
        self.loop = asyncio.get_running_loop()
        self.queue: asyncio.Queue = asyncio.Queue()

    def deliver(self, message: object) -> None:
        """Called from the bus's thread (or a publishing thread): hands over to the loop."""
        self.loop.call_soon_threadsafe(self.queue.put_nowait, message)

    async def get(self, timeout: float) -> object | None:
        """The next message, or ``None`` after ``timeout`` seconds without one."""
        try:
            return await asyncio.wait_for(self.queue.get(), timeout)
        except TimeoutError:
            return None

    async def __aenter__(self) -> AsyncInbox:
        # registering may wait for the subscription: not on the loop's own thread
        await asyncio.to_thread(_hub.add, self.topic, self.deliver)
        return self

    async def __aexit__(self, *exc) -> None:
        _hub.remove(self.topic, self.deliver)
