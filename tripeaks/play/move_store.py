"""What a stored move writes, derived from the models, and the one statement that writes it.

A move is stored as two rows: its move-log row (`Move`) and its game row as the move's step
(`play/steps.py`) leaves it. `write` stores any number of them, one per game, with one statement
(`batch_statement`): each game row is updated, every concrete field of `Game` but its key, only
where it is still at the seq the step was worked out from and unfinished, and the move-log rows
of the games updated are appended. `play/recorder.py` is its one caller: one move under the
game's row lock (the guard then always holds) or a batch of sockets' moves (the group commit,
`play/move_writer.py`).

A field added to the model is stored without a change here; tests/play/test_move_store.py holds
the columns to the tables. Writing the whole row is safe because every write of a game moves its
`seq` on: a row guarded at the seq the game was read at is the row as it was read. One write does
not: the clock's stop when the game's last socket closes (`recorder.bank_clock`); a socket's copy
still open elsewhere writes its clock over that stop, rightly, as its screen still shows the cards.
"""

from __future__ import annotations

import functools
import operator
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any
from uuid import UUID

import orjson
from django.db import connection
from django.db.models import Field

from tripeaks.infra.bulk_rows import bound_cursor
from tripeaks.play.models import Game, Move


@dataclass(frozen=True, slots=True)
class LoggedMove:
    """A move-log row worked out in memory: `Move`'s fields but its key and its game (a plain
    record: building a model instance for every socket move cost more than storing it)."""

    seq: int
    action: str
    position: int | None
    at: datetime
    elapsed_ms: int


@functools.cache
def game_fields() -> tuple[Field[Any, Any], ...]:
    """The game columns a move writes: every concrete field of `Game` but its key."""
    return tuple(field for field in Game._meta.concrete_fields if not field.primary_key)


@functools.cache
def log_fields() -> tuple[Field[Any, Any], ...]:
    """The move-log columns a move writes, its game first: every concrete field of `Move` but its
    key. The rest are `LoggedMove`'s fields, by name."""
    fields = [field for field in Move._meta.concrete_fields if not field.primary_key]
    return tuple(sorted(fields, key=lambda field: field.name != "game"))


def _pk() -> Field[Any, Any]:
    pk = Game._meta.pk
    assert pk is not None
    return pk


# A batch: one JSON array of records, keyed by the columns. A move-log column
# goes by this prefix and its name (the game row has a `seq` and an `elapsed_ms` of its own).
_LOG = "log_"
_ID = "id"
_EXPECTED_SEQ = "expected_seq"


@functools.cache
def _batch_keys() -> tuple[tuple[tuple[str, str], ...], tuple[tuple[str, str], ...]]:
    """(record key, attribute) of the game's fields, then of `LoggedMove`'s."""
    return (
        tuple((field.column, field.attname) for field in game_fields()),
        tuple((_LOG + field.column, field.attname) for field in log_fields()[1:]),
    )


def write(rows: Sequence[tuple[Game, int, LoggedMove]]) -> set[UUID]:
    """Store each (game as it now stands, the seq it was worked out from, its move-log row) on
    Django's connection, in the caller's transaction or as a transaction of its own: the ids of
    the games whose rows were still at their seq, and so stored."""
    records = [batch_record(game, expected_seq, move) for game, expected_seq, move in rows]
    # Bound on the server: prepared on each connection after a few runs (Django's own cursor
    # had PostgreSQL parse and plan it again for every move).
    with bound_cursor() as cursor:
        cursor.execute(batch_statement(), batch_arguments(records))
        return {game_id for (game_id,) in cursor.fetchall()}


@dataclass(frozen=True, slots=True)
class _RecordReader:
    """`batch_record`'s reads, made once: the record's keys and one C getter for the values of
    each side (a `getattr` a column and a dict comprehension made 30 Python calls a move in the
    writer's thread)."""

    game_keys: tuple[str, ...]
    game_values: Callable[[Game], tuple[object, ...]]
    log_keys: tuple[str, ...]
    log_values: Callable[[LoggedMove], tuple[object, ...]]


def _values_of(names: tuple[str, ...]) -> Callable[[Any], tuple[object, ...]]:
    read = operator.attrgetter(*names)
    if len(names) == 1:  # (`attrgetter` of one name gives the value itself)
        return lambda instance: (read(instance),)
    return read


@functools.cache
def _record_reader() -> _RecordReader:
    games, logged = _batch_keys()
    return _RecordReader(
        tuple(key for key, _ in games),
        _values_of(tuple(name for _, name in games)),
        tuple(key for key, _ in logged),
        _values_of(tuple(name for _, name in logged)),
    )


def batch_record(game: Game, expected_seq: int, move: LoggedMove) -> dict[str, object]:
    """One game's row and move-log row for `batch_statement`, as the JSON document carries them."""
    reader = _record_reader()
    record = dict(zip(reader.game_keys, reader.game_values(game), strict=True))
    record[_ID] = game.pk
    record[_EXPECTED_SEQ] = expected_seq
    record.update(zip(reader.log_keys, reader.log_values(move), strict=True))
    return record


def batch_arguments(records: list[dict[str, object]]) -> list[str | list[object]]:
    """`batch_statement`'s parameters: the records as one JSON document, and their games' keys."""
    # orjson writes UUIDs and aware datetimes as PostgreSQL reads them; `str` for anything else
    # (a Decimal, a date), which PostgreSQL reads by the column's type as well.
    return [orjson.dumps(records, default=str).decode(), [record[_ID] for record in records]]


@functools.cache
def batch_statement() -> str:
    """Many games' moves in one statement from `batch_arguments`: each game row updated with
    every field only where it is still at its record's `expected_seq` and
    unfinished, and the move-log rows of the games updated appended. It returns their ids.

    The keys come again as an array: the planner takes the JSON document for 100 rows and found
    the games by the partial index of unfinished games, reading every unfinished game's row for
    each batch (1,000 rows a batch with 1,000 racers playing); by the array it reads the batch's.
    The array goes in binary (`%b`): psycopg's text form of a list checks each element with a
    regular expression (67 keys: 326 us against 64 us)."""
    quote = connection.ops.quote_name
    pk, seq, player, finished = (
        _pk(),
        Game._meta.get_field("seq"),
        Game._meta.get_field("player"),
        Game._meta.get_field("finished_at"),
    )
    definitions = [
        (_ID, pk.db_type(connection)),
        (_EXPECTED_SEQ, seq.db_type(connection)),
        *((field.column, field.db_type(connection)) for field in game_fields()),
        *((_LOG + field.column, field.db_type(connection)) for field in log_fields()[1:]),
    ]
    typed = ", ".join(f"{quote(key)} {kind}" for key, kind in definitions)
    columns = ", ".join(
        f"{quote(field.column)} = m.{quote(field.column)}" for field in game_fields()
    )
    logged = ", ".join(quote(field.column) for field in log_fields())
    values = ", ".join(
        [f"m.{quote(_ID)}", *(f"m.{quote(_LOG + field.column)}" for field in log_fields()[1:])]
    )
    games, moves = quote(Game._meta.db_table), quote(Move._meta.db_table)
    # The batch travels as one JSON document: encoding it beats adapting an array per column.
    return f"""
WITH incoming AS (SELECT * FROM json_to_recordset(%s::json) AS m({typed})),
applied AS (
    UPDATE {games} AS g SET {columns}
    FROM incoming AS m
    WHERE g.{quote(pk.column)} = m.{quote(_ID)}
        AND g.{quote(player.column)} = m.{quote(player.column)}
        AND g.{quote(seq.column)} = m.{quote(_EXPECTED_SEQ)}
        AND g.{quote(finished.column)} IS NULL
        AND g.{quote(pk.column)} = ANY(%b)
    RETURNING g.{quote(pk.column)} AS {quote(_ID)}
)
INSERT INTO {moves} ({logged})
SELECT {values}
FROM incoming AS m JOIN applied USING ({quote(_ID)})
RETURNING {quote(Move._meta.get_field("game").column)}"""
