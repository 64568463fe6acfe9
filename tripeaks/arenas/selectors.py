"""Reads of arenas: the lists, one arena with its standings, a player's line. PostgreSQL is the
truth; the standings' `version` is the sum of the entries' write counts (each write locks its
row), so it only grows, and a watcher that sees a gap reads the whole page again."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any
from uuid import UUID

from django.db import connection
from django.db.models import Count, F, QuerySet, Sum, Window
from django.db.models.functions import RowNumber
from django.utils import timezone

from tripeaks.arenas.errors import ArenaNotFound
from tripeaks.arenas.models import Arena, ArenaGame, Entry, Phase
from tripeaks.arenas.payloads import (
    ArenaDetail,
    ArenaLine,
    ArenaLists,
    ArenaReplay,
    ArenaSummary,
    PlayerPayload,
    Standings,
)
from tripeaks.arenas.scoring import rules_payload
from tripeaks.play.visitors import Visitor

STANDINGS_LIMIT = 100
PODIUM = 3
RECENT = timedelta(days=2)
LIST_LIMIT = 20

# Points, then wins, then who reached their points first, then who joined first.
ORDER = (
    F("points").desc(),
    F("wins").desc(),
    F("points_at").asc(nulls_last=True),
    F("joined_at").asc(),
    F("id").asc(),
)


def arena_or_none(arena_id: UUID | str) -> Arena | None:
    return Arena.objects.filter(pk=arena_id).first()


def existing_arena(arena_id: UUID | str) -> Arena:
    """The arena, or ArenaNotFound."""
    arena = arena_or_none(arena_id)
    if arena is None:
        raise ArenaNotFound("no such arena")
    return arena


def ordered_entries(arena: Arena) -> QuerySet[Entry]:
    return Entry.objects.filter(arena=arena).select_related("player").order_by(*ORDER)


def player_payload(user: Any) -> PlayerPayload:
    return {"username": user.username, "display_name": user.display_name or user.username}


def line_payload(entry: Entry, rank: int) -> ArenaLine:
    return {
        "rank": rank,
        "player": player_payload(entry.player),
        "points": entry.points,
        "wins": entry.wins,
        "games": entry.games,
        "streak": entry.streak,
        "best_streak": entry.best_streak,
        "fire": entry.fire,
        "active": entry.active,
    }


def version_of(arena: Arena) -> int:
    total = Entry.objects.filter(arena=arena).aggregate(v=Sum("changes"))["v"]
    return int(total or 0)


def arena_summary(arena: Arena, now: datetime, players: int | None = None) -> ArenaSummary:
    phase = arena.phase_at(now)
    if phase == Phase.FINISHED and arena.state != Phase.FINISHED:
        phase_text = "finishing"  # over; its final places are being written
    else:
        phase_text = phase.value
    return {
        "id": str(arena.pk),
        "name": arena.name,
        "rules": arena.rules_key,
        "layout": arena.layout,
        "starts_at": arena.starts_at.isoformat(),
        "ends_at": arena.ends_at.isoformat(),
        "state": phase_text,
        "final": arena.state == Phase.FINISHED,
        "players": players,
    }


def standings(arena: Arena, *, limit: int = STANDINGS_LIMIT) -> Standings:
    """The standings' first `limit` lines, the total and the version. The version is read
    first: the lines are then at least as new as it says (a later version replaces them)."""
    version = version_of(arena)
    entries = list(ordered_entries(arena)[:limit])
    final = arena.state == Phase.FINISHED
    lines = [
        line_payload(entry, entry.rank if final and entry.rank else place)
        for place, entry in enumerate(entries, start=1)
    ]
    return {
        "version": version,
        "total": Entry.objects.filter(arena=arena).count(),
        "lines": lines,
    }


def entry_line(arena: Arena, user: Visitor | None) -> ArenaLine | None:
    """The player's own line with their place, wherever it is."""
    if user is None or not user.is_authenticated:
        return None
    entry = Entry.objects.select_related("player").filter(arena=arena, player_id=user.pk).first()
    if entry is None:
        return None
    return line_payload(entry, entry.rank or _place_of(entry))


def _place_of(entry: Entry) -> int:
    """The entry's place in the standings' order (a window over the arena's entries)."""
    placed = (
        Entry.objects.filter(arena_id=entry.arena_id)
        .annotate(place=Window(RowNumber(), order_by=ORDER))
        .values("id", "place")
    )
    sql, params = placed.query.sql_with_params()
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT place FROM ({sql}) placed WHERE id = %s", [*params, entry.pk])
        row = cursor.fetchone()
    return int(row[0]) if row else 0


def replays(arena: Arena, players: list[str]) -> dict[str, list[ArenaReplay]]:
    """The finished games of these players (usernames) in the arena, each player's in the order
    they ended: one query."""
    found: dict[str, list[ArenaReplay]] = {}
    rows = (
        ArenaGame.objects.filter(entry__arena=arena, entry__player__username__in=players)
        .order_by("entry_id", "finished_at", "game_id")
        .values_list("entry__player__username", "game_id", "won", "points")
    )
    for username, game_id, won, points in rows:
        found.setdefault(username, []).append({"game": str(game_id), "won": won, "points": points})
    return found


def arena_detail(arena: Arena, user: Visitor | None, now: datetime | None = None) -> ArenaDetail:
    """The arena as `user` sees it. Once it has ended (its `ends_at`, as the review's
    `may_view` says), a player of it also gets the listed players' games to replay."""
    now = now or timezone.now()
    board = standings(arena)
    me = entry_line(arena, user)
    listed = [line["player"]["username"] for line in board["lines"]] + (
        [me["player"]["username"]] if me is not None else []
    )
    return {
        **arena_summary(arena, now, board["total"]),
        "server_time": now.isoformat(),
        "scoring": rules_payload(),
        "version": board["version"],
        "standings": board,
        "me": me,
        "podium": board["lines"][:PODIUM] if arena.state == Phase.FINISHED else None,
        "replays": replays(arena, listed) if me is not None and arena.ends_at <= now else None,
    }


def arena_lists(now: datetime | None = None) -> ArenaLists:
    """Running arenas, the next ones, and those of the last two days that ended."""
    now = now or timezone.now()
    running = Arena.objects.filter(starts_at__lte=now, ends_at__gt=now).order_by("ends_at")
    upcoming = Arena.objects.filter(starts_at__gt=now).order_by("starts_at")[:LIST_LIMIT]
    finished = Arena.objects.filter(ends_at__lte=now, ends_at__gt=now - RECENT).order_by(
        "-ends_at"
    )[:LIST_LIMIT]
    groups = {
        "running": list(running[:LIST_LIMIT]),
        "upcoming": list(upcoming),
        "finished": list(finished),
    }
    counts = dict(
        Entry.objects.filter(arena__in=[a for arenas in groups.values() for a in arenas])
        .values("arena")
        .annotate(n=Count("id"))
        .values_list("arena", "n")
    )
    summaries = {
        name: [arena_summary(a, now, counts.get(a.pk, 0)) for a in arenas]
        for name, arenas in groups.items()
    }
    return {
        "server_time": now.isoformat(),
        "scoring": rules_payload(),
        "running": summaries["running"],
        "upcoming": summaries["upcoming"],
        "finished": summaries["finished"],
    }
