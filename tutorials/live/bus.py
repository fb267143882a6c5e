"""Live updates between processes: what one worker changed reaches the streams another holds.

A *topic* (a table's code) carries small JSON *messages*. With ``REDIS_URL`` they travel
through Redis pub/sub (channel ``captain:live:<topic>``), so a move answered by any gunicorn
worker reaches every stream process, whichever host it runs on. Without it they stay in
this process: the development server serves the pages and the streams alike.

Streams listen on the event loop of the ASGI server that holds them. With Redis, the
process holds one subscription for all of them (a pattern over every topic): a task on
that loop, started by the first stream and ended with the last, hands each message to the
streams of its topic. When the subscription is lost (Redis stopped, the network cut), every
stream is told (:data:`DOWN`) and new ones are refused (:class:`BusDown`) until it is back:
the streams end, and the pages poll meanwhile and say so.

A synchronous view publishes with one plain call: a Redis ``PUBLISH``, or without Redis a
hand-over to the streams' loop (``call_soon_threadsafe``: the view runs on a thread of
asgiref's pool, and only the loop touches its streams).

Messages are nudges, never the state itself: a stream that missed some (it reconnected,
the bus was down) reads where its topic is now and says that.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import redis
import redis.asyncio
from django.conf import settings

logger = logging.getLogger(__name__)

PREFIX = "captain:live:"

#: what a listener gets when the subscription behind it is lost: the stream ends
DOWN = object()

#: seconds a new listener waits for the subscription to come up before it is refused
SUBSCRIBE_WAIT = 2.0

#: seconds between two tries to subscribe again after the subscription was lost
RETRY_SECONDS = 1.0

_FAILURES = (redis.exceptions.RedisError, OSError)


class BusDown(Exception):
    """The bus cannot carry messages now (Redis cannot be reached)."""


class Inbox:
    """One stream's messages of its topic (and :data:`DOWN`), on its event loop."""

    def __init__(self) -> None:
        self.queue: asyncio.Queue[object] = asyncio.Queue()

    async def get(self, timeout: float) -> object | None:
        """The next message, or ``None`` after ``timeout`` seconds without one."""
        try:
            return await asyncio.wait_for(self.queue.get(), timeout)
        except TimeoutError:
            return None


class _Hub:
    """The streams of one event loop by topic, and their subscription: only that loop
    touches them. An ASGI server has one loop per process, so one subscription per process."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.inboxes: dict[str, set[Inbox]] = {}
        self.subscription: asyncio.Task | None = None
        self.up = asyncio.Event()

    def add(self, topic: str, inbox: Inbox) -> None:
        self.inboxes.setdefault(topic, set()).add(inbox)

    def remove(self, topic: str, inbox: Inbox) -> None:
        group = self.inboxes.get(topic)
        if group is not None:
            group.discard(inbox)
            if not group:
                del self.inboxes[topic]
        if not self.inboxes:  # the last stream has gone: so does the subscription
            if self.subscription is not None:
                self.subscription.cancel()
                self.subscription = None
            _hubs.pop(self.loop, None)

    async def subscribed(self) -> None:
        """Returns once the subscription is up (starting it for the first stream);
        :class:`BusDown` when it does not come up within :data:`SUBSCRIBE_WAIT` seconds."""
        if self.subscription is None or self.subscription.done():
            self.up = asyncio.Event()
            self.subscription = self.loop.create_task(self._subscribe(self.up), name="live-bus")
        try:
            await asyncio.wait_for(self.up.wait(), SUBSCRIBE_WAIT)
        except TimeoutError:
            raise BusDown("the live bus (Redis) cannot be reached") from None

    async def _subscribe(self, up: asyncio.Event) -> None:
        while True:
            client = redis.asyncio.Redis.from_url(settings.REDIS_URL, socket_connect_timeout=1,
                                                  health_check_interval=15)
            pubsub = client.pubsub(ignore_subscribe_messages=False)
            try:
                await pubsub.psubscribe(PREFIX + "*")
                async for message in pubsub.listen():
                    if message["type"] == "psubscribe":
                        up.set()
                        _outage.over()
                    elif message["type"] == "pmessage":
                        self.dispatch(message["channel"].decode()[len(PREFIX):], message["data"])
            except _FAILURES as error:
                _outage.begins(error, was_up=up.is_set())
                up.clear()
                self.tell_all(DOWN)
            finally:
                with contextlib.suppress(*_FAILURES):
                    await pubsub.aclose()
                    await client.aclose()
            await asyncio.sleep(RETRY_SECONDS)

    def dispatch(self, topic: str, data: bytes | str) -> None:
        try:
            message = json.loads(data)
        except ValueError:
            logger.warning("live bus: a message on %s was not JSON", topic)
            return
        for inbox in self.inboxes.get(topic, ()):
            inbox.queue.put_nowait(message)

    def tell_all(self, what: object) -> None:
        for group in self.inboxes.values():
            for inbox in group:
                inbox.queue.put_nowait(what)


#: the hubs of the loops that hold streams now (one in an ASGI server's process); each is
#: added and removed on its own loop, and read from any thread by publishing without Redis
_hubs: dict[asyncio.AbstractEventLoop, _Hub] = {}


class _Outage:
    """One log line when the subscription is lost, and one when it is back."""

    def __init__(self) -> None:
        self.reported = False

    def begins(self, error: Exception, was_up: bool) -> None:
        if was_up or not self.reported:
            logger.warning("live bus: subscription lost (%s); pages poll until it is back", error)
            self.reported = True

    def over(self) -> None:
        if self.reported:
            logger.warning("live bus: subscribed again; streams come back")
            self.reported = False


_outage = _Outage()


class _Publisher:
    """This process's connection for publishing, from the synchronous views' threads."""

    def __init__(self) -> None:
        self.client: redis.Redis | None = None
        self.retry_at = 0.0  # after a failed publish, none is tried before this

    def publish(self, topic: str, message: dict) -> bool:
        data = json.dumps(message, separators=(",", ":"))
        if not settings.REDIS_URL:
            for hub in tuple(_hubs.values()):
                with contextlib.suppress(RuntimeError):  # its loop has closed: no stream to tell
                    hub.loop.call_soon_threadsafe(hub.dispatch, topic, data)
            return True
        if time.monotonic() < self.retry_at:
            return False  # a Redis that stopped answering costs no move a timeout
        try:
            if self.client is None:
                self.client = redis.Redis.from_url(settings.REDIS_URL, socket_connect_timeout=1,
                                                   socket_timeout=1)
            self.client.publish(PREFIX + topic, data)
            return True
        except _FAILURES as error:
            self.retry_at = time.monotonic() + RETRY_SECONDS
            logger.warning("live bus: could not publish on %s (%s); its pages poll", topic, error)
            return False


_publisher = _Publisher()


def publish(topic: str, message: dict) -> bool:
    """Send ``message`` to every stream of ``topic``, in every process. ``False`` when the
    bus is down: nothing is lost but the nudge (pages that poll still see the change)."""
    return _publisher.publish(topic, message)


def listening(topic: str) -> int:
    """How many streams of ``topic`` this process holds."""
    return sum(len(hub.inboxes.get(topic, ())) for hub in tuple(_hubs.values()))


@asynccontextmanager
async def listen(topic: str) -> AsyncIterator[Inbox]:
    """The inbox of ``topic``'s messages (and :data:`DOWN`) while the block runs, on the
    running event loop. Raises :class:`BusDown` when the bus cannot be reached."""
    loop = asyncio.get_running_loop()
    inbox, hub = Inbox(), _hubs.get(loop) or _hubs.setdefault(loop, _Hub(loop))
    hub.add(topic, inbox)
    try:
        if settings.REDIS_URL:
            await hub.subscribed()
        yield inbox
    finally:
        hub.remove(topic, inbox)
