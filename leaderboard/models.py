"""Results of finished games: what every board, record and statistic is built from."""

from __future__ import annotations

from django.conf import settings
from django.db import models


class Result(models.Model):
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="results"
    )
    game = models.OneToOneField("play.Game", on_delete=models.CASCADE, related_name="result")
    deal = models.ForeignKey("play.Deal", on_delete=models.PROTECT, related_name="results")
    mode = models.CharField(max_length=10)
    rules_key = models.CharField(max_length=24)
    layout = models.CharField(max_length=40)
    won = models.BooleanField()
    cards_left = models.PositiveSmallIntegerField()
    moves = models.PositiveIntegerField()
    time_ms = models.BigIntegerField()
    score = models.IntegerField()
    assisted = models.BooleanField()
    finished_at = models.DateTimeField()

    def __str__(self) -> str:
        return f"{self.player} {'won' if self.won else 'lost'} {self.deal}"
