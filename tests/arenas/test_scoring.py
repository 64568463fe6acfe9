"""The stated scoring (docs/arenas.md): a win 2, on fire (after two wins in a row) 4, anything
else 0 and the streak gone; standings by points, wins, who got there first."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from leaderboard.models import Result
from leaderboard.selectors.review_queue import runs_to_review
from leaderboard.services.review import review_run
from tests.arenas.helpers import join, lose_game, running_arena, win_game
from tests.play.helpers import client_for
from tests.play.server_clock import still_server_clock
from tripeaks.arenas import services
from tripeaks.arenas.models import ArenaGame, Entry
from tripeaks.arenas.scoring import score_game, tally
from tripeaks.engine.rules import Rules
from tripeaks.play import services as play


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


def test_the_tally_of_counted_games_is_the_stated_scoring() -> None:
    start = datetime(2026, 1, 1, tzinfo=UTC)
    results = "WWWLWWW"
    line = tally((r == "W", start + timedelta(minutes=i)) for i, r in enumerate(results))
    points, wins, best = expected(results)
    assert (line.points, line.wins, line.best_streak, line.games) == (points, wins, best, 7)
    assert line.streak == 3 and line.points_at == start + timedelta(minutes=6)


def held_games(arena: Any) -> list[ArenaGame]:
    return list(ArenaGame.objects.filter(entry__arena=arena).order_by("finished_at"))


def points_of(arena: Any, name: str) -> tuple[int, int]:
    entry = Entry.objects.get(arena=arena, player__username=name)
    return entry.points, entry.wins


@pytest.mark.django_db(transaction=True)
@pytest.mark.slow
def test_a_bots_wins_score_nothing_until_staff_accept_them(
    make_player: Any, make_user: Any, settings: Any
) -> None:
    """Before: a script took 38 points in a 10-minute arena, 27 flags changing nothing."""
    settings.FAIR_PLAY_TIMING_CHECK = True
    staff = make_user("referee", is_staff=True)
    arena = running_arena()
    bot = client_for(make_player("bot"))
    assert join(bot, arena).status_code == 200
    with still_server_clock():  # machine speed on a busy machine too
        for _ in range(3):
            win_game(bot, arena)  # the solver's line at machine speed: flagged
    assert points_of(arena, "bot") == (0, 0)
    body = bot.get(f"/api/arenas/{arena.pk}").json()
    assert body["standings"]["lines"][0]["points"] == 0
    assert len(runs_to_review()) == 3
    games = held_games(arena)
    assert all(game.held for game in games)
    results = [Result.objects.get(game_id=game.game_id) for game in games]
    # Staff accept the first two and hide the third: W W count (2 + 2), the third never.
    review_run(result_id=results[0].pk, staff=staff, decision="accept", reason="seen")
    assert points_of(arena, "bot") == (2, 1)
    review_run(result_id=results[2].pk, staff=staff, decision="hide", reason="a script")
    review_run(result_id=results[1].pk, staff=staff, decision="accept", reason="seen")
    assert points_of(arena, "bot") == (4, 2)
    entry = Entry.objects.get(arena=arena, player__username="bot")
    assert entry.streak == 2 and entry.best_streak == 2
    assert runs_to_review() == []


@pytest.mark.django_db(transaction=True)
@pytest.mark.slow
def test_two_accounts_of_one_device_in_an_arena_are_held(make_player: Any, settings: Any) -> None:
    settings.FAIR_PLAY_HOLD_SHARED = True
    arena = running_arena()
    main, second = make_player("main"), make_player("second")
    for user in (main, second):
        play.start_game(user=user, mode="random", rules=Rules(), device="s" * 22)
    apis = {"main": client_for(main), "second": client_for(second)}
    for api in apis.values():
        assert join(api, arena).status_code == 200
    lose_game(apis["second"], arena)
    win_game(apis["main"], arena)
    assert points_of(arena, "main") == (0, 0)  # before: 2 points at once
    game = ArenaGame.objects.get(entry__player=main)
    assert game.held and game.counted


@pytest.mark.django_db(transaction=True)
@pytest.mark.slow
def test_accepting_a_held_game_after_the_arena_writes_the_podium_again(
    make_player: Any, make_user: Any, settings: Any
) -> None:
    arena = running_arena()
    ann, fast = client_for(make_player("ann")), client_for(make_player("fast"))
    for api in (ann, fast):
        assert join(api, arena).status_code == 200
    win_game(ann, arena)  # unchecked: 2 points
    settings.FAIR_PLAY_TIMING_CHECK = True
    with still_server_clock():  # machine speed on a busy machine too
        win_game(fast, arena)
        win_game(fast, arena)  # both flagged: held
    assert services.finalize(arena_id=arena.pk, now=arena.ends_at + timedelta(seconds=1))
    ranks = dict(Entry.objects.filter(arena=arena).values_list("player__username", "rank"))
    assert ranks == {"ann": 1, "fast": 2}
    staff = make_user("referee", is_staff=True)
    for game in held_games(arena):
        if game.held:
            result = Result.objects.get(game_id=game.game_id)
            review_run(result_id=result.pk, staff=staff, decision="accept", reason="a fast human")
    ranks = dict(Entry.objects.filter(arena=arena).values_list("player__username", "rank"))
    assert ranks == {"fast": 1, "ann": 2}
    assert points_of(arena, "fast") == (4, 2)
    podium = ann.get(f"/api/arenas/{arena.pk}").json()["podium"]
    assert [line["player"]["username"] for line in podium] == ["fast", "ann"]
