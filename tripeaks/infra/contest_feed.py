"""A contest's news (its games' progress) over Redis pub/sub: one PUBLISH a move, one subscribed
connection a server process.

Every stored move of a contest game is news for everyone watching the contest. Through the
channel layer (channels_redis' core layer) each move cost the mover's socket a `group_send` (four
Redis round trips and a Lua script, waited for before the move's reply) and each server process
four more sequential round trips to receive it, one message at a time, each a hop through every
waiting consumer's receive lock. Measured in a race load (bench/README.md, "Races"): most of a
server's event-loop time went to those sends, and the progress fell seconds behind the moves.

Here a move's news is one PUBLISH to the contest's Redis channel. Each event loop (a server
process) keeps one connection subscribed to the contests its sockets listen to, reads the news
as it comes (several messages a read) and hands each to those sockets' handlers on the loop, with
no hop. News published on an event loop (a game socket's move) reaches that loop's own listeners
at once, not through Redis (a round trip, and a wait for Redis's turn on a busy machine); it is
marked with the loop's `from` and the loop's subscription drops it when Redis brings it back. At most once, like the channel layer: a socket that sees a gap in the `seq` asks for the
state again. In order per route: an event loop's news goes out through one queue, synchronous
code's through the process's Redis client (`redis_client`, as every client here), so a game's
news from both could cross (a socket drops a `seq` older than it has shown). Pub/sub names are
global across a Redis server's databases, so every name carries the channel layer's prefix (each
test run has its own).

Past one Redis server: the contests are spread over the channel layer's Redis servers
(`settings.CHANNEL_REDIS_URLS`) by the hash channels_redis spreads its groups with (a CRC of the
name), so a contest's news and its groups sit on the same server; an event loop keeps one
subscription and one publishing queue a server it needs.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import weakref
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

import orjson
import redis
from channels_redis.utils import _consistent_hash
from django.conf import settings
from redis.asyncio.client import PubSub
from redis.asyncio.connection import AbstractConnection

from tripeaks.infra import redis_client

log = logging.getLogger("tripeaks.events")

Handler = Callable[[dict[str, Any]], Awaitable[None]]
# A broken subscription is made again after this long (news meanwhile is lost: at most once).
RETRY_S = 0.5


def channel_of(contest: str) -> str:
    prefix = settings.CHANNEL_LAYERS["default"].get("CONFIG", {}).get("prefix", "tripeaks")
    return f"{prefix}:feed:{contest}"


def server_of(contest: str) -> str:
    """The Redis server (its URL) that carries the contest's news."""
    urls: list[str] = settings.CHANNEL_REDIS_URLS
    return urls[int(_consistent_hash(channel_of(contest), len(urls)))]


class _Subscriber:
    """One event loop's subscription to one Redis server: contest -> the handlers of the sockets
    listening to it."""

    def __init__(self, url: str) -> None:
        self.client = redis_client.async_client(subscriber=True, url=url)
        self.handlers: dict[str, set[Handler]] = {}
        self.pubsub: PubSub | None = None
        self.reader: asyncio.Task[None] | None = None
        # Subscribing and unsubscribing one at a time: the first command opens the connection,
        # and the reader starts once a subscription is in place.
        self.lock = asyncio.Lock()
        # This event loop's own news, handed to its listeners here with no hop through Redis
        # (`deliver`); Redis brings it back too, marked as this loop's, and it is dropped then.
        self.own = b'{"from":"' + _origin().encode() + b'"'
        self.local: list[tuple[str, dict[str, Any]]] = []
        self.delivering: asyncio.Task[None] | None = None
        # One piece of news at a time reaches the listeners, from Redis or from here.
        self.turn = asyncio.Lock()

    async def listen(self, contest: str, handler: Handler) -> None:
        channel = channel_of(contest)
        async with self.lock:
            first = channel not in self.handlers
            self.handlers.setdefault(channel, set()).add(handler)
            if self.pubsub is None:
                self.pubsub = self.client.pubsub(ignore_subscribe_messages=True)
            if first:
                await self.pubsub.subscribe(channel)
            if self.reader is None or self.reader.done():
                self.reader = asyncio.create_task(self._read(self.pubsub))

    async def stop(self, contest: str, handler: Handler) -> None:
        channel = channel_of(contest)
        async with self.lock:
            handlers = self.handlers.get(channel)
            if handlers is None:
                return
            handlers.discard(handler)
            if handlers:
                return
            del self.handlers[channel]
            if self.handlers:
                if self.pubsub is not None:
                    with contextlib.suppress(redis.RedisError, OSError):
                        await self.pubsub.unsubscribe(channel)
                return
            # Nobody listens any more: no connection is kept open for nobody.
            reader, pubsub, self.reader, self.pubsub = self.reader, self.pubsub, None, None
            if reader is not None:
                reader.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await reader
            if pubsub is not None:
                with contextlib.suppress(redis.RedisError, OSError):
                    await pubsub.aclose()  # type: ignore[no-untyped-call]

    async def _read(self, pubsub: PubSub) -> None:
        while pubsub is self.pubsub:
            try:
                # The reply as parsed, not `get_message`'s dict of it: a third of a message's
                # cost here, twice a race move (the news, and a loop's own copy back).
                response = await pubsub.parse_response(block=True)
            except (redis.RedisError, OSError, RuntimeError):
                log.warning("contest feed lost its subscription; subscribing again", exc_info=True)
                await asyncio.sleep(RETRY_S)
                async with self.lock:
                    if pubsub is self.pubsub and self.handlers:
                        with contextlib.suppress(redis.RedisError, OSError):
                            await pubsub.subscribe(*self.handlers)
                continue
            if not isinstance(response, list) or response[0] != b"message":
                # (un)subscribing's replies: redis-py keeps its own account of them
                handle = pubsub.handle_message
                await handle(response, ignore_subscribe_messages=True)  # type: ignore[no-untyped-call]
                continue
            _, channel, data = response
            if data.startswith(self.own):
                continue  # this loop's own news: its listeners had it without the hop
            news = orjson.loads(data)
            news.pop("from", None)
            await self._hand(channel.decode(), news)

    def deliver(self, channel: str, news: dict[str, Any]) -> None:
        """This event loop's news, to its listeners of `channel` here, in order, without Redis."""
        if channel not in self.handlers:
            return
        self.local.append((channel, news))
        if self.delivering is None or self.delivering.done():
            self.delivering = asyncio.create_task(self._deliver())

    async def _deliver(self) -> None:
        while self.local:
            batch, self.local = self.local, []
            for channel, news in batch:
                await self._hand(channel, news)

    async def _hand(self, channel: str, news: dict[str, Any]) -> None:
        async with self.turn:
            for handler in list(self.handlers.get(channel, ())):
                try:
                    await handler(news)
                except OSError:  # a socket that closed meanwhile (its listening ends with it)
                    log.debug("a contest socket closed before its news")
                except Exception:  # one socket's failure must not silence the others
                    log.warning("a contest socket failed on news", exc_info=True)


class _Publisher:
    """One event loop's news on its way out: queued, and sent in one write a round trip
    (whatever came while the last round trip was out goes in the next), so a busy server holds
    one connection for its news and no move waits for Redis to tell the others.

    The connection is the feed's own, taken from the loop's pool once, and the PUBLISH commands
    are written to it as RESP and their replies read: a pipeline of redis-py cost 70 us a move
    (its command stack, callbacks and retries), this 20 us. A failure drops the connection (its
    replies may be out of step); the next write connects again."""

    def __init__(self, url: str) -> None:
        self.client = redis_client.async_client(url=url)
        self.connection: AbstractConnection | None = None
        self.waiting: list[tuple[bytes, bytes]] = []
        self.sending: asyncio.Task[None] | None = None

    def publish(self, channel: str, data: bytes) -> None:
        self.waiting.append((channel.encode(), data))
        if self.sending is None or self.sending.done():
            self.sending = asyncio.create_task(self._send())

    async def _send(self) -> None:
        while self.waiting:
            batch, self.waiting = self.waiting, []
            try:
                await self._write(batch)
            except (redis.RedisError, OSError):  # at most once: the news is lost, play goes on
                log.warning("could not reach the contests' sockets", exc_info=True)
                await self._drop()
            except BaseException:  # cancelled mid-reply: the replies would be out of step
                await self._drop()
                raise

    async def _write(self, batch: list[tuple[bytes, bytes]]) -> None:
        if self.connection is None:
            pool = self.client.connection_pool
            self.connection = await pool.get_connection()  # type: ignore[no-untyped-call]
        commands = b"".join(
            b"*3\r\n$7\r\nPUBLISH\r\n$%d\r\n%s\r\n$%d\r\n%s\r\n"
            % (len(channel), channel, len(data), data)
            for channel, data in batch
        )
        await self.connection.send_packed_command(commands, check_health=False)
        for _ in batch:
            await self.connection.read_response()

    async def _drop(self) -> None:
        connection, self.connection = self.connection, None
        if connection is not None:
            with contextlib.suppress(Exception):
                await connection.disconnect(nowait=True)
            with contextlib.suppress(Exception):
                await self.client.connection_pool.release(connection)


# An event loop's subscribers and publishers, by Redis server (URL).
_subscribers: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, dict[str, _Subscriber]] = (
    weakref.WeakKeyDictionary()
)
_publishers: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, dict[str, _Publisher]] = (
    weakref.WeakKeyDictionary()
)


# An event loop's mark on the news it publishes (see `_Subscriber.own`).
_origins: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, str] = weakref.WeakKeyDictionary()


def _origin() -> str:
    loop = asyncio.get_running_loop()
    origin = _origins.get(loop)
    if origin is None:  # made once: a token from the system's random source, every move, cost
        origin = _origins[loop] = secrets.token_hex(8)  # 2 % of a race server's event loop
    return origin


def _subscriber(contest: str) -> _Subscriber:
    url = server_of(contest)
    subscribers = _subscribers.setdefault(asyncio.get_running_loop(), {})
    subscriber = subscribers.get(url)
    if subscriber is None:
        subscriber = subscribers[url] = _Subscriber(url)
    return subscriber


async def listen(contest: str, handler: Handler) -> None:
    """Hand every piece of the contest's news to `handler` (on this event loop) until `stop`."""
    await _subscriber(contest).listen(contest, handler)


async def stop(contest: str, handler: Handler) -> None:
    await _subscriber(contest).stop(contest, handler)


def publish(contest: str, news: dict[str, Any]) -> None:
    """Tell the contest's listeners on every server, from the event loop: this loop's own at
    once, with no hop (they get `news` itself: nobody changes it); the others' queued, sent
    within a round trip to Redis (best-effort: an outage loses the news and is logged), marked
    as this loop's so that its own subscription drops it."""
    url, channel, loop = server_of(contest), channel_of(contest), asyncio.get_running_loop()
    subscriber = _subscribers.get(loop, {}).get(url)
    if subscriber is not None:
        subscriber.deliver(channel, news)
    publishers = _publishers.setdefault(loop, {})
    publisher = publishers.get(url)
    if publisher is None:
        publisher = publishers[url] = _Publisher(url)
    publisher.publish(channel, orjson.dumps({"from": _origin(), **news}))


def publish_sync(contest: str, news: Mapping[str, object]) -> None:
    """`publish` from synchronous code (a REST move): one PUBLISH, with no hop to an event
    loop. Raises redis' errors."""
    redis_client.client(server_of(contest)).publish(channel_of(contest), orjson.dumps(news))
