"""Write paths of arenas: make them (by hand or from the schedule), join, leave, play, count a
finished game, finalize. Each one transaction; standings told after the commit (`live`)."""

from __future__ import annotations

import logging
from datetime import datetime, timedelta
from typing import Any
from uuid import UUID

from django.db import connection, transaction
from django.utils import timezone

from tripeaks.arenas import live, schedule
from tripeaks.arenas.errors import ArenaNotFound, ArenaRefused
from tripeaks.arenas.models import Arena, ArenaGame, Entry, Phase
from tripeaks.arenas.scoring import score_game
from tripeaks.arenas.standings import write_places
from tripeaks.engine.layouts import get_layout
from tripeaks.engine.rules import Rules, RulesError
from tripeaks.play import deals
from tripeaks.play import services as play_services
from tripeaks.play.errors import BadRequest
from tripeaks.play.models import Game, Status

log = logging.getLogger("tripeaks.events")

GROUP_PREFIX = "arena-"
# pg_advisory_xact_lock(PLAY_LOCK, user id): one arena game start at a time per player.
PLAY_LOCK = 0x41524E41  # "ARNA"


@transaction.atomic
def create_arena(
    *,
    name: str,
    rules_key: str,
    starts_at: datetime,
    ends_at: datetime,
    layout: str = "classic",
    schedule_key: str = "",
) -> Arena:
    try:
        rules = Rules.from_key(rules_key)
        get_layout(layout)
    except (RulesError, ValueError) as error:
        raise BadRequest(str(error)) from None
    if ends_at <= starts_at:
        raise BadRequest("an arena ends after it starts")
    return Arena.objects.create(
        name=name,
        rules_key=rules.key,
        layout=layout,
        starts_at=starts_at,
        ends_at=ends_at,
        schedule_key=schedule_key,
    )


def schedule_arenas(*, now: datetime | None = None) -> int:
    """Make the schedule's arenas from the one running now to `schedule.ahead()` ahead; each slot
    once, however often this runs (the (schedule_key, starts_at) constraint). Returns how many
    it made."""
    now = now or timezone.now()
    made = 0
    for line in schedule.lines():
        length = timedelta(seconds=line.length)
        for starts_at in schedule.starts(line, now - length, now + schedule.ahead()):
            _, created = Arena.objects.get_or_create(
                schedule_key=line.key,
                starts_at=starts_at,
                defaults={
                    "name": line.name,
                    "rules_key": Rules.from_key(line.rules).key,
                    "layout": line.layout,
                    "ends_at": starts_at + length,
                },
            )
            made += created
    return made


def _arena(arena_id: UUID | str) -> Arena:
    arena = Arena.objects.filter(pk=arena_id).first()
    if arena is None:
        raise ArenaNotFound("no such arena")
    return arena


@transaction.atomic
def join(*, arena_id: UUID | str, user: Any) -> Entry:
    """Join an arena that has not ended (again, after leaving it: the points are kept).
    Joining twice is joining once."""
    arena = _arena(arena_id)
    now = timezone.now()
    if arena.phase_at(now) == Phase.FINISHED:
        raise ArenaRefused("the arena is over")
    entry, created = Entry.objects.get_or_create(
        arena=arena, player=user, defaults={"joined_at": now}
    )
    if not created:
        entry = Entry.objects.select_for_update().get(pk=entry.pk)
        if entry.active:
            return entry
        entry.active = True
        entry.changes += 1
        entry.save(update_fields=["active", "changes"])
    live.on_commit_tell(arena)
    return entry


@transaction.atomic
def leave(*, arena_id: UUID | str, user: Any) -> Entry:
    """Take a break: no new games; the points and the place stay."""
    arena = _arena(arena_id)
    entry = Entry.objects.select_for_update().filter(arena=arena, player=user).first()
    if entry is None:
        raise ArenaRefused("you have not joined this arena")
    if entry.active:
        entry.active = False
        entry.changes += 1
        entry.save(update_fields=["active", "changes"])
        live.on_commit_tell(arena)
    return entry


@transaction.atomic
def leave_every_arena(*, user: Any) -> None:
    """Leave every arena the player is in (their account is being deleted)."""
    for arena_id in Entry.objects.filter(player=user, active=True).values_list(
        "arena_id", flat=True
    ):
        leave(arena_id=arena_id, user=user)


def play(
    *, arena_id: UUID | str, user: Any, device: str = "", address: str | None = None
) -> tuple[Game, bool]:
    """The player's next arena game: their unfinished game of this arena if they have one (a
    second click loses nothing), else a new game on a fresh proven-winnable deal. Returns the
    game and whether it is new. Starting it gives up their other unfinished game (play's rule)."""
    arena = _arena(arena_id)
    with transaction.atomic():
        # Two clicks at once would each start a game, the second giving up the first: a lock of
        # the player's own, which no finish takes (a finish holds its game, then the Entry).
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s, %s)", [PLAY_LOCK, user.pk])
        if arena.phase_at(timezone.now()) != Phase.RUNNING:
            raise ArenaRefused("the arena is not running")
        entry = Entry.objects.filter(arena=arena, player=user).first()
        if entry is None or not entry.active:
            raise ArenaRefused("join the arena first")
        current = (
            Game.objects.select_related("deal")
            .filter(player=user, finished_at__isnull=True, contest=arena.group)
            .first()
        )
        if current is not None:
            return current, False
        rules = Rules.from_key(arena.rules_key)
        deal = deals.claim_random_deal(rules, arena.layout)
        game = play_services.start_game(
            user=user,
            mode="random",
            rules=rules,
            layout=arena.layout,
            deal=deal,
            contest=arena.group,
            deadline=arena.ends_at,
            device=device,
            address=address,
        )
    return game, True


def arena_id_of(contest: str) -> UUID | None:
    if not contest.startswith(GROUP_PREFIX):
        return None
    try:
        return UUID(contest.removeprefix(GROUP_PREFIX))
    except ValueError:
        return None


def count_finish(*, game: Game, held: bool = False) -> ArenaGame | None:
    """Score a finished arena game, in the transaction that stores its finish (play's
    `game_finished`). Only the player's Entry row is locked (the game row already is), so
    finishes of different players never wait for each other. Once per game. A game counts when
    it ends before the arena does (grace 0 s) and the arena is not finalized: the Entry lock is
    taken before the arena is read, so a finish either lands before the final places are
    written or counts nothing (`finalize` locks every Entry first)."""
    arena_id = arena_id_of(game.contest)
    if arena_id is None or game.finished_at is None:
        return None
    entry = (
        Entry.objects.select_for_update()
        .filter(arena_id=arena_id, player_id=game.player_id)
        .first()
    )
    if entry is None or ArenaGame.objects.filter(game_id=game.pk).exists():
        return None
    arena = Arena.objects.get(pk=arena_id)
    won = game.status == Status.WON
    counted = game.finished_at < arena.ends_at and arena.state != Phase.FINISHED
    scored = score_game(won=won, streak=entry.streak)
    if counted and not held:
        entry.games += 1
        entry.wins += won
        entry.streak = scored.streak
        entry.best_streak = max(entry.best_streak, entry.streak)
        if scored.points:
            entry.points += scored.points
            entry.points_at = game.finished_at
        entry.changes += 1
        entry.save(
            update_fields=[
                "games",
                "wins",
                "streak",
                "best_streak",
                "points",
                "points_at",
                "changes",
            ]
        )
        live.on_commit_tell(arena)
    return ArenaGame.objects.create(
        game=game,
        entry=entry,
        won=won,
        points=scored.points if counted else 0,
        counted=counted,
        held=held,
        finished_at=game.finished_at,
    )


def tick(*, now: datetime | None = None) -> int:
    """Move arenas' stored state along the clock; finalize the ended ones. Returns how many it
    finalized."""
    now = now or timezone.now()
    Arena.objects.filter(state=Phase.SCHEDULED, starts_at__lte=now, ends_at__gt=now).update(
        state=Phase.RUNNING
    )
    finalized = 0
    for arena_id in (
        Arena.objects.filter(ends_at__lte=now)
        .exclude(state=Phase.FINISHED)
        .values_list("pk", flat=True)
    ):
        finalized += finalize(arena_id=arena_id, now=now)
    return finalized


@transaction.atomic
def finalize(*, arena_id: UUID | str, now: datetime | None = None) -> bool:
    """Write an ended arena's final places (its podium) once: a second run changes nothing.
    False when it is not over or was finalized already."""
    now = now or timezone.now()
    arena = Arena.objects.select_for_update().filter(pk=arena_id).first()
    if arena is None or arena.state == Phase.FINISHED or arena.ends_at > now:
        return False
    players = write_places(arena)
    arena.state = Phase.FINISHED
    arena.finalized_at = now
    arena.save(update_fields=["state", "finalized_at"])
    log.info("arena finalized", extra={"arena": str(arena.pk), "players": players})
    live.on_commit_tell(arena)
    return True
