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
marked with the loop's `from` and the loop's subscription drops it when Redis brings it back. At
most once, like the channel layer: a socket that sees a gap in the `seq` asks for the state
again. In order per route: an event loop's news goes out through one queue, synchronous code's
through the process's Redis client (`redis_client`, as every client here), so a game's news from
both could cross (a socket drops a `seq` older than it has shown). Pub/sub names are global
across a Redis server's databases, so every name carries the channel layer's prefix (each test
run has its own).

The event loop's two connections (its subscription, its PUBLISH commands) are lent by its
`redis_client` pool, connected by redis-py, and then read by hiredis as their bytes arrive
(`_Wire`), not through redis-py's reads (a task woken a reply, and its layers): a race move is
read by every server with a socket of the race, and its news was the largest part of what a
race move costs the servers beyond a solo move (bench/README.md, "Stop 46").

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
from typing import Any, cast

import hiredis
import orjson
import redis
import redis.asyncio
from channels_redis.utils import _consistent_hash
from django.conf import settings
from redis.asyncio.connection import AbstractConnection

from tripeaks.infra import redis_client

log = logging.getLogger("tripeaks.events")

Handler = Callable[[dict[str, Any]], Awaitable[None]]
# A broken subscription is made again after this long (news meanwhile is lost: at most once).
RETRY_S = 0.5
# How long a listener waits for Redis to confirm its subscription.
SUBSCRIBE_S = 10.0


def channel_of(contest: str) -> str:
    prefix = settings.CHANNEL_LAYERS["default"].get("CONFIG", {}).get("prefix", "tripeaks")
    return f"{prefix}:feed:{contest}"


def server_of(contest: str) -> str:
    """The Redis server (its URL) that carries the contest's news."""
    urls: list[str] = settings.CHANNEL_REDIS_URLS
    return urls[int(_consistent_hash(channel_of(contest), len(urls)))]


class _Wire(asyncio.Protocol):
    """A connection of the loop's pool to Redis, read by hiredis as its bytes arrive.

    redis-py reads a reply through an asyncio `StreamReader`, a task woken for each read and its
    parser, connection, retry and pub/sub layers above: 85-98 us of a subscriber's CPU a message
    on this machine (load 5-9), and a race move is read twice (each server's copy). Its replies
    handed to `on_reply` straight from the event loop's read: 30-37 us (bench/README.md, "Stop
    46"). The connection is made by redis-py (the pool's address, credentials and timeouts) and
    its transport then speaks to this protocol; writes are RESP, written on the transport."""

    def __init__(self, on_reply: Callable[[Any], None], on_lost: Callable[[_Wire], None]) -> None:
        self.reader = hiredis.Reader()
        self.on_reply = on_reply
        self.on_lost = on_lost
        self.connection: AbstractConnection | None = None
        self.transport: asyncio.Transport | None = None
        self.closed = False

    @classmethod
    async def open(
        cls,
        client: redis.asyncio.Redis,
        on_reply: Callable[[Any], None],
        on_lost: Callable[[_Wire], None],
    ) -> _Wire:
        pool = client.connection_pool
        connection = await pool.get_connection()  # type: ignore[no-untyped-call]
        writer = connection._writer  # its handshake done, nothing left unread (the pool checks)
        if writer is None:
            raise redis.ConnectionError("the feed's connection closed as it opened")
        wire = cls(on_reply, on_lost)
        wire.connection, wire.transport = connection, cast(asyncio.Transport, writer.transport)
        wire.transport.set_protocol(wire)
        return wire

    def write(self, data: bytes) -> None:
        if self.transport is not None and not self.closed:
            self.transport.write(data)

    def data_received(self, data: bytes) -> None:
        self.reader.feed(data)
        while (reply := self.reader.gets()) is not False:
            self.on_reply(reply)

    def connection_lost(self, exc: Exception | None) -> None:
        if not self.closed:
            self.closed = True
            self.on_lost(self)

    async def close(self, pool: Any) -> None:
        """Closed by us: not a loss (`on_lost` is not called); the connection goes back to the
        pool closed (it reconnects when next lent)."""
        self.closed = True
        connection, self.connection = self.connection, None
        if connection is not None:
            with contextlib.suppress(Exception):
                await connection.disconnect(nowait=True)
            with contextlib.suppress(Exception):
                await pool.release(connection)


def _command(*parts: bytes) -> bytes:
    return b"*%d\r\n" % len(parts) + b"".join(b"$%d\r\n%s\r\n" % (len(p), p) for p in parts)


class _Subscriber:
    """One event loop's subscription to one Redis server: contest -> the handlers of the sockets
    listening to it. The news read on the loop (`_Wire`) and this loop's own news (`deliver`)
    reach the handlers in one queue, by one task, in order."""

    def __init__(self, url: str) -> None:
        self.client = redis_client.async_client(subscriber=True, url=url)
        self.handlers: dict[str, set[Handler]] = {}
        self.wire: _Wire | None = None
        # Subscribing and unsubscribing one at a time: the first opens the connection.
        self.lock = asyncio.Lock()
        # Channel -> waiting for Redis's word that the subscription is in place.
        self.confirming: dict[bytes, asyncio.Future[None]] = {}
        self.retrying: asyncio.Task[None] | None = None
        # This event loop's own news, handed to its listeners here with no hop through Redis
        # (`deliver`); Redis brings it back too, marked as this loop's, and it is dropped then.
        self.own = b'{"from":"' + _origin().encode() + b'"'
        self.pending: list[tuple[str, dict[str, Any]]] = []
        self.delivering: asyncio.Task[None] | None = None

    async def listen(self, contest: str, handler: Handler) -> None:
        channel = channel_of(contest)
        async with self.lock:
            first = channel not in self.handlers
            self.handlers.setdefault(channel, set()).add(handler)
            try:
                if self.wire is None:
                    await self._connect()
                elif first:
                    await self._subscribe([channel])
            except BaseException:
                await self._forget(channel, handler)
                raise

    async def stop(self, contest: str, handler: Handler) -> None:
        async with self.lock:
            await self._forget(channel_of(contest), handler)

    async def _forget(self, channel: str, handler: Handler) -> None:
        handlers = self.handlers.get(channel)
        if handlers is None:
            return
        handlers.discard(handler)
        if handlers:
            return
        del self.handlers[channel]
        if self.handlers:
            if self.wire is not None:
                self.wire.write(_command(b"UNSUBSCRIBE", channel.encode()))
            return
        # Nobody listens any more: no connection is kept open for nobody.
        wire, self.wire = self.wire, None
        if self.retrying is not None:
            self.retrying.cancel()
        if wire is not None:
            await wire.close(self.client.connection_pool)

    async def _connect(self) -> None:
        """Connect, and subscribe to every channel listened to (all are, once this returns)."""
        wire = await _Wire.open(self.client, self._reply, self._lost)
        self.wire = wire
        try:
            await self._subscribe(list(self.handlers))
        except BaseException:
            self.wire = None
            await wire.close(self.client.connection_pool)
            raise

    async def _subscribe(self, channels: list[str]) -> None:
        """Subscribe, and wait for Redis's word: a change published once this returns reaches
        the listener (it reads its state after listening)."""
        assert self.wire is not None
        names = [channel.encode() for channel in channels]
        loop = asyncio.get_running_loop()
        waits = [self.confirming.setdefault(name, loop.create_future()) for name in names]
        self.wire.write(_command(b"SUBSCRIBE", *names))
        try:
            async with asyncio.timeout(SUBSCRIBE_S):
                await asyncio.gather(*waits)
        except TimeoutError:
            raise redis.TimeoutError("Redis did not confirm the feed's subscription") from None
        finally:
            for name in names:
                self.confirming.pop(name, None)

    def _reply(self, reply: Any) -> None:
        kind = reply[0] if isinstance(reply, list) and reply else None
        if kind == b"message":
            _, channel, data = reply
            if data.startswith(self.own):
                return  # this loop's own news: its listeners had it without the hop
            try:
                news = orjson.loads(data)
            except ValueError:  # not the feed's: dropped here, not the subscription with it
                log.warning("contest feed: a message that is not JSON on %r", channel)
                return
            news.pop("from", None)
            self.deliver(channel.decode(), news)
        elif kind == b"subscribe":
            waiting = self.confirming.get(reply[1])
            if waiting is not None and not waiting.done():
                waiting.set_result(None)
        elif kind != b"unsubscribe":
            log.warning("contest feed: Redis said %r", reply)

    def _lost(self, wire: _Wire) -> None:
        if wire is not self.wire:
            return
        self.wire = None
        for waiting in self.confirming.values():
            if not waiting.done():
                waiting.set_exception(redis.ConnectionError("the feed's subscription was lost"))
        log.warning("contest feed lost its subscription; subscribing again")
        self.retrying = asyncio.ensure_future(self._again())

    async def _again(self) -> None:
        """Subscribe again after `RETRY_S`, until it holds (news meanwhile is lost)."""
        while True:
            await asyncio.sleep(RETRY_S)
            async with self.lock:
                if self.wire is not None or not self.handlers:
                    return
                try:
                    await self._connect()
                    return
                except (redis.RedisError, OSError):
                    log.warning("contest feed could not subscribe again", exc_info=True)

    def deliver(self, channel: str, news: dict[str, Any]) -> None:
        """News for the loop's listeners of `channel`, in order: this loop's own (without Redis)
        and what Redis brought."""
        if channel not in self.handlers:
            return
        self.pending.append((channel, news))
        if self.delivering is None or self.delivering.done():
            self.delivering = asyncio.ensure_future(self._deliver())

    async def _deliver(self) -> None:
        while self.pending:
            batch, self.pending = self.pending, []
            for channel, news in batch:
                await self._hand(channel, news)

    async def _hand(self, channel: str, news: dict[str, Any]) -> None:
        for handler in list(self.handlers.get(channel, ())):
            try:
                await handler(news)
            except OSError:  # a socket that closed meanwhile (its listening ends with it)
                log.debug("a contest socket closed before its news")
            except Exception:  # one socket's failure must not silence the others
                log.warning("a contest socket failed on news", exc_info=True)


class _Publisher:
    """One event loop's news on its way out, written on the feed's own connection as RESP: the
    PUBLISH commands of a loop turn in one write, with no task and no read a move (the
    connection asks Redis for no replies, `CLIENT REPLY OFF`: a reply read cost a task's wake a
    move). At most once: news written as the connection breaks is lost; the next news connects
    again (the news meanwhile waits for it)."""

    def __init__(self, url: str) -> None:
        self.client = redis_client.async_client(url=url)
        self.wire: _Wire | None = None
        self.waiting: list[bytes] = []
        self.flushing = False
        self.connecting: asyncio.Task[None] | None = None
        self.closing: asyncio.Future[None] | None = None

    def publish(self, channel: str, data: bytes) -> None:
        self.waiting.append(_command(b"PUBLISH", channel.encode(), data))
        if self.wire is None:
            if self.connecting is None or self.connecting.done():
                self.connecting = asyncio.ensure_future(self._connect())
        elif not self.flushing:
            self.flushing = True
            asyncio.get_running_loop().call_soon(self._flush)

    def _flush(self) -> None:
        self.flushing = False
        if self.wire is not None and self.waiting:
            batch, self.waiting = self.waiting, []
            self.wire.write(b"".join(batch))

    async def _connect(self) -> None:
        try:
            wire = await _Wire.open(self.client, self._reply, self._lost)
        except (redis.RedisError, OSError):  # at most once: the news is lost, play goes on
            log.warning("could not reach the contests' sockets", exc_info=True)
            self.waiting = []
            return
        self.wire = wire
        wire.write(_command(b"CLIENT", b"REPLY", b"OFF"))
        self._flush()

    def _reply(self, reply: Any) -> None:
        # None is asked for but errors (a server that refuses CLIENT REPLY answers every PUBLISH:
        # those counts are no news).
        if isinstance(reply, hiredis.ReplyError):
            log.warning("contest feed: Redis refused a command: %s", reply)

    def _lost(self, wire: _Wire) -> None:
        if wire is self.wire:
            self.wire = None
            log.warning("contest feed: the publishing connection was lost; news may be lost")
            # Its connection goes back to its pool, closed (the task held until it is done).
            self.closing = asyncio.ensure_future(wire.close(self.client.connection_pool))


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
