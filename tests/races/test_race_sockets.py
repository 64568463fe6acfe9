"""Races over real sockets on the Redis channel layer: one deal for all at one instant, progress
told to the others (never a card), a finish, the time cap, leaving, reconnecting, rematch."""

from __future__ import annotations

import asyncio
import secrets
import threading
import time
from datetime import timedelta
from typing import Any

import orjson
import pytest
import redis.asyncio
from channels.db import database_sync_to_async as db
from django.utils import timezone

from tests.play.helpers import client_for, connect
from tests.races.helpers import (
    api,
    begun,
    join,
    leaks,
    open_race,
    player,
    race_socket,
    until,
    winning_line,
)
from tripeaks.infra import contest_feed
from tripeaks.play.models import Game
from tripeaks.races import consumers
from tripeaks.races.models import Race, Seat
from tripeaks.races.selectors import race_event

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


def game_view(user: Any, game_id: str) -> dict[str, Any]:
    response = client_for(user).get(f"/api/games/{game_id}")
    assert response.status_code == 200, response.content
    return response.json()


def rest_move(user: Any, game_id: str, seq: int, move: dict[str, Any]) -> dict[str, Any]:
    response = client_for(user).post(
        f"/api/games/{game_id}/moves", {"seq": seq, **move}, format="json"
    )
    assert response.status_code == 200, response.content
    return response.json()


def games_all_ended(race_id: str) -> bool:
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        games = Game.objects.filter(contest=f"race-{race_id}")
        if not games.filter(finished_at__isnull=True).exists():
            return games.exists()
        time.sleep(0.05)  # polling the database: the event under test is the resignation itself
    return False


def play_line(user: Any, game_id: str, line: list[dict[str, Any]]) -> dict[str, Any]:
    view = game_view(user, game_id)
    for move in line:
        view = rest_move(user, game_id, view["seq"], move)
    return view


async def test_two_players_race_one_deal_to_a_finish(make_player: Any) -> None:
    ann, bob = await db(make_player)("ann"), await db(make_player)("bob")
    race = await db(open_race)(ann)
    ann_socket = race_socket(ann, race["id"])
    assert (await ann_socket.connect())[0]
    assert (await until(ann_socket, lambda r: True))["state"] == "open"

    assert (await db(join)(bob, race)).status_code == 200  # the last seat: the countdown begins
    bob_socket = race_socket(bob, race["id"])
    assert (await bob_socket.connect())[0]
    counting = await until(ann_socket, lambda r: r["state"] == "countdown")
    assert counting["starts_at"] and counting["game"] is None
    # Nobody's cards exist before the start instant.
    assert await db(Game.objects.filter(contest=f"race-{race['id']}").count)() == 0

    running = await until(ann_socket, lambda r: r["state"] == "running")
    bob_running = await until(bob_socket, lambda r: r["state"] == "running")
    assert running["game"] and bob_running["game"] and running["game"] != bob_running["game"]
    ann_view = await db(game_view)(ann, running["game"])
    bob_view = await db(game_view)(bob, bob_running["game"])
    assert ann_view["positions"] == bob_view["positions"] and ann_view["waste"] == bob_view["waste"]
    games = await db(lambda: list(Game.objects.filter(contest=f"race-{race['id']}")))()
    assert len({game.deal_id for game in games}) == 1
    starts_at = await db(lambda: Race.objects.get(pk=race["id"]).starts_at)()
    assert all(game.created_at >= starts_at for game in games)

    # Bob draws on his game socket: Ann's race socket hears his progress, and no card of it.
    bob_game = await connect(bob, bob_running["game"])
    assert (await bob_game.connect())[0]
    await bob_game.receive_json_from()
    await bob_game.send_json_to({"seq": 0, "action": "draw"})
    assert (await bob_game.receive_json_from())["type"] == "view"
    seen = await until(ann_socket, lambda r: player(r, "bob")["moves"] == 1)
    assert player(seen, "bob")["stock_left"] == bob_view["stock_left"] - 1
    assert player(seen, "bob")["status"] == "playing" and leaks(seen) == []

    # Ann plays the deal's winning line: the first to clear wins, and the race is over.
    line = await db(winning_line)(race["id"])
    await db(play_line)(ann, running["game"], line)
    done = await until(bob_socket, lambda r: r["state"] == "finished")
    assert [p["username"] for p in done["players"]] == ["ann", "bob"]
    assert player(done, "ann")["place"] == 1 and player(done, "ann")["status"] == "won"
    assert player(done, "bob")["place"] == 2 and player(done, "bob")["status"] == "finished"
    assert player(done, "ann")["cards_left"] == 0 and player(done, "bob")["cards_left"] > 0
    # Rated inside the finishing transaction (tripeaks.ratings): the winner up, the other down.
    assert player(done, "ann")["rating"]["change"] > 0 > player(done, "bob")["rating"]["change"]
    assert player(done, "ann")["rating"]["before"] == 1500
    # Bob's game was ended with the race (resigned after the commit, in play's locked path).
    bob_game_row = await db(Game.objects.get)(pk=bob_running["game"])
    assert bob_game_row.finished_at is not None
    await bob_game.disconnect()
    await ann_socket.disconnect()
    await bob_socket.disconnect()


async def test_four_players_race_and_every_one_sees_the_others(make_player: Any) -> None:
    names = ["p1", "p2", "p3", "p4"]
    users = [await db(make_player)(name) for name in names]
    race = await db(open_race)(users[0], seats=4)
    sockets = []
    for user in users[1:]:
        assert (await db(join)(user, race)).status_code == 200
    for user in users:
        socket = race_socket(user, race["id"])
        assert (await socket.connect())[0]
        sockets.append(socket)
    frames = [await until(socket, lambda r: r["state"] == "running") for socket in sockets]
    views = [
        await db(game_view)(user, frame["game"]) for user, frame in zip(users, frames, strict=True)
    ]
    assert all(view["positions"] == views[0]["positions"] for view in views)

    # p2, p3 and p4 each draw; every socket sees every other one of them move (a mover's own
    # socket hears none of its moves).
    for user, frame in zip(users[1:], frames[1:], strict=True):
        await db(rest_move)(user, frame["game"], 0, {"action": "draw"})
    for me, socket in zip(names, sockets, strict=True):
        others = [name for name in names[1:] if name != me]
        seen = await until(socket, lambda r, o=others: all(player(r, n)["moves"] == 1 for n in o))
        assert leaks(seen) == []
    # p4 resigns (through the game): still a race of three.
    await db(rest_move)(users[3], frames[3]["game"], 1, {"action": "resign"})
    resigned = await until(sockets[0], lambda r: player(r, "p4")["status"] == "resigned")
    assert resigned["state"] == "running"

    await db(play_line)(users[0], frames[0]["game"], await db(winning_line)(race["id"]))
    done = await until(sockets[1], lambda r: r["state"] == "finished")
    places = {p["username"]: p["place"] for p in done["players"]}
    assert places["p1"] == 1 and places["p4"] == 4
    # p2 and p3 stand equal on cards left; the one who got there first ranks first.
    assert {places["p2"], places["p3"]} <= {2, 3}
    for socket in sockets:
        await socket.disconnect()


class CountedEncoder:
    """`orjson` as the race sockets see it, counting the progress frames they encode."""

    def __init__(self) -> None:
        self.progress = 0
        self.loads = orjson.loads

    def dumps(self, value: Any) -> bytes:
        if isinstance(value, dict) and value.get("type") == "progress":
            self.progress += 1
        return orjson.dumps(value)


async def test_a_moves_progress_is_encoded_once_for_all_the_races_sockets_on_a_server(
    make_player: Any, monkeypatch: Any
) -> None:
    """Every socket of a race on one server hears a move's news (the same dict, off the feed)
    and sends the same frame: it is made once, not once a socket (issue #37: a race move's
    cost against a solo move's)."""
    names = ["q1", "q2", "q3", "q4"]
    users = [await db(make_player)(name) for name in names]
    race = await db(open_race)(users[0], seats=4)
    for user in users[1:]:
        assert (await db(join)(user, race)).status_code == 200
    sockets = [race_socket(user, race["id"]) for user in users]
    for socket in sockets:
        assert (await socket.connect())[0]
    frames = [await until(socket, lambda r: r["state"] == "running") for socket in sockets]
    encoder = CountedEncoder()
    monkeypatch.setattr(consumers, "orjson", encoder)

    await db(rest_move)(users[1], frames[1]["game"], 0, {"action": "draw"})
    heard = []
    for socket in sockets[:1] + sockets[2:]:  # the mover's own socket hears none of its moves
        frame = await socket.receive_json_from()
        while frame["type"] != "progress":  # (a change of the race may come first)
            frame = await socket.receive_json_from()
        heard.append(frame)
    assert all(frame == heard[0] for frame in heard)
    assert heard[0]["player"]["username"] == "q2" and heard[0]["player"]["seq"] == 1
    assert encoder.progress == 1
    for socket in sockets:
        await socket.disconnect()


async def test_the_movers_own_race_socket_hears_no_progress_of_its_moves(
    make_player: Any,
) -> None:
    """A move's progress goes to the others' race sockets, not the mover's: its page shows only
    the others (issue #37: one frame of four a move in a race of four)."""
    ann, bob = await db(make_player)("o1"), await db(make_player)("o2")
    race = await db(open_race)(ann)
    assert (await db(join)(bob, race)).status_code == 200
    ann_socket, bob_socket = race_socket(ann, race["id"]), race_socket(bob, race["id"])
    assert (await ann_socket.connect())[0] and (await bob_socket.connect())[0]
    ann_game = (await until(ann_socket, lambda r: r["state"] == "running"))["game"]
    bob_game = (await until(bob_socket, lambda r: r["state"] == "running"))["game"]

    # Bob moves, then Ann: the feed keeps their order, so the first progress Bob's socket hears
    # is Ann's move, and Ann's hears Bob's.
    await db(rest_move)(bob, bob_game, 0, {"action": "draw"})
    await db(rest_move)(ann, ann_game, 0, {"action": "draw"})
    for socket, other in ((bob_socket, "o1"), (ann_socket, "o2")):
        frame = await socket.receive_json_from()
        while frame["type"] != "progress":  # (a change of the race may come first)
            frame = await socket.receive_json_from()
        assert frame["player"]["username"] == other and frame["player"]["seq"] == 1
    await ann_socket.disconnect()
    await bob_socket.disconnect()


async def test_a_race_sockets_frames_go_to_the_server_without_reading_the_session(
    make_player: Any, monkeypatch: Any
) -> None:
    """A socket's frames go to the server as they are: channels' session wrapper saves the
    session only on `http.response.start`, which a socket never sends, yet it read the session
    twice on every frame it passed on (1.7 % of a race server's CPU on progress frames alone,
    issue #37). Counted on the real wrapper, through the whole socket stack."""
    from channels.sessions import InstanceSessionWrapper

    passed: list[str] = []
    real = InstanceSessionWrapper.send

    async def send(self: Any, message: dict[str, Any]) -> None:
        passed.append(message["type"])
        await real(self, message)

    monkeypatch.setattr(InstanceSessionWrapper, "send", send)
    ann, bob = await db(make_player)("w1"), await db(make_player)("w2")
    race = await db(open_race)(ann)
    assert (await db(join)(bob, race)).status_code == 200
    socket = race_socket(ann, race["id"])
    assert (await socket.connect())[0]
    await until(socket, lambda r: r["state"] == "running")
    bob_game = await db(lambda: Seat.objects.get(race_id=race["id"], user=bob).game_id)()
    await db(rest_move)(bob, str(bob_game), 0, {"action": "draw"})
    progress = await socket.receive_json_from()
    while progress["type"] != "progress":  # (a change of the race may come first)
        progress = await socket.receive_json_from()
    assert progress["player"]["username"] == "w2" and progress["player"]["seq"] == 1
    assert passed == []
    await socket.disconnect()


async def test_the_time_cap_ends_the_race_by_cards_left_then_time(
    make_player: Any, settings: Any
) -> None:
    ann, bob = await db(make_player)("ann"), await db(make_player)("bob")
    race = await db(open_race)(ann, cap_s=2)
    await db(join)(bob, race)
    socket = race_socket(ann, race["id"])
    assert (await socket.connect())[0]
    running = await until(socket, lambda r: r["state"] == "running")
    assert running["cap_s"] == 2
    bob_game = await db(lambda: Seat.objects.get(race_id=race["id"], user=bob).game_id)()
    line = await db(winning_line)(race["id"])
    # Bob plays the first plays of the winning line: fewer cards left than Ann when the cap comes.
    plays = list(line[:6])
    await db(play_line)(bob, str(bob_game), plays)
    # No move more: the server's clock (the socket's timer at ends_at) ends the race.
    done = await until(socket, lambda r: r["state"] == "finished")
    assert player(done, "bob")["place"] == 1 and player(done, "ann")["place"] == 2
    assert player(done, "bob")["status"] == "finished"
    assert player(done, "bob")["cards_left"] < player(done, "ann")["cards_left"]
    # The games still open are resigned after the race's commit (a task), which may come after
    # the finished race reached the socket.
    assert await db(games_all_ended)(race["id"])
    await socket.disconnect()


async def test_a_socket_opened_after_the_cap_shows_the_race_then_its_timer_ends_it(
    make_player: Any,
) -> None:
    """No worker ran at the cap, no socket was open: the socket that opens reads the race as
    stored (still running: a read never moves the clock) and its timer, due at once, ends it."""
    ann, bob = await db(make_player)("ann"), await db(make_player)("bob")
    race = await db(open_race)(ann, cap_s=1)
    await db(join)(bob, race)
    await db(begun)(race["id"])
    past = timezone.now() - timedelta(seconds=1)
    await db(Race.objects.filter(pk=race["id"]).update)(ends_at=past)
    socket = race_socket(bob, race["id"])
    assert (await socket.connect())[0]
    opened = await socket.receive_json_from()
    assert opened["type"] == "race" and opened["race"]["state"] == "running"
    body = await until(socket, lambda r: r["state"] == "finished")
    assert {p["place"] for p in body["players"]} == {1}  # equal cards left, no moves: a tie
    await socket.disconnect()


async def test_leave_and_reconnect(make_player: Any) -> None:
    ann, bob, cat = [await db(make_player)(name) for name in ("ann", "bob", "cat")]
    race = await db(open_race)(ann, seats=3)
    await db(join)(bob, race)
    await db(join)(cat, race)
    socket = race_socket(ann, race["id"])
    assert (await socket.connect())[0]
    await until(socket, lambda r: r["state"] == "running")
    # Ann's page reloads: a new socket gets the race as it stands, her game included.
    await socket.disconnect()
    socket = race_socket(ann, race["id"])
    assert (await socket.connect())[0]
    again = await until(socket, lambda r: True)
    assert again["state"] == "running" and again["game"]
    # Cat leaves the running race: her game is resigned, she is placed last; she cannot rejoin.
    response = await db(api(cat).post)(f"/api/races/{race['id']}/leave")
    assert response.status_code == 200, response.content
    left = await until(socket, lambda r: player(r, "cat")["status"] == "left")
    assert left["state"] == "running"
    cat_game = await db(lambda: Seat.objects.get(race_id=race["id"], user=cat).game)()
    assert cat_game is not None and cat_game.finished_at is not None
    rejoin = await db(join)(cat, race)
    assert rejoin.status_code == 409 and rejoin.json()["code"] == "not_open"
    # Bob leaves too: Ann is the one left playing, and wins at once; Cat, who left first, is last.
    await db(api(bob).post)(f"/api/races/{race['id']}/leave")
    done = await until(socket, lambda r: r["state"] == "finished")
    places = {p["username"]: (p["place"], p["status"]) for p in done["players"]}
    assert places == {"ann": (1, "finished"), "bob": (2, "left"), "cat": (3, "left")}
    await socket.disconnect()


async def test_a_sync_reads_the_race_again(make_player: Any) -> None:
    ann = await db(make_player)("ann")
    race = await db(open_race)(ann)
    socket = race_socket(ann, race["id"])
    assert (await socket.connect())[0]
    first = await until(socket, lambda r: True)
    await socket.send_json_to({"type": "sync"})
    again = await until(socket, lambda r: True)
    assert again["version"] == first["version"] and again["id"] == race["id"]
    await socket.send_json_to({"type": "move", "seq": 0})
    assert (await socket.receive_json_from())["type"] == "error"
    await socket.disconnect()


async def test_rematch_with_the_same_seats(make_player: Any) -> None:
    ann, bob = await db(make_player)("ann"), await db(make_player)("bob")
    race = await db(open_race)(ann, public=False)
    assert (await db(join)(bob, race, code=race["code"])).status_code == 200
    socket = race_socket(ann, race["id"])
    assert (await socket.connect())[0]
    running = await until(socket, lambda r: r["state"] == "running")
    await db(rest_move)(ann, running["game"], 0, {"action": "resign"})  # Bob wins at once
    await until(socket, lambda r: r["state"] == "finished")

    first = await db(api(bob).post)(f"/api/races/{race['id']}/rematch")
    assert first.status_code == 200, first.content
    rematch = first.json()
    assert rematch["rematch_of"] == race["id"] and rematch["state"] == "open"
    assert rematch["public"] is False and rematch["seats"] == 2
    told = await until(socket, lambda r: r["rematch"] == rematch["id"])
    assert told["state"] == "finished"
    # Ann needs no code: she played the race it is a rematch of. Both in: it counts down.
    second = await db(api(ann).post)(f"/api/races/{race['id']}/rematch")
    assert second.status_code == 200 and second.json()["id"] == rematch["id"]
    assert second.json()["state"] == "countdown"
    # A stranger cannot join it without its code.
    eve = await db(make_player)("eve")
    assert (await db(join)(eve, {"id": rematch["id"]})).status_code == 404
    await socket.disconnect()


async def test_a_flood_of_syncs_is_throttled_then_closed(make_player: Any, settings: Any) -> None:
    settings.PLAY_THROTTLE_RATES = {**settings.PLAY_THROTTLE_RATES, "board_address": "3/min"}
    ann = await db(make_player)("ann")
    race = await db(open_race)(ann)
    socket = race_socket(ann, race["id"])
    # An address of its own: the counters outlive the test for the rest of their minute.
    socket.scope["client"] = [f"10.{secrets.randbelow(250)}.{secrets.randbelow(250)}.9", 4000]
    assert (await socket.connect())[0]
    await until(socket, lambda r: True)
    frames = 0
    while True:  # a window that turned over meanwhile lets a few more through
        await socket.send_json_to({"type": "sync"})
        frames += 1
        reply = await socket.receive_json_from()
        if reply["type"] == "error":
            break
        assert reply["type"] == "race" and frames <= 6
    assert reply["code"] == "throttled" and 1 <= reply["retry_after"] <= 60
    for _ in range(consumers.MAX_THROTTLED_IN_A_ROW - 1):
        await socket.send_json_to({"type": "sync"})
        assert (await socket.receive_json_from())["code"] == "throttled"
    await socket.send_json_to({"type": "sync"})
    closed = await socket.receive_output(timeout=3)
    assert closed == {"type": "websocket.close", "code": consumers.CLOSE_FLOOD}
    await socket.disconnect()


async def test_a_change_heard_while_the_socket_opens_is_shown_once_it_is_open(
    make_player: Any, settings: Any, monkeypatch: Any
) -> None:
    """The socket listens to the race's feed before it reads the race, so that no change is
    lost; a change that comes before the accept waits for it (nothing may be sent earlier), and
    a newer one than the read is not dropped. At 1,000 racers the start of a race came while its
    sockets opened: they showed nothing, and the players never started."""
    settings.RACE_COUNTDOWN_S = 0
    ann, bob = await db(make_player)("ann"), await db(make_player)("bob")
    race = await db(open_race)(ann)
    await db(join)(bob, race)  # the last seat: the race begins (the worker's task runs eagerly)
    # The opening socket's read waits for the test (it took a while at 1,000 racers).
    reading, release = threading.Event(), threading.Event()
    read = consumers._read

    def held_read(*args: Any) -> Any:
        reading.set()
        release.wait(10)
        return read(*args)

    monkeypatch.setattr(consumers, "_read", held_read)
    socket = race_socket(ann, race["id"])
    opening = asyncio.ensure_future(socket.connect())
    channel = contest_feed.channel_of(f"race-{race['id']}")
    feed = redis.asyncio.Redis.from_url(settings.REDIS_URL)
    while not dict(await feed.pubsub_numsub(channel)).get(channel.encode()):
        await asyncio.sleep(0.01)  # until the opening socket listens to the feed
    await feed.aclose()
    newer = await db(race_event)(race["id"])
    assert newer is not None
    newer["race"]["version"] += 5  # as if more changes had come meanwhile
    await db(contest_feed.publish_sync)(f"race-{race['id']}", newer)
    await asyncio.sleep(0.3)  # for the feed to hand it to the opening socket
    assert reading.is_set()
    release.set()
    assert (await opening)[0]
    read_frame = await socket.receive_json_from()
    assert read_frame["type"] == "race" and read_frame["race"]["state"] == "running"
    early = await socket.receive_json_from()
    assert early["type"] == "race" and early["race"]["version"] == newer["race"]["version"]
    await socket.disconnect()
