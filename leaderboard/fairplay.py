"""Fair play: runs whose timing no human can match are held off the boards and flagged for staff;
staff can take a player off every board at once.

The timing is measured from the move log's *server* timestamps (``Move.at``), so nothing the
client sends can make a run look slower or faster than it was played.
"""

from __future__ import annotations

import functools
from datetime import datetime
from typing import Any

from django.conf import settings
from django.db import connection

TIMED_ACTIONS = ("play", "draw", "undo")


def timing(game_id: Any) -> tuple[str, list[Any]]:
    """A finished game's timed moves as SQL columns, with their parameters: how many
    (``timed_moves``), when the first and when the last was played (``first_timed_at``,
    ``last_timed_at``: ``Move.at`` in ``seq`` order). ``record_result`` asks them in the query that
    locks the player's statistics rows, which runs anyway; `timing_flag` reads the answers."""
    from tripeaks.play.models import Move

    game = Move.game.field.get_db_prep_value(game_id, connection)
    return _timing_sql(), [game, *TIMED_ACTIONS] * 3


@functools.cache
def _timing_sql() -> str:
    from tripeaks.play.models import Move

    quote = connection.ops.quote_name
    game, action, seq, at = (
        quote(field.column)
        for field in (Move.game.field, Move.action.field, Move.seq.field, Move.at.field)
    )
    timed = (
        f" FROM {quote(Move._meta.db_table)} m WHERE m.{game} = %s"
        f" AND m.{action} IN ({', '.join(['%s'] * len(TIMED_ACTIONS))})"
    )
    return (
        f"(SELECT COUNT(*){timed}) AS timed_moves,"
        f" (SELECT m.{at}{timed} ORDER BY m.{seq} LIMIT 1) AS first_timed_at,"
        f" (SELECT m.{at}{timed} ORDER BY m.{seq} DESC LIMIT 1) AS last_timed_at"
    )


def timing_flag(moves: int | None, first: datetime | None, last: datetime | None) -> str:
    """Why a finished game's timing (its `timing`) is not humanly possible, or "" when it is."""
    floor_ms = settings.FAIR_PLAY_MIN_MS_PER_MOVE
    if floor_ms <= 0 or first is None or last is None:
        return ""
    moves = moves or 0
    if moves < max(2, settings.FAIR_PLAY_MIN_MOVES):
        return ""
    average_ms = (last - first).total_seconds() * 1000 / (moves - 1)
    if average_ms >= floor_ms:
        return ""
    return f"{moves} moves at {average_ms:.0f} ms a move on average (under {floor_ms} ms)"


def excluded(player_id: Any) -> tuple[str, list[Any]]:
    """Whether staff took the player off the boards, or the player is a guest, as an SQL column
    (``excluded``) with its parameters: ``record_result`` asks it in the query that locks the
    player's statistics rows, which runs anyway."""
    from leaderboard.models import BoardExclusion

    player = BoardExclusion.player.field.get_db_prep_value(player_id, connection)
    return _excluded_sql(), [player, player]


@functools.cache
def _excluded_sql() -> str:
    from leaderboard.models import BoardExclusion

    quote = connection.ops.quote_name
    player = quote(BoardExclusion.player.field.column)
    table = quote(BoardExclusion._meta.db_table)
    return f"(EXISTS (SELECT 1 FROM {table} x WHERE x.{player} = %s) OR {_guest_sql()}) AS excluded"


def _guest_sql() -> str:
    """Guests (accounts, issue 20) never rank: their runs are held off the boards like those of
    an excluded player, and stay so after the guest signs up."""
    from django.contrib.auth import get_user_model

    user = get_user_model()
    quote = connection.ops.quote_name
    guest = quote(user._meta.get_field("is_guest").column)
    return (
        f"EXISTS (SELECT 1 FROM {quote(user._meta.db_table)} g"
        f" WHERE g.{quote(user._meta.pk.column)} = %s AND g.{guest})"
    )
