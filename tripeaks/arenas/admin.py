from django.contrib import admin

from tripeaks.arenas.models import Arena, Entry


@admin.register(Arena)
class ArenaAdmin(admin.ModelAdmin[Arena]):
    list_display = ["name", "rules_key", "layout", "starts_at", "ends_at", "state"]
    list_filter = ["state", "rules_key"]


@admin.register(Entry)
class EntryAdmin(admin.ModelAdmin[Entry]):
    list_display = ["arena", "player", "points", "wins", "games", "best_streak", "rank"]
    raw_id_fields = ["arena", "player"]
