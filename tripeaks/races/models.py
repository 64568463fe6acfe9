"""A race (one deal for 2-8 players, started at one server instant) and its seats."""

from __future__ import annotations

import uuid

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone


def contest_of(race_id: object) -> str:
    return f"race-{race_id}"


class State(models.TextChoices):
    OPEN = "open"  # taking players
    COUNTDOWN = "countdown"  # the seats are taken; the games are made at `starts_at`
    RUNNING = "running"  # every seated player has a game on the deal
    FINISHED = "finished"  # places given (or nobody was left to race)


class SeatStatus(models.TextChoices):
    WAITING = "waiting"  # seated, the race has not begun
    PLAYING = "playing"
    WON = "won"  # cleared the layout first: the race ends
    FINISHED = "finished"  # still playing when the race ended (the winner, the cap)
    RESIGNED = "resigned"
    LEFT = "left"  # left before the start, or left a running race (its game resigned)


class Race(models.Model):
    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    code = models.CharField(max_length=8, unique=True, help_text="The short join code.")
    host = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="hosted_races"
    )
    seats = models.PositiveSmallIntegerField()
    rules_key = models.CharField(max_length=24)
    layout = models.CharField(max_length=40, default="classic")
    public = models.BooleanField(default=True, help_text="Listed in the lobby.")
    state = models.CharField(max_length=10, choices=State.choices, default=State.OPEN)
    deal = models.ForeignKey(
        "play.Deal", null=True, blank=True, on_delete=models.PROTECT, related_name="races"
    )
    countdown_s = models.FloatField()
    cap_s = models.FloatField(help_text="The time cap: the race ends this long after its start.")
    starts_at = models.DateTimeField(null=True, blank=True)
    ends_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(default=timezone.now)
    rematch_of = models.OneToOneField(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="rematch"
    )
    matched = models.BooleanField(default=False, help_text="Made by quick match.")
    # Moves on with every change of the race row or its seats (the socket's resync: a gap).
    version = models.PositiveIntegerField(default=1)

    class Meta:
        indexes = [
            models.Index(
                fields=["-created_at"], condition=Q(state="open", public=True), name="race_lobby"
            ),
        ]

    def __str__(self) -> str:
        return f"race {self.code} ({self.state})"

    @property
    def group(self) -> str:
        """The race's name on the contest feed (its sockets hear it there), and its games'
        `contest`."""
        return contest_of(self.pk)


class Seat(models.Model):
    race = models.ForeignKey(Race, on_delete=models.CASCADE, related_name="entries")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="race_seats"
    )
    joined_at = models.DateTimeField(default=timezone.now)
    game = models.OneToOneField(
        "play.Game", null=True, blank=True, on_delete=models.SET_NULL, related_name="race_seat"
    )
    status = models.CharField(max_length=10, choices=SeatStatus.choices, default=SeatStatus.WAITING)
    # Until the race ends: a player sits in one unfinished race at most (a constraint).
    active = models.BooleanField(default=True)
    place = models.PositiveSmallIntegerField(null=True, blank=True)
    cards_left = models.PositiveSmallIntegerField(null=True, blank=True)
    moves = models.PositiveIntegerField(default=0)
    time_ms = models.BigIntegerField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    rating_before = models.FloatField(null=True, blank=True)
    rating_after = models.FloatField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["race", "user"], name="one_seat_per_player"),
            models.UniqueConstraint(
                fields=["user"], condition=Q(active=True), name="one_active_race_per_player"
            ),
        ]
        ordering = ["joined_at", "id"]

    def __str__(self) -> str:
        return f"{self.user_id} in {self.race_id} ({self.status})"
