"""The hooks play gives live contests (races, arenas) without importing them: a contest game's
progress told to its feed after every stored move, hints and pauses refused, and `game_finished`
sent inside the finishing transaction."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from channels.db import database_sync_to_async

from tests.play.helpers import client_for, connect, move, winnable_code
from tripeaks.engine.rules import Rules
from tripeaks.infra import contest_feed
from tripeaks.play import deals, services
from tripeaks.play.models import Game
from tripeaks.play.payloads import game_payload
from tripeaks.play.signals import game_finished

PROGRESS_KEYS = {
    "game",
    "player",
    "seq",
    "status",
    "cards_left",
    "stock_left",
    "streak",
    "moves",
    "time_ms",
    "finished",
    "stored_at",
}


def contest_game(user: Any, group: str) -> dict[str, Any]:
    code, _ = winnable_code()
    deal = deals.custom_deal(code, Rules(), "classic")
    game = services.start_game(user=user, mode="custom", rules=Rules(), deal=deal, contest=group)
    return game_payload(game, services.load_game_state(game), game.created_at)


async def listen(contest: str) -> tuple[asyncio.Queue[dict[str, Any]], contest_feed.Handler]:
    news: asyncio.Queue[dict[str, Any]] = asyncio.Queue()

    async def heard(progress: dict[str, Any]) -> None:
        news.put_nowait(progress)

    await contest_feed.listen(contest, heard)
    return news, heard


async def next_progress(news: asyncio.Queue[dict[str, Any]]) -> dict[str, Any]:
    return await asyncio.wait_for(news.get(), 5)


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_a_rest_and_a_socket_move_tell_the_contest_its_progress_and_no_cards(
    make_player: Any,
) -> None:
    user = await database_sync_to_async(make_player)("racer")
    view = await database_sync_to_async(contest_game)(user, "race-hooks-1")
    channel, heard = await listen("race-hooks-1")

    response = await database_sync_to_async(move)(client_for(user), view, "draw")
    assert response.status_code == 200, response.content
    progress = await next_progress(channel)
    assert set(progress) == PROGRESS_KEYS
    assert progress["seq"] == 1 and progress["stock_left"] == 22 and progress["streak"] == 0
    assert progress["game"] == view["id"] and progress["player"] == user.pk

    socket = await connect(user, view["id"])
    assert (await socket.connect())[0]
    await socket.receive_json_from()
    await socket.send_json_to({"seq": 1, "action": "draw"})
    assert (await socket.receive_json_from())["type"] == "view"
    progress = await next_progress(channel)
    assert progress["seq"] == 2 and progress["stock_left"] == 21
    await socket.disconnect()
    await contest_feed.stop("race-hooks-1", heard)


@pytest.mark.django_db
@pytest.mark.parametrize("action", ["hint", "pause"])
def test_a_contest_game_refuses_hints_and_pauses(make_player: Any, action: str) -> None:
    user = make_player("racer")
    view = contest_game(user, "race-hooks-2")
    response = move(client_for(user), view, action)
    assert response.status_code == 400, response.content
    assert response.json()["code"] == "illegal_move" and "contest" in response.json()["detail"]
    assert Game.objects.get(pk=view["id"]).seq == 0


@pytest.mark.django_db
def test_a_contest_game_is_unranked(make_player: Any) -> None:
    view = contest_game(make_player("racer"), "race-hooks-3")
    assert view["ranking"] == "unranked"


@pytest.mark.django_db
def test_game_finished_is_sent_inside_the_finishing_transaction(make_player: Any) -> None:
    user = make_player("quitter")
    view = contest_game(user, "race-hooks-4")
    seen: list[tuple[str, bool]] = []

    def receiver(sender: Any, game: Game, result: Any, **kwargs: Any) -> None:
        from django.db import connection

        seen.append((game.status, connection.in_atomic_block))

    game_finished.connect(receiver)
    try:
        assert move(client_for(user), view, "draw").status_code == 200
        assert seen == []
        assert move(client_for(user), {**view, "seq": 1}, "resign").status_code == 200
    finally:
        game_finished.disconnect(receiver)
    assert seen == [("lost", True)]


def test_the_streak_is_the_plays_since_the_last_draw_along_the_current_line() -> None:
    """`current_streak`, counted back from the end, against its definition counted forward over
    every random line of moves tried (plays, draws, undos, restarts)."""
    import random

    from tripeaks.engine import game as engine
    from tripeaks.engine.deal import from_seed
    from tripeaks.engine.layouts import get_layout
    from tripeaks.play.progress import current_streak

    def forward(state: engine.State) -> int:
        line, run = (*state.history, state.position), 0
        for before, after in zip(line, line[1:], strict=False):
            run = run + 1 if after.removed != before.removed else 0
        return run

    chooser, seen = random.Random(37), set()
    for seed in range(30):
        state = engine.new_game(from_seed(seed, get_layout("classic")), Rules())
        for _ in range(120):
            moves = [m for m in state.legal_moves() if not isinstance(m, engine.Resign)]
            plays = [m for m in moves if isinstance(m, engine.Play)]
            pick = plays if plays and chooser.random() < 0.8 else moves
            state = engine.apply(state, chooser.choice(pick))
            assert current_streak(state) == forward(state)
            seen.add(current_streak(state))
            if state.over:
                break
    assert {0, 1, 2, 3} <= seen
