"""Ratings in the admin: to look at, not to edit (a rating is only ever written by rate_race)."""

from __future__ import annotations

from typing import TypeVar

from django.contrib import admin
from django.db import models
from django.http import HttpRequest

from tripeaks.ratings.models import Rating, RatingEvent

_M = TypeVar("_M", bound=models.Model)


class _ReadOnly(admin.ModelAdmin[_M]):
    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: _M | None = None) -> bool:
        return False


@admin.register(Rating)
class RatingAdmin(_ReadOnly[Rating]):
    list_display = ("user", "rules_key", "rating", "rd", "volatility", "races", "updated_at")
    list_filter = ("rules_key",)
    search_fields = ("user__username",)
    ordering = ("rules_key", "-rating")


@admin.register(RatingEvent)
class RatingEventAdmin(_ReadOnly[RatingEvent]):
    list_display = (
        "user",
        "rules_key",
        "race",
        "place",
        "players",
        "rating_before",
        "rating_after",
    )
    list_filter = ("rules_key",)
    search_fields = ("user__username", "race")
