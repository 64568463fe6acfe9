"""After a race, its players open each other's replays from the results: the finished race names
every player's game; while it runs it names none, and a watcher learns ids that open nothing."""

from __future__ import annotations

from typing import Any

import pytest

from tests.races.helpers import api, begun, join, leaks, open_race, player, winning_line

pytestmark = [pytest.mark.django_db(transaction=True)]


def test_a_finished_race_names_each_players_game_and_only_its_players_open_them(
    make_player: Any,
) -> None:
    ann, bob, carol = make_player("ann"), make_player("bob"), make_player("carol")
    race = open_race(ann)
    join(bob, race)
    begun(race["id"])
    running = api(ann).get(f"/api/races/{race['id']}").json()
    assert [line["game"] for line in running["players"]] == [None, None]
    assert leaks(running) == []

    game = running["game"]
    for seq, move in enumerate(winning_line(race["id"])):
        answer = api(ann).post(f"/api/games/{game}/moves", {"seq": seq, **move}, format="json")
        assert answer.status_code == 200, answer.content
    done = api(bob).get(f"/api/races/{race['id']}").json()
    assert done["state"] == "finished" and leaks(done) == []
    ann_game, bob_game = player(done, "ann")["game"], player(done, "bob")["game"]
    assert ann_game == game and bob_game == done["game"]

    # Each racer replays the other's game; a watcher, knowing the ids, opens neither.
    assert api(bob).get(f"/api/games/{ann_game}/replay").status_code == 200
    assert api(ann).get(f"/api/games/{bob_game}/replay").status_code == 200
    watched = api(carol).get(f"/api/races/{race['id']}").json()
    assert player(watched, "ann")["game"] == ann_game
    for opened in (ann_game, bob_game):
        assert api(carol).get(f"/api/games/{opened}/replay").status_code == 404
        assert api(carol).get(f"/api/games/{opened}/analysis").status_code == 404
