"""A Redis sorted set per daily board: a player's rank in O(log n), rebuildable from PostgreSQL.

PostgreSQL is the truth. The set only answers "what is this line's rank?" when it is marked
ready; otherwise the rank is counted in PostgreSQL (exact, slower on a huge board) and a rebuild
is queued (``services.warm_board_cache``: after a finish's commit, or by the board's REST view;
the selectors that counted queue nothing). Members are fixed-width strings in board order (``boards.redis_member``) with score 0,
so Redis orders them lexicographically and ``ZRANK`` is the line's rank - 1. A hash maps each
player to their member.

Every write is a *min-merge* (a Lua script): a player's member is replaced only by a smaller one.
A best only ever improves, so merges commute: on-commit updates and a rebuild running at the same
time converge on the truth whatever their order, and replaying one is harmless. The keys expire
(``LEADERBOARD_CACHE_TTL``, default 8 days after the last write); Redis must not evict them
otherwise (``maxmemory-policy noeviction`` or ``volatile-ttl``, not ``allkeys-*``).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable
from datetime import datetime
from typing import TYPE_CHECKING

from django.conf import settings

from leaderboard.boards import redis_member
from tripeaks.infra import redis_client

if TYPE_CHECKING:
    from redis import Redis
    from redis.client import Pipeline

    from leaderboard.models import BoardLine

log = logging.getLogger("tripeaks.events")

BATCH = 5000

# KEYS: zset, hash. ARGV: ttl, then player, member pairs.
_MERGE = """
local ttl = tonumber(ARGV[1])
for i = 2, #ARGV, 2 do
  local player, member = ARGV[i], ARGV[i + 1]
  local old = redis.call('HGET', KEYS[2], player)
  if not old or member < old then
    if old then redis.call('ZREM', KEYS[1], old) end
    redis.call('ZADD', KEYS[1], 0, member)
    redis.call('HSET', KEYS[2], player, member)
  end
end
redis.call('EXPIRE', KEYS[1], ttl)
redis.call('EXPIRE', KEYS[2], ttl)
return 1
"""


def client() -> Redis:
    """The application's Redis client (tripeaks/infra/redis_client.py)."""
    return redis_client.client()


def _ttl() -> int:
    return settings.LEADERBOARD_CACHE_TTL


BOARDS = ("best", "first")


def board_of(line: BoardLine) -> str:
    """Which of a daily deal's boards a line is on: ``first`` (a FirstTry) or ``best``."""
    from leaderboard.models import FirstTry

    return "first" if isinstance(line, FirstTry) else "best"


def keys(deal_id: int, board: str = "best") -> tuple[str, str, str, str]:
    """(sorted set, player -> member hash, ready flag, rebuild lock) of a board."""
    prefix = settings.CACHES["default"].get("KEY_PREFIX", "")
    base = f"{prefix}:lb:{deal_id}" if board == "best" else f"{prefix}:lb:{deal_id}:{board}"
    return f"{base}:z", f"{base}:m", f"{base}:ready", f"{base}:lock"


def merge(
    deal_id: int, pairs: Iterable[tuple[int, str]], redis: Redis | None = None, board: str = "best"
) -> None:
    redis = redis or client()
    zset, members, _, _ = keys(deal_id, board)
    script = redis_client.script(_MERGE, redis)
    batch: list[int | str] = []
    for player_id, member in pairs:
        batch += [player_id, member]
        if len(batch) >= 2 * BATCH:
            script(keys=[zset, members], args=[_ttl(), *batch])
            batch = []
    if batch:
        script(keys=[zset, members], args=[_ttl(), *batch])


def merge_line(line: BoardLine) -> None:
    """Best-effort: put one line (DealBest or FirstTry) into its board's set (after commit)."""
    try:
        member = redis_member(line.mode, line, line.player_id)
        merge(line.deal_id, [(line.player_id, member)], board=board_of(line))
    except Exception:  # best-effort: PostgreSQL stays the truth
        log.warning("could not update the board cache", extra={"deal": line.deal_id}, exc_info=True)


def rank(line: BoardLine) -> int | None:
    """The line's 1-based rank from the set, or None when the set cannot answer."""
    position = _ask_ready_set(line, lambda pipe, zset: pipe.zrank(zset, _member(line)))
    return None if position is None else int(position) + 1


def size(line: BoardLine) -> int | None:
    """How many lines the line's board has, from its set when it is ready, else None."""
    count = _ask_ready_set(line, lambda pipe, zset: pipe.zcard(zset))
    return None if count is None else int(count)


def _member(line: BoardLine) -> str:
    return redis_member(line.mode, line, line.player_id)


def _ask_ready_set(line: BoardLine, ask: Callable[[Pipeline, str], object]) -> int | None:
    """One question to the line's board set in the round trip that asks whether the set is
    ready; None when it is not ready, has no answer, or cannot be reached."""
    redis = client()
    zset, _, ready, _ = keys(line.deal_id, board_of(line))
    try:
        with redis.pipeline(transaction=False) as pipe:
            pipe.exists(ready)
            ask(pipe, zset)
            is_ready, answer = pipe.execute()
    except Exception:  # best-effort: PostgreSQL stays the truth
        log.warning("board cache unreachable", extra={"deal": line.deal_id}, exc_info=True)
        return None
    return answer if is_ready else None


def is_ready(deal_id: int, board: str = "best") -> bool:
    redis = client()
    try:
        return bool(redis.exists(keys(deal_id, board)[2]))
    except Exception:  # noqa: BLE001
        return False


def rebuild(deal_id: int, board: str = "best") -> int:
    """Merge every line of the board from PostgreSQL into the set, then mark it ready.

    Safe while results keep coming (merges commute); a lock keeps two rebuilds from racing for
    nothing. Returns the number of lines merged (-1 if another rebuild holds the lock).
    """
    from leaderboard.models import DealBest, FirstTry

    redis = client()
    _, _, ready, lock = keys(deal_id, board)
    if not redis.set(lock, "1", nx=True, ex=600):
        return -1
    try:
        lines = (
            (FirstTry if board == "first" else DealBest)
            .objects.filter(deal_id=deal_id)
            .only("mode", "lost", "cards_left", "moves", "time_ms", "finished_at", "result_id")
            .values_list(
                "player_id",
                "mode",
                "lost",
                "cards_left",
                "moves",
                "time_ms",
                "finished_at",
                "result_id",
            )
            .iterator(chunk_size=BATCH)
        )
        count = 0

        def pairs() -> Iterable[tuple[int, str]]:
            nonlocal count
            for player_id, mode, lost, cards_left, moves, time_ms, finished_at, result_id in lines:
                count += 1
                row = _Row(lost, cards_left, moves, time_ms, finished_at, result_id)
                yield player_id, redis_member(mode, row, player_id)

        merge(deal_id, pairs(), redis, board)
        redis.set(ready, "1", ex=_ttl())
        return count
    finally:
        redis.delete(lock)


def drop(deal_id: int) -> None:
    """Forget a deal's board sets (for example after a run is hidden); reads rebuild them."""
    redis = client()
    redis.delete(*(key for board in BOARDS for key in keys(deal_id, board)))


class _Row:
    __slots__ = ("cards_left", "finished_at", "lost", "moves", "result_id", "time_ms")

    def __init__(
        self,
        lost: bool,
        cards_left: int,
        moves: int,
        time_ms: int,
        finished_at: datetime,
        result_id: int,
    ) -> None:
        self.lost = lost
        self.cards_left = cards_left
        self.moves = moves
        self.time_ms = time_ms
        self.finished_at = finished_at
        self.result_id = result_id
