from django.contrib import admin

from tripeaks.play.models import Deal, Game, Move


@admin.register(Deal)
class DealAdmin(admin.ModelAdmin[Deal]):
    list_display = (
        "id",
        "source",
        "layout",
        "rules_key",
        "day",
        "number",
        "winnable",
        "par",
        "claimed",
    )
    list_filter = ("source", "layout", "rules_key", "winnable")
    # The cards and the seed are the deal's secret: only staff reach the admin, and nobody edits them.
    readonly_fields = ("code", "seed")


class MoveInline(admin.TabularInline[Move, Game]):
    model = Move
    extra = 0
    can_delete = False
    readonly_fields = ("seq", "action", "position", "at", "elapsed_ms")


@admin.register(Game)
class GameAdmin(admin.ModelAdmin[Game]):
    list_display = ("id", "player", "deal", "status", "moves", "score", "assisted", "created_at")
    list_filter = ("status", "assisted")
    readonly_fields = ("state",)
    inlines = [MoveInline]
