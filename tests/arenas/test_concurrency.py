"""Many players finishing at once lose no points: each finish locks only its own Entry."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from django.db import connection

from tests.arenas.helpers import join, play_line, running_arena, start
from tests.play.helpers import client_for, move, solution
from tests.together import at_once
from tripeaks.arenas.models import ArenaGame, Entry
from tripeaks.play.models import Game

PLAYERS = 6


@pytest.mark.django_db(transaction=True)
@pytest.mark.slow
def test_simultaneous_winning_moves_of_many_players_all_score(make_player: Any) -> None:
    arena = running_arena()
    ready: list[tuple[Any, dict[str, Any], dict[str, Any]]] = []
    for i in range(PLAYERS):
        api = client_for(make_player(f"p{i}"))
        join(api, arena)
        view = start(api, arena)
        line = solution(Game.objects.select_related("deal").get(pk=view["id"]).deal)
        view = play_line(api, view, line[:-1])  # one move from the win
        ready.append((api, view, line[-1]))

    barrier = threading.Barrier(PLAYERS)
    codes: list[int] = []

    def finish(api: Any, view: dict[str, Any], last: dict[str, Any]) -> None:
        try:
            barrier.wait()
            codes.append(move(api, view, last["action"], last.get("position")).status_code)
        finally:
            connection.close()

    threads = [threading.Thread(target=finish, args=args) for args in ready]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert codes == [200] * PLAYERS
    assert list(Entry.objects.values_list("points", "wins", "games").distinct()) == [(2, 1, 1)]
    assert ArenaGame.objects.filter(counted=True, points=2).count() == PLAYERS
    assert sum(Entry.objects.values_list("changes", flat=True)) == PLAYERS * 2


@pytest.mark.django_db(transaction=True)
def test_two_clicks_on_play_at_once_start_one_game(make_player: Any) -> None:
    arena = running_arena()
    api = client_for(make_player())
    join(api, arena)
    play = f"/api/arenas/{arena.pk}/play"
    first, second = at_once([lambda: api.post(play), lambda: api.post(play)])
    assert sorted([first.status_code, second.status_code]) == [200, 201]
    assert first.json()["game_id"] == second.json()["game_id"]
    assert Game.objects.count() == 1 and Entry.objects.get().games == 0


@pytest.mark.django_db(transaction=True)
def test_joining_twice_at_once_makes_one_entry(make_player: Any) -> None:
    arena = running_arena()
    api = client_for(make_player())
    answers = at_once([lambda: join(api, arena) for _ in range(4)])
    assert [answer.status_code for answer in answers] == [200] * 4
    assert Entry.objects.filter(arena=arena).count() == 1
