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
    # Staff found the rating earned against feeders (a closed RatingFlag): it stays the
    # player's, but the public board and its ranks leave it out.
    off_board = models.BooleanField(default=False)
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


class PairGame(models.Model):
    """One game between two rated accounts in a race (the pairwise results a race is made of):
    what the pair limit counts, what a held result waits in, what the feeder check reads.

    ``low`` is the pair's lower user id. A game is ``rated`` (it moved both ratings), or ``held``
    (one of its players' runs waits for staff: ``held_for`` lists them; it is rated when the last
    of them is accepted) or ``dropped`` (staff hid a held player's run: it never counts).
    """

    class State(models.TextChoices):
        RATED = "rated"
        HELD = "held"
        DROPPED = "dropped"

    race = models.CharField(max_length=RACE_NAME_MAX)
    rules_key = models.CharField(max_length=24)
    low = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    high = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    low_place = models.PositiveSmallIntegerField()
    high_place = models.PositiveSmallIntegerField()
    # Whether each player made a move in their game (an opponent who did not is a feeder).
    low_moved = models.BooleanField(default=True)
    high_moved = models.BooleanField(default=True)
    state = models.CharField(max_length=8, choices=State.choices)
    held_for = models.JSONField(default=list, blank=True)
    created_at = models.DateTimeField()

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["race", "low", "high"],
                condition=~models.Q(race=""),
                name="ratings_pair_once",
            ),
            models.CheckConstraint(
                condition=models.Q(low__lt=models.F("high")), name="ratings_pair_order"
            ),
        ]
        indexes = [
            models.Index(
                fields=["low", "high", "rules_key", "-created_at"], name="ratings_pair_recent"
            ),
            models.Index(fields=["high", "-created_at"], name="ratings_pair_high"),
            models.Index(
                fields=["race"], condition=models.Q(state="held"), name="ratings_pair_held"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.race}: {self.low_id} v {self.high_id} ({self.state})"


class RatingFlag(models.Model):
    """An account whose rating rose on games against feeders (opponents who never moved),
    waiting for staff (shown in the review queue) until staff close it with a decision."""

    class Decision(models.TextChoices):
        CLEARED = "cleared"  # nothing wrong: the rating stands on the board
        REMOVED = "removed"  # boosted: the rating leaves the public board

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="rating_flags"
    )
    rules_key = models.CharField(max_length=24)
    reason = models.CharField(max_length=200)
    created_at = models.DateTimeField()
    reviewed = models.BooleanField(default=False)
    decision = models.CharField(max_length=8, choices=Decision.choices, blank=True)
    note = models.CharField(max_length=200, blank=True)
    reviewed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    reviewed_at = models.DateTimeField(null=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["user", "rules_key"],
                condition=models.Q(reviewed=False),
                name="ratings_one_open_flag",
            )
        ]

    def __str__(self) -> str:
        return f"{self.user_id} {self.rules_key}: {self.reason}"
