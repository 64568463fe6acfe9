"""What a socket move does besides the rules, the write and the reply (issue #37 item 4,
`bench.play_load` prints its cost against a bare echo): work that is the same for every frame of
a socket is done once a socket, not once a frame."""

from __future__ import annotations

from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client

from tests.play.helpers import client_for, start_custom, winnable_code
from tripeaks.config.asgi import application
from tripeaks.infra import throttling
from tripeaks.play import payloads, services, socket_moves

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

MOVES = 5


async def _played(
    user: Any, monkeypatch: pytest.MonkeyPatch
) -> tuple[list[str], list[Any], list[dict[str, Any]]]:
    """`MOVES` moves on one socket signed in by its session cookie, as in production:
    the kinds of limits made, the users the moves were logged with, and the games' views (the
    opening's, then each move's), each with the number of rankings worked out by then."""
    code, line = winnable_code()
    game = await database_sync_to_async(start_custom)(client_for(user), code)
    made: list[str] = []
    logged: list[Any] = []
    views: list[dict[str, Any]] = []
    rankings: list[str] = []
    play_limits, log_move = throttling.play_limits, services.log_move
    ranking = payloads.live_ranking

    def counted(kind: str, **who: Any) -> list[throttling.Limit]:
        made.append(kind)
        return play_limits(kind, **who)

    def noted(game: Any, user: Any, action: str) -> None:
        logged.append(user)
        log_move(game, user, action)

    def ranked(game: Any, guest: bool) -> Any:
        rankings.append(ranking(game, guest))
        return rankings[-1]

    monkeypatch.setattr(throttling, "play_limits", counted)
    monkeypatch.setattr(payloads, "live_ranking", ranked)
    monkeypatch.setattr(services, "log_move", noted)
    browser = Client()
    await database_sync_to_async(browser.force_login)(user)
    cookie = f"sessionid={browser.cookies['sessionid'].value}".encode()
    # Signed in by the session cookie: the handshake gives the consumer a lazy user object.
    socket = WebsocketCommunicator(
        application,
        f"/ws/games/{game['id']}/",
        headers=[(b"origin", b"http://localhost"), (b"cookie", cookie)],
    )
    assert (await socket.connect())[0]
    opened = await socket.receive_json_from()
    assert opened["type"] == "view"
    views.append({**opened["game"], "rankings": len(rankings)})
    for seq, step in enumerate(line[:MOVES]):
        await socket.send_json_to({"seq": seq, **step})
        reply = await socket.receive_json_from()
        assert reply["type"] == "view" and reply["game"]["seq"] == seq + 1, reply
        views.append({**reply["game"], "rankings": len(rankings)})
    await socket.disconnect()
    return made, logged, views


async def test_a_socket_makes_its_move_limits_once(
    make_player: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    user = await database_sync_to_async(make_player)("limits")
    made, _, _ = await _played(user, monkeypatch)
    assert made == ["move"]  # was one a frame


async def test_a_socket_moves_with_its_user_not_the_lazy_proxy(
    make_player: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    user = await database_sync_to_async(make_player)("unwrapped")
    _, logged, _ = await _played(user, monkeypatch)
    assert len(logged) == MOVES
    assert all(type(who) is type(user) and who.pk == user.pk for who in logged), logged


async def test_a_running_games_ranking_is_worked_out_again_only_when_it_changes(
    make_player: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What a run counts for is in every move's view, and changes only with the game's ranking,
    its hints or its start: the opening's view works it out, the first move (the start) again,
    the moves after it keep it."""
    user = await database_sync_to_async(make_player)("ranked")
    _, _, views = await _played(user, monkeypatch)
    assert [view["rankings"] for view in views] == [1] + [2] * MOVES  # was one a view
    fields = ("ranking", "ranks", "ranking_code", "ranking_reason", "finished_at")
    assert all([view[f] for f in fields] == [views[0][f] for f in fields] for view in views)
    assert views[0]["started_at"] is None
    assert all(view["started_at"] == views[1]["started_at"] is not None for view in views[1:])
    # The same as a view made from the stored game.
    rest = await database_sync_to_async(client_for(user).get)(f"/api/games/{views[0]['id']}")
    stored = rest.json()
    assert [stored[f] for f in (*fields, "started_at")] == [
        views[-1][f] for f in (*fields, "started_at")
    ]


async def test_a_moves_redis_replies_are_parsed_in_c() -> None:
    """Every socket frame's count (the limiter, on the loop's async client) and the channel
    layer's and the cache's calls parse Redis's replies with hiredis: redis-py's own parser reads
    a reply in Python, element by element (a 20-key count: some 30 us of CPU more a call)."""
    from redis._parsers import _AsyncHiredisParser, _HiredisParser

    from tripeaks.infra import redis_client

    pool = redis_client.async_client().connection_pool
    connection = await pool.get_connection()
    try:
        assert isinstance(connection._parser, _AsyncHiredisParser)
    finally:
        await pool.release(connection)
    sync_pool = redis_client.client().connection_pool
    sync_connection = sync_pool.get_connection()
    try:
        assert isinstance(sync_connection._parser, _HiredisParser)
    finally:
        sync_pool.release(sync_connection)


async def test_a_move_that_ends_no_game_makes_no_board_update_coroutine(
    make_player: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Only a game's end (or a start that resigns one) has live board updates to send: a plain
    move made the sending coroutine, which found nothing to send, after every reply."""
    user = await database_sync_to_async(make_player)("boardless")
    made: list[object] = []
    send = socket_moves.SocketGame.send_board_updates

    def counted(self: socket_moves.SocketGame) -> Any:
        made.append(self)
        return send(self)

    monkeypatch.setattr(socket_moves.SocketGame, "send_board_updates", counted)
    _, _, views = await _played(user, monkeypatch)
    assert len(views) == MOVES + 1 and made == []  # was one a move
