"""Write paths of the leaderboard: the one call through which play reports a finished game.

``record_result(game=...)`` runs inside the transaction that finishes the game. Locks, always in
this order so two finishing games never deadlock:

1. the player's statistics rows (``SELECT ... FOR UPDATE``, ordered by rules key), before the
   result is stored: a per-player mutex, so the player's bests and streaks are updated by one
   transaction at a time;
2. the deal's ``DealRecord`` row (only for daily and numbered deals, only for runs that rank),
   on PostgreSQL by the transaction's last statement (``record_row``: every finish on the deal
   takes turns on that row, so it is held as briefly as possible).

Each statement is a round trip that, under load, waits for the thread to run again, so a ranked
finish of a returning player makes six: lock their statistics rows (the same query asks what fair
play must know before the result is stored, hence the lock first: whether staff took them off the
boards, whether this is their first try at the deal, whether they took a hint on it, whether
another account played it today from their device or address, and the move log's timing: see
``fairplay``), insert the result, update both statistics rows (one statement), read their line on
the deal's board, write it, settle the deal's record. A daily first try writes its first-try line
too (one more statement, once per player and deal).

What happens after commit is best-effort (the channel layer and the Redis rank cache): a failure
there is logged and never fails the finishing move.
"""

from __future__ import annotations

import contextlib
import functools
import logging
from collections.abc import Sequence
from datetime import date, timedelta
from typing import TYPE_CHECKING, Any, TypeVar

from django.db import connection, transaction
from django.db.models import Model, Q
from django.db.models.expressions import Col

from leaderboard import cache, fairplay, record_row
from leaderboard.boards import improves
from leaderboard.models import (
    ALL_RULES,
    BOARD_MODES,
    Attempt,
    BoardExclusion,
    DealBest,
    DealRecord,
    FirstTry,
    PlayerStats,
    Result,
)
from leaderboard.standing import Standing
from tripeaks.infra.bulk_rows import update_rows
from tripeaks.infra.row_locks import for_update

if TYPE_CHECKING:
    from tripeaks.play.models import Game

log = logging.getLogger("tripeaks.events")

# Results the all-time boards count (``Result.counts_all_time``, as a filter).
ALL_TIME_RUNS = Q(ranked=True, attempt=Attempt.FIRST_TRY, assisted=False, hidden=False, held=False)

_Row = TypeVar("_Row", bound=Model)


def record_result(*, game: Game) -> Result:
    """Store a finished game's result and update bests, records and statistics (same transaction)."""
    assert game.finished_at is not None
    deal = game.deal
    ranked = deal.source != "custom"
    # Issues 7 and 15: a run no human could play, or by a player staff took off the boards, is
    # kept (it counts in statistics) but held off every board and record; so is a run on a deal
    # the player has seen the answer to, and (until staff accept it) a possible second account's.
    stats, facts = _lock_stats(game, deal.rules_key) if ranked else ([], fairplay.Facts())
    if facts.flag_reason:
        log.warning(
            "run flagged for staff",
            extra={"game": str(game.pk), "user": game.player_id, "reason": facts.flag_reason},
        )
    attempt = Attempt.FIRST_TRY
    if not ranked or facts.seen_answer:
        attempt = Attempt.UNRANKED
    elif facts.earlier:
        attempt = Attempt.PRACTICE
    hold_reason = facts.hold_reason if deal.source in BOARD_MODES else fairplay.contest_hold(game)
    if hold_reason and attempt != Attempt.UNRANKED:
        log.warning(
            "run held for review",
            extra={"game": str(game.pk), "user": game.player_id, "reason": hold_reason},
        )
    else:
        hold_reason = ""
    result = Result.objects.create(
        player_id=game.player_id,
        game=game,
        deal_id=game.deal_id,
        mode=deal.source,
        rules_key=deal.rules_key,
        layout=deal.layout,
        day=deal.day if deal.source == "daily" else None,
        number=deal.number if deal.source == "numbered" else None,
        won=game.status == "won",
        cards_left=game.cards_left,
        moves=game.moves,
        time_ms=game.elapsed_ms,
        score=game.score,
        assisted=game.assisted,
        ranked=ranked,
        hidden=bool(facts.flag_reason) or facts.excluded,
        flagged=bool(facts.flag_reason),
        flag_reason=facts.flag_reason[:200],
        attempt=attempt,
        held=bool(hold_reason),
        hold_reason=hold_reason,
        finished_at=game.finished_at,
    )
    if not ranked:
        return result
    result.standing = Standing(stats=_count_in_stats(result, stats))
    if result.mode in BOARD_MODES and result.on_boards:
        if result.mode == "daily" and result.attempt == Attempt.FIRST_TRY:
            # Its live update goes out with the best line's, once the record has its version.
            result.standing.first_try = FirstTry.objects.create(
                player_id=result.player_id,
                deal_id=result.deal_id,
                mode=result.mode,
                rules_key=result.rules_key,
                **_line_fields(result),
            )
        _rank(result, result.standing, game)
    return result


# --------------------------------------------------------------------------- statistics


def _lock_stats(game: Game, rules_key: str) -> tuple[Sequence[PlayerStats], fairplay.Facts]:
    """The player's statistics rows of the rule set and overall, locked (made for a new player),
    and what fair play must know of the run (``fairplay``), asked in the query that locks them."""
    player_id = game.player_id
    wanted = sorted({rules_key, ALL_RULES})
    answers_sql, answers_params = fairplay.columns(game)
    sql, columns = _lock_stats_sql(len(wanted), answers_sql)
    player = PlayerStats.player.field.get_db_prep_value(player_id, connection)
    params = [*answers_params, player, *wanted]
    rows = _select(PlayerStats, sql, columns, params)
    if len(rows) != len(wanted):  # a new player: make their rows
        PlayerStats.objects.bulk_create(
            [PlayerStats(player_id=player_id, rules_key=key) for key in wanted],
            ignore_conflicts=True,
        )
        rows = _select(PlayerStats, sql, columns, params)
    facts = fairplay.facts(game, rows[0][1])  # the same on every row
    return [stats for stats, _ in rows], facts


@functools.cache
def _lock_stats_sql(keys: int, answers: str) -> tuple[str, list[Col]]:
    """``SELECT ... FOR UPDATE`` of a player's statistics rows of `keys` rule keys, in rules key
    order, with the `answers` columns of ``fairplay``; and what each column holds."""
    quote = connection.ops.quote_name
    meta = PlayerStats._meta
    player, rules_key = (
        quote(PlayerStats.player.field.column),
        quote(PlayerStats.rules_key.field.column),
    )
    sql = (
        f"SELECT {', '.join(f's.{quote(field.column)}' for field in meta.concrete_fields)},"
        f" {answers}"
        f" FROM {quote(meta.db_table)} s WHERE s.{player} = %s"
        f" AND s.{rules_key} IN ({', '.join(['%s'] * keys)})"
        f" ORDER BY s.{rules_key}{for_update(of='s')}"
    )
    columns = [field.get_col("s") for field in meta.concrete_fields]
    return sql, [*columns, *fairplay.answer_types()]


def _select(
    model: type[_Row], sql: str, columns: Sequence[Col], params: Sequence[Any]
) -> list[tuple[_Row, tuple[Any, ...]]]:
    """The rows of `sql`, whose `columns` are the model's concrete fields (in order), then any
    more: an instance of each row with the values of the rest, all converted as the ORM would.
    Hand-written SQL, as on the finishing path the ORM's compile costs more CPU than the round
    trip."""
    ops = connection.ops
    converters = [
        (i, column, funcs)
        for i, column in enumerate(columns)
        if (funcs := ops.get_db_converters(column) + column.get_db_converters(connection))
    ]
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        rows = cursor.fetchall()
    names = [field.attname for field in model._meta.concrete_fields]
    selected = []
    for row in rows:
        values = list(row)
        for i, column, funcs in converters:
            for convert in funcs:
                values[i] = convert(values[i], column, connection)
        instance = model.from_db(connection.alias, names, values[: len(names)])
        selected.append((instance, tuple(values[len(names) :])))
    return selected


def _count_in_stats(result: Result, rows: Sequence[PlayerStats]) -> PlayerStats | None:
    """Count the result in the player's locked statistics rows; their row of its rule set."""
    own = None
    for stats in rows:
        stats.played += 1
        if result.won:
            stats.won += 1
            stats.current_streak += 1
            stats.best_streak = max(stats.best_streak, stats.current_streak)
            stats.total_win_ms += result.time_ms
            if stats.best_win_ms is None or result.time_ms < stats.best_win_ms:
                stats.best_win_ms = result.time_ms
        else:
            stats.current_streak = 0
        stats.win_rate = stats.won / stats.played
        if result.won and result.mode == "daily" and result.day is not None:
            _count_daily_win(stats, result.day)
        if result.counts_all_time:
            _count_on_boards(stats, result)
        if stats.rules_key == result.rules_key:
            own = stats
    _store_stats(rows)
    return own


def _store_stats(rows: Sequence[PlayerStats]) -> None:
    """Write the counted rows with one statement: every column ``save()`` writes but the identity
    (player, rule set), never counted."""
    update_rows(rows, _COUNTED)


_COUNTED = [
    field.name
    for field in PlayerStats._meta.concrete_fields
    if not field.primary_key and field.name not in ("player", "rules_key")
]


def _count_daily_win(stats: PlayerStats, day: date) -> None:
    last = stats.last_daily_day
    if last == day:
        return  # that day was already won
    if last is None or day > last:
        stats.daily_streak = stats.daily_streak + 1 if last == day - timedelta(days=1) else 1
        stats.last_daily_day = day
        stats.daily_won += 1
        stats.best_daily_streak = max(stats.best_daily_streak, stats.daily_streak)
        return
    # An older day won after a newer one (rare: a game finished after the next day's): count
    # the won days again from the results, which already include this one.
    days = won_daily_days(stats.player_id, stats.rules_key)
    stats.daily_won = len(days)
    stats.daily_streak, stats.best_daily_streak = daily_streaks(days)
    stats.last_daily_day = days[-1] if days else None


def _count_on_boards(stats: PlayerStats, result: Result) -> None:
    """Count a clean first try in what the all-time boards rank (``board_*``)."""
    stats.board_played += 1
    stats.board_won += result.won
    stats.board_win_rate = stats.board_won / stats.board_played
    if not (result.won and result.mode == "daily" and result.day is not None):
        return
    last, day = stats.board_last_daily_day, result.day
    if last == day:
        return
    if last is None or day > last:
        streak = stats.board_daily_streak + 1 if last == day - timedelta(days=1) else 1
        stats.board_daily_streak, stats.board_last_daily_day = streak, day
        stats.board_daily_won += 1
        stats.board_best_daily_streak = max(stats.board_best_daily_streak, streak)
        return
    days = won_daily_days(stats.player_id, stats.rules_key, all_time_boards=True)
    stats.board_daily_won = len(days)
    stats.board_daily_streak, stats.board_best_daily_streak = daily_streaks(days)
    stats.board_last_daily_day = days[-1] if days else None


def won_daily_days(player_id: int, rules_key: str, *, all_time_boards: bool = False) -> list[date]:
    """The days whose daily deal the player won (`all_time_boards`: with a clean first try)."""
    results = Result.objects.filter(player_id=player_id, mode="daily", won=True, ranked=True)
    if all_time_boards:
        results = results.filter(ALL_TIME_RUNS)
    if rules_key != ALL_RULES:
        results = results.filter(rules_key=rules_key)
    return sorted({day for day in results.values_list("day", flat=True) if day is not None})


def daily_streaks(days: list[date]) -> tuple[int, int]:
    """(the run of consecutive days ending at the last one, the longest run) of sorted days."""
    run = best = 0
    previous: date | None = None
    for day in days:
        run = run + 1 if previous is not None and day == previous + timedelta(days=1) else 1
        best = max(best, run)
        previous = day
    return run, best


# --------------------------------------------------------------------------- bests and records


def _line_fields(result: Result) -> dict[str, Any]:
    return {
        "result": result,
        "lost": not result.won,
        "cards_left": result.cards_left,
        "moves": result.moves,
        "time_ms": result.time_ms,
        "score": result.score,
        "finished_at": result.finished_at,
    }


def _rank(result: Result, standing: Standing, game: Game) -> None:
    """Update the player's line on the deal's board and the deal's record; tell the player."""
    mode = result.mode
    # With the board's size as it stands, for the view of a run that leaves the board alone (most
    # finishes: only a better run moves the player's line): no query after the commit.
    sql, columns = _best_sql()
    params = [
        DealBest.player.field.get_db_prep_value(result.player_id, connection),
        DealBest.deal.field.get_db_prep_value(result.deal_id, connection),
    ]
    best: DealBest | None = None
    lines_now: int | None = None
    if found := _select(DealBest, sql, columns, params):  # one line at most
        best, (lines_now,) = found[0]
    new_line = best is None
    improved = new_line or improves(mode, result, best)
    if best is None:
        best = DealBest.objects.create(
            player_id=result.player_id,
            deal_id=result.deal_id,
            mode=mode,
            rules_key=result.rules_key,
            **_line_fields(result),
        )
    elif improved:
        for name, value in _line_fields(result).items():
            setattr(best, name, value)
        best.save()
        result.personal_best = True
    if type(game).player.is_cached(game):
        best.player = game.player  # the line's name, for the board's live update
    standing.line = best
    if not improved:
        # Not better than the player's own line: no record, no first win either.
        standing.lines = lines_now
        return

    transaction.on_commit(lambda: _after_commit(standing))
    # The last statement of the finishing transaction: see record_row for why.
    settled = record_row.settle(result.pk, new_line=new_line, personal_best=result.personal_best)
    result.new_record, result.first_win = settled.new_record, settled.first_win
    standing.lines, standing.version = settled.lines, settled.version


@functools.cache
def _best_sql() -> tuple[str, list[Col]]:
    """The player's line on the deal (their id, the deal's), with the board's size (``lines``)."""
    quote = connection.ops.quote_name
    line = DealBest._meta
    player, deal = quote(DealBest.player.field.column), quote(DealBest.deal.field.column)
    lines = DealRecord.lines.field
    sql = (
        f"SELECT {', '.join(f'b.{quote(field.column)}' for field in line.concrete_fields)},"
        f" (SELECT r.{quote(lines.column)} FROM {quote(DealRecord._meta.db_table)} r"
        f" WHERE r.{quote(DealRecord.deal.field.column)} = b.{deal})"
        f" FROM {quote(line.db_table)} b WHERE b.{player} = %s AND b.{deal} = %s"
    )
    return sql, [*(field.get_col("b") for field in line.concrete_fields), lines.get_col("r")]


def _after_commit(standing: Standing) -> None:
    """Best-effort: the lines into their boards' rank sets; the line's rank for the game-over view;
    a first try to the watchers of the live daily board (which shows first tries: practice runs
    change only the best-run board, read over REST)."""
    line = standing.line
    assert line is not None
    cache.merge_line(line)
    if line.mode != "daily":
        return
    from leaderboard.live import broadcast_line
    from leaderboard.selectors import first_try_lines, line_rank

    try:
        rank = line_rank(line)
        standing.rank = rank.value
        if rank.cold:
            warm_board_cache(deal_id=line.deal_id, board=cache.board_of(line))
    except Exception:  # best-effort: the view reads the rank again
        log.warning("could not rank a line", extra={"deal": line.deal_id}, exc_info=True)
    first = standing.first_try
    if first is not None:
        if type(line).player.is_cached(line):
            first.player = line.player
        cache.merge_line(first)
        try:
            first_rank = line_rank(first)
            if first_rank.cold:
                warm_board_cache(deal_id=first.deal_id, board=cache.board_of(first))
            standing.first_try_rank = first_rank.value
            standing.first_try_lines = first_try_lines(first)
        except Exception:  # best-effort: the view reads them again
            log.warning("could not rank a first try", extra={"deal": line.deal_id}, exc_info=True)
            return
        broadcast_line(
            first,
            version=standing.version,
            rank=standing.first_try_rank,
            total=standing.first_try_lines,
        )


# --------------------------------------------------------------------------- the rank sets


def warm_board_cache(*, deal_id: int, board: str = "best") -> None:
    """Ask a worker to fill a daily board's Redis rank set from PostgreSQL (best effort: without
    a broker the count in PostgreSQL still answers). Reads never ask (they queue nothing): a
    finish whose rank was counted asks after its commit, and the board's REST edge when the
    viewer's rank was."""
    if cache.client() is None:
        return
    from leaderboard.tasks import rebuild_board_cache

    with contextlib.suppress(Exception):
        rebuild_board_cache.delay(deal_id, board)


# --------------------------------------------------------------------------- taking a player off


@transaction.atomic
def remove_player_from_boards(*, player: Any, reason: str = "", by: Any = None) -> list[int]:
    """Take a player off every board: hide their runs, rebuild each board deal they were on, and
    keep their future runs off (``BoardExclusion``). Every board's Redis rank set is dropped when
    the one transaction commits, so no cached board shows them a moment longer; their statistics
    stay. Returns the ids of the board deals rebuilt."""
    BoardExclusion.objects.update_or_create(
        player_id=player.pk, defaults={"reason": reason[:200], "excluded_by": by}
    )
    runs = Result.objects.select_for_update().filter(player_id=player.pk, mode__in=BOARD_MODES)
    deal_ids = sorted(set(runs.values_list("deal_id", flat=True)))
    runs.update(hidden=True)
    from leaderboard.recompute import rebuild_deal

    for deal_id in deal_ids:
        rebuild_deal(deal_id)
    log.warning(
        "player removed from the boards",
        extra={"user": player.pk, "by": getattr(by, "pk", None), "deals": len(deal_ids)},
    )
    return deal_ids
