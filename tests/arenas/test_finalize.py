"""An arena ends on time: a game that ends after it scores nothing; the final places (the
podium) are written once, and stay."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from tests.arenas.helpers import join, lose, lose_game, running_arena, start, win, win_game
from tests.play.helpers import client_for
from tripeaks.arenas import services, tasks
from tripeaks.arenas.models import Arena, ArenaGame, Entry, Phase

pytestmark = pytest.mark.django_db


def end_now(arena: Arena) -> None:
    """The arena's end moved to this moment (rather than waiting for it)."""
    Arena.objects.filter(pk=arena.pk).update(ends_at=timezone.now())


def test_a_game_that_ends_after_the_arena_scores_nothing(make_player: Any) -> None:
    arena = running_arena()
    api = client_for(make_player())
    join(api, arena)
    view = start(api, arena)
    end_now(arena)
    lose(api, view)
    entry = Entry.objects.get()
    assert (entry.games, entry.points) == (0, 0)
    counted = ArenaGame.objects.get()
    assert not counted.counted and counted.points == 0


@pytest.mark.slow
def test_the_podium_is_written_once_and_kept(make_player: Any) -> None:
    arena = running_arena()
    apis = [client_for(make_player(name)) for name in ("gold", "silver", "bronze", "fourth")]
    for api in apis:
        join(api, arena)
    win_game(apis[0], arena)
    win_game(apis[0], arena)
    win_game(apis[1], arena)
    lose_game(apis[2], arena)
    late = start(apis[3], arena)
    assert services.finalize(arena_id=arena.pk) is False  # not over yet

    end_now(arena)
    assert tasks.tick_arenas() == 1
    assert tasks.tick_arenas() == 0  # a second run changes nothing
    assert services.finalize(arena_id=arena.pk) is False
    lose(apis[3], late)  # ends after the arena: counts nothing

    arena.refresh_from_db()
    assert arena.state == Phase.FINISHED and arena.finalized_at is not None
    ranks = dict(Entry.objects.values_list("player__username", "rank"))
    assert ranks == {"gold": 1, "silver": 2, "bronze": 3, "fourth": 4}
    body = apis[3].get(f"/api/arenas/{arena.pk}").json()
    assert body["state"] == "finished" and body["final"]
    assert [p["player"]["username"] for p in body["podium"]] == ["gold", "silver", "bronze"]
    assert [p["points"] for p in body["podium"]] == [4, 2, 0]
    assert body["me"]["rank"] == 4 and body["me"]["games"] == 0


def test_the_ticking_task_marks_started_arenas_running(make_player: Any) -> None:
    now = timezone.now()
    arena = services.create_arena(
        name="Soon",
        rules_key="wrap-closed",
        starts_at=now + timedelta(seconds=1),
        ends_at=now + timedelta(minutes=5),
    )
    services.tick(now=now)
    arena.refresh_from_db()
    assert arena.state == Phase.SCHEDULED
    services.tick(now=now + timedelta(seconds=2))
    arena.refresh_from_db()
    assert arena.state == Phase.RUNNING


def test_counting_a_finish_is_five_statements_and_once(
    make_player: Any, django_assert_num_queries: Any
) -> None:
    """Inside the finishing transaction: lock the entry, look for the game, read the arena, write
    the entry, record the game. A second call (a replayed signal) counts nothing."""
    from tripeaks.play.models import Game

    arena = running_arena()
    api = client_for(make_player())
    join(api, arena)
    view = lose(api, start(api, arena))
    ArenaGame.objects.all().delete()
    Entry.objects.update(games=0)
    game = Game.objects.get(pk=view["id"])
    with django_assert_num_queries(5):
        assert services.count_finish(game=game) is not None
    with django_assert_num_queries(2):
        assert services.count_finish(game=game) is None
    assert Entry.objects.get().games == 1


@pytest.mark.slow
def test_the_final_places_follow_from_the_games_left_and_resigned_alike(
    make_player: Any,
) -> None:
    arena = running_arena()
    ann, bob = client_for(make_player("ann")), client_for(make_player("bob"))
    for api in (ann, bob):
        join(api, arena)
    win_game(ann, arena)
    during_break = start(ann, arena)
    assert ann.post(f"/api/arenas/{arena.pk}/leave").status_code == 200  # a break mid-game
    win(ann, during_break)  # the game she had counts: her points stay hers
    win_game(bob, arena)
    lose_game(bob, arena)  # a resignation scores nothing and ends the streak

    end_now(arena)
    assert tasks.tick_arenas() == 1

    entries = {e.player.username: e for e in Entry.objects.select_related("player")}
    for entry in entries.values():
        counted = ArenaGame.objects.filter(entry=entry, counted=True)
        assert entry.games == counted.count()
        assert entry.wins == counted.filter(won=True).count()
        assert entry.points == sum(game.points for game in counted)
    assert (entries["ann"].points, entries["ann"].rank) == (4, 1)
    assert (entries["bob"].points, entries["bob"].streak, entries["bob"].rank) == (2, 0, 2)
    body = bob.get(f"/api/arenas/{arena.pk}").json()
    assert [line["player"]["username"] for line in body["podium"]] == ["ann", "bob"]
