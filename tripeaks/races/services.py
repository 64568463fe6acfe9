"""Write paths of races: open, join, leave, start the countdown, claim an absence, rematch.

The race's clock (its start instant, its cap) is `races/clock.py`; its end, `races/ending.py`.

Each is one transaction holding the race row's lock (`SELECT ... FOR UPDATE`), which serializes
every change of a race and its seats on every server; the race's sockets hear of it after the
commit (`broadcast.publish_race`). Lock order, everywhere: a game row (play's finishing
transaction, which calls `record_finish`), then the race row, then ratings. No race service takes
a game row's lock while it holds a race row, but the start (`start_game` resigns a player's other
unfinished game): other games of the race's players are ended after the commit, each in play's
own locked path (`end_games`).
"""

from __future__ import annotations

import logging
import secrets
import uuid
from datetime import datetime, timedelta
from functools import partial
from math import ceil

from django.conf import settings
from django.contrib.auth.base_user import AbstractBaseUser
from django.db import IntegrityError, transaction
from django.utils import timezone

from tripeaks.engine.layouts import get_layout
from tripeaks.engine.rules import Rules
from tripeaks.play import deals
from tripeaks.play.errors import PlayError
from tripeaks.play.models import Deal
from tripeaks.play.visitors import Visitor
from tripeaks.races import absence
from tripeaks.races.clock import schedule_clock
from tripeaks.races.ending import decided_or_changed, end_games_later, finalize, take_numbers
from tripeaks.races.errors import NotHost, RaceConflict, RaceError, RaceNotFound
from tripeaks.races.models import Race, Seat, SeatStatus, State
from tripeaks.races.race_row import active_seats, changed, lock_race, race_uuid

log = logging.getLogger("tripeaks.events")

MIN_SEATS, MAX_SEATS = 2, 8
CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I: read aloud, typed on a phone
CODE_LENGTH = 6


def countdown_seconds() -> float:
    return settings.RACE_COUNTDOWN_S


def default_cap_seconds() -> float:
    return settings.RACE_CAP_S


def may_enter(race: Race, user: Visitor, code: str | None) -> bool:
    """Whether `user` may see or join the race: a public race, its code, a seat in it, or (a
    rematch) a seat in the race it is the rematch of."""
    if race.public or (code is not None and secrets.compare_digest(code.upper(), race.code)):
        return True
    if user is None or not user.is_authenticated:
        return False
    if race.entries.filter(user_id=user.pk).exists():
        return True
    return (
        race.rematch_of_id is not None
        and Seat.objects.filter(
            race_id=race.rematch_of_id, user_id=user.pk, game__isnull=False
        ).exists()
    )


def _take_seat(race: Race, user: AbstractBaseUser, seat: Seat | None, now: datetime) -> None:
    try:
        with transaction.atomic():
            if seat is None:
                Seat.objects.create(race=race, user_id=user.pk, joined_at=now)
            else:
                seat.status, seat.active, seat.joined_at = SeatStatus.WAITING, True, now
                seat.save(update_fields=["status", "active", "joined_at"])
    except IntegrityError:
        raise RaceConflict(
            "you are in another race: leave it first", code="in_another_race"
        ) from None


@transaction.atomic
def create_race(
    *,
    host: AbstractBaseUser,
    rules: Rules,
    layout: str = "classic",
    seats: int = 4,
    public: bool = True,
    cap_s: float | None = None,
    rematch_of: Race | None = None,
    matched: bool = False,
) -> Race:
    """Open a race with its host seated."""
    try:
        get_layout(layout)
    except ValueError as error:
        raise RaceError(str(error)) from None
    if not MIN_SEATS <= seats <= MAX_SEATS:
        raise RaceError(f"a race has {MIN_SEATS} to {MAX_SEATS} seats")
    now = timezone.now()
    race = None
    for _ in range(8):  # a code already taken: draw another (32^6 codes)
        try:
            with transaction.atomic():
                race = Race.objects.create(
                    code="".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH)),
                    host_id=host.pk,
                    seats=seats,
                    rules_key=rules.key,
                    layout=layout,
                    public=public,
                    countdown_s=countdown_seconds(),
                    cap_s=cap_s if cap_s is not None else default_cap_seconds(),
                    created_at=now,
                    rematch_of=rematch_of,
                    matched=matched,
                )
            break
        except IntegrityError:
            continue
    if race is None:  # pragma: no cover - eight codes in a row taken
        raise RaceConflict("could not draw a free race code: try again", code="busy")
    _take_seat(race, host, None, now)
    log.info("race opened", extra={"race": str(race.pk), "user": host.pk, "seats": seats})
    return race


def join_race(*, race_id: uuid.UUID | str, user: AbstractBaseUser, code: str | None = None) -> Race:
    """Take a seat in an open race; the race's countdown begins when its last seat is taken."""
    with transaction.atomic():
        race = lock_race(race_id)
        if not may_enter(race, user, code):
            raise RaceNotFound("no such race")
        full = _join_locked(race, user)
    if full:
        _countdown_when_full(race.pk)
    return race


def _countdown_when_full(race_id: uuid.UUID) -> None:
    """The last seat was taken: count down, unless the race moved on meanwhile (the host started
    it, someone left) or no proven deal is ready (503): the join stands either way, and the host
    can start it."""
    try:
        _begin_countdown(race_id, by=None)
    except (RaceConflict, PlayError) as error:
        log.info("no countdown on the last seat", extra={"race": str(race_id), "why": str(error)})


def _join_locked(race: Race, user: AbstractBaseUser) -> bool:
    """Seat `user` in the locked `race`; whether that filled it."""
    seats = list(race.entries.all())
    mine = next((seat for seat in seats if seat.user_id == user.pk), None)
    if mine is not None and mine.active:
        raise RaceConflict("you are in this race already", code="already_joined")
    if race.state != State.OPEN:
        raise RaceConflict("the race has begun: it takes no more players", code="not_open")
    taken = sum(1 for seat in seats if seat.active)
    if taken >= race.seats:
        raise RaceConflict("the race is full", code="race_full")
    _take_seat(race, user, mine, timezone.now())
    changed(race)
    return taken + 1 == race.seats


def start_race(*, race_id: uuid.UUID | str, user: AbstractBaseUser) -> Race:
    """The host starts the countdown (two players at least)."""
    return _begin_countdown(race_uuid(race_id), by=user)


def _begin_countdown(
    race_id: uuid.UUID, *, by: AbstractBaseUser | None, deal: Deal | None = None
) -> Race:
    """Deal (a pooled, proven-winnable deal, claimed before the race's lock: proving one can take
    a moment) and count down. The players' games are made at `starts_at`, not now."""
    race = Race.objects.filter(pk=race_id).first()
    if race is None:
        raise RaceNotFound("no such race")
    _check_start(race, by)
    deal = deal or race.deal or deals.claim_random_deal(Rules.from_key(race.rules_key), race.layout)
    with transaction.atomic():
        race = lock_race(race_id)
        _check_start(race, by)
        players = race.entries.filter(active=True).count()
        if by is not None and players < MIN_SEATS:
            raise RaceConflict("a race needs two players at least", code="too_few_players")
        if by is None and players < race.seats:
            raise RaceConflict("the race is not full any more", code="not_full")
        race.deal = deal
        race.state = State.COUNTDOWN
        race.starts_at = timezone.now() + timedelta(seconds=race.countdown_s)
        changed(race)
        transaction.on_commit(partial(schedule_clock, race.pk, race.starts_at))
    return race


def _check_start(race: Race, by: AbstractBaseUser | None) -> None:
    if by is not None and race.host_id != by.pk:
        raise NotHost("only the race's host can start it")
    if race.state != State.OPEN:
        raise RaceConflict("the race has already started", code="already_started")


def leave_race(*, race_id: uuid.UUID | str, user: AbstractBaseUser) -> Race:
    """Leave a race: before its start the seat is free again; in a running race the player's
    game is resigned (after the commit) and they are placed among those who left."""
    with transaction.atomic():
        race = lock_race(race_id)
        seat = race.entries.filter(user_id=user.pk, active=True).select_related("game").first()
        if seat is None or race.state == State.FINISHED:
            raise RaceConflict("you are not in this race", code="not_seated")
        now = timezone.now()
        if race.state == State.RUNNING:
            _leave_running(race, seat, now)
            return race
        playing = seat.status in (SeatStatus.WAITING, SeatStatus.PLAYING)
        seat.active = False
        if playing:
            seat.status = SeatStatus.LEFT
        seat.save(update_fields=["status", "active"])
        remaining = active_seats(race)
        if not remaining:
            race.state, race.finished_at = State.FINISHED, now
        elif race.host_id == user.pk:
            race.host = remaining[0].user
        if race.state == State.COUNTDOWN and len(remaining) < MIN_SEATS:
            race.state, race.starts_at = State.OPEN, None  # back to waiting for players
        changed(race)
    return race


def leave_every_race(*, user: AbstractBaseUser) -> None:
    """Take the player out of every race they sit in (their account is being deleted): an open
    race frees the seat and passes the host on; a running race counts it as a give-up."""
    for race_id in Seat.objects.filter(user_id=user.pk, active=True).values_list(
        "race_id", flat=True
    ):
        leave_race(race_id=race_id, user=user)


def _leave_running(race: Race, seat: Seat, now: datetime) -> None:
    """The seat leaves the locked, running race: a player still playing is placed as having left
    (now: below everyone still playing) and their game is resigned after the commit; one who
    resigned keeps their place. The seat is free for another race at once. After the cap (the
    race not ended yet) it ends the race as the cap left it, the leaver among those playing."""
    if race.ends_at is not None and now >= race.ends_at:
        finalize(race, race.ends_at)
        return
    playing = seat.status == SeatStatus.PLAYING
    seat.active = False
    if playing:
        seat.status = SeatStatus.LEFT
        seat.finished_at = now  # when they gave up: the earliest to give up ranks lowest
        if seat.game is not None:
            take_numbers(seat, seat.game)
    seat.save()
    if race.host_id == seat.user_id:
        # Passed on, as before the start: a guest's account is deleted with its row, and the
        # races it hosts with it (the host's foreign key cascades).
        other = race.entries.exclude(user_id=seat.user_id).order_by("joined_at", "id").first()
        if other is not None:
            race.host_id = other.user_id
    decided_or_changed(race, now)
    if seat.game_id is not None and playing:
        transaction.on_commit(partial(end_games_later, [seat.game_id]))


def claim_absent(*, race_id: uuid.UUID | str, user: AbstractBaseUser, against: str) -> Race:
    """A player still racing claims against `against` (a username), a racer with no race socket
    and no stored move for `presence.absent_after_s()` (30 s) of the running race (`absence.py`: the
    rule the race's payload says `claimable` by): that racer
    is placed as having left, now, and when one player is left playing they win at once. The
    absence is the server's to judge: too early is a 409 `not_absent`, and nothing changes."""
    with transaction.atomic():
        race = lock_race(race_id)
        if not may_enter(race, user, None):
            raise RaceNotFound("no such race")
        seats = list(race.entries.select_related("user", "game"))
        mine = next((s for s in seats if s.user_id == user.pk and s.active), None)
        if mine is None or race.state != State.RUNNING or mine.status != SeatStatus.PLAYING:
            raise RaceConflict("only a player still racing can claim", code="not_racing")
        theirs = next((s for s in seats if s.user.username == against and s is not mine), None)
        if theirs is None or theirs.status != SeatStatus.PLAYING:
            raise RaceConflict("that player is not racing any more", code="not_racing")
        now = timezone.now()
        wait = absence.claim_wait_s(absence.last_signs(race, [theirs])[theirs.user_id], now)
        if wait > 0:
            raise RaceConflict(
                f"{theirs.user.username} is still here: claim again in {ceil(wait)} s"
                " if they stay away",
                code="not_absent",
            )
        _leave_running(race, theirs, now)
        log.info(
            "race absence claimed",
            extra={"race": str(race.pk), "user": user.pk, "against": theirs.user_id},
        )
    return race


def rematch_race(*, race_id: uuid.UUID | str, user: AbstractBaseUser) -> Race:
    """Ask for a rematch of a finished race: the first to ask opens it (private, the same rule
    set, layout and cap, as many seats as the race had players) and the others join it; it
    starts when all of them are in, or when its host starts it."""
    with transaction.atomic():
        old = lock_race(race_id)
        if not may_enter(old, user, None):
            raise RaceNotFound("no such race")
        if old.state != State.FINISHED:
            raise RaceConflict("the race is not over yet", code="not_finished")
        players = list(old.entries.filter(game__isnull=False).values_list("user_id", flat=True))
        if user.pk not in players:
            raise RaceConflict("only the race's players can ask for a rematch", code="not_a_player")
        existing = Race.objects.filter(rematch_of=old).first()
        if existing is None:
            changed(old)  # its players hear of the rematch
            return create_race(
                host=user,
                rules=Rules.from_key(old.rules_key),
                layout=old.layout,
                seats=max(MIN_SEATS, len(players)),
                public=False,
                cap_s=old.cap_s,
                rematch_of=old,
            )
        rematch = lock_race(existing.pk)
        if rematch.entries.filter(user_id=user.pk, active=True).exists():
            return rematch
        full = _join_locked(rematch, user)
    if full:
        _countdown_when_full(rematch.pk)
    return rematch


def open_matched_race(
    *, users: list[AbstractBaseUser], rules: Rules, layout: str = "classic"
) -> Race:
    """A private race for players quick match paired, its countdown begun at once. A player
    still seated in a race that has not begun leaves it first. The deal is claimed first: when
    none is ready (503) nothing is made."""
    deal = deals.claim_random_deal(rules, layout)
    with transaction.atomic():
        for user in users:
            for seat in Seat.objects.filter(user_id=user.pk, active=True).select_related("race"):
                if seat.race.state in (State.OPEN, State.COUNTDOWN):
                    leave_race(race_id=seat.race_id, user=user)
        race = create_race(
            host=users[0], rules=rules, layout=layout, seats=len(users), public=False, matched=True
        )
        for user in users[1:]:
            _take_seat(race, user, None, timezone.now())
        return _begin_countdown(race.pk, by=None, deal=deal)
