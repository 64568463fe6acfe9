"""When a claim against an absent racer is accepted: one rule for the claim itself
(`services.claim_absent`) and for the race's payload, whose `claimable` tells the page when to
show its "Claim the win" button.

A racer's latest sign is the latest of the race's start, their race socket (`presence`: noted
every 10 s while open) and their game's last stored move. A claim against them is accepted once
that sign is `presence.absent_after_s()` (30 s) old, while they still race (a seat playing, in the
running race). Reading the signs of a race's racers costs one Redis command and one query.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime

from tripeaks.play.models import Move
from tripeaks.races import presence
from tripeaks.races.models import Race, Seat, SeatStatus, State


def last_signs(race: Race, seats: Sequence[Seat]) -> dict[int, datetime]:
    """Each seat's player's latest sign, by user id."""
    start = race.starts_at or race.created_at
    noted = presence.all_seen(race_id=race.pk)
    games = {seat.game_id: seat.user_id for seat in seats if seat.game_id is not None}
    moved: dict[int, datetime] = {}
    if games:
        last = Move.objects.filter(game_id__in=list(games)).order_by("game_id", "-seq")
        for game_id, at in last.distinct("game_id").values_list("game_id", "at"):
            moved[games[game_id]] = at
    signs = {}
    for seat in seats:
        found = [start, moved.get(seat.user_id, start)]
        if seat.user_id in noted:
            found.append(datetime.fromtimestamp(noted[seat.user_id], tz=UTC))
        signs[seat.user_id] = max(found)
    return signs


def claim_wait_s(sign: datetime, now: datetime) -> float:
    """Seconds until a claim against a racer whose latest sign is `sign` is accepted (<= 0: now)."""
    return presence.absent_after_s() - (now - sign).total_seconds()


def claim_waits(
    race: Race, seats: Sequence[Seat], now: datetime, *, begun: bool = False
) -> dict[int, float]:
    """For each racer of the running race (a seat still playing), by user id: seconds until a
    claim against them is accepted, 0 when it would be now. Nobody else can be claimed against.
    `begun`: the race was begun by the caller's own transaction, so no racer has a sign but its
    start (their games are its own, with no move; their sockets note them once they hear of
    it): nothing to read."""
    racing = [seat for seat in seats if seat.status == SeatStatus.PLAYING]
    if race.state != State.RUNNING or not racing:
        return {}
    start = race.starts_at or race.created_at
    signs = {seat.user_id: start for seat in racing} if begun else last_signs(race, racing)
    return {user: max(0.0, claim_wait_s(sign, now)) for user, sign in signs.items()}
