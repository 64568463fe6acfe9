"""A race's clock: it begins at its start instant and ends at its time cap.

The instants are kept by a Celery task queued for each (`advance_race`, with `eta`) and by the
race sockets' timers (tripeaks/races/consumers.py), whichever comes first: both call
`advance_race_clock`, idempotent under the race's row lock. Nothing else moves the clock: a read
(`GET /api/races/{id}`, a socket's opening or `sync`) shows the race as it is stored.
"""

from __future__ import annotations

import logging
import uuid
from datetime import datetime, timedelta
from functools import partial

from celery import shared_task
from django.db import transaction
from django.utils import timezone

from tripeaks.engine.rules import Rules
from tripeaks.infra.bulk_rows import update_rows
from tripeaks.play import services as play
from tripeaks.races.ending import finalize
from tripeaks.races.models import Race, SeatStatus, State
from tripeaks.races.race_row import Busy, active_seats, changed, lock_race, race_uuid

log = logging.getLogger("tripeaks.events")


def _advance_race(race_id: str) -> bool:
    """Queued with `eta` at a race's start instant and at its time cap. Early (an eager run in
    tests) it does nothing: the race's sockets move it on at the instant too."""
    return advance_race_clock(race_id=race_id)


# The Celery task, beside the clock that queues it again at the cap (Celery ships no types, so it
# is made by a call, not a decorator); its name is the one its queue routes.
advance_race = shared_task(name="tripeaks.races.tasks.advance_race", acks_late=True)(_advance_race)


def schedule_clock(race_id: uuid.UUID, at: datetime) -> None:
    """A worker moves the race on at `at` (begin, or the cap). Best-effort: the race's sockets'
    timers do it too (`advance_race_clock`), whichever comes first."""
    try:
        advance_race.apply_async(args=[str(race_id)], eta=at)
    except Exception:
        log.warning("could not queue a race's clock", extra={"race": str(race_id)}, exc_info=True)


def advance_race_clock(*, race_id: object, wait: bool = True) -> bool:
    """Begin a race whose countdown is over, or end one whose time cap is reached; whether it
    changed anything. Idempotent and cheap when there is nothing to do (one read, no lock):
    Celery calls it at the instant, every socket of the race does at its timer; a read never.

    `wait=False` (the sockets' timers) gives up at once when another transaction holds the
    race's row: at a start instant all four sockets of a race call, and each one waiting on the
    lock held a worker thread that moves and other races needed. Whoever holds the lock moves
    the race on, or the caller reads it again later."""
    race = Race.objects.filter(pk=race_uuid(race_id)).only("state", "starts_at", "ends_at").first()
    if race is None or not clock_due(race, timezone.now()):
        return False
    try:
        return (
            _begin(race.pk, wait=wait)
            if race.state == State.COUNTDOWN
            else _cap(race.pk, wait=wait)
        )
    except Busy:
        return False


def clock_due(race: Race, now: datetime) -> bool:
    """Whether the race's next instant (its start, its cap) has come, as read in `race`: what
    `advance_race_clock` would act on. A caller that has the row need not have it read again."""
    if race.state == State.COUNTDOWN:
        return race.starts_at is not None and race.starts_at <= now
    if race.state == State.RUNNING:
        return race.ends_at is not None and race.ends_at <= now
    return False


@transaction.atomic
def _begin(race_id: uuid.UUID, *, wait: bool) -> bool:
    race = lock_race(race_id, wait=wait)
    now = timezone.now()
    if race.state != State.COUNTDOWN or race.starts_at is None or race.starts_at > now:
        return False
    seats = active_seats(race)
    if len(seats) < 1 or race.deal is None:
        race.state, race.finished_at = State.FINISHED, now
        changed(race)
        return True
    rules = Rules.from_key(race.rules_key)
    ends_at = timezone.now() + timedelta(seconds=race.cap_s)  # each game refuses moves from then
    # Made now, under the race's lock: nobody's cards exist before the start instant.
    games = play.start_games(
        users=[seat.user for seat in seats],
        mode="random",
        rules=rules,
        layout=race.layout,
        deal=race.deal,
        contest=race.group,
        deadline=ends_at,
    )
    for seat, game in zip(seats, games, strict=True):
        seat.game, seat.status = game, SeatStatus.PLAYING
        seat.cards_left, seat.time_ms = game.cards_left, 0
    update_rows(seats, ["game", "status", "cards_left", "time_ms"])
    race.state = State.RUNNING
    race.ends_at = ends_at
    changed(race, begun=seats)
    transaction.on_commit(partial(schedule_clock, race.pk, race.ends_at))
    log.info("race started", extra={"race": str(race.pk), "players": len(seats)})
    return True


@transaction.atomic
def _cap(race_id: uuid.UUID, *, wait: bool) -> bool:
    race = lock_race(race_id, wait=wait)
    now = timezone.now()
    if race.state != State.RUNNING or race.ends_at is None or race.ends_at > now:
        return False
    finalize(race, now)
    return True
