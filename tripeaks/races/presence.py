"""Who is at their race: a race socket open, or a move stored lately.

Each race socket notes its player as seen (`seen`) when it opens, every `every_s()` while it is
open, and when it closes: a sorted set a race in Redis, player -> the last time (ms). A racer is
absent when neither that nor their game's last stored move is within `absent_after_s()` (30 s),
and the race has been running that long: then the others may claim against them
(`services.claim_absent`), as lichess lets a player claim the win over one who left. The rule is
`absence.py`'s, for the claim and the race's payload (`claimable`) alike.
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from typing import cast
from uuid import UUID

from django.conf import settings

from tripeaks.infra import redis_client


def absent_after_s() -> float:
    return float(settings.RACE_ABSENT_S)


def every_s() -> float:
    """How often an open race socket notes its player: well inside the absence, so an open
    socket is never taken for a closed one."""
    return absent_after_s() / 3


def _key(race_id: UUID | str) -> str:
    return redis_client.key("race-seen", str(race_id))


def seen(*, race_id: UUID | str, user_id: int) -> None:
    seen_all([(race_id, user_id)])


def seen_all(racers: Iterable[tuple[UUID | str, int]]) -> None:
    """Note every (race, player) of `racers` as seen now: one round trip for them all (a
    server's race sockets note their racers together, `races/racers_here.py`)."""
    by_race: dict[str, dict[str, int]] = {}
    now = int(time.time() * 1000)
    for race_id, user_id in racers:
        by_race.setdefault(_key(race_id), {})[str(user_id)] = now
    if not by_race:
        return
    pipe = redis_client.client().pipeline()
    for key, members in by_race.items():
        pipe.zadd(key, members)
        pipe.expire(key, 24 * 3600)  # a race is over within hours: the set goes by itself
    pipe.execute()


def all_seen(*, race_id: UUID | str) -> dict[int, float]:
    """When each player's race socket was last open (epoch seconds), by user id: one command."""
    found = cast(
        "list[tuple[bytes, float]]",
        redis_client.client().zrange(_key(race_id), 0, -1, withscores=True),
    )
    return {int(member): float(score) / 1000 for member, score in found}


def last_seen(*, race_id: UUID | str, user_id: int) -> float | None:
    """When the player's race socket was last open (epoch seconds), or None if never."""
    score = redis_client.client().zscore(_key(race_id), str(user_id))
    return None if score is None else float(score) / 1000
