from __future__ import annotations

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest

from leaderboard.models import BoardExclusion, Result, RunReview
from leaderboard.services.exclusion import remove_player_from_boards


@admin.register(Result)
class ResultAdmin(admin.ModelAdmin[Result]):
    """Staff review of runs: filter the flagged ones, take their players off the boards."""

    list_display = (
        "id",
        "player",
        "mode",
        "day",
        "number",
        "won",
        "moves",
        "time_ms",
        "hidden",
        "flagged",
        "flag_reason",
        "attempt",
        "held",
        "finished_at",
    )
    list_filter = ("flagged", "held", "hidden", "attempt", "mode", "won", "assisted")
    search_fields = ("player__username",)
    readonly_fields = [field.name for field in Result._meta.fields]
    actions = ["remove_players_from_boards"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Result | None = None) -> bool:
        return False  # results are the truth boards and statistics are rebuilt from

    @admin.action(description="Remove these runs' players from every board")
    def remove_players_from_boards(self, request: HttpRequest, queryset: QuerySet[Result]) -> None:
        players = {result.player for result in queryset.select_related("player")}
        for player in players:
            remove_player_from_boards(player=player, reason="removed in the admin", by=request.user)
        self.message_user(
            request, f"{len(players)} player(s) removed from the boards.", messages.SUCCESS
        )


@admin.register(BoardExclusion)
class BoardExclusionAdmin(admin.ModelAdmin[BoardExclusion]):
    list_display = ("player", "reason", "excluded_by", "created_at")
    readonly_fields = ("player", "excluded_by", "created_at")

    def has_add_permission(self, request: HttpRequest, obj: BoardExclusion | None = None) -> bool:
        return False


@admin.register(RunReview)
class RunReviewAdmin(admin.ModelAdmin[RunReview]):
    """The audit trail of the review queue (/staff/review/): read only."""

    list_display = ("at", "staff", "result", "decision", "reason")
    list_filter = ("decision",)
    readonly_fields = ("result", "staff", "decision", "reason", "at")

    def has_add_permission(self, request: HttpRequest, obj: RunReview | None = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: RunReview | None = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: RunReview | None = None) -> bool:
        return False
