"""The daily boards' Redis rank sets, filled by a worker."""

from __future__ import annotations

import contextlib


def warm_board_cache(*, deal_id: int, board: str = "best") -> None:
    """Ask a worker to fill a daily board's Redis rank set from PostgreSQL (best effort: without
    a broker the count in PostgreSQL still answers). Reads never ask (they queue nothing): a
    finish whose rank was counted asks after its commit, and the board's REST edge when the
    viewer's rank was."""
    from leaderboard.tasks import rebuild_board_cache

    with contextlib.suppress(Exception):
        rebuild_board_cache.delay(deal_id, board)
