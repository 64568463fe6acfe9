"""A contest game's end (`Game.deadline`: a race's time cap, an arena's end) holds however late
anybody notices it: a move at or after it is refused with `time_up` on every path (REST, the
game socket) and changes nothing, so a race's ranking and an arena's points never see it. A
resignation stays open (a game must be able to end)."""

from __future__ import annotations

import time
from datetime import timedelta
from typing import Any

import psycopg
import pytest
from channels.db import database_sync_to_async as db
from django.db import connection
from django.utils import timezone

from tests.arenas.helpers import join as join_arena
from tests.arenas.helpers import running_arena
from tests.arenas.helpers import start as start_arena_game
from tests.play.contests import begun_race, game_of
from tests.play.helpers import client_for, connect, move, solution, winnable_code
from tripeaks.arenas.models import Arena, ArenaGame
from tripeaks.engine.rules import Rules
from tripeaks.play import deals, services, steps
from tripeaks.play.errors import TimeUp
from tripeaks.play.models import Game, Move
from tripeaks.races import clock
from tripeaks.races.models import Race, Seat


@pytest.fixture(autouse=True)
def _pool(a_proven_deal_ready: None) -> None:
    """Races and arenas deal from the pool (tests/conftest.py)."""


def stored(game_id: Any) -> dict[str, Any]:
    """Everything stored of a game: its row and its move log."""
    row = Game.objects.filter(pk=game_id).values().get()
    return {**row, "log": list(Move.objects.filter(game_id=game_id).values_list("seq", "action"))}


@pytest.mark.django_db
def test_a_move_at_the_deadline_is_refused_before_any_change(make_player: Any) -> None:
    code, line = winnable_code()
    deal = deals.custom_deal(code, Rules(), "classic")
    end = timezone.now() + timedelta(minutes=5)
    game = services.start_game(
        user=make_player(), mode="custom", rules=Rules(), deal=deal, contest="race-x", deadline=end
    )
    assert Game.objects.get(pk=game.pk).deadline == end
    state = services.load_game_state(game)
    before = {field.attname: getattr(game, field.attname) for field in Game._meta.concrete_fields}

    first = line[0]
    with pytest.raises(TimeUp) as refused:
        steps.advance(game, state, now=end, **{"position": None, **first})
    assert refused.value.code == "time_up" and refused.value.status_code == 409
    assert {f.attname: getattr(game, f.attname) for f in Game._meta.concrete_fields} == before

    # A moment before the end the same move is played; resigning stays open after it.
    step = steps.advance(
        game, state, now=end - timedelta(microseconds=1), **{"position": None, **first}
    )
    assert step.move.seq == 1
    assert steps.advance(game, step.state, action="resign", position=None, now=end).state.over


def the_end_comes_unnoticed(race: Race) -> None:
    """The race's cap is reached, and nothing has ended it yet (no read, no timer, no worker)."""
    end = timezone.now()
    Race.objects.filter(pk=race.pk).update(ends_at=end)
    Game.objects.filter(contest=race.group).update(deadline=end)


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_moves_after_a_races_cap_are_refused_on_rest_and_socket_and_never_ranked(
    make_player: Any, settings: Any
) -> None:
    ann, bob = await db(make_player)("ann"), await db(make_player)("bob")
    race = await db(begun_race)(ann, bob, settings)
    ann_game, bob_game = await db(game_of)(race, ann), await db(game_of)(race, bob)
    assert ann_game.deadline == bob_game.deadline == race.ends_at
    line = await db(solution)(race.deal)
    # Bob moves in time, at least two moves and until a card has left the layout (the line may
    # begin with draws: then Bob would only tie Ann on cards, and a tie goes to the earlier
    # clock); then the cap comes and nobody notices at once.
    bob_api = client_for(bob)
    view = {"id": str(bob_game.pk), "seq": 0}
    bob_moves = 0
    while bob_moves < 2 or view["cards_left"] == ann_game.cards_left:
        step = line[bob_moves]
        answer = await db(move)(bob_api, view, step["action"], step.get("position"))
        assert answer.status_code == 200, answer.content
        view = answer.json()
        bob_moves += 1
    await db(the_end_comes_unnoticed)(race)
    before = await db(stored)(ann_game.pk)

    # Ann plays the winning line late: by REST, every move is refused and nothing is stored.
    ann_api = client_for(ann)
    for step in line[:6]:
        late = await db(move)(
            ann_api, {"id": str(ann_game.pk), "seq": 0}, step["action"], step.get("position")
        )
        assert late.status_code == 409, late.content
        assert late.json()["code"] == "time_up"
    assert await db(stored)(ann_game.pk) == before

    # ... and by the game socket (its copy of the game refuses them).
    socket = await connect(ann, str(ann_game.pk))
    assert (await socket.connect())[0]
    assert (await socket.receive_json_from())["type"] == "view"
    for action in (line[0], {"action": "draw"}, {"action": "restart"}):
        await socket.send_json_to({"seq": 0, **action})
        answer = await socket.receive_json_from()
        assert answer["type"] == "error" and answer["code"] == "time_up", answer
    await socket.disconnect()
    assert await db(stored)(ann_game.pk) == before
    late_step = line[bob_moves]
    bob_late = await db(move)(bob_api, view, late_step["action"], late_step.get("position"))
    assert bob_late.status_code == 409

    # The cap is noticed: the ranking is the race as it stood at its end.
    assert await db(clock.advance_race_clock)(race_id=race.pk)
    seats = await db(lambda: {s.user_id: s for s in Seat.objects.filter(race=race)})()
    assert (seats[bob.pk].place, seats[ann.pk].place) == (1, 2)
    assert seats[ann.pk].cards_left == before["cards_left"] and seats[ann.pk].moves == 0
    assert seats[bob.pk].cards_left == view["cards_left"] and seats[bob.pk].moves == bob_moves


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_a_socket_move_after_the_cap_is_refused_without_waiting_for_the_game_row(
    make_player: Any, settings: Any
) -> None:
    """The deadline (set when the game starts, never moved) and the server's clock refuse a late
    move alone, so the socket answers from its copy of the game. Through the locked path, every
    player's next move at a race's cap waited on its game row, behind the race's end resigning
    those games: here the row is held locked elsewhere, and the answer must still come."""
    ann, bob = await db(make_player)("ann"), await db(make_player)("bob")
    race = await db(begun_race)(ann, bob, settings)
    game = await db(game_of)(race, ann)
    line = await db(solution)(race.deal)
    await db(the_end_comes_unnoticed)(race)
    socket = await connect(ann, str(game.pk))
    assert (await socket.connect())[0]
    assert (await socket.receive_json_from())["type"] == "view"
    before = await db(stored)(game.pk)
    params = connection.get_connection_params()
    params.pop("cursor_factory", None)
    with psycopg.connect(**params) as holder:
        holder.execute(f"SELECT 1 FROM {Game._meta.db_table} WHERE id = %s FOR UPDATE", [game.pk])
        await socket.send_json_to({"seq": 0, **line[0]})
        answer = await socket.receive_json_from(timeout=10)
        assert answer["type"] == "error" and answer["code"] == "time_up", answer
    await socket.disconnect()
    assert await db(stored)(game.pk) == before


@pytest.mark.django_db
def test_an_arena_game_takes_no_move_after_the_arena_ends(make_player: Any) -> None:
    arena = running_arena()
    api = client_for(make_player())
    join_arena(api, arena)
    view = start_arena_game(api, arena)
    assert Game.objects.get(pk=view["id"]).deadline == arena.ends_at
    end = timezone.now()
    Arena.objects.filter(pk=arena.pk).update(ends_at=end)  # ended; no tick has run yet
    Game.objects.filter(pk=view["id"]).update(deadline=end)
    before = stored(view["id"])

    late = move(api, view, "draw")
    assert late.status_code == 409 and late.json()["code"] == "time_up"
    assert stored(view["id"]) == before
    # Resigning ends it; it counts for nothing.
    assert move(api, view, "resign").status_code == 200
    assert ArenaGame.objects.get(game_id=view["id"]).counted is False


@pytest.mark.django_db
def test_resigning_after_the_cap_keeps_the_time_of_the_last_real_move(
    make_player: Any, settings: Any
) -> None:
    """Equal cards left rank by who got there first: a resignation after the cap (open, as every
    resignation) must not move a player's time to the moment they resigned."""
    ann, bob = make_player("ann"), make_player("bob")
    race = begun_race(ann, bob, settings)
    line = solution(race.deal)
    views = {}
    for user in (ann, bob):  # the same two plays, Ann's first
        api, view = client_for(user), {"id": str(game_of(race, user).pk), "seq": 0}
        for step in line[:2]:
            view = move(api, view, step["action"], step.get("position")).json()
        views[user.pk] = view
        time.sleep(0.005)  # Bob's plays a few clock milliseconds after Ann's: no tie to break
    ann_game = game_of(race, ann)
    reached = Move.objects.filter(game=ann_game).order_by("-seq").values_list("elapsed_ms")[0][0]
    the_end_comes_unnoticed(race)

    assert move(client_for(ann), views[ann.pk], "resign").status_code == 200
    assert Game.objects.get(pk=ann_game.pk).elapsed_ms >= reached
    clock.advance_race_clock(race_id=race.pk)
    seats = {s.user_id: s for s in Seat.objects.filter(race=race)}
    assert seats[ann.pk].cards_left == seats[bob.pk].cards_left
    assert seats[ann.pk].time_ms == reached
    assert seats[ann.pk].time_ms <= seats[bob.pk].time_ms
    assert (seats[ann.pk].place, seats[bob.pk].place) == (1, 2)
