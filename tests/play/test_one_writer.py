"""One module writes the game and move-log tables: tripeaks/play/recorder.py (with the statement
it runs, tripeaks/play/move_store.py). Checked twice: in the source, no other application module
calls a write of the ORM on `Game` or `Move`; and in the database's own traffic, every statement
that writes either table, on every route a move takes (REST, the locked path, a game's end, a new
game's resignation, a race's end, the clock's stop and start, the socket's group commit), comes
from a call of the recorder."""

from __future__ import annotations

import ast
import contextlib
import re
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from channels.db import database_sync_to_async
from django.db.backends import utils as db_utils
from django.utils import timezone

from tests.play.contests import begun_race, game_of
from tests.play.helpers import solution, winnable_code
from tripeaks.engine.rules import Rules
from tripeaks.play import deals, move_writer, services, steps
from tripeaks.play.dealday import deal_day
from tripeaks.play.models import Game, Move
from tripeaks.races import ending

ROOT = Path(__file__).resolve().parents[2]
APPLICATION = ("tripeaks", "leaderboard", "accounts", "frontend")
WRITER = "tripeaks/play/recorder.py"
ORM_WRITES = {
    "create",
    "update",
    "bulk_create",
    "bulk_update",
    "get_or_create",
    "update_or_create",
    "delete",
    "save",
}
TABLES = re.compile(
    rf"^\s*(WITH\b.*)?\b(INSERT\s+INTO|UPDATE|DELETE\s+FROM)\s+\"?({Game._meta.db_table}|"
    rf"{Move._meta.db_table})\b",
    re.IGNORECASE | re.DOTALL,
)
RECORDER = "tripeaks.play.recorder"


def _root_name(node: ast.expr) -> str | None:
    """`Game` of `Game.objects.filter(...).update`: the name a chain of calls starts from."""
    while True:
        if isinstance(node, ast.Attribute):
            node = node.value
        elif isinstance(node, ast.Call):
            node = node.func
        elif isinstance(node, ast.Name):
            return node.id
        else:
            return None


def _orm_writes(path: Path) -> list[str]:
    found = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
            continue
        if node.func.attr in ORM_WRITES and _root_name(node.func) in ("Game", "Move"):
            found.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    return found


def test_no_module_but_the_recorder_writes_games_or_moves_through_the_orm() -> None:
    sources = [
        path
        for package in APPLICATION
        for path in (ROOT / package).rglob("*.py")
        if "migrations" not in path.parts
    ]
    assert len(sources) > 100
    writes = [line for path in sources for line in _orm_writes(path)]
    assert writes and all(line.startswith(WRITER) for line in writes), writes


@contextlib.contextmanager
def _writes_traced() -> Iterator[list[tuple[str, bool]]]:
    """Every statement that writes the game or move-log table, on any connection of any thread,
    with whether the recorder was on the stack that sent it."""
    traced: list[tuple[str, bool]] = []
    execute = db_utils.CursorWrapper.execute

    def traced_execute(self: Any, sql: str, params: Any = None) -> Any:
        if TABLES.match(sql):
            frame: Any = sys._getframe(1)
            names = set()
            while frame is not None:
                names.add(frame.f_globals.get("__name__"))
                frame = frame.f_back
            traced.append((sql.split("(")[0][:60], RECORDER in names))
        return execute(self, sql, params)

    db_utils.CursorWrapper.execute = traced_execute  # type: ignore[method-assign]
    try:
        yield traced
    finally:
        db_utils.CursorWrapper.execute = execute  # type: ignore[method-assign]


def _every_locked_route(make_player: Any, settings: Any) -> None:
    user = make_player("router")
    deal = deals.daily_deal(deal_day(), Rules())
    game = services.start_game(user=user, mode="daily", rules=Rules())
    line = solution(deal)
    services.apply_move(game_id=game.pk, user=user, seq=0, **line[0])
    services.apply_move(game_id=game.pk, user=user, seq=1, action="pause")
    services.apply_move(game_id=game.pk, user=user, seq=2, action="resume")
    services.hide_game(game_id=game.pk, user=user)  # the clock's stop
    services.show_game(game_id=game.pk, user=user)  # its start again, logged as a resume
    # The next game resigns this one.
    code, _ = winnable_code()
    second = services.start_game(user=user, mode="custom", rules=Rules(), code=code)
    assert Game.objects.get(pk=game.pk).finished
    # A game-ending move worked out on a copy (the socket's).
    copy = Game.objects.select_related("deal", "player").get(pk=second.pk)
    step = steps.advance(
        copy, services.load_game_state(copy), action="resign", position=None, now=timezone.now()
    )
    assert services.finish_copy(game=copy, step=step, now=timezone.now()) is not None
    # A race's end resigns the games left.
    ann, bob = make_player("ann"), make_player("bob")
    race = begun_race(ann, bob, settings)
    ending.end_games(game_ids=[game_of(race, ann).pk, game_of(race, bob).pk])
    assert Game.objects.filter(contest=race.group, finished_at__isnull=True).count() == 0


@pytest.mark.django_db(transaction=True)
def test_every_locked_route_writes_games_and_moves_through_the_recorder(
    make_player: Any, settings: Any
) -> None:
    with _writes_traced() as traced:
        _every_locked_route(make_player, settings)
    kinds = {sql.split()[0].upper() for sql, _ in traced}
    assert {"INSERT", "WITH", "UPDATE"} <= kinds  # a start, a move, the clock's stop
    assert all(by_recorder for _, by_recorder in traced), traced


@pytest.mark.django_db(transaction=True)  # the writer's thread sees commits only
@pytest.mark.asyncio
async def test_the_group_commit_writes_through_the_recorder(make_player: Any) -> None:
    code, line = winnable_code()
    user = await database_sync_to_async(make_player)("grouped")
    game = await database_sync_to_async(services.start_game)(
        user=user, mode="custom", rules=Rules(), code=code
    )

    def worked_out() -> tuple[Game, steps.Step]:
        copy = Game.objects.select_related("deal").get(pk=game.pk)
        state = services.load_game_state(copy)
        return copy, steps.advance(copy, state, now=timezone.now(), **line[0])

    copy, step = await database_sync_to_async(worked_out)()
    with _writes_traced() as traced:
        stored = await move_writer.writer().store(copy, step)
    assert stored is not None and stored.seq == 1 and copy.seq == 0
    assert len(traced) == 1 and traced[0][1], traced
