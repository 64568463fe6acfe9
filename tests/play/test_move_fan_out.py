"""A move's news (its view to the game's other sockets) goes out once the move is committed: at
once when `apply_move` made the commit, and only at the commit of a caller's transaction around
it (a contest's service, say)."""

from __future__ import annotations

from typing import Any

import pytest
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

from tests.play.helpers import winnable_code
from tripeaks.engine.rules import Rules
from tripeaks.play import services
from tripeaks.play.broadcast import game_group

MARK = {"type": "test.mark"}


async def _two(layer: Any, channel: str) -> list[dict[str, Any]]:
    """The channel's next two messages, received on one event loop (the layer keeps a receive
    buffer per loop: receiving on two loops could hand a message to both)."""
    return [await layer.receive(channel), await layer.receive(channel)]


def _listening(game_id: Any) -> tuple[Any, str]:
    layer = get_channel_layer()
    channel = async_to_sync(layer.new_channel)()
    async_to_sync(layer.group_add)(game_group(game_id), channel)
    return layer, channel


@pytest.mark.django_db
def test_a_move_inside_a_callers_transaction_is_told_when_that_commits(
    make_player: Any, django_capture_on_commit_callbacks: Any
) -> None:
    user = make_player("inside")
    code, line = winnable_code()
    game = services.start_game(user=user, mode="custom", rules=Rules(), code=code)
    layer, channel = _listening(game.pk)
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        outcome = services.apply_move(game_id=game.pk, user=user, seq=0, **line[0])
    # Not committed yet: a message on the channel now comes before anything the move sends.
    async_to_sync(layer.send)(channel, MARK)
    for callback in callbacks:
        callback()
    mark, told = async_to_sync(_two)(layer, channel)
    assert mark == MARK
    assert told == {"type": "game.view", "view": outcome.view} and told["view"]["seq"] == 1


@pytest.mark.django_db(transaction=True)
def test_a_move_that_commits_by_itself_is_told_at_once(make_player: Any) -> None:
    user = make_player("alone")
    code, line = winnable_code()
    game = services.start_game(user=user, mode="custom", rules=Rules(), code=code)
    layer, channel = _listening(game.pk)
    outcome = services.apply_move(game_id=game.pk, user=user, seq=0, **line[0])
    async_to_sync(layer.send)(channel, MARK)
    told, mark = async_to_sync(_two)(layer, channel)
    assert told == {"type": "game.view", "view": outcome.view} and mark == MARK
