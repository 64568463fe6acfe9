"""Watching a race: anyone signed in may follow a public race live from the lobby, and sees its
progress only. Played as an attacker would: every frame and answer a watcher gets is searched for
a card of the deal (every racer has the same deal: one card shown to a watcher is shown to every
racer's friend), and the racers' games stay closed to them."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest
from channels.db import database_sync_to_async as db

from tests.play.helpers import client_for, connect
from tests.races.helpers import api, begun, join, leaks, open_race, player, race_socket, until
from tripeaks.infra import redis_client
from tripeaks.races import presence
from tripeaks.races.models import Race

pytestmark = [pytest.mark.django_db(transaction=True)]


def deal_cards(race_id: str) -> set[str]:
    """Every card token of the race's deal ("7H", "TS", ...)."""
    race = Race.objects.select_related("deal").get(pk=race_id)
    assert race.deal is not None
    return set(race.deal.code.split())


def card_values(found: Any, cards: set[str], path: str = "") -> list[str]:
    """Where in a JSON value a card of the deal stands as a string (any key, any depth)."""
    if isinstance(found, dict):
        return [
            hit
            for key, value in found.items()
            for hit in card_values(value, cards, f"{path}.{key}")
        ]
    if isinstance(found, list):
        return [
            hit
            for i, value in enumerate(found)
            for hit in card_values(value, cards, f"{path}[{i}]")
        ]
    return [path] if isinstance(found, str) and found.upper() in cards else []


def running_race(make_player: Any, *, public: bool = True) -> tuple[dict[str, Any], Any, Any]:
    ann, bob = make_player("ann"), make_player("bob")
    race = open_race(ann, public=public)
    assert join(bob, race, **({} if public else {"code": race["code"]})).status_code == 200
    begun(race["id"])
    return race, ann, bob


def test_the_lobby_lists_public_races_to_watch_and_no_card(make_player: Any) -> None:
    race, ann, _ = running_race(make_player)
    running_race(lambda name: make_player(f"{name}2"), public=False)  # never listed
    carol = make_player("carol")
    answer = api(carol).get("/api/races?state=live")
    assert answer.status_code == 200
    listed = answer.json()["races"]
    assert [r["id"] for r in listed] == [race["id"]]
    assert listed[0]["state"] == "running" and listed[0]["game"] is None
    assert leaks(listed[0]) == [] and card_values(listed[0], deal_cards(race["id"])) == []
    # The open lobby is unchanged, and a state it does not know is a clear 400.
    assert api(carol).get("/api/races?state=open").json()["races"] == []
    refused = api(carol).get("/api/races?state=running")
    assert refused.status_code == 400 and refused.json()["code"] == "invalid"


def test_a_watcher_reads_a_race_with_no_game_and_no_card_and_cannot_open_a_racers_game(
    make_player: Any,
) -> None:
    race, ann, _ = running_race(make_player)
    carol = make_player("carol")
    seen = api(carol).get(f"/api/races/{race['id']}")
    assert seen.status_code == 200
    body = seen.json()
    assert body["game"] is None and leaks(body) == []
    assert card_values(body, deal_cards(race["id"])) == []
    # The racers' game ids are never shown; guessed or learnt, their games stay closed.
    ann_game = api(ann).get(f"/api/races/{race['id']}").json()["game"]
    assert ann_game
    assert client_for(carol).get(f"/api/games/{ann_game}").status_code == 404
    moved = client_for(carol).post(
        f"/api/games/{ann_game}/moves", {"seq": 0, "action": "draw"}, format="json"
    )
    assert moved.status_code == 404


@pytest.mark.asyncio
async def test_a_watchers_socket_hears_every_move_as_counts_and_never_a_card(
    make_player: Any,
) -> None:
    race, ann, bob = await db(running_race)(make_player)
    carol = await db(make_player)("carol")
    cards = await db(deal_cards)(race["id"])
    watcher = race_socket(carol, race["id"])
    assert (await watcher.connect())[0]
    frames: list[dict[str, Any]] = []
    receive = watcher.receive_json_from

    async def kept(timeout: float = 1) -> Any:
        frame = await receive(timeout)
        frames.append(frame)
        return frame

    watcher.receive_json_from = kept  # type: ignore[method-assign]
    first = await until(watcher, lambda r: r["state"] == "running")
    assert first["game"] is None

    # Ann and Bob each play on their game sockets; the watcher hears both as counts.
    ann_game = await db(lambda: api(ann).get(f"/api/races/{race['id']}").json()["game"])()
    bob_game = await db(lambda: api(bob).get(f"/api/races/{race['id']}").json()["game"])()
    for user, game in ((ann, ann_game), (bob, bob_game)):
        socket = await connect(user, game)
        assert (await socket.connect())[0]
        view = (await socket.receive_json_from())["game"]
        await socket.send_json_to({"seq": view["seq"], "action": "draw"})
        assert (await socket.receive_json_from())["type"] == "view"
        await socket.disconnect()
    both = await until(
        watcher, lambda r: player(r, "ann")["moves"] == 1 and player(r, "bob")["moves"] == 1
    )
    assert leaks(both) == [] and both["game"] is None
    # A sync reads the race again: still no game and no card.
    await watcher.send_json_to({"type": "sync"})
    await until(watcher, lambda r: True)
    assert any(frame["type"] == "progress" for frame in frames)
    assert [card_values(frame, cards) for frame in frames] == [[] for _ in frames]
    assert all(frame.get("race", {}).get("game") is None for frame in frames)
    await watcher.disconnect()


def noted(race_id: str) -> dict[str, float]:
    """The race's presence set as Redis holds it: user id -> when last noted (ms)."""
    members = redis_client.client().zrange(presence._key(race_id), 0, -1, withscores=True)
    return {member.decode(): score for member, score in members}


@pytest.mark.asyncio
async def test_a_watcher_never_counts_as_a_racers_presence_nor_blocks_a_claim(
    make_player: Any, settings: Any
) -> None:
    """A watcher's race socket, open all along, notes nobody: the presence set holds the racers
    whose race socket is open and no one else, and a racer gone for the absence is claimed
    against while the watcher watches (before: every socket's user was noted, a watcher too)."""
    settings.RACE_ABSENT_S = 0.6  # noted every 0.2 s
    race, ann, bob = await db(running_race)(make_player)
    carol = await db(make_player)("carol")
    watcher, racer = race_socket(carol, race["id"]), race_socket(ann, race["id"])
    for socket in (watcher, racer):
        assert (await socket.connect())[0]
        await until(socket, lambda r: r["state"] == "running")
    first = await wait_for(lambda: noted(race["id"]).get(str(ann.pk)))
    # Ann's socket notes her again and again; the watcher's, opened first, has had as long.
    await wait_for(lambda: (noted(race["id"]).get(str(ann.pk)) or 0) > first + 400)
    assert set(await db(noted)(race["id"])) == {str(ann.pk)}
    # Bob's only sign is the race's start: the claim waits until the race has run the absence
    # (on a quick machine the lines above take less than that), while the watcher stays open.
    await wait_for(
        lambda: player(api(ann).get(f"/api/races/{race['id']}").json(), "bob")["claimable"]
    )

    claimed = await db(api(ann).post)(
        f"/api/races/{race['id']}/claim", {"player": "bob"}, format="json"
    )
    assert claimed.status_code == 200, claimed.content
    await watcher.disconnect()
    assert str(carol.pk) not in await db(noted)(race["id"])  # nor once it closes
    await racer.disconnect()


@pytest.mark.asyncio
async def test_a_servers_racers_are_noted_together_in_one_round_trip(
    make_player: Any, settings: Any
) -> None:
    """The race sockets of one server note their racers together (`races/racers_here.py`): one
    Redis round trip for all of them every `presence.every_s()`, so the two racers' marks come
    out the same instant. (Before: a timer and a worker thread's round trip a socket, 5 % of a
    race server's CPU at 1 move a second; the marks differed by the sockets' opening times.)"""
    settings.RACE_ABSENT_S = 0.6  # noted every 0.2 s
    race, ann, bob = await db(running_race)(make_player)
    sockets = [race_socket(ann, race["id"]), race_socket(bob, race["id"])]
    for socket in sockets:
        assert (await socket.connect())[0]
        await until(socket, lambda r: r["state"] == "running")
        await asyncio.sleep(0.05)  # the second socket opens well after the first
    both = {str(ann.pk), str(bob.pk)}
    marks = await wait_for(lambda: (m := noted(race["id"])) and set(m) == both and m)
    # Noted again together: one mark for both, later than the openings' own.
    together = await wait_for(
        lambda: (
            (m := noted(race["id"]))
            and len(set(m.values())) == 1
            and min(m.values()) > max(marks.values())
            and m
        )
    )
    assert set(together) == both
    for socket in sockets:
        await socket.disconnect()


async def wait_for(read: Any, limit_s: float = 10) -> Any:
    """`read()` (a sync read, in a thread) once it is truthy: the presence set changes on the
    sockets' own timers, which the test cannot await."""
    deadline = time.monotonic() + limit_s
    while time.monotonic() < deadline:
        found = await db(read)()
        if found:
            return found
        await asyncio.sleep(0.05)
    raise AssertionError("the presence set never changed so")
