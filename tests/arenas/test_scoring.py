"""The stated scoring (docs/arenas.md): a win 2, on fire (after two wins in a row) 4, anything
else 0 and the streak gone; standings by points, wins, who got there first."""

from __future__ import annotations

from typing import Any

import pytest

from tests.arenas.helpers import join, lose_game, running_arena, win_game
from tests.play.helpers import client_for
from tripeaks.arenas.models import ArenaGame, Entry
from tripeaks.arenas.scoring import score_game


def expected(results: str) -> tuple[int, int, int]:
    """Points, wins and best streak of a run of results ("W"/"L"), worked out by hand."""
    points = streak = best = 0
    for r in results:
        if r == "W":
            points += 4 if streak >= 2 else 2
            streak += 1
            best = max(best, streak)
        else:
            streak = 0
    return points, results.count("W"), best


@pytest.mark.parametrize(
    ("results", "points"),
    [("", 0), ("W", 2), ("WW", 4), ("WWW", 8), ("WWWW", 12), ("WWLW", 6), ("WWWLWWW", 16)],
)
def test_the_stated_scoring(results: str, points: int) -> None:
    streak = total = 0
    for r in results:
        scored = score_game(won=r == "W", streak=streak)
        total, streak = total + scored.points, scored.streak
    assert total == points == expected(results)[0]


@pytest.mark.django_db
@pytest.mark.slow
def test_standings_match_the_stated_scoring_with_the_streak_bonus(make_player: Any) -> None:
    arena = running_arena()
    runs = {"ann": "WWWLW", "bob": "WLWW", "cy": "L"}
    apis = {name: client_for(make_player(name)) for name in runs}
    for name in runs:
        assert join(apis[name], arena).status_code == 200
    for name, results in runs.items():
        for r in results:
            (win_game if r == "W" else lose_game)(apis[name], arena)

    body = apis["cy"].get(f"/api/arenas/{arena.pk}").json()
    lines = body["standings"]["lines"]
    assert [line["player"]["username"] for line in lines] == ["ann", "bob", "cy"]
    for line in lines:
        results = runs[line["player"]["username"]]
        points, wins, best = expected(results)
        assert (line["points"], line["wins"], line["games"], line["best_streak"]) == (
            points,
            wins,
            len(results),
            best,
        )
    assert [line["points"] for line in lines] == [10, 6, 0]
    assert lines[0]["streak"] == 1 and not lines[0]["fire"]
    assert lines[1]["streak"] == 2 and lines[1]["fire"]  # bob's next win scores 4
    assert body["me"]["rank"] == 3 and body["me"]["points"] == 0
    assert ArenaGame.objects.filter(entry__arena=arena).count() == 10
    assert body["scoring"] == {"win": 2, "fire_win": 4, "fire_after": 2, "grace_seconds": 0}


@pytest.mark.django_db
def test_ties_go_to_more_wins_then_to_who_reached_the_points_first(make_player: Any) -> None:
    arena = running_arena()
    players = [make_player(name) for name in ("late", "early", "many")]
    for player in players:
        join(client_for(player), arena)
    from django.utils import timezone

    now = timezone.now()
    Entry.objects.filter(player=players[0]).update(points=8, wins=3, points_at=now)
    Entry.objects.filter(player=players[1]).update(
        points=8, wins=3, points_at=now.replace(year=2020)
    )
    Entry.objects.filter(player=players[2]).update(points=8, wins=4, points_at=now)
    lines = client_for(players[0]).get(f"/api/arenas/{arena.pk}").json()["standings"]["lines"]
    assert [line["player"]["username"] for line in lines] == ["many", "early", "late"]
    assert [line["rank"] for line in lines] == [1, 2, 3]
