"""Everybody in a live contest (a race, an arena) has the same deal, so nobody may go back: undo
and start again are refused on every path (REST, the game socket's copy and its locked path)
and change nothing. Before, a racer could draw the whole stock, start again and play it known.
"""

from __future__ import annotations

from typing import Any

import pytest
from channels.db import database_sync_to_async as db

from tests.arenas.helpers import join as join_arena
from tests.arenas.helpers import running_arena
from tests.arenas.helpers import start as start_arena_game
from tests.play.contests import begun_race, game_of
from tests.play.helpers import client_for, connect, move
from tripeaks.play.models import Game, Move

GOING_BACK = ("undo", "restart")


@pytest.fixture(autouse=True)
def _pool(a_proven_deal_ready: None) -> None:
    """Races and arenas deal from the pool (tests/conftest.py)."""


def stored(game_id: Any) -> dict[str, Any]:
    """Everything stored of a game: its row and its move log."""
    row = Game.objects.filter(pk=game_id).values().get()
    return {**row, "log": list(Move.objects.filter(game_id=game_id).values_list("seq", "action"))}


def race_game(make_player: Any, settings: Any) -> tuple[Any, dict[str, Any]]:
    ann, bob = make_player("ann"), make_player("bob")
    game = game_of(begun_race(ann, bob, settings), ann)
    return ann, client_for(ann).get(f"/api/games/{game.pk}").json()


def arena_game(make_player: Any) -> tuple[Any, dict[str, Any]]:
    player = make_player("ann")
    api, arena = client_for(player), running_arena()
    assert join_arena(api, arena).status_code == 200
    return player, start_arena_game(api, arena)


@pytest.mark.django_db
@pytest.mark.parametrize("contest", ["race", "arena"])
@pytest.mark.parametrize("action", GOING_BACK)
def test_undo_and_start_again_are_refused_in_a_contest_over_rest(
    make_player: Any, settings: Any, contest: str, action: str
) -> None:
    player, view = (
        race_game(make_player, settings) if contest == "race" else arena_game(make_player)
    )
    api = client_for(player)
    assert view["contest"] is True
    drawn = move(api, view, "draw")
    assert drawn.status_code == 200, drawn.content
    view = drawn.json()
    before = stored(view["id"])

    refused = move(api, view, action)
    assert refused.status_code == 400, refused.content
    body = refused.json()
    assert body["code"] == "illegal_move"
    assert f"no {action} in a live contest" in body["detail"]
    assert stored(view["id"]) == before
    assert api.get(f"/api/games/{view['id']}").json()["stock_left"] == view["stock_left"]


@pytest.mark.django_db
def test_a_solo_game_still_takes_undo_and_start_again(api: Any) -> None:
    view = api.post("/api/games", {"mode": "random"}, format="json").json()
    assert view["contest"] is False
    view = move(api, view, "draw").json()
    undone = move(api, view, "undo")
    assert undone.status_code == 200 and undone.json()["stock_left"] == view["stock_left"] + 1
    view = move(api, undone.json(), "draw").json()
    assert move(api, view, "restart").status_code == 200


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
@pytest.mark.parametrize("contest", ["race", "arena"])
async def test_undo_and_start_again_are_refused_in_a_contest_over_the_socket(
    make_player: Any, settings: Any, contest: str
) -> None:
    if contest == "race":
        player, view = await db(race_game)(make_player, settings)
    else:
        player, view = await db(arena_game)(make_player)
    socket = await connect(player, view["id"])
    assert (await socket.connect())[0]
    hello = (await socket.receive_json_from())["game"]
    assert hello["contest"] is True
    # A draw, then each way back; the copy works every one out before the locked path.
    await socket.send_json_to({"seq": hello["seq"], "action": "draw"})
    drawn = (await socket.receive_json_from())["game"]
    before = await db(stored)(view["id"])
    for action in GOING_BACK:
        await socket.send_json_to({"seq": drawn["seq"], "action": action})
        refused = await socket.receive_json_from()
        assert refused["type"] == "error" and refused["code"] == "illegal_move", refused
        assert f"no {action} in a live contest" in refused["detail"]
    await socket.send_json_to({"type": "sync"})
    again = (await socket.receive_json_from())["game"]
    assert (again["seq"], again["stock_left"], again["waste"]) == (
        drawn["seq"],
        drawn["stock_left"],
        drawn["waste"],
    )
    await socket.disconnect()
    assert await db(stored)(view["id"]) == before
