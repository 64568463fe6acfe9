"""Arena tournaments: a time window on one rule set and layout, the players who joined it, and
each of their finished games with the points it scored (docs/arenas.md)."""

from __future__ import annotations

import uuid
from datetime import datetime

from django.conf import settings
from django.db import models
from django.db.models import Q

from tripeaks.arenas.scoring import on_fire


class Phase(models.TextChoices):
    SCHEDULED = "scheduled"
    RUNNING = "running"
    FINISHED = "finished"


class Arena(models.Model):
    """One arena. Its phase follows the clock (`phase_at`); `state` is what the ticking task last
    wrote, and `finished` once the final ranks (the podium) are written, once."""

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    name = models.CharField(max_length=80)
    rules_key = models.CharField(max_length=24)
    layout = models.CharField(max_length=40, default="classic")
    starts_at = models.DateTimeField()
    ends_at = models.DateTimeField()
    state = models.CharField(max_length=10, choices=Phase.choices, default=Phase.SCHEDULED)
    schedule_key = models.CharField(
        max_length=40, blank=True, default="", help_text="The schedule line that made it."
    )
    finalized_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["schedule_key", "starts_at"],
                condition=~Q(schedule_key=""),
                name="one_arena_per_schedule_slot",
            ),
            models.CheckConstraint(
                condition=Q(ends_at__gt=models.F("starts_at")), name="arena_ends_after_start"
            ),
        ]
        indexes = [models.Index(fields=["ends_at"], name="arena_ends_at")]

    def __str__(self) -> str:
        return f"{self.name} ({self.rules_key}, {self.starts_at:%Y-%m-%d %H:%M})"

    @property
    def group(self) -> str:
        """The Channels group of its standings, and its games' `Game.contest`."""
        return f"arena-{self.pk}"

    def phase_at(self, now: datetime) -> Phase:
        if now < self.starts_at:
            return Phase.SCHEDULED
        if now < self.ends_at:
            return Phase.RUNNING
        return Phase.FINISHED


class Entry(models.Model):
    """A player in an arena: their points so far and the streak that sets a win's worth."""

    arena = models.ForeignKey(Arena, on_delete=models.CASCADE, related_name="entries")
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="arena_entries"
    )
    joined_at = models.DateTimeField()
    active = models.BooleanField(default=True, help_text="False after leaving: no new games.")
    points = models.PositiveIntegerField(default=0)
    points_at = models.DateTimeField(
        null=True, blank=True, help_text="When the points last went up (ties: earlier first)."
    )
    games = models.PositiveIntegerField(default=0)
    wins = models.PositiveIntegerField(default=0)
    streak = models.PositiveIntegerField(default=0, help_text="Wins in a row, now.")
    best_streak = models.PositiveIntegerField(default=0)
    changes = models.PositiveIntegerField(
        default=1, help_text="Writes to this row; their sum is the standings' version."
    )
    rank = models.PositiveIntegerField(null=True, blank=True, help_text="Final place, once.")

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["arena", "player"], name="one_entry_per_player"),
        ]
        indexes = [
            models.Index(
                fields=["arena", "-points", "-wins", "points_at", "joined_at", "id"],
                name="entry_standing",
            )
        ]
        verbose_name_plural = "entries"

    def __str__(self) -> str:
        return f"{self.player} in {self.arena_id}: {self.points}"

    @property
    def fire(self) -> bool:
        """On fire: the next win scores double (docs/arenas.md)."""
        return on_fire(self.streak)


class ArenaGame(models.Model):
    """One finished game of an arena, counted once (the game is its key)."""

    game = models.OneToOneField(
        "play.Game", on_delete=models.CASCADE, primary_key=True, related_name="arena_game"
    )
    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="arena_games")
    won = models.BooleanField()
    points = models.PositiveSmallIntegerField()
    counted = models.BooleanField(
        help_text="False: it ended after the arena, or staff hid it (it scores nothing)."
    )
    held = models.BooleanField(
        default=False,
        help_text="Flagged or held for staff: not in the standings until accepted.",
    )
    finished_at = models.DateTimeField()

    def __str__(self) -> str:
        return f"{self.game_id}: {self.points}"
