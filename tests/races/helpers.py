"""Race test helpers: the API as each player, the race socket, waiting for a frame."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from channels.testing import WebsocketCommunicator
from django.db import connection, transaction
from rest_framework.test import APIClient

from tests.play.helpers import client_for, solution
from tripeaks.races import clock
from tripeaks.races.models import Race, State

# Everything a race tells (an allow-list: a new field must be added here on purpose). No card,
# no position, no move list: a player's progress is counts.
RACE_KEYS = {
    "id",
    "code",
    "state",
    "host",
    "seats",
    "rules",
    "layout",
    "public",
    "matched",
    "countdown_s",
    "cap_s",
    "absent_s",
    "starts_at",
    "ends_at",
    "finished_at",
    "created_at",
    "server_time",
    "version",
    "rematch_of",
    "rematch",
    "players",
    "game",
}
PLAYER_KEYS = {
    "username",
    "name",
    "status",
    "cards_left",
    "stock_left",
    "streak",
    "moves",
    "time_ms",
    "seq",
    "place",
    "rating",
    "claimable",
    "claimable_in_s",
    "game",  # None until the race is over (checked in `leaks`)
}
RULES_KEYS = {"key", "wrap", "open", "start"}
# A progress frame's player: counts, the move's seq, and the server's clock when it was stored.
PROGRESS_KEYS = {
    "username",
    "status",
    "cards_left",
    "stock_left",
    "streak",
    "moves",
    "time_ms",
    "seq",
    "stored_at",
}


def api(user: Any) -> APIClient:
    return client_for(user)


def open_race(host: Any, **body: Any) -> dict[str, Any]:
    response = api(host).post("/api/races", {"seats": 2, **body}, format="json")
    assert response.status_code == 201, response.content
    return response.json()


def join(user: Any, race: dict[str, Any], **body: Any) -> Any:
    return api(user).post(f"/api/races/{race['id']}/join", body, format="json")


def begun(race_id: str) -> Race:
    """The race once its countdown is over (a read after `starts_at` begins it)."""
    race = Race.objects.get(pk=race_id)
    assert race.starts_at is not None
    deadline = time.monotonic() + 10
    while not clock.advance_race_clock(race_id=race_id):
        race.refresh_from_db()
        if race.state != State.COUNTDOWN or time.monotonic() > deadline:
            break
        time.sleep(0.02)  # the countdown is the clock under test: waiting it out is the point
    race.refresh_from_db()
    assert race.state == State.RUNNING
    return race


def race_socket(user: Any, race_id: str, query: str = "") -> WebsocketCommunicator:
    from tripeaks.config.asgi import application

    communicator = WebsocketCommunicator(
        application, f"/ws/races/{race_id}/{query}", headers=[(b"origin", b"http://localhost")]
    )
    communicator.scope["user"] = user
    return communicator


async def until(
    socket: WebsocketCommunicator, test: Callable[[dict[str, Any]], bool], limit: int = 200
) -> dict[str, Any]:
    """The first race that passes `test` (each frame waited for, none skipped blindly), as the
    page holds it: the last race frame with the progress frames since applied to it. Every
    progress frame is checked against the allow-list on the way."""
    last: dict[str, Any] | None = getattr(socket, "race", None)
    for _ in range(limit):
        try:
            frame = await socket.receive_json_from()
        except TimeoutError:
            raise AssertionError(f"no such frame came; the last one: {last}") from None
        if frame["type"] == "progress":
            assert last is not None, "progress before the race"
            assert set(frame) == {"type", "version", "player"}, frame
            assert set(frame["player"]) == PROGRESS_KEYS, frame
            assert frame["version"] == last["version"], (frame, last["version"])
            line = player(last, frame["player"]["username"])
            assert frame["player"]["seq"] > line["seq"], (frame, line)
            line.update({k: v for k, v in frame["player"].items() if k != "stored_at"})
        else:
            assert frame["type"] == "race", frame
            last = frame["race"]
        socket.race = last  # type: ignore[attr-defined]
        assert last is not None
        if test(last):
            return last
    raise AssertionError(f"no such frame came; the last one: {last}")


def player(race: dict[str, Any], username: str) -> dict[str, Any]:
    return next(p for p in race["players"] if p["username"] == username)


def winning_line(race_id: str) -> list[dict[str, Any]]:
    race = Race.objects.select_related("deal").get(pk=race_id)
    assert race.deal is not None
    return solution(race.deal)


def leaks(race: dict[str, Any]) -> list[str]:
    """Fields of a race payload beyond the allow-list (and values that are not plain counts)."""
    found = [f"race.{key}" for key in set(race) - RACE_KEYS]
    found += [f"rules.{key}" for key in set(race["rules"]) - RULES_KEYS]
    for line in race["players"]:
        found += [f"player.{key}" for key in set(line) - PLAYER_KEYS]
        found += [
            f"player.{key}"
            for key in ("cards_left", "stock_left", "streak", "moves", "time_ms", "seq", "place")
            if line[key] is not None and type(line[key]) is not int
        ]
        if race["state"] != "finished" and line.get("game") is not None:
            found.append("player.game before the race is over")
    return found


@contextmanager
def race_row_held(race_id: str) -> Iterator[None]:
    """Another transaction holds the race's row lock (`SELECT ... FOR UPDATE`) in the block."""
    holding, release = threading.Event(), threading.Event()

    def hold() -> None:
        try:
            with transaction.atomic():
                Race.objects.select_for_update().get(pk=race_id)
                holding.set()
                release.wait(10)
        finally:
            connection.close()

    holder = threading.Thread(target=hold)
    holder.start()
    try:
        assert holding.wait(10)
        yield
    finally:
        release.set()
        holder.join()
