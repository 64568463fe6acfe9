"""Live daily boards: a Channels group per rule set; best-effort, after commit. The live board
is the ranked one: each player's first try (``FirstTry``); best runs are read over REST.

The database is the truth and the channel layer is at-most-once: every message carries the
board's ``version`` (bumped on every change of the board, in the same transaction), so a client
that sees a gap, or reconnects, sends ``{"type": "sync"}`` and gets the whole page again.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Iterator
from contextvars import ContextVar

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

from leaderboard.models import DealRecord, FirstTry
from leaderboard.payloads import BoardEvent, BoardUpdate

log = logging.getLogger("tripeaks.events")

Send = tuple[str, BoardEvent]  # (group, event)
_held: ContextVar[list[Send] | None] = ContextVar("leaderboard_held_sends", default=None)


def daily_group(rules_key: str) -> str:
    return f"leaderboard-daily-{rules_key}"


def update_message(
    line: FirstTry,
    version: int | None = None,
    rank: int | None = None,
    total: int | None = None,
) -> BoardUpdate | None:
    """The first-try board's update for `line` (a FirstTry): with the deal record's `version`,
    the line's `rank` and the board's `total` its finish learnt (every first try is a new line of
    the best-run board too, which bumps the version), else read again. The version also moves when
    a practice run betters a best line: a watcher then sees a gap and syncs, which is harmless."""
    from leaderboard.selectors import board_lines, first_try_standing, line_payload

    if version is not None:
        day = line.result.day
    else:
        fresh = board_lines(line.deal_id, line.mode, type(line)).filter(pk=line.pk).first()
        record = DealRecord.objects.filter(deal_id=line.deal_id).first()
        if fresh is None or record is None:
            return None
        line, day, version = fresh, record.day, record.version
    if rank is None or total is None:
        rank, total = first_try_standing(line)
    return {
        "type": "update",
        "date": day.isoformat() if day else None,
        "rules": line.rules_key,
        "version": version,
        "total": total,
        "lines": [line_payload(line, rank)],
    }


def broadcast_line(
    line: FirstTry,
    version: int | None = None,
    rank: int | None = None,
    total: int | None = None,
) -> None:
    """Tell everyone watching the daily board of this rule set that `line` (a first try) is on
    it."""
    try:
        message = update_message(line, version, rank, total)
        layer = get_channel_layer()
        if message is None or layer is None:
            return
        send: Send = (daily_group(line.rules_key), {"type": "board.update", "message": message})
        held = _held.get()
        if held is not None:
            held.append(send)
            return
        async_to_sync(layer.group_send)(*send)
    except Exception:  # best-effort: PostgreSQL stays the truth
        log.warning(
            "could not broadcast a board update", extra={"deal": line.deal_id}, exc_info=True
        )


@contextlib.contextmanager
def held_sends() -> Iterator[list[Send]]:
    """Inside, board updates are kept in the list instead of sent, for a caller on an event loop
    to send with `send_held` once it has answered its player (a game socket's finishing move).
    Sent from its worker thread, each update waited for the busy event loop to send it: 46 ms at
    the median, under the play bench's load, on every finish that changed a board."""
    held: list[Send] = []
    token = _held.set(held)
    try:
        yield held
    finally:
        _held.reset(token)


async def send_held(held: list[Send]) -> None:
    layer = get_channel_layer()
    for group, event in held:
        try:
            if layer is not None:
                await layer.group_send(group, event)
        except Exception:  # best-effort: PostgreSQL stays the truth
            log.warning("could not broadcast a board update", extra={"to": group}, exc_info=True)
