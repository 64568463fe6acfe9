"""Two moves on one game at the same moment: exactly one applies. Two starts by one player at
the same moment: one game is left unfinished."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from django.db import connection

from tests.play.helpers import client_for, move, start_custom, winnable_code
from tripeaks.play.models import Game, Move


@pytest.mark.django_db(transaction=True)
def test_two_concurrent_moves_with_one_seq_apply_once(make_player: Any) -> None:
    player = make_player("racer")
    code, line = winnable_code()
    game = start_custom(client_for(player), code)
    barrier = threading.Barrier(2)
    statuses: list[int] = []

    def send(step: dict[str, Any]) -> None:
        try:
            barrier.wait()
            statuses.append(move(client_for(player), game, **step).status_code)
        finally:
            connection.close()

    threads = [
        threading.Thread(target=send, args=(step,))
        for step in (
            {"action": "draw"},
            line[0] if line[0]["action"] == "play" else {"action": "hint"},
        )
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(statuses) == [200, 409]
    assert Game.objects.get(pk=game["id"]).seq == 1
    assert Move.objects.filter(game_id=game["id"]).count() == 1


@pytest.mark.django_db(transaction=True)
def test_two_concurrent_starts_leave_one_unfinished_game(make_player: Any) -> None:
    player = make_player("double-click")
    code, line = winnable_code()
    old = start_custom(client_for(player), code)
    assert move(client_for(player), old, **line[0]).status_code == 200
    barrier = threading.Barrier(4)
    started: list[str] = []

    def start() -> None:
        try:
            barrier.wait()
            started.append(start_custom(client_for(player), code)["id"])
        finally:
            connection.close()

    threads = [threading.Thread(target=start) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(started) == 4
    unfinished = Game.objects.filter(player=player, finished_at__isnull=True)
    assert list(unfinished.values_list("pk", flat=True)) == [Game.objects.latest("created_at").pk]
    assert Game.objects.get(pk=old["id"]).status == "lost"
