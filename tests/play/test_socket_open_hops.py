"""What a game socket's opening and closing cost the database (issue #35: a flood of opens from
one account must slow nobody). Counted over the real application: every connection a worker
thread takes (a hop to the database, with its pool checkout) and every statement run on one.

An opening reads the session and the user once (after joining the session's group, so that read
is also the check against a sign-out meanwhile) and the game once: two hops, three statements. A
socket over its game's cap is refused before any of it. A closing socket whose game another
screen still shows leaves the database alone; the last one stops the clock. Neither waits for the
process's one sync thread."""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer
from channels.testing import WebsocketCommunicator
from django.contrib.auth import get_user_model
from django.db import connection
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.backends.signals import connection_created
from django.db.models.sql.compiler import SQLCompiler
from django.test import Client
from django.test.utils import CaptureQueriesContext
from redis.asyncio.connection import AbstractConnection as AsyncConnection

from tests.play.helpers import client_for, start_custom, winnable_code
from tripeaks.config.asgi import application
from tripeaks.infra.socket_sessions import CLOSE_SESSION_ENDED, close_sockets_of_user, user_group
from tripeaks.play.broadcast import game_group
from tripeaks.play.consumers import CLOSE_TOO_MANY
from tripeaks.play.models import Game
from tripeaks.play.socket_moves import load_live_game

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


@dataclass
class Work:
    hops: int = 0
    statements: list[str] = field(default_factory=list)

    def tables(self) -> list[str]:
        return [sql.split(" FROM ", 1)[1].split()[0].strip('"') for sql in self.statements]


@contextlib.contextmanager
def database_work() -> Iterator[Work]:
    """The connections taken meanwhile, in any thread, and the statements run on them."""
    work = Work()
    wrapped: list[BaseDatabaseWrapper] = []

    def count(execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
        work.statements.append(sql)
        return execute(sql, params, many, context)

    def taken(sender: object, connection: BaseDatabaseWrapper, **kwargs: object) -> None:
        work.hops += 1
        if count not in connection.execute_wrappers:
            connection.execute_wrappers.append(count)
            wrapped.append(connection)

    connection_created.connect(taken)
    try:
        yield work
    finally:
        connection_created.disconnect(taken)
        for connection in wrapped:
            connection.execute_wrappers.remove(count)


@pytest.fixture(autouse=True)
def _a_connection_each_hop() -> Iterator[None]:
    """Each hop takes a connection, as a server's takes one from its pool (a checkout is a
    `connection_created`, what `database_work` counts as a hop): the test process keeps its
    connections otherwise (CONN_MAX_AGE, tests/settings.py), here it opens one a hop again."""
    from asgiref.sync import SyncToAsync
    from django.db import connections

    settings = connections["default"].settings_dict  # every thread's connection reads this one
    kept = settings["CONN_MAX_AGE"]
    settings["CONN_MAX_AGE"] = 0
    # The kept connections of this thread and of the one sync thread go: the next are opened anew.
    connections.close_all()
    SyncToAsync.single_thread_executor.submit(connections.close_all).result()
    try:
        yield
    finally:
        settings["CONN_MAX_AGE"] = kept


@pytest.fixture
def player_and_game(make_player: Any) -> tuple[Any, str, bytes]:
    """A player, their game, and the session cookie of a browser signed in as them."""
    user = make_player()
    code, _ = winnable_code()
    game_id = str(start_custom(client_for(user), code)["id"])
    browser = Client()
    browser.force_login(user)
    return user, game_id, f"sessionid={browser.cookies['sessionid'].value}".encode()


def game_socket(game_id: str, cookie: bytes) -> WebsocketCommunicator:
    return WebsocketCommunicator(
        application,
        f"/ws/games/{game_id}/",
        headers=[(b"origin", b"http://localhost"), (b"cookie", cookie)],
    )


async def opened(game_id: str, cookie: bytes) -> WebsocketCommunicator:
    socket = game_socket(game_id, cookie)
    connected, _ = await socket.connect()
    assert connected
    assert (await socket.receive_json_from(timeout=5))["type"] == "view"
    return socket


async def test_an_opening_reads_the_session_the_user_and_the_game_once_each(
    player_and_game: Any,
) -> None:
    _, game_id, cookie = player_and_game
    first = await opened(game_id, cookie)  # the game shown: its clock runs
    with database_work() as work:
        second = await opened(game_id, cookie)
    # (Before: three hops, the session read twice: in the handshake and once joined.)
    assert work.hops == 2, work.statements
    assert sorted(work.tables()) == ["accounts_user", "django_session", "play_game"]
    await second.disconnect()
    await first.disconnect()


async def test_a_socket_over_its_games_cap_is_refused_before_any_database_work(
    player_and_game: Any, settings: Any
) -> None:
    _, game_id, cookie = player_and_game
    settings.SOCKETS_PER_GAME = 1
    first = await opened(game_id, cookie)
    with database_work() as work:
        over = game_socket(game_id, cookie)
        connected, _ = await over.connect()
        assert connected  # accepted, so that the page hears why
        assert (await over.receive_output(timeout=5))["code"] == CLOSE_TOO_MANY
    # (Before: its session and user read, one hop and two statements, then refused.)
    assert (work.hops, work.statements) == (0, [])
    await over.disconnect()
    await first.disconnect()


async def test_a_burst_of_opens_beyond_its_games_cap_is_refused_before_any_database_work(
    player_and_game: Any, settings: Any
) -> None:
    _, game_id, cookie = player_and_game
    settings.SOCKETS_PER_GAME = 2
    sockets = [game_socket(game_id, cookie) for _ in range(6)]
    with database_work() as work:  # all at once, as a flood's burst comes
        await asyncio.gather(*(socket.connect() for socket in sockets))
        answers = [await socket.receive_output(timeout=5) for socket in sockets]
    closed = [a.get("code") for a in answers if a["type"] == "websocket.close"]
    assert closed == [CLOSE_TOO_MANY] * 4, answers
    # Two sessions and users read, two games: the four over the cap read nothing. (Before: each
    # found room in Redis, whose counts come after the reads, and read its session and user.)
    assert work.hops == 4, work.statements
    assert len(work.statements) == 6, work.statements
    for socket in sockets:
        await socket.disconnect()


async def test_a_closing_socket_leaves_the_database_alone_while_another_shows_the_game(
    player_and_game: Any,
) -> None:
    _, game_id, cookie = player_and_game
    first = await opened(game_id, cookie)
    second = await opened(game_id, cookie)
    with database_work() as work:
        await second.disconnect()
    # (Before: one hop, the game locked to find it still shown.)
    assert (work.hops, work.statements) == (0, [])
    game = await Game.objects.aget(pk=game_id)
    assert game.running_since is not None  # still on a screen: its clock runs
    with database_work() as work:
        await first.disconnect()
    assert work.hops == 1
    game = await sync_to_async(Game.objects.get)(pk=game_id)
    assert game.running_since is None  # the last screen gone: its clock stopped


async def test_a_socket_opens_and_closes_while_the_sync_thread_is_busy(
    player_and_game: Any,
) -> None:
    _, game_id, cookie = player_and_game
    release = threading.Event()
    # Thread-sensitive: the process's one sync thread, held until released.
    busy = asyncio.ensure_future(sync_to_async(release.wait)())
    try:
        socket = await opened(game_id, cookie)
        # (Before: Channels' close queued a hop to that thread and waited for it, until the
        # communicator gave up and cancelled the socket's application.)
        await socket.disconnect(timeout=3)
        assert socket.future.done() and not socket.future.cancelled()
    finally:
        release.set()
        await busy


@contextlib.contextmanager
def layer_calls(method: str, noted: Callable[[str, dict[str, Any]], str]) -> Iterator[list[str]]:
    """What `noted` makes of each call of the channel layer's `method` (`send` or `group_send`:
    its target and its message) meanwhile."""
    layer = get_channel_layer()
    assert layer is not None
    sent: list[str] = []
    call = getattr(layer, method)

    async def counted(target: str, message: dict[str, Any]) -> None:
        sent.append(noted(target, message))
        await call(target, message)

    setattr(layer, method, counted)
    try:
        yield sent
    finally:
        delattr(layer, method)


def group_sends() -> contextlib.AbstractContextManager[list[str]]:
    """The groups the channel layer is asked to send to meanwhile."""
    return layer_calls("group_send", lambda group, _: group)


async def test_a_socket_alone_on_its_game_announces_itself_to_nobody(
    player_and_game: Any,
) -> None:
    _, game_id, cookie = player_and_game
    with group_sends() as sent:
        first = await opened(game_id, cookie)
    # (Before: announced to its game's group, where it alone heard it: four Redis round trips.)
    assert sent == []
    with group_sends() as sent:
        second = await opened(game_id, cookie)
    assert sent == [game_group(game_id)]  # the first socket is told of the second
    # Each now tells the other of its moves: the first's draw reaches the second.
    await first.send_json_to({"seq": 0, "action": "draw"})
    mine = await first.receive_json_from(timeout=5)
    theirs = await second.receive_json_from(timeout=5)
    assert mine["type"] == theirs["type"] == "view"
    assert theirs["game"]["seq"] == mine["game"]["seq"] == 1
    await second.disconnect()
    await first.disconnect()


def _fields(instance: Any) -> dict[str, Any]:
    return {name: value for name, value in vars(instance).items() if name != "_state"}


async def test_an_opening_compiles_no_game_read(player_and_game: Any) -> None:
    """The game's read is compiled once a process: compiling it again at each opening cost 0.4
    of the read's 1.0 ms of CPU."""
    _, game_id, cookie = player_and_game
    first = await opened(game_id, cookie)  # (the read compiled, if no test had)
    compiled: list[type[Any]] = []
    as_sql = SQLCompiler.as_sql

    def counted(self: SQLCompiler, *args: Any, **kwargs: Any) -> Any:
        compiled.append(self.query.model)
        return as_sql(self, *args, **kwargs)

    SQLCompiler.as_sql = counted  # type: ignore[method-assign]
    try:
        second = await opened(game_id, cookie)
    finally:
        SQLCompiler.as_sql = as_sql  # type: ignore[method-assign]
    assert Game not in compiled, compiled
    await second.disconnect()
    await first.disconnect()


def _read_both(game_id: str, user: Any) -> None:
    live = load_live_game(game_id, user)
    assert live is not None
    game = Game.objects.select_related("deal", "player").get(pk=game_id)
    assert _fields(live.game) == _fields(game)
    assert isinstance(live.game.state, dict) and live.game.state == game.state
    with CaptureQueriesContext(connection) as queries:  # its deal and player came with it
        assert _fields(live.game.deal) == _fields(game.deal)
        assert _fields(live.game.player) == _fields(game.player)
    assert len(queries) == 0
    assert live.game._state.adding is False and live.game._state.db == "default"
    other = get_user_model().objects.create(username="someone-else")
    assert load_live_game(game_id, other) is None  # not their game


async def test_the_game_read_once_compiled_reads_what_the_orm_reads(
    player_and_game: Any,
) -> None:
    user, game_id, _ = player_and_game
    await sync_to_async(_read_both)(game_id, user)


def channel_sends() -> contextlib.AbstractContextManager[list[str]]:
    """The event types the channel layer is asked to send to single channels meanwhile."""
    return layer_calls("send", lambda _, message: str(message["type"]))


async def test_sockets_opening_a_game_at_once_greet_nobody_yet_hear_each_others_moves(
    player_and_game: Any, settings: Any
) -> None:
    """A flood's burst: five sockets of one game opening at once. None has a newer view than
    the others read, so none answers the others' announcements; each still tells the others of
    its moves."""
    _, game_id, cookie = player_and_game
    settings.SOCKETS_PER_GAME = 5
    sockets = [game_socket(game_id, cookie) for _ in range(5)]
    with channel_sends() as sent:
        await asyncio.gather(*(socket.connect() for socket in sockets))
        views = [await socket.receive_json_from(timeout=5) for socket in sockets]
        await asyncio.sleep(0.5)  # the announcements heard
    assert [view["type"] for view in views] == ["view"] * 5
    # (Before: every socket answered every later one's announcement, ten greetings here, each
    # four Redis round trips to send and four to receive.)
    assert sent == []
    for n, mover in enumerate(sockets):
        await mover.send_json_to({"seq": n, "action": "draw"})
        for socket in sockets:
            answer = await socket.receive_json_from(timeout=5)
            assert answer["game"]["seq"] == n + 1, (n, answer)
    for socket in sockets:
        await socket.disconnect()


async def test_a_socket_greets_a_newcomer_only_with_a_newer_view_than_it_read(
    player_and_game: Any,
) -> None:
    _, game_id, cookie = player_and_game
    first = await opened(game_id, cookie)
    await first.send_json_to({"seq": 0, "action": "draw"})
    assert (await first.receive_json_from(timeout=5))["game"]["seq"] == 1
    layer = get_channel_layer()
    assert layer is not None
    newcomer = await layer.new_channel()
    for seq, greeted in ((1, False), (0, True)):
        await layer.group_send(
            game_group(game_id), {"type": "game.peer", "channel": newcomer, "seq": seq}
        )
        if greeted:  # a move stored after the newcomer's read: it is told of it
            greeting = await asyncio.wait_for(layer.receive(newcomer), 5)
            assert greeting["type"] == "game.greeting" and greeting["view"]["seq"] == 1
        else:
            with pytest.raises(asyncio.TimeoutError):
                await asyncio.wait_for(layer.receive(newcomer), 0.5)
    await first.disconnect()


@contextlib.contextmanager
def redis_round_trips() -> Iterator[Counter[str]]:
    """The round trips to Redis from the event loop's clients meanwhile (a command, a pipeline or
    a script each), by their first command's name."""
    trips: Counter[str] = Counter()
    send = AsyncConnection.send_packed_command

    async def counted(self: AsyncConnection, command: Any, check_health: bool = True) -> None:
        packed = command if isinstance(command, bytes | str) else b"".join(command)
        packed = packed.encode() if isinstance(packed, str) else packed
        trips[packed.split(b"\r\n")[2].decode().lower()] += 1
        await send(self, command, check_health)

    AsyncConnection.send_packed_command = counted  # type: ignore[method-assign]
    try:
        yield trips
    finally:
        AsyncConnection.send_packed_command = send  # type: ignore[method-assign]


async def test_a_closing_socket_leaves_its_groups_and_its_counts_in_a_round_trip_each(
    player_and_game: Any,
) -> None:
    """A flood's five served sockets close with it: each left its session's, its player's and
    its game's groups one after another, was uncounted, then counted its game's other screens,
    five round trips where two do."""
    _, game_id, cookie = player_and_game
    first = await opened(game_id, cookie)
    second = await opened(game_id, cookie)
    with redis_round_trips() as trips:
        await second.disconnect()
    # The groups left (zrem, zrem, zrem), then the counts (zrem a holder, then the game's
    # zcount): before, four round trips led by zrem and one by zcount.
    assert (trips["zrem"], trips["zcount"]) == (2, 0), trips
    layer = get_channel_layer()
    assert layer is not None
    key = layer._group_key(game_group(game_id))
    assert await layer.connection(layer.consistent_hash(game_group(game_id))).zcard(key) == 1
    game = await Game.objects.aget(pk=game_id)
    assert game.running_since is not None  # the first still shows it: its clock runs
    await first.disconnect()
    game = await Game.objects.aget(pk=game_id)
    assert game.running_since is None  # the last screen gone: its clock stopped


async def test_a_socket_refused_over_its_games_cap_never_reads_its_channel(
    player_and_game: Any, settings: Any
) -> None:
    """Half a flood's opens that reach the consumer are refused over the game's cap; each read
    its channel in the layer until it closed (the receive's tasks, and the Redis connection of
    the blocking pop dropped when it held it)."""
    _, game_id, cookie = player_and_game
    settings.SOCKETS_PER_GAME = 1
    layer = get_channel_layer()
    assert layer is not None
    channels: list[str] = []
    receive = layer.receive

    async def noted(channel: str) -> Any:
        channels.append(channel)
        return await receive(channel)

    layer.receive = noted
    try:
        first = await opened(game_id, cookie)
        await asyncio.sleep(0.1)  # (its reading of its channel begun)
        readers = set(channels)
        assert len(readers) == 1  # the socket let in reads its own
        over = game_socket(game_id, cookie)
        connected, _ = await over.connect()
        assert connected
        assert (await over.receive_output(timeout=5))["code"] == CLOSE_TOO_MANY
        await over.disconnect()
        await asyncio.sleep(0.1)
        assert set(channels) == readers  # (before: the refused socket's channel too)
    finally:
        del layer.receive
    await first.disconnect()


async def test_an_opening_joins_its_players_group_with_its_games(player_and_game: Any) -> None:
    """Its session's group before its user is read (the look against a sign-out meanwhile), its
    player's and its game's together once counted: two round trips of joins, not three."""
    user, game_id, cookie = player_and_game
    with redis_round_trips() as trips:
        socket = await opened(game_id, cookie)
    assert trips["zadd"] == 2, trips  # (before: 3)
    layer = get_channel_layer()
    assert layer is not None
    for group in (user_group(user.pk), game_group(game_id)):
        key = layer._group_key(group)
        assert await layer.connection(layer.consistent_hash(group)).zcard(key) == 1
    await sync_to_async(close_sockets_of_user)(user.pk)  # a password change elsewhere
    assert (await socket.receive_output(timeout=5))["code"] == CLOSE_SESSION_ENDED
    await socket.disconnect()
