"""Solver work where a request waits: bounded per call, per player and in total.

- **A budget per call** (`request_budget`): `SOLVER_BUDGET_MS` of wall time and
  `SOLVER_BUDGET_NODES` search nodes, whichever runs out first. A hint that runs out answers
  "no certain hint" (`certain: false`); a random deal solved on the spot that runs out is not dealt.
- **A few calls at once, in total** (`SOLVER_MAX_CONCURRENT`): a slot is leased from a Redis sorted
  set that every server process shares (leases expire after `LEASE_SECONDS`, so a process that dies
  holding one does not keep it). Without Redis, or when it cannot be reached, the limit holds per
  process. No free slot: 503 with `Retry-After`, before any database work.
- **One call at a time per player, and a rate** (`PLAY_THROTTLE_RATES["solver"]`): a second hint
  while the first is being worked out, or too many in a minute, is a 429 with `Retry-After`.

Solver calls run on the request's worker thread (Django's sync views, `database_sync_to_async` on
the game socket), never on the event loop; the slots keep the threads that compete with the loop
for the interpreter few, the budget keeps each short, and a cooperative budget hands the
interpreter over about every millisecond so that the loop and other requests are not held up.
"""

from __future__ import annotations

import contextlib
import logging
import threading
import time
import uuid
from collections.abc import Iterator
from typing import Any, Final

from django.conf import settings
from django.core.cache import cache

from tripeaks.engine import game as engine
from tripeaks.engine.solver import Budget, BudgetExceeded, Hint, hint, solve
from tripeaks.infra import throttling
from tripeaks.play.errors import PlayError
from tripeaks.play.payloads import hint_payload

log = logging.getLogger("tripeaks.solver")

# A lease outlives any budgeted call by far; it only matters when a process dies holding one.
LEASE_SECONDS: Final = 10
BUSY_RETRY_AFTER: Final = 1


class SolverBusy(PlayError):
    """Every solver slot of the service is taken: try again in a moment."""

    status_code = 503
    code = "solver_busy"
    retry_after = BUSY_RETRY_AFTER


class SolverThrottled(PlayError):
    """This player already has a solver call running, or asked for too many."""

    status_code = 429
    code = "throttled"

    def __init__(self, message: str, *, retry_after: int) -> None:
        super().__init__(message)
        self.retry_after = retry_after


def request_budget() -> Budget:
    """A fresh budget for one solver call where a request waits."""
    return Budget(
        max_nodes=settings.SOLVER_BUDGET_NODES,
        seconds=settings.SOLVER_BUDGET_MS / 1000,
        cooperative=True,
    )


# ---------------------------------------------------------------------------------------- slots
# KEYS[1]: every lease of the service; KEYS[2]: this player's ('' for none). ARGV: now, expiry,
# token, limit, lease ms. 0: leased; 1: the service is full; 2: the player already holds one.
ACQUIRE_SCRIPT = """
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
if KEYS[2] ~= '' then
    redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', ARGV[1])
    if redis.call('ZCARD', KEYS[2]) > 0 then return 2 end
end
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[4]) then return 1 end
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[3])
redis.call('PEXPIRE', KEYS[1], ARGV[5])
if KEYS[2] ~= '' then
    redis.call('ZADD', KEYS[2], ARGV[2], ARGV[3])
    redis.call('PEXPIRE', KEYS[2], ARGV[5])
end
return 0
"""
RELEASE_SCRIPT = """
redis.call('ZREM', KEYS[1], ARGV[1])
if KEYS[2] ~= '' then redis.call('ZREM', KEYS[2], ARGV[1]) end
return 0
"""


class _LocalSlots:
    """The same limits within one process (no Redis, or Redis unreachable)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._held = 0
        self._players: set[Any] = set()

    def acquire(self, player: Any | None) -> int:
        with self._lock:
            if player is not None and player in self._players:
                return 2
            if self._held >= settings.SOLVER_MAX_CONCURRENT:
                return 1
            self._held += 1
            if player is not None:
                self._players.add(player)
            return 0

    def release(self, player: Any | None) -> None:
        with self._lock:
            self._held -= 1
            self._players.discard(player)


_local = _LocalSlots()


def _keys(player: Any | None) -> list[str]:
    return [
        cache.make_key("solver:slots"),
        "" if player is None else cache.make_key(f"solver:player:{player}"),
    ]


def _acquire(player: Any | None) -> tuple[int, str | None]:
    """(outcome, lease token; None: a local slot)."""
    client = throttling._redis()
    if client is not None:
        token = uuid.uuid4().hex
        now = time.time()
        try:
            outcome = client.register_script(ACQUIRE_SCRIPT)(
                keys=_keys(player),
                args=[
                    now,
                    now + LEASE_SECONDS,
                    token,
                    settings.SOLVER_MAX_CONCURRENT,
                    LEASE_SECONDS * 1000,
                ],
            )
            return int(outcome), token
        except Exception:  # the limit still holds, per process
            log.warning("solver slots unreachable; limiting this process only", exc_info=True)
    return _local.acquire(player), None


def _release(player: Any | None, token: str | None) -> None:
    if token is None:
        _local.release(player)
        return
    client = throttling._redis()
    if client is None:  # the settings changed under us (tests): nothing to release
        return
    try:
        client.register_script(RELEASE_SCRIPT)(keys=_keys(player), args=[token])
    except Exception:  # the lease expires by itself
        log.warning(
            "could not release a solver slot; it expires in %ss", LEASE_SECONDS, exc_info=True
        )


@contextlib.contextmanager
def solver_slot(player: Any | None = None) -> Iterator[None]:
    """Hold one of the service's solver slots (and `player`'s one) for the block, or refuse:
    `SolverThrottled` (429) when the player is over the rate or already solving, `SolverBusy`
    (503) when the service is. Counted before any database work."""
    if player is not None:
        wait = throttling.check([throttling.Limit("solver", f"u{player}")])
        if wait is not None:
            raise SolverThrottled(f"too many hints: try again in {wait} seconds", retry_after=wait)
    outcome, token = _acquire(player)
    if outcome == 2:
        raise SolverThrottled("your last hint is still being worked out", retry_after=1)
    if outcome == 1:
        raise SolverBusy("the solver is busy: try again in a moment")
    try:
        yield
    finally:
        _release(player, token if outcome == 0 else None)


def guard(action: str, player: Any) -> contextlib.AbstractContextManager[None]:
    """A hint's solver slot (see `solver_slot`); nothing for any other action."""
    return solver_slot(player) if action == "hint" else contextlib.nullcontext()


# ---------------------------------------------------------------------------------------- hints
def budgeted_hint(state: engine.State) -> dict[str, Any]:
    """The hint payload within the request budget.

    Two thirds of the budget look for the best move (the first of a winning line with the fewest
    draws); if that runs out, the rest look for any move that keeps the game winnable (a depth-first
    search, quick on most winnable positions: `fewest_draws: false`). If both run out the answer
    is honest: `{"move": null, "winnable": null, "certain": false}`."""
    nodes, seconds = settings.SOLVER_BUDGET_NODES, settings.SOLVER_BUDGET_MS / 1000
    try:
        best = hint(
            state,
            budget=Budget(max_nodes=nodes * 2 // 3, seconds=seconds * 2 / 3, cooperative=True),
        )
        return {**hint_payload(best), "certain": True, "fewest_draws": True}
    except BudgetExceeded:
        pass
    try:
        line = solve(
            state.deal,
            state.rules,
            state.position,
            budget=Budget(max_nodes=nodes // 3, seconds=seconds / 3, cooperative=True),
        ).line
    except BudgetExceeded:
        return {"move": None, "winnable": None, "certain": False, "fewest_draws": False}
    # A lost position is known within the budget: its fewest-draws search would have said so too.
    found = Hint(line[0], True) if line else Hint(None, False)
    return {**hint_payload(found), "certain": True, "fewest_draws": not line}
