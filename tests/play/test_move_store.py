"""The two ways the recorder stores a move (tripeaks/play/recorder.py) write the same rows: one
move under its game's lock (`record_move`) and the socket's group commit (the move writer). Both
take the one statement of tripeaks/play/move_store.py, whose columns come from the models, so a
field added to Game is stored by both or the tests here fail."""

from __future__ import annotations

import dataclasses
import sys
from datetime import timedelta
from typing import Any

import pytest
from channels.db import database_sync_to_async
from django.db import connection, transaction
from django.utils import timezone

from tests.play.helpers import winnable_code
from tripeaks.engine.rules import Rules
from tripeaks.play import move_store, move_writer, recorder, services, steps
from tripeaks.play.models import Game, Move

# What differs between two games however they were stored: who and which.
WHO = {"id", "player_id"}


def _table_columns(table: str) -> set[str]:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT column_name FROM information_schema.columns WHERE table_name = %s", [table]
        )
        return {name for (name,) in cursor.fetchall()}


@pytest.mark.django_db
def test_every_column_of_the_game_table_is_written_by_both_routes() -> None:
    """The columns come from the model; the model is what the migrations made of the table."""
    game_columns = _table_columns(Game._meta.db_table) - {"id"}
    assert {field.column for field in move_store.game_fields()} == game_columns
    model_fields = [f for f in Game._meta.concrete_fields if not f.primary_key]
    assert list(move_store.game_fields()) == model_fields
    batched = move_store.batch_statement()
    for column in game_columns:
        assert f'"{column}" = m."{column}"' in batched
    # Each batch record carries every one of them.
    game = Game(player_id=1, deal_id=1, state={}, cards_left=52)
    move = move_store.LoggedMove(
        seq=1, action="draw", position=None, at=timezone.now(), elapsed_ms=0
    )
    assert game_columns <= set(move_store.batch_record(game, 0, move))


def test_a_batch_record_reads_its_columns_with_no_call_each() -> None:
    """The group commit's thread makes a record a move: it read every column with a `getattr`
    of its own in a Python comprehension (some 30 calls a move); now one C getter a side."""
    game = Game(player_id=1, deal_id=1, state={}, cards_left=52)
    move = move_store.LoggedMove(
        seq=1, action="draw", position=None, at=timezone.now(), elapsed_ms=0
    )
    move_store.batch_record(game, 0, move)  # (what is made once, made)
    calls: list[str] = []

    def counted(frame: Any, event: str, arg: Any) -> None:
        if event in ("call", "c_call"):
            calls.append(getattr(arg, "__name__", frame.f_code.co_name))

    sys.setprofile(counted)
    try:
        record = move_store.batch_record(game, 7, move)
    finally:
        sys.setprofile(None)
    assert len(calls) <= 12, calls
    expected = {field.column: getattr(game, field.attname) for field in move_store.game_fields()}
    expected.update(id=game.pk, expected_seq=7)
    expected.update(
        {f"log_{f.column}": getattr(move, f.attname) for f in move_store.log_fields()[1:]}
    )
    assert record == expected and list(record) == list(expected)


@pytest.mark.django_db
def test_every_column_of_the_move_log_is_written_by_both_routes() -> None:
    log_columns = _table_columns(Move._meta.db_table) - {"id"}
    assert {field.column for field in move_store.log_fields()} == log_columns
    # The move worked out in memory has every move-log field but the game (and the key).
    names = {field.name for field in dataclasses.fields(move_store.LoggedMove)}
    assert names == {field.attname for field in move_store.log_fields()} - {"game_id"}
    for column in log_columns - {"game_id"}:
        assert f'"log_{column}"' in move_store.batch_statement()


def _start_twins(code: str, make_player: Any) -> tuple[Game, Game]:
    """Two players' games on one deal, shown at the same moment: rows equal but for who (a
    custom start makes a deal row of its own: the second game takes the first one's)."""
    first = services.start_game(user=make_player("locked"), mode="custom", rules=Rules(), code=code)
    second = services.start_game(
        user=make_player("grouped"), mode="custom", rules=Rules(), code=code
    )
    Game.objects.filter(pk=second.pk).update(
        deal=first.deal, created_at=first.created_at, running_since=first.running_since
    )
    return first, second


def _worked_out(game_id: Any, action: str, position: int | None, now: Any) -> tuple[Game, Any]:
    game = Game.objects.select_related("deal").get(pk=game_id)
    step = steps.advance(
        game, services.load_game_state(game), action=action, position=position, now=now
    )
    return game, step


def _store_locked(game_id: Any, action: str, position: int | None, now: Any) -> None:
    with transaction.atomic():
        Game.objects.select_for_update().filter(pk=game_id).get()
        game, step = _worked_out(game_id, action, position, now)
        recorder.record_move(game=game, step=step)


def _stored(game_id: Any) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    row = Game.objects.filter(pk=game_id).values().get()
    log = list(
        Move.objects.filter(game_id=game_id)
        .order_by("seq")
        .values("seq", "action", "position", "at", "elapsed_ms")
    )
    return {column: value for column, value in row.items() if column not in WHO}, log


@pytest.mark.django_db(transaction=True)  # the writer has its own connection: it sees commits only
@pytest.mark.asyncio
async def test_a_line_stored_by_the_locked_path_and_by_group_commit_gives_the_same_rows(
    make_player: Any,
) -> None:
    """The same actions at the same moments on two games of one deal, one stored by
    `record_move`, the other by the move writer: every column but who and which is equal, so a
    column `advance` changes that one route did not write would differ."""
    code, line = winnable_code()
    locked, grouped = await database_sync_to_async(_start_twins)(code, make_player)
    # Every kind of action the copy and the locked path work out, and what each changes: the
    # clock starting, a pause and a resume, a hint (hints, assisted), an undo and a restart.
    actions = [
        *line[:3],
        {"action": "pause"},
        {"action": "resume"},
        {"action": "hint"},
        {"action": "undo"},
        *line[3:5],
        {"action": "restart"},
        *line[:2],
    ]
    moment = timezone.now()
    for index, action in enumerate(actions):
        now = moment + timedelta(seconds=index, microseconds=1234)
        name, position = action["action"], action.get("position")
        await database_sync_to_async(_store_locked)(locked.pk, name, position, now)
        game, step = await database_sync_to_async(_worked_out)(grouped.pk, name, position, now)
        assert await move_writer.writer().store(game, step)

    locked_row, locked_log = await database_sync_to_async(_stored)(locked.pk)
    grouped_row, grouped_log = await database_sync_to_async(_stored)(grouped.pk)
    assert locked_row["seq"] == len(actions) and locked_row["hints"] == 1
    assert locked_row["started_at"] is not None and locked_row["elapsed_ms"] > 0
    assert grouped_row == locked_row
    assert grouped_log == locked_log


def _game_rows_read(plan: dict[str, Any]) -> int:
    """Rows the plan's scans of the game table produced (not its update)."""
    scan = plan.get("Relation Name") == Game._meta.db_table and "Scan" in plan["Node Type"]
    own = plan["Actual Rows"] if scan else 0
    return own + sum(_game_rows_read(child) for child in plan.get("Plans", []))


def _plan(statement: str, arguments: list[Any], generic: bool) -> dict[str, Any]:
    """The executed plan of `statement` (rolled back), with the parameters as a one-off query
    binds them or as a prepared statement's generic plan (what a connection reusing the
    statement gets)."""
    with transaction.atomic(), connection.cursor() as cursor:
        if generic:
            numbered = statement.replace("%s", "$1", 1).replace("%b", "$2", 1)
            cursor.execute("SET LOCAL plan_cache_mode = force_generic_plan")
            cursor.execute(f"PREPARE batch_plan(json, uuid[]) AS {numbered}")
            cursor.execute("EXPLAIN (ANALYZE, FORMAT JSON) EXECUTE batch_plan(%s, %s)", arguments)
        else:
            cursor.execute(f"EXPLAIN (ANALYZE, FORMAT JSON) {statement}", arguments)
        (explained,) = cursor.fetchone()
        if generic:
            cursor.execute("DEALLOCATE batch_plan")
        transaction.set_rollback(True)
    plan: dict[str, Any] = (explained if isinstance(explained, list) else [explained])[0]["Plan"]
    return plan


@pytest.mark.django_db
@pytest.mark.parametrize("generic", [False, True], ids=["one-off", "prepared"])
def test_a_batch_reads_its_own_games_rows_however_many_games_are_unfinished(
    make_player: Any, generic: bool
) -> None:
    """The guard `finished_at IS NULL` matches a partial index (one unfinished game a player):
    a batch of one move that found its game through it read every unfinished game's row (seen
    at 1,000 racers: 1,000 rows a batch). It must read its own."""
    code, line = winnable_code()
    games = [
        services.start_game(user=make_player(f"p{i}"), mode="custom", rules=Rules(), code=code)
        for i in range(40)
    ]
    with connection.cursor() as cursor:
        cursor.execute(f"ANALYZE {Game._meta.db_table}")
    now = timezone.now()
    game, step = _worked_out(games[0].pk, line[0]["action"], line[0].get("position"), now)
    stored = step.applied_to(game)
    arguments = move_store.batch_arguments([move_store.batch_record(stored, 0, step.move)])
    plan = _plan(move_store.batch_statement(), arguments, generic)
    assert plan["Actual Rows"] == 1  # the move was stored
    assert _game_rows_read(plan) == 1
