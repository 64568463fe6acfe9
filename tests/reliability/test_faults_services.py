"""Faults on a private stack (tests/reliability/test_faults.py): PostgreSQL restarting while players
move, Redis down."""

from __future__ import annotations

import json
import random
import threading
import time
from typing import Any

import pytest

from bench.play_load import choose
from tests.reliability.faults import assert_consistent, send, start
from tests.reliability.stack import Stack, request, wait_until

pytestmark = pytest.mark.slow


# --------------------------------------------------------------------------- PostgreSQL


def test_postgres_restart_while_players_move_gives_clear_503s_then_recovers(
    stack: Stack,
) -> None:
    players = stack.players(5, "pgfault")
    servers = [stack.start_server("pg-1"), stack.start_server("pg-2")]
    seen: list[tuple[float, int, dict[str, Any], dict[str, str], float]] = []
    stop = threading.Event()
    t0 = time.monotonic()

    def play(i: int, token: str) -> None:
        server = servers[i % 2]
        chooser = random.Random(i)
        game: dict[str, Any] | None = None
        while not stop.is_set():
            if game is None or game["status"] not in ("playing", "stuck"):
                status, body, headers, took = request(
                    "POST", f"{server.url}/api/games", {"mode": "daily"}, token
                )
                if status == 201:
                    game = body
            else:
                status, body, headers, took = send(server, token, game, **choose(game, chooser))
                if status in (200, 409):
                    game = body.get("game", body) if status == 409 else body
            seen.append((time.monotonic() - t0, status, body, headers, took))
            if status == 503:
                time.sleep(0.2)

    socket_seen: list[dict[str, Any]] = []

    def play_over_the_socket(session: str, token: str) -> None:
        """One more player, on the game socket: the outage is an error frame, not a dead socket."""
        from websockets.sync.client import connect

        server = servers[0]
        chooser = random.Random(99)
        while not stop.is_set():
            status, game, _, _ = request(
                "POST", f"{server.url}/api/games", {"mode": "daily"}, token
            )
            if status != 201:
                time.sleep(0.2)
                continue
            with connect(
                f"ws://127.0.0.1:{server.port}/ws/games/{game['id']}/",
                additional_headers={"Cookie": f"sessionid={session}", "Origin": server.url},
            ) as socket:
                first = json.loads(socket.recv(timeout=10))
                if first["type"] == "error":  # the session or game could not be read: 1013 follows
                    socket_seen.append(first)
                    time.sleep(0.2)
                    continue
                view = first["game"]
                while not stop.is_set() and view["status"] in ("playing", "stuck"):
                    socket.send(json.dumps({"seq": view["seq"], **choose(view, chooser)}))
                    reply = json.loads(socket.recv(timeout=10))
                    socket_seen.append(reply)
                    view = reply.get("game", view)
                    time.sleep(0.2 if reply["type"] == "error" else 0.02)

    threads = [
        threading.Thread(target=play, args=(i, token), daemon=True)
        for i, (_, token) in enumerate(players[:-1])
    ]
    threads.append(threading.Thread(target=play_over_the_socket, args=players[-1], daemon=True))
    for thread in threads:
        thread.start()
    # Players at machine speed keep both cores busy: the outage starts once play is under way
    # and the run ends once both kinds of player play on after it (it used to be 2 s and 4 s).
    wait_until(lambda: len({s for _, s, _, _, _ in seen} & {200, 201}) and socket_seen, 20, "play")
    time.sleep(0.5)
    down_at = time.monotonic() - t0
    stack.stop_postgres(mode="fast")
    time.sleep(3)  # a request that meets the outage waits out the 2 s connect timeout first
    stack.start_postgres()
    up_at = time.monotonic() - t0
    frames_before_up = len(socket_seen)

    def played_on() -> bool:
        rest = any(t > up_at and s in (200, 201) for t, s, _, _, _ in seen)
        views = [r for r in socket_seen[frames_before_up:] if r["type"] == "view"]
        return rest and len(views) >= 3

    wait_until(played_on, 10, "play again after the restart", interval=0.2)
    stop.set()
    for thread in threads:
        thread.join(timeout=30)

    statuses = [s for _, s, _, _, _ in seen]
    assert set(statuses) <= {200, 201, 409, 503}, sorted(set(statuses))
    unavailable = [(b, h) for _, s, b, h, _ in seen if s == 503]
    assert unavailable, "no request met the outage"
    for body, headers in unavailable:
        assert body["code"] == "unavailable" and "unavailable" in body["detail"]
        assert "Traceback" not in json.dumps(body) and int(headers["retry-after"]) > 0
    slowest = max(took for _, _, _, _, took in seen)
    assert slowest < 10, f"a request hung for {slowest:.1f} s"
    first_ok_after = min(
        (t for t, s, _, _, _ in seen if t > up_at and s in (200, 201)), default=None
    )
    assert first_ok_after is not None and first_ok_after - up_at < 5
    socket_errors = [r for r in socket_seen if r["type"] == "error"]
    assert {r["code"] for r in socket_errors} <= {"unavailable"}, socket_errors
    assert socket_seen and socket_seen[-1]["type"] == "view", socket_seen[-3:]
    assert_consistent(stack)
    print(
        f"socket player: {len(socket_seen)} frames answered, {len(socket_errors)} 'unavailable'; "
        f"postgres down {down_at:.1f}-{up_at:.1f} s: {len(seen)} requests, {len(unavailable)} "
        f"answered 503, slowest {slowest * 1000:.0f} ms, ok again {first_ok_after - up_at:.2f} s "
        "after it was back"
    )


# --------------------------------------------------------------------------- Redis


def test_redis_down_rest_play_goes_on_live_boards_degrade_and_health_says_so(
    stack: Stack,
) -> None:
    from websockets.sync.client import connect

    ((_, token),) = stack.players(1, "nored")
    server = stack.start_server("nored")
    ws_url = f"ws://127.0.0.1:{server.port}/ws/leaderboards/daily/wrap-closed/"
    origin = {"Origin": server.url}
    game = start(server, token)
    stack.stop_redis()

    chooser = random.Random(5)
    slowest = 0.0
    for _ in range(8):
        status, game, _, took = send(server, token, game, **choose(game, chooser))
        assert status == 200, game
        slowest = max(slowest, took)
    status, game, _, took = send(server, token, game, action="resign")  # a result, a board line
    assert status == 200 and game["status"] == "lost", game
    rank = game["result"]["board"]["rank"]  # counted in PostgreSQL without the cache
    assert rank >= 1
    status, another, _, _ = request("POST", f"{server.url}/api/games", {"mode": "daily"}, token)
    assert status == 201, another
    # The game-over rank is the best-run board's; the first try's is told on its own.
    first_rank = game["result"]["first_try"]["rank"]
    status, board, _, _ = request(
        "GET", f"{server.url}/api/leaderboards/daily?board=best", token=token
    )
    assert status == 200 and board["me"]["rank"] == rank
    status, board, _, _ = request("GET", f"{server.url}/api/leaderboards/daily", token=token)
    assert status == 200 and board["me"]["rank"] == first_rank

    status, health, _, _ = request("GET", f"{server.url}/api/health")
    assert status == 503 and health["redis"]["ok"] is False and health["redis"]["failing"]
    assert health["database"]["ok"] is True
    with (
        pytest.raises(Exception),  # noqa: B017 - the live board cannot be served: refused or closed
        connect(ws_url, additional_headers=origin, open_timeout=10) as socket,
    ):
        socket.recv(timeout=5)

    stack.start_redis()
    status, health, _, _ = wait_until(
        lambda: (r := request("GET", f"{server.url}/api/health"))[0] == 200 and r, 15, "health"
    )
    assert health["redis"]["ok"] is True
    with connect(ws_url, additional_headers=origin, open_timeout=10) as socket:
        live = json.loads(socket.recv(timeout=5))
    assert live["type"] == "board"
    assert "nored0" in {line["player"]["username"] for line in live["lines"]}
    assert slowest < 3, f"a move took {slowest:.1f} s with Redis down"
    assert_consistent(stack)
    print(f"Redis down: slowest REST move {slowest * 1000:.0f} ms")
