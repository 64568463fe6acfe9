"""A game's end and the next start adapt their rows' values without Django's chain of calls where
it would give them back unchanged (`bulk_rows`' columns), and read their hand-written rows with
converters worked out once (`model_rows.Selected`): issue #37 item 4, a game's end and the next
start were a quarter of the server's CPU. The values are Django's, to the type."""

from __future__ import annotations

import sys
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, date, datetime, timedelta
from datetime import timezone as fixed_zone
from types import FrameType
from typing import Any
from uuid import UUID

import pytest
from django.db import connection
from django.db.models import Model
from django.utils import timezone

from leaderboard import live as live_board
from leaderboard.models import DealBest, FirstTry, PlayerStats, Result
from tests.play.helpers import solution
from tripeaks.engine.rules import Rules
from tripeaks.play import deals, services, steps
from tripeaks.play.dealday import deal_day
from tripeaks.play.models import Game

pytestmark = pytest.mark.django_db

SAMPLES: list[Any] = [
    *(None, 0, 7, -3, 2**40, True, False, "", "x", "2", date(2026, 1, 2)),
    *(1.5, -0.0, UUID(int=7), datetime(2026, 1, 2, 3, tzinfo=UTC)),
    datetime(2026, 1, 2, 3, tzinfo=fixed_zone(timedelta(hours=-5))),
]
MODELS: list[type[Model]] = [Game, Result, DealBest, FirstTry, PlayerStats]


def _django(field: Any, value: Any) -> tuple[bool, Any]:
    try:
        return True, field.get_db_prep_save(value, connection)
    except Exception as error:  # noqa: BLE001 (a value the field refuses: compared as refused)
        return False, type(error)


@pytest.mark.parametrize("model", MODELS, ids=lambda model: model.__name__)
def test_every_column_is_adapted_as_django_adapts_it(model: type[Model]) -> None:
    from tripeaks.infra.bulk_rows import _Column

    for field in model._meta.concrete_fields:
        column = _Column.of(field, connection.ops)
        for value in SAMPLES:
            kind = type(value)
            if kind in column.kept:
                assert _django(field, value) == (True, value), (field, value)
                assert type(_django(field, value)[1]) is kind
            elif kind is int and column.sized is not None:
                ok, made = _django(field, value)
                assert ok and made == column.sized(value), (field, value)
                assert type(made) is type(column.sized(value))
            elif kind is datetime and column.aware:  # an aware datetime, kept as it is
                ok, made = _django(field, value)
                assert ok and made is value, (field, value)


@contextmanager
def _calls(names: set[str]) -> Iterator[Counter[str]]:
    """How many times functions of these names were called meanwhile."""
    counted: Counter[str] = Counter()

    def profile(frame: FrameType, event: str, _arg: object) -> None:
        if event == "call" and frame.f_code.co_name in names:
            counted[frame.f_code.co_name] += 1

    sys.setprofile(profile)
    try:
        yield counted
    finally:
        sys.setprofile(None)


ADAPTING = {"get_db_prep_save", "get_db_converters"}


def _finish(
    user: Any, game: Game, moves: list[dict[str, Any]], last: dict[str, Any]
) -> Callable[[], Any]:
    for seq, step in enumerate(moves):
        services.apply_move(game_id=game.pk, user=user, seq=seq, **step)
    copy = Game.objects.select_related("deal", "player").get(pk=game.pk)
    state, now = services.load_game_state(copy), timezone.now()
    step = steps.advance(copy, state, action=last["action"], position=last.get("position"), now=now)

    def finish() -> Any:
        with live_board.held_sends():
            return services.finish_copy(game=copy, step=step, now=now)

    return finish


def test_a_game_end_and_the_next_start_adapt_few_values(make_player: Any) -> None:
    user = make_player("adapter")
    request: Any = {"mode": "daily", "layout": "classic", "rules": Rules()}
    line = solution(deals.daily_deal(deal_day(), Rules()))
    game = services.start_requested_game(user, request)
    _finish(user, game, line[:-1], line[-1])()  # the first try: rows made, statements cached
    game = services.start_requested_game(user, request)
    finish = _finish(user, game, line[:2], {"action": "resign"})  # a practice run, lost

    with _calls(ADAPTING) as ended:
        assert finish() is not None
    with _calls(ADAPTING) as started:
        services.start_requested_game(user, request)

    # Converters asked of none of the columns read (the statistics rows and the board line: the
    # start's are its deal's, read by the ORM in a test's transaction, from a cache in a server);
    # Django's adaptation left to the values it changes (times, the state's JSON, keys).
    assert ended["get_db_converters"] == 0, ended  # was 134
    assert ended["get_db_prep_save"] <= 15, ended  # was 68
    assert started["get_db_prep_save"] <= 10, started  # was 25
