"""Arena games: the player's next game started, a finished game counted (in the transaction that
stores its finish)."""

from __future__ import annotations

from uuid import UUID

from django.contrib.auth.base_user import AbstractBaseUser
from django.db import connection, transaction
from django.utils import timezone

from tripeaks.arenas import live
from tripeaks.arenas.errors import ArenaRefused
from tripeaks.arenas.models import Arena, ArenaGame, Entry, Phase
from tripeaks.arenas.scoring import score_game
from tripeaks.arenas.selectors import existing_arena
from tripeaks.engine.rules import Rules
from tripeaks.play import deals
from tripeaks.play import services as play_services
from tripeaks.play.models import Game, Status

GROUP_PREFIX = "arena-"
# pg_advisory_xact_lock(PLAY_LOCK, user id): one arena game start at a time per player.
PLAY_LOCK = 0x41524E41  # "ARNA"


def play(
    *, arena_id: UUID | str, user: AbstractBaseUser, device: str = "", address: str | None = None
) -> tuple[Game, bool]:
    """The player's next arena game: their unfinished game of this arena if they have one (a
    second click loses nothing), else a new game on a fresh proven-winnable deal. Returns the
    game and whether it is new. Starting it gives up their other unfinished game (play's rule)."""
    arena = existing_arena(arena_id)
    with transaction.atomic():
        # Two clicks at once would each start a game, the second giving up the first: a lock of
        # the player's own, which no finish takes (a finish holds its game, then the Entry).
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s, %s)", [PLAY_LOCK, user.pk])
        if arena.phase_at(timezone.now()) != Phase.RUNNING:
            raise ArenaRefused("the arena is not running")
        entry = Entry.objects.filter(arena=arena, player_id=user.pk).first()
        if entry is None or not entry.active:
            raise ArenaRefused("join the arena first")
        current = (
            Game.objects.select_related("deal")
            .filter(player_id=user.pk, finished_at__isnull=True, contest=arena.group)
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
