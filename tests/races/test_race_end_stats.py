"""A race that ends while a player is still playing resigns their game: the race's end, not the
player's. Before, that resignation counted in their statistics as a lost game (played +1, the
streak reset): the winner of a race the others gave up on lost a game by winning it. Now such a
game's result is kept (the contest's fair-play hold reads it) and counts in no statistics; a player who resigns themselves
still loses the game."""

from __future__ import annotations

from typing import Any

import pytest

from leaderboard.models import PlayerStats, Result
from leaderboard.services.recompute import recompute_stats
from tests.races.helpers import api, join, open_race
from tests.races.test_race_api import begun
from tripeaks.play.models import Game
from tripeaks.races.models import Race, State


def move(user: Any, game: str, seq: int, action: str) -> dict[str, Any]:
    answer = api(user).post(
        f"/api/games/{game}/moves", {"seq": seq, "action": action}, format="json"
    )
    assert answer.status_code == 200, answer.content
    return dict(answer.json())


def played(user: Any) -> int:
    return sum(PlayerStats.objects.filter(player=user).values_list("played", flat=True))


@pytest.mark.django_db(transaction=True)
def test_the_winner_of_a_race_the_others_gave_up_on_loses_no_game(make_player: Any) -> None:
    winner, quitter = make_player("winner"), make_player("quitter")
    race = open_race(winner, seats=2)
    assert join(quitter, race).status_code == 200
    begun(race["id"])
    game_of = {
        user.pk: str(api(user).get(f"/api/races/{race['id']}").json()["game"])
        for user in (winner, quitter)
    }
    view = move(winner, game_of[winner.pk], 0, "draw")  # the winner is playing
    move(winner, game_of[winner.pk], view["seq"], "draw")
    move(quitter, game_of[quitter.pk], 0, "draw")
    move(quitter, game_of[quitter.pk], 1, "resign")  # the last opponent gives up: the race ends

    row = Race.objects.get(pk=race["id"])
    assert row.state == State.FINISHED
    assert dict(row.entries.values_list("user_id", "place"))[winner.pk] == 1
    game = Game.objects.get(pk=game_of[winner.pk])
    assert game.status == "lost" and game.finished_at is not None  # the race's end closed it
    result = Result.objects.get(game=game)
    assert result.in_stats is False
    assert played(winner) == 0
    recompute_stats([winner.pk])  # a rebuild of the statistics from the results agrees
    assert played(winner) == 0
    # The one who resigned did so themselves: a lost game, as in solo play.
    assert Result.objects.get(game_id=game_of[quitter.pk]).in_stats is True
    assert played(quitter) > 0
