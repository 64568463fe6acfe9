"""Issue 38, item 3: a refusal the page must say with its wait carries the wait on the game
socket as over REST (`Retry-After`): a new deal asked on the socket from a dry pool."""

from __future__ import annotations

from typing import Any

import pytest
from channels.db import database_sync_to_async

from tests.play.helpers import client_for, connect, start_custom, winnable_code
from tripeaks.play import deals
from tripeaks.play.models import Game

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

DRY = {"mode": "random", "layout": "waves", "rules": {"wrap": False}}


@pytest.fixture
def playing(make_player: Any) -> tuple[Any, dict[str, Any]]:
    user = make_player("drypool")
    return user, start_custom(client_for(user), winnable_code()[0])


async def test_a_new_deal_from_a_dry_pool_says_its_wait_on_the_socket_as_over_rest(
    playing: tuple[Any, dict[str, Any]], broker: None
) -> None:
    user, old = playing
    rest = await database_sync_to_async(client_for(user).post)("/api/games", DRY, format="json")
    assert rest.status_code == 503 and rest.json()["code"] == "pool_empty"
    assert rest["Retry-After"] == str(deals.POOL_EMPTY_RETRY_AFTER)

    socket = await connect(user, old["id"])
    await socket.connect()
    await socket.receive_json_from()
    await socket.send_json_to({"type": "new", **DRY})
    error = await socket.receive_json_from()
    assert error == {
        "type": "error",
        **rest.json(),
        "retry_after": deals.POOL_EMPTY_RETRY_AFTER,
    }
    assert await database_sync_to_async(Game.objects.count)() == 1
    await socket.disconnect()
