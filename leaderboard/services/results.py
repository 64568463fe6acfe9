"""A finished game's result: the one call through which play reports a finished game.

``record_result(game=...)`` runs inside the transaction that finishes the game. Locks, always in
this order so two finishing games never deadlock:

1. the player's statistics rows (``SELECT ... FOR UPDATE``, ordered by rules key), before the
   result is stored: a per-player mutex, so the player's bests and streaks are updated by one
   transaction at a time;
2. the deal's ``DealRecord`` row (only for daily and numbered deals, only for runs that rank),
   on PostgreSQL by the transaction's last statement (``record_row``: every finish on the deal
   takes turns on that row, so it is held as briefly as possible).

Each statement is a round trip that, under load, waits for the thread to run again, so a ranked
finish of a returning player makes five: lock their statistics rows (the same query asks what fair
play must know before the result is stored, hence the lock first: whether staff took them off the
boards, whether this is their first try at the deal, whether they took a hint on it, whether
another account played it today from their device or address, and the move log's timing: see
``fairplay``), insert the result, update both statistics rows and read their line on the deal's
board (one statement: the update is a ``WITH``), write the line, settle the deal's record. A daily
first try writes its first-try line too (one more statement, once per player and deal). A run
off the boards (held, flagged) reads the player's earlier line in that statement too, for its
game-over view, which reads nothing after the commit.

What happens after commit is best-effort (the channel layer and the Redis rank cache): a failure
there is logged and never fails the finishing move.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, TypeVar

from django.db import transaction

from leaderboard import cache, fairplay
from leaderboard.boards import improves
from leaderboard.lines import line_digest
from leaderboard.models import (
    BOARD_MODES,
    Attempt,
    DealBest,
    FirstTry,
    PlayerStats,
    Result,
    Standing,
)
from leaderboard.services import record_row
from leaderboard.services import stats as stats_rows
from leaderboard.services.board_cache import warm_board_cache
from leaderboard.services.rows import player_line
from tripeaks.infra.bulk_rows import insert_row, run

if TYPE_CHECKING:
    from tripeaks.play.models import Game

log = logging.getLogger("tripeaks.events")

_Line = TypeVar("_Line", DealBest, FirstTry)


def record_result(*, game: Game, by_contest: bool = False) -> Result:
    """Store a finished game's result and update bests, records and statistics (same transaction).
    A custom deal's counts nowhere; a game the contest ended (`by_contest`: a race's end resigned
    it while the player was still playing) is neither won nor lost by the player: it counts in no
    statistics (the contest's fair-play hold still reads it)."""
    assert game.finished_at is not None
    deal = game.deal
    ranked = deal.source != "custom"
    # Issues 7 and 15: a run no human could play, or by a player staff took off the boards, is
    # kept (it counts in statistics) but held off every board and record; so is a run on a deal
    # the player has seen the answer to, and (until staff accept it) a possible second account's.
    stats, facts = stats_rows.lock_stats(game, deal.rules_key) if ranked else ([], fairplay.Facts())
    if facts.flag_reason:
        log.warning(
            "run flagged for staff",
            extra={"game": str(game.pk), "user": game.player_id, "reason": facts.flag_reason},
        )
    attempt, hold_reason = _attempt_and_hold(game, ranked, facts)
    # By its key, not the instance: `game=` caches each on the other (a one-to-one), a cycle
    # that left every finished game's row and state to the cyclic collector.
    result = Result(
        player_id=game.player_id,
        game_id=game.pk,
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
        in_stats=not by_contest,
        line_digest=line_digest(facts.line) if game.status == "won" else "",
    )
    insert_row(result)
    if ranked:
        _count(result, stats, game)
    return result


def _count(result: Result, stats: Sequence[PlayerStats], game: Game) -> None:
    """Count a ranked result in the player's locked statistics rows, and on the deal's board."""
    counted, storing = stats_rows.count_in_stats(result, stats) if result.in_stats else (None, None)
    result.standing = Standing(stats=counted)
    if result.mode not in BOARD_MODES:
        if storing is not None:
            run(storing)
        return
    # The statistics stored in the round trip that reads the player's line on the deal's board,
    # which the game-over view shows (a run off the boards: the player's earlier line).
    line = player_line(result.player_id, result.deal_id, after=storing)
    if not result.on_boards:
        _earlier_line(result.standing, line, game)
        return
    if result.mode == "daily" and result.attempt == Attempt.FIRST_TRY:
        # Its live update goes out with the best line's, once the record has its version.
        result.standing.first_try = _new_line(FirstTry, result)
    _rank(result, result.standing, game, line)


def _attempt_and_hold(game: Game, ranked: bool, facts: fairplay.Facts) -> tuple[str, str]:
    """The run's attempt (first try, practice, unranked) and why it is held for review, if it is."""
    attempt = Attempt.FIRST_TRY
    if not ranked or facts.seen_answer or game.deal.shipped:  # a shipped deal: public
        attempt = Attempt.UNRANKED
    elif facts.earlier:
        attempt = Attempt.PRACTICE
    deal = game.deal
    hold_reason = facts.hold_reason if deal.source in BOARD_MODES else fairplay.contest_hold(game)
    if not hold_reason or attempt == Attempt.UNRANKED:
        return attempt, ""
    log.warning(
        "run held for review",
        extra={"game": str(game.pk), "user": game.player_id, "reason": hold_reason},
    )
    return attempt, hold_reason


# --------------------------------------------------------------------------- bests and records


def _earlier_line(standing: Standing, line: tuple[DealBest | None, int | None], game: Game) -> None:
    """A run off the boards (held, flagged, unranked) leaves them alone: the view shows the
    player's earlier line (if any) and the board's size, as read by the finish."""
    standing.line, standing.lines = line
    standing.line_read = True
    if standing.line is not None and type(game).player.is_cached(game):
        standing.line.player = game.player  # the line's name


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


def _new_line(board: type[_Line], result: Result) -> _Line:
    """The result's new line on a board (its first try, its best run), stored."""
    line = board(
        player_id=result.player_id,
        deal_id=result.deal_id,
        mode=result.mode,
        rules_key=result.rules_key,
        **_line_fields(result),
    )
    insert_row(line)
    return line


def _rank(
    result: Result, standing: Standing, game: Game, line: tuple[DealBest | None, int | None]
) -> None:
    """Update the player's `line` on the deal's board (`player_line`'s) and the deal's record;
    tell the player."""
    mode = result.mode
    # With the board's size as it stands, for the view of a run that leaves the board alone (most
    # finishes: only a better run moves the player's line): no query after the commit.
    best, lines_now = line
    new_line = best is None
    improved = best is None or improves(mode, result, best)
    if best is None:
        best = _new_line(DealBest, result)
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
