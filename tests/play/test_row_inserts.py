"""A finish and the next game's start insert their rows (the game, the result, the board lines)
by statements made once (`tripeaks.infra.bulk_rows.insert_row`), not by the ORM's `create`,
which compiled each INSERT anew (issue #37 item 4: a solo move's cost), and the rows are the ones
`create` stores."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

import pytest
from django.db.models import Model
from django.db.models.sql.compiler import SQLInsertCompiler
from django.utils import timezone

from leaderboard.models import DealBest, FirstTry, Result
from tests.leaderboard.test_game_over import winnable_numbered
from tests.play.helpers import solution
from tripeaks.engine.rules import Rules
from tripeaks.infra.bulk_rows import insert_row, insert_rows
from tripeaks.play import deals, services
from tripeaks.play.dealday import deal_day
from tripeaks.play.models import Game

pytestmark = pytest.mark.django_db


@contextlib.contextmanager
def _orm_inserts() -> Iterator[list[str]]:
    """The tables the ORM compiled an INSERT for meanwhile."""
    compiled: list[str] = []
    execute_sql = SQLInsertCompiler.execute_sql

    def counted(self: SQLInsertCompiler, *args: Any, **kwargs: Any) -> Any:
        compiled.append(self.query.model._meta.db_table)
        return execute_sql(self, *args, **kwargs)

    SQLInsertCompiler.execute_sql = counted  # type: ignore[method-assign]
    try:
        yield compiled
    finally:
        SQLInsertCompiler.execute_sql = execute_sql  # type: ignore[method-assign]


def _played_to_the_end(user: Any, game: Game, line: list[dict[str, Any]]) -> None:
    for seq, step in enumerate(line):
        services.apply_move(game_id=game.pk, user=user, seq=seq, **step)


def test_a_start_and_a_ranked_finish_compile_no_orm_insert(make_player: Any) -> None:
    user = make_player("inserter")
    # A finished game first: the player's statistics rows are made (once a player, by the ORM).
    # (A winnable one: a numbered deal comes from the run's random DEAL_SECRET, and on an
    # unwinnable deal #1 the empty line left the game unfinished and the test failing at random.)
    numbered, line = winnable_numbered()
    first = services.start_game(user=user, mode="numbered", number=numbered.number, rules=Rules())
    _played_to_the_end(user, first, line)
    daily = solution(deals.daily_deal(deal_day(), Rules()))

    with _orm_inserts() as compiled:
        game = services.start_game(user=user, mode="daily", rules=Rules())
        _played_to_the_end(user, game, daily)

    result = Result.objects.get(game=game)
    assert result.won and result.attempt == "first-try"
    assert FirstTry.objects.filter(result=result).exists()
    assert DealBest.objects.filter(result=result).exists()
    assert compiled == []  # was the game's, the result's, the first try's and the best line's


def _columns(row: Model, *, but: tuple[str, ...]) -> dict[str, Any]:
    stored = type(row)._default_manager.filter(pk=row.pk).values().get()
    return {name: value for name, value in stored.items() if name not in ("id", *but)}


def test_an_inserted_row_is_the_row_create_stores(make_player: Any) -> None:
    ann, bob = make_player("ann"), make_player("bob")
    deal = deals.daily_deal(deal_day(), Rules())
    now = timezone.now()
    fields = {
        "deal": deal,
        "state": {"position": [0, 0, "7H"], "history": [[1, 2, None]], "moves": 0, "seq": 0},
        "cards_left": 28,
        "running_since": now,
        "address": "192.0.2.7",
        "created_at": now,
        "deadline": now,
        "finished_at": now,
    }
    made = Game.objects.create(player=ann, **fields)
    inserted = Game(player=bob, **fields)
    insert_row(inserted)
    assert not inserted._state.adding and inserted._state.db == made._state.db
    assert _columns(inserted, but=("player_id",)) == _columns(made, but=("player_id",))

    result_fields = {
        "deal": deal,
        "mode": "daily",
        "rules_key": deal.rules_key,
        "layout": "classic",
        "day": deal.day,
        "won": True,
        "cards_left": 0,
        "moves": 40,
        "time_ms": 61_000,
        "score": 300,
        "assisted": False,
        "ranked": True,
        "finished_at": now,
        "flag_reason": "why",
    }
    by_create = Result.objects.create(player=ann, game=made, **result_fields)
    by_insert = Result(player=bob, game=inserted, **result_fields)
    insert_row(by_insert)
    # The database's key is read back, as `create` reads it.
    assert isinstance(by_insert.pk, int) and by_insert.pk != by_create.pk
    assert Result.objects.get(pk=by_insert.pk).game_id == inserted.pk
    but = ("player_id", "game_id")
    assert _columns(by_insert, but=but) == _columns(by_create, but=but)


def test_rows_inserted_together_each_get_their_own_key_back(make_player: Any) -> None:
    """`insert_rows`: one statement for several rows, each reading back the key the database made
    for it (RETURNING gives them in the order of the VALUES)."""
    users = [make_player(f"many{i}") for i in range(3)]
    deal = deals.numbered_deal(2, Rules(), "classic")
    games = services.start_games(users=users, mode="numbered", rules=Rules(), deal=deal)
    now = timezone.now()
    results = [
        Result(
            player=game.player,
            game=game,
            deal=deal,
            mode="numbered",
            rules_key=deal.rules_key,
            layout="classic",
            won=False,
            cards_left=28 - i,
            moves=i,
            time_ms=1_000 * i,
            score=0,
            assisted=False,
            ranked=False,
            finished_at=now,
        )
        for i, game in enumerate(games)
    ]
    insert_rows(results)
    assert len({result.pk for result in results}) == 3
    for result in results:
        stored = Result.objects.get(pk=result.pk)
        assert (stored.game_id, stored.player_id, stored.cards_left) == (
            result.game_id,
            result.player_id,
            result.cards_left,
        )
        assert not result._state.adding
