"""The contest feed (tripeaks/infra/contest_feed.py) on the real Redis: each listener hears its
own contest's news, from the event loop (in order) and from synchronous code; one failing
listener does not silence the others; a listener that stopped hears nothing more; with several
Redis servers, each contest's news goes through its own, and the channel layer's hosts are
CHANNEL_REDIS_URLS (REDIS_URL alone by default)."""

from __future__ import annotations

import asyncio
import contextlib
import queue
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import orjson
import pytest
import redis.asyncio
from asgiref.sync import sync_to_async
from django.conf import settings as django_settings

from tests.foundation.test_settings import run_python
from tripeaks.infra import contest_feed
from tripeaks.stack.run import EmbeddedRedis


class Ear:
    def __init__(self) -> None:
        self.news: asyncio.Queue[dict[str, Any]] = asyncio.Queue()

    async def __call__(self, news: dict[str, Any]) -> None:
        self.news.put_nowait(news)

    async def next(self) -> dict[str, Any]:
        return await asyncio.wait_for(self.news.get(), 5)


async def broken(news: dict[str, Any]) -> None:
    raise ValueError("a socket that fails on its news")


@pytest.mark.asyncio
async def test_an_event_loop_draws_its_mark_once_not_on_every_move(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The mark on a loop's news (`from`) is drawn once for the loop: before, every publish drew
    a token from the system's random source (2 % of a race server's event loop, py-spy) and
    dropped it. Counted on the real `secrets.token_hex`."""
    import secrets

    drawn: list[str] = []

    def token_hex(nbytes: int) -> str:
        drawn.append(real(nbytes))
        return drawn[-1]

    real = secrets.token_hex
    monkeypatch.setattr(secrets, "token_hex", token_hex)
    ear = Ear()
    await contest_feed.listen("race-feed-mark", ear)
    for seq in range(5):
        contest_feed.publish("race-feed-mark", {"seq": seq})
    assert [(await ear.next())["seq"] for _ in range(5)] == [0, 1, 2, 3, 4]
    await contest_feed.stop("race-feed-mark", ear)
    assert len(drawn) <= 1  # this loop's mark, if no test before drew it on this loop


@pytest.mark.asyncio
async def test_each_listener_hears_its_own_contest_in_order_until_it_stops() -> None:
    ann, bob, cat = Ear(), Ear(), Ear()
    await contest_feed.listen("race-feed-1", ann)
    await contest_feed.listen("race-feed-1", broken)
    await contest_feed.listen("race-feed-1", bob)
    await contest_feed.listen("race-feed-2", cat)

    # From the event loop, in order (one queue, one pipeline).
    contest_feed.publish("race-feed-1", {"seq": 1})
    contest_feed.publish("race-feed-2", {"seq": 7})
    contest_feed.publish("race-feed-1", {"seq": 2})
    assert [await ann.next(), await ann.next()] == [{"seq": 1}, {"seq": 2}]
    assert [await bob.next(), await bob.next()] == [{"seq": 1}, {"seq": 2}]
    assert await cat.next() == {"seq": 7}
    # From synchronous code (a REST move): a connection of its own.
    await sync_to_async(contest_feed.publish_sync)("race-feed-1", {"seq": 3})
    assert await ann.next() == {"seq": 3} and await bob.next() == {"seq": 3}

    # Ann and the broken one stop; Bob still listens to the first contest.
    await contest_feed.stop("race-feed-1", ann)
    await contest_feed.stop("race-feed-1", broken)
    contest_feed.publish("race-feed-1", {"seq": 4})
    assert await bob.next() == {"seq": 4}
    # Bob stops too: the contest is unsubscribed; news of the second one still comes, after it.
    await contest_feed.stop("race-feed-1", bob)
    contest_feed.publish("race-feed-1", {"seq": 5})
    contest_feed.publish("race-feed-2", {"seq": 8})
    assert await cat.next() == {"seq": 8}
    assert ann.news.empty() and bob.news.empty()
    await contest_feed.stop("race-feed-2", cat)


class OtherServer:
    """A listener on an event loop of its own, in a thread: another server process's sockets."""

    def __init__(self, contest: str) -> None:
        self.contest = contest
        self.news: queue.Queue[dict[str, Any]] = queue.Queue()
        self.listening = threading.Event()
        self.loop: asyncio.AbstractEventLoop | None = None
        self.done: asyncio.Event | None = None
        self.thread = threading.Thread(target=lambda: asyncio.run(self._main()))

    async def _main(self) -> None:
        self.loop, self.done = asyncio.get_running_loop(), asyncio.Event()

        async def heard(news: dict[str, Any]) -> None:
            self.news.put(news)

        await contest_feed.listen(self.contest, heard)
        self.listening.set()
        await self.done.wait()
        await contest_feed.stop(self.contest, heard)

    def __enter__(self) -> OtherServer:
        self.thread.start()
        assert self.listening.wait(10)
        return self

    def __exit__(self, *exc: object) -> None:
        assert self.loop is not None and self.done is not None
        self.loop.call_soon_threadsafe(self.done.set)
        self.thread.join(10)

    async def next(self) -> dict[str, Any]:
        return await asyncio.to_thread(self.news.get, timeout=5)


@pytest.mark.asyncio
async def test_a_loops_own_news_reaches_its_listeners_with_no_hop_through_redis_and_once(
    monkeypatch: Any,
) -> None:
    """A game socket's move reaches the race sockets of its own server at once, not through Redis
    (issue #37: fewer hops), and those of another server through Redis; Redis's copy back to the
    server it came from is dropped there, so nobody hears it twice."""
    here = Ear()
    await contest_feed.listen("race-local-1", here)
    with OtherServer("race-local-1") as there:
        contest_feed.publish("race-local-1", {"seq": 1})
        contest_feed.publish("race-local-1", {"seq": 2})
        assert [await here.next(), await here.next()] == [{"seq": 1}, {"seq": 2}]
        assert [await there.next(), await there.next()] == [{"seq": 1}, {"seq": 2}]
        # News from synchronous code (a REST move) comes through Redis, after the copies of 1
        # and 2 that Redis brought back here: they were dropped.
        await sync_to_async(contest_feed.publish_sync)("race-local-1", {"seq": 3})
        assert await here.next() == {"seq": 3} and await there.next() == {"seq": 3}
    # With Redis out of reach of this loop's news, its own listeners still hear it.
    monkeypatch.setattr(contest_feed._Publisher, "publish", lambda *args: None)
    contest_feed.publish("race-local-1", {"seq": 4})
    assert await here.next() == {"seq": 4}
    assert here.news.empty()
    await contest_feed.stop("race-local-1", here)


@pytest.mark.asyncio
async def test_news_goes_out_and_comes_in_without_redis_pys_per_message_machinery(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Issue #37: a race move's news went out in a redis-py pipeline of its own (70 us of the
    server's CPU a move, measured: its command stack, callbacks and retries) and came back to
    each server as `get_message`'s dict. Then the PUBLISH was written on the feed's own
    connection and the replies read by redis-py's pub/sub. Now redis-py's pub/sub reads nothing
    of the feed (the feed's connections are read by hiredis as the bytes arrive: `_Wire`), so it
    handles no message and no subscription's reply. News from another loop (`OtherServer`)
    crosses Redis both ways."""
    pipelines: list[object] = []
    handled: list[object] = []
    real_handle = redis.asyncio.client.PubSub.handle_message

    async def handle_message(self: Any, response: Any, *args: Any, **kwargs: Any) -> Any:
        handled.append(response[0])
        return await real_handle(self, response, *args, **kwargs)

    monkeypatch.setattr(redis.asyncio.client.Pipeline, "execute", pipelines.append)
    monkeypatch.setattr(redis.asyncio.client.PubSub, "handle_message", handle_message)
    here = Ear()
    await contest_feed.listen("race-lean-1", here)
    with OtherServer("race-lean-1") as there:
        for seq in range(3):
            contest_feed.publish("race-lean-1", {"seq": seq})
        assert [(await there.next())["seq"] for _ in range(3)] == [0, 1, 2]
        assert [(await here.next())["seq"] for _ in range(3)] == [0, 1, 2]
    await contest_feed.stop("race-lean-1", here)
    assert pipelines == []
    assert b"message" not in handled and b"subscribe" not in handled


@pytest.mark.asyncio
async def test_a_race_moves_news_costs_no_redis_py_read_on_either_side(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Issue #37 item 3 (stop 46): each PUBLISH's reply was read by redis-py (a task woken
    through its StreamReader, a move), and each server read each message the same way (85-98 us
    of CPU a message against 30-37 us read as the bytes arrive). Now the publishing connection
    asks for no replies (`CLIENT REPLY OFF`) and both connections are read by hiredis in the
    protocol's `data_received`: no redis-py read at all, on the publishing loop nor on the
    other server's. (Before: one `read_response` a PUBLISH and one a message.)"""
    reads: list[object] = []
    real_read = redis.asyncio.connection.AbstractConnection.read_response

    async def read_response(self: Any, *args: Any, **kwargs: Any) -> Any:
        reads.append(self)
        return await real_read(self, *args, **kwargs)

    here = Ear()
    await contest_feed.listen("race-noread-1", here)
    with OtherServer("race-noread-1") as there:
        contest_feed.publish("race-noread-1", {"seq": 0})  # the publisher's connection made
        assert (await there.next())["seq"] == 0 and (await here.next())["seq"] == 0
        monkeypatch.setattr(
            redis.asyncio.connection.AbstractConnection, "read_response", read_response
        )
        for seq in range(1, 11):
            contest_feed.publish("race-noread-1", {"seq": seq})
        assert [(await there.next())["seq"] for _ in range(10)] == list(range(1, 11))
        assert [(await here.next())["seq"] for _ in range(10)] == list(range(1, 11))
        await sync_to_async(contest_feed.publish_sync)("race-noread-1", {"seq": 11})
        assert (await there.next())["seq"] == 11 and (await here.next())["seq"] == 11
        monkeypatch.undo()
    await contest_feed.stop("race-noread-1", here)
    assert reads == []


@pytest.mark.asyncio
async def test_a_listener_is_subscribed_in_redis_once_listen_returns() -> None:
    """A race socket listens, then reads its race: a change published after the read must
    reach it, so `listen` returns once Redis has confirmed the subscription (redis-py's
    `subscribe` returned once the command was written)."""
    here = Ear()
    spy = redis.asyncio.Redis.from_url(django_settings.REDIS_URL)
    channel = contest_feed.channel_of("race-confirmed-1")
    try:
        await contest_feed.listen("race-confirmed-1", here)
        assert dict(await spy.pubsub_numsub(channel)) == {channel.encode(): 1}
        await spy.publish(channel, orjson.dumps({"seq": 1}))
        assert await here.next() == {"seq": 1}
        await contest_feed.stop("race-confirmed-1", here)
        for _ in range(50):  # the UNSUBSCRIBE is written, not waited for
            if dict(await spy.pubsub_numsub(channel)) == {channel.encode(): 0}:
                break
            await asyncio.sleep(0.02)
        assert dict(await spy.pubsub_numsub(channel)) == {channel.encode(): 0}
    finally:
        await spy.aclose()  # type: ignore[no-untyped-call]


@pytest.mark.asyncio
async def test_a_message_that_is_not_the_feeds_is_dropped_and_the_subscription_goes_on() -> None:
    """Anything published on a contest's channel that is not JSON (another program, a bug) is
    dropped with a warning; the news after it still arrives. (Before, the loop's reader died on
    it and the loop's listeners heard nothing more.)"""
    here = Ear()
    await contest_feed.listen("race-garbage-1", here)
    publisher = redis.asyncio.Redis.from_url(django_settings.REDIS_URL)
    try:
        await publisher.publish(contest_feed.channel_of("race-garbage-1"), b"\xffnot json")
        await publisher.publish(contest_feed.channel_of("race-garbage-1"), orjson.dumps({"seq": 1}))
        assert await here.next() == {"seq": 1}
    finally:
        await publisher.aclose()  # type: ignore[no-untyped-call]
        await contest_feed.stop("race-garbage-1", here)


async def _kill(wire: Any) -> None:
    """Redis drops the feed's connection `wire` (a restart, a timeout would)."""
    host, port = wire.transport.get_extra_info("sockname")[:2]
    admin = redis.asyncio.Redis.from_url(django_settings.REDIS_URL)
    try:
        assert await admin.execute_command("CLIENT", "KILL", "ADDR", f"{host}:{port}") in (1, b"OK")
    finally:
        await admin.aclose()  # type: ignore[no-untyped-call]


@pytest.mark.asyncio
async def test_a_loops_news_goes_on_after_redis_dropped_the_feeds_connection() -> None:
    """The feed's publishing connection killed by Redis (a restart, a timeout): the news in
    flight is lost (at most once), the connection is made again, and later news arrives."""
    ear = OtherServer("race-drop-1")
    with ear:
        contest_feed.publish("race-drop-1", {"seq": 0})
        assert (await ear.next())["seq"] == 0
        publisher = next(iter(contest_feed._publishers[asyncio.get_running_loop()].values()))
        killed = publisher.wire
        assert killed is not None
        await _kill(killed)
        heard: dict[str, Any] = {}
        for seq in range(1, 20):
            contest_feed.publish("race-drop-1", {"seq": seq})
            with contextlib.suppress(queue.Empty):
                heard = await asyncio.to_thread(ear.news.get, timeout=0.5)
                break
        assert heard.get("seq", 0) >= 1
        assert publisher.wire is not None and publisher.wire is not killed
        assert killed.closed


@pytest.mark.asyncio
async def test_a_loops_listeners_hear_again_after_redis_dropped_the_subscription() -> None:
    """The subscription's connection killed by Redis: the news meanwhile is lost (at most once),
    the loop subscribes again to every contest listened to within `RETRY_S`, and later news
    from another server reaches the listeners."""
    here, too = Ear(), Ear()
    await contest_feed.listen("race-resub-1", here)
    await contest_feed.listen("race-resub-2", too)
    subscriber = contest_feed._subscriber("race-resub-1")
    killed = subscriber.wire
    assert killed is not None
    await _kill(killed)
    heard: dict[str, Any] = {}
    for seq in range(1, 60):
        await sync_to_async(contest_feed.publish_sync)("race-resub-1", {"seq": seq})
        await sync_to_async(contest_feed.publish_sync)("race-resub-2", {"seq": seq})
        with contextlib.suppress(TimeoutError):
            heard = await asyncio.wait_for(here.news.get(), 0.1)
            break
    assert heard["seq"] >= 1
    assert (await too.next())["seq"] >= 1
    assert subscriber.wire is not None and subscriber.wire is not killed
    await contest_feed.stop("race-resub-1", here)
    await contest_feed.stop("race-resub-2", too)
    assert subscriber.wire is None  # nobody listens: the connection is closed


@pytest.fixture
def second_redis(tmp_path: Path) -> Iterator[str]:
    """A Redis server of the test's own, beside the suite's."""
    server = EmbeddedRedis(tmp_path / "redis")
    try:
        yield server.start()
    finally:
        server.stop()


@pytest.mark.asyncio
async def test_contests_are_spread_over_the_channel_layers_redis_servers(
    second_redis: str, settings: Any
) -> None:
    """With two Redis servers (CHANNEL_REDIS_URLS), each contest's news goes through the one
    channels_redis' hash gives its name, from the event loop and from synchronous code, and its
    listeners hear it there."""
    settings.CHANNEL_REDIS_URLS = [settings.REDIS_URL, second_redis]
    contests = [f"race-shard-{i}" for i in range(40)]
    by_server: dict[str, str] = {}
    for contest in contests:
        by_server.setdefault(contest_feed.server_of(contest), contest)
    assert set(by_server) == {settings.REDIS_URL, second_redis}  # both carry some contests
    # A plain subscription on the second server: it sees its own contest's news, not the other.
    spy = redis.asyncio.Redis.from_url(second_redis).pubsub(ignore_subscribe_messages=True)
    await spy.psubscribe(contest_feed.channel_of("race-shard-*"))
    ears = {url: Ear() for url in by_server}
    for url, contest in by_server.items():
        await contest_feed.listen(contest, ears[url])
    # (One route after the other: news from the event loop and from synchronous code may cross.)
    for url, contest in by_server.items():
        contest_feed.publish(contest, {"seq": 1, "on": url})
    for url in by_server:
        assert await ears[url].next() == {"seq": 1, "on": url}
    for url, contest in by_server.items():
        await sync_to_async(contest_feed.publish_sync)(contest, {"seq": 2, "on": url})
    for url in by_server:
        assert await ears[url].next() == {"seq": 2, "on": url}
    seen: list[dict[str, Any]] = []
    while len(seen) < 2:
        message = await asyncio.wait_for(spy.get_message(timeout=5), 6)
        if message is not None:
            news = orjson.loads(message["data"])
            news.pop("from", None)  # the publishing event loop's mark (none from sync code)
            seen.append(news)
    # In either order: the listeners here heard seq 1 from their own loop, before its PUBLISH
    # (queued on the loop) had reached Redis, and seq 2 went out from a thread meanwhile.
    seen.sort(key=lambda news: int(news["seq"]))
    assert seen == [{"seq": 1, "on": second_redis}, {"seq": 2, "on": second_redis}]
    for url, contest in by_server.items():
        await contest_feed.stop(contest, ears[url])
    await spy.aclose()  # type: ignore[no-untyped-call]


HOSTS = """
import json
from django.conf import settings as s
config = s.CHANNEL_LAYERS["default"]["CONFIG"]
print(json.dumps({"urls": s.CHANNEL_REDIS_URLS, "hosts": [h["address"] for h in config["hosts"]]}))
"""


@pytest.mark.parametrize(
    ("given", "urls"),
    [
        (None, ["redis://127.0.0.1:6379/3"]),  # REDIS_URL alone, as before
        (
            "redis://127.0.0.1:6379/3,redis://10.0.0.2:6379/0",
            ["redis://127.0.0.1:6379/3", "redis://10.0.0.2:6379/0"],
        ),
    ],
)
def test_the_channel_layers_hosts_come_from_channel_redis_urls(
    tmp_path: Path, given: str | None, urls: list[str]
) -> None:
    env = {"DEBUG": "1", "VAR_DIR": str(tmp_path / "var"), "REDIS_URL": "redis://127.0.0.1:6379/3"}
    if given is not None:
        env["CHANNEL_REDIS_URLS"] = given
    result = run_python(HOSTS, env)
    assert result.returncode == 0, result.stderr
    assert orjson.loads(result.stdout) == {"urls": urls, "hosts": urls}
