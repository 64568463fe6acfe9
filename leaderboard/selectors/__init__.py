"""Reads of the leaderboard: plain functions that return rows, pages and dicts; they write
nothing and queue nothing (what a read finds cold, the edge asks a service to warm).

One module per thing read, named for it: ``deal_boards`` (a daily or numbered deal's board, a
line's rank), ``alltime_boards``, ``player_stats``, ``players`` (who a name is), ``review_queue``
(runs waiting for staff), ``identical_lines`` (one line won by several accounts), ``game_over`` (the finished game's summary); ``shapes`` (how rows look in an answer) and ``cursors`` (page
tokens) serve them all. Everything is importable from ``leaderboard.selectors`` itself.
"""

from __future__ import annotations

from leaderboard.selectors.alltime_boards import (
    ALLTIME_BOARDS,
    WIN_RATE_MIN_GAMES,
    AllTimeBoard,
    alltime_board,
)
from leaderboard.selectors.cursors import BadCursor, decode_cursor, encode_cursor
from leaderboard.selectors.deal_boards import (
    DAILY_BOARDS,
    DEFAULT_LIMIT,
    MAX_LIMIT,
    Page,
    Rank,
    board_lines,
    daily_record,
    deal_board,
    first_try_lines,
    first_try_standing,
    line_rank,
    numbered_record,
    rank_of_line,
)
from leaderboard.selectors.game_over import announcements, result_for_game
from leaderboard.selectors.identical_lines import IdenticalLine, identical_lines
from leaderboard.selectors.player_stats import RECENT_RESULTS, player_stats
from leaderboard.selectors.players import player_named
from leaderboard.selectors.review_queue import (
    REVIEW_QUEUE_LIMIT,
    Sharing,
    pending,
    recent_decisions,
    review_page,
    runs_to_review,
    sharing,
)
from leaderboard.selectors.shapes import (
    line_payload,
    player_payload,
    result_payload,
    stats_payload,
)

__all__ = [
    "ALLTIME_BOARDS",
    "DAILY_BOARDS",
    "DEFAULT_LIMIT",
    "MAX_LIMIT",
    "RECENT_RESULTS",
    "REVIEW_QUEUE_LIMIT",
    "WIN_RATE_MIN_GAMES",
    "AllTimeBoard",
    "BadCursor",
    "IdenticalLine",
    "Page",
    "Rank",
    "Sharing",
    "alltime_board",
    "announcements",
    "board_lines",
    "daily_record",
    "deal_board",
    "decode_cursor",
    "encode_cursor",
    "first_try_lines",
    "first_try_standing",
    "identical_lines",
    "line_payload",
    "line_rank",
    "numbered_record",
    "pending",
    "player_payload",
    "player_named",
    "player_stats",
    "rank_of_line",
    "recent_decisions",
    "result_for_game",
    "result_payload",
    "review_page",
    "runs_to_review",
    "sharing",
    "stats_payload",
]
