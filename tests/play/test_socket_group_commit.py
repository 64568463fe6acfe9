"""Socket moves stored by group commit (tripeaks/play/move_writer.py): many games' moves in one
statement, never a fork, never a lost move, and the locked path wherever the copy may be stale."""

from __future__ import annotations

import asyncio
from typing import Any

import psycopg
import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.db import connection

from tests.play.helpers import client_for, move, start_custom, winnable_code
from tripeaks.config.asgi import application
from tripeaks.play import move_writer
from tripeaks.play.models import Game, Move
from tripeaks.play.replay import matches_log

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


async def opened(user: Any, game_id: str) -> WebsocketCommunicator:
    socket = WebsocketCommunicator(
        application, f"/ws/games/{game_id}/", headers=[(b"origin", b"http://localhost")]
    )
    socket.scope["user"] = user
    connected, _ = await socket.connect()
    assert connected
    assert (await socket.receive_json_from())["type"] == "view"
    return socket


async def frames(socket: WebsocketCommunicator) -> list[dict[str, Any]]:
    """Every frame the socket has had, until it falls quiet: replies and pushes from other tabs."""
    received = [await socket.receive_json_from(timeout=15)]
    while not await socket.receive_nothing(timeout=0.5):
        received.append(await socket.receive_json_from())
    return received


def replayed_equals_stored(game_id: str) -> bool:
    return matches_log(Game.objects.select_related("deal").get(pk=game_id))


@pytest.fixture
def code_and_line() -> tuple[str, list[dict[str, Any]]]:
    return winnable_code()


@pytest.fixture
def start(make_player: Any, code_and_line: Any) -> Any:
    """`await start(name)`: a new player and their new game on the winnable deal."""

    async def started(name: str) -> tuple[Any, dict[str, Any]]:
        user = await database_sync_to_async(make_player)(name)
        game = await database_sync_to_async(start_custom)(client_for(user), code_and_line[0])
        return user, game

    return started


async def test_a_whole_won_game_over_the_socket_is_stored_move_by_move(
    start: Any, code_and_line: Any
) -> None:
    user, game = await start("winner")
    line = code_and_line[1]
    socket = await opened(user, game["id"])
    for seq, step in enumerate(line):
        await socket.send_json_to({"seq": seq, **step})
        reply = await socket.receive_json_from()
        assert reply["type"] == "view", reply
        assert reply["game"]["seq"] == seq + 1
    # The last move ends the game: stored with the game row locked, it hands the result on.
    assert reply["game"]["status"] == "won" and reply["game"]["finished_at"]
    assert reply["game"]["result"] is not None
    await socket.disconnect()
    assert await database_sync_to_async(replayed_equals_stored)(game["id"])


async def test_two_tabs_sending_the_same_seq_at_once_store_one_move(
    start: Any, code_and_line: Any
) -> None:
    user, game = await start("twotabs")
    first, second = await opened(user, game["id"]), await opened(user, game["id"])
    # Different moves: the same move twice with one seq is a retry, answered alike.
    await asyncio.gather(
        first.send_json_to({"seq": 0, "action": "draw"}),
        second.send_json_to({"seq": 0, "action": "play", "position": game["playable"][0]}),
    )
    heard = await frames(first) + await frames(second)
    errors = [frame["code"] for frame in heard if frame["type"] == "error"]
    assert errors == ["seq_mismatch"], heard
    assert {frame["game"]["seq"] for frame in heard} == {1}
    assert await database_sync_to_async(Move.objects.filter(game_id=game["id"]).count)() == 1
    assert await database_sync_to_async(replayed_equals_stored)(game["id"])
    for socket in (first, second):
        await socket.disconnect()


async def test_a_move_made_elsewhere_makes_the_sockets_stale_move_a_conflict(
    start: Any, code_and_line: Any
) -> None:
    user, game = await start("elsewhere")
    socket = await opened(user, game["id"])
    assert game["playable"], "the test needs a card to play at the start"
    played = await database_sync_to_async(move)(client_for(user), game, "play", game["playable"][0])
    assert played.status_code == 200
    pushed = await socket.receive_json_from(timeout=15)
    assert pushed["game"]["seq"] == 1
    # The socket's copy is still at seq 0, where a draw is legal; the database has moved on.
    await socket.send_json_to({"seq": 0, "action": "draw"})
    conflict = await socket.receive_json_from()
    assert conflict["code"] == "seq_mismatch" and conflict["game"]["seq"] == 1
    await socket.send_json_to({"seq": 1, "action": "draw"})
    assert (await socket.receive_json_from())["game"]["seq"] == 2
    await socket.disconnect()
    assert await database_sync_to_async(replayed_equals_stored)(game["id"])


async def test_moves_of_many_games_share_commits(start: Any) -> None:
    sockets = []
    for i in range(12):
        user, game = await start(f"batch{i}")
        sockets.append((await opened(user, game["id"]), game["id"]))
    writer = move_writer.writer()
    before = writer.batches_written
    for seq in range(3):
        await asyncio.gather(
            *(socket.send_json_to({"seq": seq, "action": "draw"}) for socket, _ in sockets)
        )
        for socket, _ in sockets:
            assert (await socket.receive_json_from())["game"]["seq"] == seq + 1
    # 36 moves; stored one statement each they would take 36 commits.
    assert writer.batches_written - before < 36
    for socket, game_id in sockets:
        await socket.disconnect()
        assert await database_sync_to_async(replayed_equals_stored)(game_id)


async def test_batches_go_to_the_writers_thread_without_an_executor(
    start: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A batch crosses to the writer's thread by its queue and comes back by one call from it:
    `run_in_executor` made a concurrent future, an executor's work item and a chained future for
    each (some 12 us of CPU more a hand-off: one a move for a player alone)."""
    loop = asyncio.get_running_loop()
    run_in_executor = loop.run_in_executor
    batches: list[object] = []

    def noted(executor: Any, call: Any, *args: Any) -> Any:
        if getattr(call, "__self__", None) is move_writer.writer():
            batches.append(call)
        return run_in_executor(executor, call, *args)

    user, game = await start("handoff")
    socket = await opened(user, game["id"])
    monkeypatch.setattr(loop, "run_in_executor", noted)
    for seq in range(3):
        await socket.send_json_to({"seq": seq, "action": "draw"})
        reply = await socket.receive_json_from()
        assert reply["type"] == "view" and reply["game"]["seq"] == seq + 1, reply
    await socket.disconnect()
    assert batches == []
    assert await database_sync_to_async(replayed_equals_stored)(game["id"])


async def test_a_dropped_database_connection_loses_no_move(start: Any, code_and_line: Any) -> None:
    user, game = await start("dropped")
    socket = await opened(user, game["id"])
    await socket.send_json_to({"seq": 0, "action": "draw"})
    assert (await socket.receive_json_from())["game"]["seq"] == 1

    backend = move_writer.writer().backend_pid
    assert backend is not None

    def kill(pid: int) -> bool:
        with psycopg.connect(
            dbname=connection.settings_dict["NAME"], host="127.0.0.1", user="postgres"
        ) as admin:
            row = admin.execute("SELECT pg_terminate_backend(%s)", [pid]).fetchone()
        return bool(row and row[0])

    assert await database_sync_to_async(kill)(backend)
    await socket.send_json_to({"seq": 1, "action": "draw"})
    reply = await socket.receive_json_from()
    assert reply["type"] == "view" and reply["game"]["seq"] == 2, reply
    await socket.disconnect()
    assert await database_sync_to_async(replayed_equals_stored)(game["id"])


async def test_an_idle_socket_still_hears_of_moves_after_the_layers_blocking_pop(
    start: Any, code_and_line: Any
) -> None:
    """redis-py 8 reads with a 5 s timeout by default, as long as the channel layer's blocking
    pop: an idle consumer used to die with a TimeoutError (channels_redis#422)."""
    user, game = await start("idle")
    idle, active = await opened(user, game["id"]), await opened(user, game["id"])
    await asyncio.sleep(6.5)
    await active.send_json_to({"seq": 0, "action": "draw"})
    assert (await active.receive_json_from())["game"]["seq"] == 1
    pushed = await idle.receive_json_from(timeout=15)
    assert pushed["type"] == "view" and pushed["game"]["seq"] == 1
    for socket in (idle, active):
        await socket.disconnect()


async def test_an_ending_move_on_a_stale_copy_is_a_conflict_and_finishes_nothing(
    start: Any, code_and_line: Any
) -> None:
    user, game = await start("stale-end")
    *line, last = code_and_line[1]
    socket = await opened(user, game["id"])
    for seq, step in enumerate(line):
        await socket.send_json_to({"seq": seq, **step})
        assert (await socket.receive_json_from())["game"]["seq"] == seq + 1
    # Another tab pauses and resumes: the socket hears of it, but its copy stays at its seq.
    api, view = client_for(user), {"id": game["id"], "seq": len(line)}
    for action in ("pause", "resume"):
        view = await database_sync_to_async(move)(api, view, action)
        assert view.status_code == 200
        view = view.json()
        assert (await socket.receive_json_from(timeout=15))["game"]["seq"] == view["seq"]
    await socket.send_json_to({"seq": len(line), **last})
    conflict = await socket.receive_json_from()
    assert conflict["code"] == "seq_mismatch" and conflict["game"]["status"] == "playing"
    await socket.send_json_to({"seq": view["seq"], **last})
    reply = await socket.receive_json_from()
    assert reply["game"]["status"] == "won" and reply["game"]["result"] is not None
    await socket.disconnect()
    assert await database_sync_to_async(replayed_equals_stored)(game["id"])


async def test_a_resignation_on_the_socket_ends_the_game_with_its_result(start: Any) -> None:
    user, game = await start("quitter")
    socket = await opened(user, game["id"])
    await socket.send_json_to({"seq": 0, "action": "draw"})
    assert (await socket.receive_json_from())["game"]["seq"] == 1
    await socket.send_json_to({"seq": 1, "action": "resign"})
    reply = await socket.receive_json_from()
    assert reply["game"]["status"] == "lost" and reply["game"]["result"]["won"] is False
    await socket.send_json_to({"seq": 2, "action": "draw"})
    refused = await socket.receive_json_from()
    assert refused["type"] == "error" and "over" in refused["detail"]
    await socket.disconnect()
    assert await database_sync_to_async(replayed_equals_stored)(game["id"])
