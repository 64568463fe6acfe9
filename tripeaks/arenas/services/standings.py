"""Staff decided on an arena game held for review (docs/arenas.md, "Scoring"): accept counts it,
and the player's line is worked out again from their counted games (``scoring.tally``); hide
keeps it out for good. An arena already over has its final places written again."""

from __future__ import annotations

from uuid import UUID

from django.db import transaction

from tripeaks.arenas import live
from tripeaks.arenas.models import Arena, ArenaGame, Entry, Phase
from tripeaks.arenas.scoring import tally
from tripeaks.arenas.selectors import ordered_entries


@transaction.atomic
def settle_held_game(*, game_id: UUID, accept: bool) -> bool:
    """Whether a held arena game was settled (False: none waits for this game)."""
    held = ArenaGame.objects.filter(game_id=game_id, held=True).values_list("entry_id", flat=True)
    entry_id = held.first()
    if entry_id is None:
        return False
    entry = Entry.objects.select_for_update().get(pk=entry_id)
    arena = Arena.objects.get(pk=entry.arena_id)
    counting = ArenaGame.objects.filter(game_id=game_id, held=True)
    if accept:
        counting.update(held=False)
    else:
        counting.update(held=False, counted=False, points=0)
    line = tally(
        ArenaGame.objects.filter(entry=entry, counted=True, held=False)
        .order_by("finished_at", "game_id")
        .values_list("won", "finished_at")
    )
    entry.games, entry.wins, entry.points = line.games, line.wins, line.points
    entry.points_at, entry.streak, entry.best_streak = line.points_at, line.streak, line.best_streak
    entry.changes += 1
    entry.save()
    if arena.state == Phase.FINISHED:
        write_places(arena)  # the final places again, in the standings' order
    live.on_commit_tell(arena)
    return True


def write_places(arena: Arena) -> int:
    """Write the locked arena's places in the standings' order; returns how many players.
    Every Entry is locked first (in one order), then read: a finish in flight lands before."""
    list(Entry.objects.select_for_update().filter(arena=arena).order_by("pk").values("pk"))
    entries = list(ordered_entries(arena))
    for place, entry in enumerate(entries, start=1):
        entry.rank = place
        entry.changes += 1
    Entry.objects.bulk_update(entries, ["rank", "changes"])
    return len(entries)
