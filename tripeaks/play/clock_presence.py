"""The clock's heartbeat: which games a live server shows, so that a clock counts only while one
does (docs/fair-play.md, "One clock").

A solo game's clock stops when its last game socket closes (`services.hide_game`). A server that
dies (kill -9, out of memory, a lost machine) runs no close: without more, its games' clocks ran
on until a socket opened and closed again, and a player was charged for time the cards were on
no screen. So every server process beats for the games its sockets show:

- `hold(game_id)` (a game socket opens) counts the game for the process's event loop, and notes
  it at once; a socket's next game is noted by the thread that starts it (`note_started`) and
  counted by `hold_noted`; `let_go(game_id)` (the socket closes or moves on) uncounts it. While
  the loop holds any game, a timer notes all of them every `heartbeat_s()` (5 s) in ONE command:
  `ZADD` into one Redis sorted set, game id -> the beat's time (epoch s). A game shown by
  several servers is noted by each; nothing is removed when a socket closes (another server may
  still show it): its entry simply stops being renewed.
- An entry older than `lapse_s()` (three beats) has lost its server. The sweeper
  (`clock_sweep.sweep_lapsed_clocks`, a Celery beat task) stops such a game's running clock,
  charging it up to its last beat plus one interval at most, and drops the entry. With no entry
  lapsed the sweep is one Redis command and no query: an idle stack idles.
- A socket that opens on a game whose entry has lapsed but was not swept yet (the player came
  back to another server within the sweep's period) has the clock stopped the same way first
  (`hold` finds the old beat); the socket's opening then starts it again, logged as a resume.

A game played over REST with no socket (the API's own clients) has no server beating for it:
each request of its player on it (its start, a move, a read: play/api.py) is its beat instead
(`note`, `note_request`: the same sorted set), so its clock too stops at its last request plus
one interval once its requests stop for three beats, and its next move starts it again, logged
as a resume. A move notes its beat before it is made with `note_request` (one command); one whose
game's beat lapsed before the sweep came stops the clock at that beat first, as a socket's opening
does, and notes its beat once stored (`clock_sweep.beat_of_a_move`); a read renews no lapsed beat
and leaves that stop to the sweep (a read writes no game).

Redis unreachable: nothing is noted and nothing swept (a warning is logged); clocks run as they
did before the heartbeat, and PostgreSQL stays the truth.
"""

from __future__ import annotations

import asyncio
import logging
from collections import Counter
from dataclasses import dataclass, field
from typing import cast

from django.conf import settings
from django.utils import timezone

from tripeaks.infra import redis_client
from tripeaks.infra.loop_local import PerLoop

log = logging.getLogger("tripeaks.events")

# Sets the game's beat; answers the beat it replaced (or nothing): one round trip.
BEAT_SCRIPT = """
local old = redis.call('ZSCORE', KEYS[1], ARGV[2])
redis.call('ZADD', KEYS[1], ARGV[1], ARGV[2])
return old
"""
# A REST request's note: sets the game's beat unless its beat lapsed (that clock is stopped at
# the old beat first, or left to the sweep); answers the lapsed beat, else nothing.
REQUEST_SCRIPT = """
local old = redis.call('ZSCORE', KEYS[1], ARGV[2])
if old and tonumber(old) < tonumber(ARGV[3]) then
  return old
end
redis.call('ZADD', KEYS[1], ARGV[1], ARGV[2])
return false
"""
# Drops each (game, beat) whose beat is still that one: a server that beat again meanwhile
# keeps its entry.
FORGET_SCRIPT = """
local dropped = 0
for i = 1, #ARGV, 2 do
  local now = redis.call('ZSCORE', KEYS[1], ARGV[i])
  if now and tonumber(now) == tonumber(ARGV[i + 1]) then
    dropped = dropped + redis.call('ZREM', KEYS[1], ARGV[i])
  end
end
return dropped
"""


def heartbeat_s() -> float:
    return float(settings.CLOCK_HEARTBEAT_S)


def lapse_s() -> float:
    """How old a game's last beat is when its server is taken for dead: three beats missed."""
    return 3 * heartbeat_s()


def index_key() -> str:
    return redis_client.key("clocks", "shown")


def now_s() -> float:
    """The server's clock (the one every game's clock reads), in epoch seconds."""
    return timezone.now().timestamp()


# ---------------------------------------------------------------------------------- the beat
@dataclass
class _Beats:
    """The games one event loop's sockets show, each with its number of sockets, and its timer."""

    held: Counter[str] = field(default_factory=Counter)
    timer: asyncio.Task[None] | None = None


_loops = PerLoop(_Beats)
_beats = _loops.get


async def hold(game_id: str) -> float | None:
    """A socket of this process shows the game from now on; its first socket here notes it at
    once. The beat that note replaced if it had lapsed (its server is gone and the sweep has not
    come yet: the caller stops the clock there, `clock_sweep.shown_here`), else None."""
    if not _counted(game_id):
        return None
    try:
        client = redis_client.async_client()
        old = await client.eval(BEAT_SCRIPT, 1, index_key(), now_s(), game_id)
    except Exception:
        log.warning("could not note a shown game", extra={"game": game_id}, exc_info=True)
        return None
    if old is None or float(old) >= now_s() - lapse_s():
        return None
    return float(old)


def hold_noted(game_id: str) -> None:
    """`hold` of a game `note_started` noted already (a socket's next game): counted, no command."""
    _counted(game_id)


def note_started(game_id: str) -> None:
    """A socket's next game, just started, noted as shown (in the worker thread that started it,
    `socket_moves._start`): one ZADD on the thread's client, where `hold` sent its script on the
    event loop's (some 60 us of the thread's CPU against 140 of the loop's). A new game has no
    beat to replace. Best-effort, as `hold`."""
    try:
        note(game_id)
    except Exception:
        log.warning("could not note a shown game", extra={"game": game_id}, exc_info=True)


def _counted(game_id: str) -> bool:
    """Count a socket of the loop's on the game (the loop's timer beating); is it the first?"""
    beats = _beats()
    beats.held[game_id] += 1
    if beats.timer is None or beats.timer.done():
        beats.timer = asyncio.ensure_future(_beating(beats))
    return beats.held[game_id] <= 1


def let_go(game_id: str) -> None:
    """A socket of this process no longer shows the game. Its entry is left to lapse (another
    server may show it); the timer stops with the loop's last game."""
    beats = _beats()
    beats.held[game_id] -= 1
    if beats.held[game_id] <= 0:
        del beats.held[game_id]
    if not beats.held and beats.timer is not None:
        beats.timer.cancel()
        beats.timer = None


async def _beating(beats: _Beats) -> None:
    while beats.held:
        await asyncio.sleep(heartbeat_s())
        if beats.held:
            await beat(list(beats.held))


async def beat(game_ids: list[str]) -> None:
    """Note the games as shown now, in one command."""
    at = now_s()
    try:
        await redis_client.async_client().zadd(index_key(), dict.fromkeys(game_ids, at))
    except Exception:
        log.warning("could not beat for shown games", extra={"games": len(game_ids)}, exc_info=True)


# ------------------------------------------------------------------ a REST client's requests
def note_request(game_id: str) -> float | None:
    """A REST read or move of the game by its player shows its cards now (play/api.py,
    `clock_sweep.beat_of_a_move`): noted as a beat, in one command. A REST client has no socket
    that a server beats for: its requests are its beats. A beat that had lapsed is left as it was
    and answered (its clock is the sweep's to stop there: a read writes no game)."""
    at = now_s()
    old = redis_client.client().eval(REQUEST_SCRIPT, 1, index_key(), at, game_id, at - lapse_s())
    return None if old is None else float(old)


def note(game_id: str) -> None:
    """The game is shown now (a REST start, or a move stored after a lapse): one ZADD."""
    redis_client.client().zadd(index_key(), {game_id: now_s()})


# ---------------------------------------------------------------------------------- the sweep
def lapsed() -> dict[str, float]:
    """Every game whose last beat is older than `lapse_s()`: game id -> that beat."""
    found = cast(
        "list[tuple[bytes, float]]",
        redis_client.client().zrangebyscore(
            index_key(), "-inf", now_s() - lapse_s(), withscores=True
        ),
    )
    return {redis_client.text(member): float(score) for member, score in found}


def last_beat(game_id: str) -> float | None:
    score = redis_client.client().zscore(index_key(), game_id)
    return None if score is None else float(score)


def forget(beats: dict[str, float]) -> int:
    """Drop the entries of these (game -> beat) that no server renewed since: how many."""
    if not beats:
        return 0
    args = [part for game_id, at in beats.items() for part in (game_id, repr(at))]
    return int(redis_client.client().eval(FORGET_SCRIPT, 1, index_key(), *args))
