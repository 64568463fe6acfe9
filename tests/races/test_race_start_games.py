"""A race's start makes its racers' games together (issue #37 item 3: the start is a server's
heaviest work at a race's first instant): the deal's starting position worked out once, the
players locked and their unfinished games read in one statement each, the games inserted in one.
The games are those a start of one game makes (`play.services.start_game`)."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from tests.races.helpers import join, open_race
from tripeaks.engine import game as engine
from tripeaks.engine.rules import Rules
from tripeaks.engine.scoring import score
from tripeaks.play import deals
from tripeaks.play import services as play
from tripeaks.play.models import Game
from tripeaks.play.state_codec import dump_state
from tripeaks.races import clock
from tripeaks.races.models import Race, Seat, State

pytestmark = pytest.mark.django_db(transaction=True)

# The fields a start writes that are the same for every racer's game (not its key, player, clock).
SHARED = ("deal_id", "status", "state", "seq", "moves", "cards_left", "score", "hints")
SHARED += ("assisted", "paused", "elapsed_ms", "started_at", "finished_at", "ranking")
SHARED += ("device", "address", "contest", "deadline")


def _race_of_four(make_player: Any, monkeypatch: Any, prefix: str) -> Race:
    monkeypatch.setattr(clock.advance_race, "apply_async", lambda **_: None)  # no eager task
    users = [make_player(f"{prefix}{i}") for i in range(4)]
    opened = open_race(users[0], seats=4)
    for user in users[1:]:
        assert join(user, opened).status_code == 200
    Race.objects.filter(pk=opened["id"]).update(starts_at=timezone.now())  # the instant is now
    return Race.objects.get(pk=opened["id"])


def _games(race: Race) -> list[Game]:
    seats = Seat.objects.filter(race=race).select_related("game", "game__deal")
    return [seat.game for seat in seats if seat.game is not None]


def _racers(race: Race) -> set[int]:
    return set(Seat.objects.filter(race=race).values_list("user_id", flat=True))


def test_a_start_makes_its_games_in_one_statement_a_table(
    make_player: Any, monkeypatch: Any
) -> None:
    """Before: each racer's game started apart (a savepoint, the player's lock, their unfinished
    games, the insert, the savepoint's release): 20 of the start's 26 statements; now 3 of 11
    (the players' locks, their unfinished games, the games' insert; no savepoint)."""
    race = _race_of_four(make_player, monkeypatch, "sg")
    with CaptureQueriesContext(connection) as queries:
        assert clock.advance_race_clock(race_id=race.pk, wait=False) is True
    statements = [query["sql"] for query in queries.captured_queries]
    inserts = [sql for sql in statements if sql.startswith('INSERT INTO "play_game"')]
    assert len(inserts) == 1, inserts
    assert len(statements) <= 11, "\n".join(s[:90] for s in statements)
    race.refresh_from_db()
    assert race.state == State.RUNNING
    assert len(_games(race)) == 4


def test_a_start_makes_the_games_a_start_of_one_game_makes(
    make_player: Any, monkeypatch: Any
) -> None:
    """Every racer's game is the one `start_game` makes for one player on the race's deal: the
    same position and state, counts, rules, contest and deadline; each its own row and player."""
    race = _race_of_four(make_player, monkeypatch, "eq")
    assert clock.advance_race_clock(race_id=race.pk, wait=False) is True
    race.refresh_from_db()
    games = _games(race)
    assert race.deal is not None and race.ends_at is not None
    rules = Rules.from_key(race.rules_key)
    alone = play.start_game(
        user=make_player("eq-alone"),
        mode="random",
        rules=rules,
        layout=race.layout,
        deal=race.deal,
        contest=race.group,
        deadline=race.ends_at,
    )
    alone.refresh_from_db()
    state = engine.new_game(deals.engine_deal(race.deal), rules)
    assert alone.state == dump_state(state) and alone.cards_left == state.cards_left
    assert alone.score == score(state, 0) and alone.ranking == "unranked"
    for game in games:
        assert {name: getattr(game, name) for name in SHARED} == {
            name: getattr(alone, name) for name in SHARED
        }
        assert game.deal.rules_key == rules.key and game.running_since == game.created_at
    assert len({game.pk for game in games}) == 4
    assert {game.player_id for game in games} == _racers(race)


def test_a_start_resigns_a_racers_unfinished_game(make_player: Any, monkeypatch: Any) -> None:
    """A racer's game of their own, left unfinished, is resigned by the start, as a start of one
    game resigns it: the other racers' starts are not held by it."""
    race = _race_of_four(make_player, monkeypatch, "rs")
    racer = Seat.objects.filter(race=race).order_by("pk").last()
    assert racer is not None
    solo = play.start_game(user=racer.user, mode="numbered", number=3, rules=Rules())
    assert clock.advance_race_clock(race_id=race.pk, wait=False) is True
    solo.refresh_from_db()
    assert solo.finished_at is not None and solo.state["resigned"] is True
    race.refresh_from_db()
    assert {game.player_id for game in _games(race)} == _racers(race)
    assert Game.objects.filter(player_id=racer.user_id, finished_at__isnull=True).count() == 1
