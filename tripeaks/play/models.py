"""Deals the service hands out, games played on them, and every game's move log."""

from __future__ import annotations

import uuid

from django.conf import settings
from django.contrib.postgres.fields import ArrayField
from django.contrib.postgres.indexes import GinIndex
from django.db import models
from django.db.models import Q
from django.utils import timezone


class Source(models.TextChoices):
    DAILY = "daily", "Daily deal"
    RANDOM = "random", "Random deal"
    NUMBERED = "numbered", "Numbered deal"
    CUSTOM = "custom", "Custom deal"


RANKED_SOURCES = (Source.DAILY, Source.RANDOM, Source.NUMBERED)


class Deal(models.Model):
    """One deal's cards (never sent to players) and what the solver knows about it."""

    source = models.CharField(max_length=10, choices=Source.choices)
    layout = models.CharField(max_length=40)
    rules_key = models.CharField(max_length=24)
    code = models.TextField(
        help_text="The deal code: layout cards, waste, stock. Server-side only."
    )
    seed = models.BigIntegerField(
        null=True, blank=True, help_text="Secret: derived from DEAL_SECRET."
    )
    day = models.DateField(null=True, blank=True)
    number = models.PositiveIntegerField(null=True, blank=True)
    winnable = models.BooleanField(null=True, help_text="Solver's verdict; null until solved.")
    par = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="Fewest moves that win."
    )
    claimed = models.BooleanField(
        default=False, help_text="A pooled random deal already handed out."
    )
    created_at = models.DateTimeField(auto_now_add=True)
    # tripeaks/play/deal_digests.py: the same cards (or most of them), or the same game, however
    # the code is written and whatever the layout; a custom deal that copies a deal still ranking
    # is refused by them.
    # A random deal from the repository's seed files (tripeaks/play/seeding.py), not made by a
    # worker: anyone can read it, so no run on it ranks.
    shipped = models.BooleanField(default=False)
    card_bands = ArrayField(models.CharField(max_length=20), default=list, blank=True)
    game_digest = models.CharField(max_length=64, blank=True, default="")

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["day", "rules_key", "layout"],
                condition=Q(source="daily"),
                name="one_daily_deal_per_day_rules_layout",
            ),
            models.UniqueConstraint(
                fields=["number", "rules_key", "layout"],
                condition=Q(source="numbered"),
                name="one_numbered_deal_per_number",
            ),
            models.CheckConstraint(
                condition=~Q(source="daily") | Q(day__isnull=False), name="daily_deal_has_day"
            ),
            models.CheckConstraint(
                condition=~Q(source="numbered") | Q(number__isnull=False),
                name="numbered_deal_has_number",
            ),
        ]
        indexes = [
            models.Index(
                fields=["rules_key", "layout", "id"],
                condition=Q(source="random", claimed=False),
                name="random_pool",
            ),
            GinIndex(fields=["card_bands"], name="deal_card_bands"),
            models.Index(fields=["game_digest"], name="deal_game_digest"),
        ]

    def __str__(self) -> str:
        label = {Source.DAILY: f" {self.day}", Source.NUMBERED: f" #{self.number}"}.get(
            Source(self.source), ""
        )
        return f"{self.get_source_display()}{label} ({self.layout}, {self.rules_key})"


class Status(models.TextChoices):
    PLAYING = "playing"
    STUCK = "stuck"
    WON = "won"
    LOST = "lost"


class Game(models.Model):
    """A player's game on a deal. `state` is the engine state; `moves` log is the truth it replays from."""

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="games"
    )
    deal = models.ForeignKey(Deal, on_delete=models.PROTECT, related_name="games")
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.PLAYING)
    state = models.JSONField(help_text="The engine position and undo history. Server-side only.")
    seq = models.PositiveIntegerField(
        default=0, help_text="Actions applied so far (the move log's length)."
    )
    moves = models.PositiveIntegerField(default=0, help_text="Plays, draws and undos.")
    cards_left = models.PositiveSmallIntegerField()
    score = models.IntegerField(default=0)
    hints = models.PositiveIntegerField(default=0)
    assisted = models.BooleanField(default=False)
    paused = models.BooleanField(default=False)
    elapsed_ms = models.BigIntegerField(
        default=0, help_text="Clock time banked before `running_since`."
    )
    running_since = models.DateTimeField(
        null=True, blank=True, help_text="Set while the clock runs."
    )
    created_at = models.DateTimeField(
        default=timezone.now, help_text="When the deal was shown: the clock starts."
    )
    started_at = models.DateTimeField(null=True, blank=True, help_text="The first move.")
    finished_at = models.DateTimeField(null=True, blank=True)
    # Fair play (docs/fair-play.md): what the run is told before its first move, and where it was
    # started from (a device cookie id, a network address) to hold second accounts' runs.
    ranking = models.CharField(
        max_length=10, default="first-try", help_text="first-try, practice or unranked."
    )
    device = models.CharField(max_length=64, blank=True, default="")
    address = models.GenericIPAddressField(null=True, blank=True)
    # A live contest's name on the contest feed (a race, an arena; "" for none): its progress is
    # told there (tripeaks/play/progress.py), and hints and pauses are refused (the clock is the
    # contest's).
    contest = models.CharField(max_length=64, blank=True, default="")
    # The contest's end (a race's time cap, an arena's end): a move at or after it is refused,
    # however late anybody notices the end (`steps.advance`); null for a game in no contest.
    deadline = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["player"],
                condition=Q(finished_at__isnull=True),
                name="one_unfinished_game_per_player",
            ),
        ]
        indexes = [
            models.Index(fields=["player", "-created_at"], name="game_player_recent"),
            models.Index(
                fields=["deal", "device"], condition=~Q(device=""), name="game_deal_device"
            ),
            models.Index(
                fields=["deal", "address"],
                condition=Q(address__isnull=False),
                name="game_deal_address",
            ),
            # A contest's players, for the second-account rule (leaderboard.fairplay.contest_hold).
            models.Index(fields=["contest"], condition=~Q(contest=""), name="game_contest"),
        ]

    def __str__(self) -> str:
        return f"{self.player} on {self.deal} ({self.status})"

    @property
    def finished(self) -> bool:
        return self.finished_at is not None


class Move(models.Model):
    """One applied action, in order. Replaying a game's log from its deal gives its state."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="log")
    seq = models.PositiveIntegerField()
    action = models.CharField(max_length=8)
    position = models.PositiveSmallIntegerField(null=True, blank=True)
    at = models.DateTimeField()
    elapsed_ms = models.BigIntegerField(help_text="The game clock when the move was applied.")

    class Meta:
        constraints = [models.UniqueConstraint(fields=["game", "seq"], name="one_move_per_seq")]
        ordering = ["game", "seq"]

    def __str__(self) -> str:
        where = "" if self.position is None else f" {self.position}"
        return f"{self.seq}: {self.action}{where}"
