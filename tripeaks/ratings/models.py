"""A player's Glicko-2 rating per rule set, and the change each rated race made to it."""

from __future__ import annotations

from django.conf import settings
from django.db import models

from tripeaks.ratings import glicko

# The longest race name a history keeps (a Channels group name is at most 64 characters too).
RACE_NAME_MAX = 64


class Rating(models.Model):
    """One player's rating on one rule set (``Rules.key``, e.g. ``wrap-closed``).

    A row is created by the first race the player is rated in; a player without a row has the
    starting rating (``glicko.START``).
    """

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="ratings"
    )
    rules_key = models.CharField(max_length=24)
    rating = models.FloatField(default=glicko.START.rating)
    rd = models.FloatField("rating deviation", default=glicko.START.rd)
    volatility = models.FloatField(default=glicko.START.volatility)
    races = models.PositiveIntegerField("rated races", default=0)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "rules_key"], name="ratings_one_per_rules")
        ]
        indexes = [models.Index(fields=["rules_key", "-rating"], name="ratings_board")]

    def __str__(self) -> str:
        return f"{self.user_id} {self.rules_key}: {self.rating:.0f} ± {self.rd:.0f}"


class RatingEvent(models.Model):
    """What one rated race did to one player's rating (their history; the results screen)."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="rating_events"
    )
    rules_key = models.CharField(max_length=24)
    # The race as its owner names it (e.g. "race-17"); ratings knows nothing else of races.
    race = models.CharField(max_length=RACE_NAME_MAX, blank=True)
    place = models.PositiveSmallIntegerField()
    players = models.PositiveSmallIntegerField()
    rating_before = models.FloatField()
    rating_after = models.FloatField()
    rd_before = models.FloatField()
    rd_after = models.FloatField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            # A race is rated once: a second call for the same race finds its events.
            models.UniqueConstraint(
                fields=["race", "user"],
                condition=~models.Q(race=""),
                name="ratings_event_once_per_race",
            )
        ]
        indexes = [
            models.Index(fields=["user", "rules_key", "-created_at"], name="ratings_history"),
        ]

    def __str__(self) -> str:
        return f"{self.user_id} {self.race}: {self.rating_before:.0f} -> {self.rating_after:.0f}"
