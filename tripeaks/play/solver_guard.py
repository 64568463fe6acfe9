"""Solver work where a request waits: bounded per call, per player and in total.

- **A budget per call** (`request_budget`): `SOLVER_BUDGET_MS` of wall time and
  `SOLVER_BUDGET_NODES` search nodes, whichever runs out first. A hint that runs out answers
  "no certain hint" (`certain: false`). (A random start never solves: play/deals.py.)
- **A few calls at once, in total** (`SOLVER_MAX_CONCURRENT`): a slot is leased from a Redis sorted
  set that every server process shares (`limiter.acquire_slot`; leases expire after
  `LEASE_SECONDS`, so a process that dies holding one does not keep it). No free slot, or Redis
  unreachable: 503 with `Retry-After`, before any database work.
- **One call at a time per player, and a rate** (`PLAY_THROTTLE_RATES["solver"]`): a second hint
  while the first is being worked out, or too many in a minute, is a 429 with `Retry-After`.
- **A slot kept for light askers**: a player who asked fewer than `LIGHT_CALLS` solver calls in
  the last `LIGHT_WINDOW_S` (6 in 5 minutes: a person asks now and then), and whose last one
  ended more than `LIGHT_GAP_S` ago (a script asks again as soon as answered), may take the last free
  slot, and a hint of theirs that finds every slot taken waits up to `SOLVER_WAIT_MS` for one;
  everyone else (and work nobody asked for by name) shares the others and is refused at once.
  However many accounts a script hints with, a person's occasional hint finds a slot.
- **A share per network address** (`PLAY_THROTTLE_RATES["solver_address"]`, and at most half the
  slots at once, one of two): a swarm of guests or accounts behind one address gets one address's
  share, not every slot. Over the rate: 429; its slots taken: 503, as when the service is full.
  A hint counts against the address its game was started from, a start against the requester's.

Solver calls run on the request's worker thread (Django's sync views, `database_sync_to_async` on
the game socket), never on the event loop; the slots keep the threads that compete with the loop
for the interpreter few, the budget keeps each short, and a cooperative budget hands the
interpreter over about every millisecond so that the loop and other requests are not held up.
"""

from __future__ import annotations

import contextlib
import logging
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Final
from uuid import UUID

from django.conf import settings
from django.core.cache import cache

from tripeaks.engine import game as engine
from tripeaks.engine.solver import Budget, BudgetExceeded, Hint, hint, solve
from tripeaks.infra import limiter, throttling
from tripeaks.play.errors import PlayError
from tripeaks.play.models import Game
from tripeaks.play.payloads import BudgetedHint, hint_payload

log = logging.getLogger("tripeaks.solver")

# A lease outlives any budgeted call by far; it only matters when a process dies holding one.
LEASE_SECONDS: Final = 10
BUSY_RETRY_AFTER: Final = 1
WAIT_STEP_S: Final = 0.02


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
@dataclass(frozen=True)
class Asker:
    """Who asks for solver work: a player (one call at a time, a rate) and the network address
    it comes from (a share of the slots, a rate); either may be unknown."""

    player: int | str | None = None
    address: str | None = None


def address_share() -> int:
    """Slots one address may hold at once: half the service's, at least one."""
    return max(1, settings.SOLVER_MAX_CONCURRENT // 2)


# A player who asked for fewer than LIGHT_CALLS solver calls in the last LIGHT_WINDOW_S, and none
# in the LIGHT_GAP_S before this one, is a light asker (a person asks for a hint now and then, and
# reads it and plays before the next): one slot is theirs alone while the heavy askers (a script,
# as many accounts as it likes, each at the per-player rate, asking again as soon as answered)
# share the rest. Without the gap, each of a script's fresh accounts was light for its first
# LIGHT_CALLS calls of every window, and took the kept slot from people (bench/solver_share.py).
LIGHT_CALLS: Final = 6
LIGHT_WINDOW_S: Final = 300
LIGHT_GAP_S: Final = 10


def kept_for_light_askers() -> int:
    return 1 if settings.SOLVER_MAX_CONCURRENT >= 2 else 0


def _policy() -> limiter.SlotPolicy:
    return limiter.SlotPolicy(
        limit=settings.SOLVER_MAX_CONCURRENT,
        address_share=address_share(),
        kept_for_light=kept_for_light_askers(),
        light_calls=LIGHT_CALLS,
        light_window_s=LIGHT_WINDOW_S,
        light_gap_s=LIGHT_GAP_S,
        lease_s=LEASE_SECONDS,
    )


def _keys(asker: Asker) -> list[str]:
    player = asker.player is not None
    return [
        cache.make_key("solver:slots"),
        cache.make_key(f"solver:player:{asker.player}") if player else "",
        cache.make_key(f"solver:address:{asker.address}") if asker.address else "",
        cache.make_key(f"solver:calls:{asker.player}") if player else "",
        cache.make_key(f"solver:lately:{asker.player}") if player else "",
    ]


def _acquire(asker: Asker, token: str) -> int:
    """`limiter.acquire_slot`'s outcome; Redis unreachable: 4 (no slot, no wait), so that an
    outage refuses solver work rather than letting every thread of every process solve."""
    try:
        return limiter.acquire_slot(_keys(asker), token, _policy())
    except Exception:
        log.warning("solver slots unreachable; refusing solver work", exc_info=True)
        return 4


def _release(asker: Asker, token: str) -> None:
    try:
        limiter.release_slot(_keys(asker), token, _policy())
    except Exception:  # the lease expires by itself
        log.warning(
            "could not release a solver slot; it expires in %ss", LEASE_SECONDS, exc_info=True
        )


def _limits(asker: Asker) -> list[throttling.Limit]:
    limits = []
    if asker.player is not None:
        limits.append(throttling.Limit("solver", f"u{asker.player}"))
    if asker.address:
        limits.append(throttling.Limit("solver_address", asker.address))
    return limits


@contextlib.contextmanager
def solver_slot(asker: Asker | None = None, *, wait: bool = False) -> Iterator[None]:
    """Hold one of the service's solver slots (and the asker's) for the block, or refuse:
    `SolverThrottled` (429) when the player or address is over its rate or the player is already
    solving, `SolverBusy` (503) when the service, or the address's share of it, is taken.
    Counted before any database work. With `wait` (a hint), a light asker finding every slot
    taken waits up to SOLVER_WAIT_MS for one."""
    asker = asker or Asker()
    over = throttling.check(_limits(asker))
    if over is not None:
        raise SolverThrottled(f"too many hints: try again in {over} seconds", retry_after=over)
    token = uuid.uuid4().hex
    outcome = _acquire(asker, token)
    waited_until = time.monotonic() + (settings.SOLVER_WAIT_MS / 1000 if wait else 0)
    while outcome == 1 and time.monotonic() < waited_until:
        time.sleep(WAIT_STEP_S)  # a light asker waits a moment for a slot: most free within it
        outcome = _acquire(asker, token)
    if outcome == 2:
        raise SolverThrottled("your last hint is still being worked out", retry_after=1)
    if outcome == 3:
        raise SolverBusy("the solver is busy with your network's requests: try again in a moment")
    if outcome in (1, 4):
        raise SolverBusy("the solver is busy: try again in a moment")
    try:
        yield
    finally:
        _release(asker, token)


def guard(action: str, player: int, game_id: UUID | str) -> contextlib.AbstractContextManager[None]:
    """A hint's solver slot (see `solver_slot`), counted against the player and the address
    the game was started from; nothing for any other action."""
    if action != "hint":
        return contextlib.nullcontext()
    return solver_slot(Asker(player, _start_address(player, game_id)), wait=True)


# A game's start address never changes, and a script hints on one game over and over: after the
# first, its hints (refused ones above all) cost no database query before the limits.
_ADDRESSES_KEPT: Final = 4096
_start_addresses: dict[tuple[int, str], str | None] = {}


def _start_address(player: int, game_id: UUID | str) -> str | None:
    """The address `player`'s game was started from (None: unknown, or no such game of theirs;
    the move then finds no game)."""
    key = (player, str(game_id))
    if key in _start_addresses:
        return _start_addresses[key]
    found = list(
        Game.objects.filter(pk=game_id, player_id=player).values_list("address", flat=True)[:1]
    )
    if not found:
        return None
    if len(_start_addresses) >= _ADDRESSES_KEPT:
        _start_addresses.clear()
    _start_addresses[key] = found[0]
    return found[0]


# ---------------------------------------------------------------------------------------- hints
def budgeted_hint(state: engine.State) -> BudgetedHint:
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
