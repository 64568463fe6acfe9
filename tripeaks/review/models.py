"""What the review keeps: share links to a game's replay, and each game's stored analysis."""

from __future__ import annotations

from django.db import models
from django.db.models import Q
from django.utils import timezone


class ShareLink(models.Model):
    """A link its owner made to one finished game's replay (custom and numbered deals only).
    Live while `revoked_at` is null; a game has at most one live link."""

    token = models.CharField(max_length=64, unique=True, help_text="secrets.token_urlsafe(16).")
    game = models.ForeignKey("play.Game", on_delete=models.CASCADE, related_name="share_links")
    created_at = models.DateTimeField(default=timezone.now)
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["game"], condition=Q(revoked_at__isnull=True), name="one_live_link_per_game"
            ),
        ]

    def __str__(self) -> str:
        return f"link to {self.game_id}{' (revoked)' if self.revoked_at else ''}"


class AnalysisState(models.TextChoices):
    READY = "ready"


class StoredAnalysis(models.Model):
    """The solver's analysis of one finished game (engine/review.py's `analyse`), computed once
    by a Celery task and kept as the API sends it."""

    game = models.OneToOneField(
        "play.Game", on_delete=models.CASCADE, primary_key=True, related_name="analysis"
    )
    state = models.CharField(
        max_length=8, choices=AnalysisState.choices, default=AnalysisState.READY
    )
    payload = models.JSONField(help_text="The AnalysisPayload, as the API sends it.")
    nodes = models.PositiveBigIntegerField(help_text="Search nodes the analysis spent.")
    losing_move = models.PositiveIntegerField(null=True, blank=True)
    computed_at = models.DateTimeField(default=timezone.now)

    def __str__(self) -> str:
        return f"analysis of {self.game_id}"
