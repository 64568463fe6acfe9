"""Input shapes of the race API: strict, so that bad input is a clear 400 and never a 500."""

from __future__ import annotations

from typing import TypedDict

from django.conf import settings
from rest_framework import serializers

from tripeaks.engine.rules import Rules
from tripeaks.play.serializers import (
    RulesInput,
    RulesSerializer,
    StrictBooleanField,
    StrictIntegerField,
    rules_of,
)
from tripeaks.races.services import MAX_SEATS, MIN_SEATS

MAX_CAP_S = 1800


class CreateRaceInput(TypedDict, total=False):
    rules: RulesInput | Rules
    layout: str
    seats: int
    public: bool
    cap_s: int


class QuickMatchInput(TypedDict, total=False):
    rules: RulesInput | Rules
    layout: str


class CreateRaceSerializer(serializers.Serializer[None]):
    rules = RulesSerializer(required=False)
    layout = serializers.CharField(max_length=40, default="classic")
    seats = StrictIntegerField(min_value=MIN_SEATS, max_value=MAX_SEATS, default=4)
    public = StrictBooleanField(default=True)
    cap_s = StrictIntegerField(
        required=False, max_value=MAX_CAP_S, help_text="The time cap in seconds (default 300)."
    )

    def validate_cap_s(self, value: int) -> int:
        least = settings.RACE_MIN_CAP_S
        if value < least:
            raise serializers.ValidationError(f"a time cap is {least} seconds at least")
        return value

    def validate(self, attrs: CreateRaceInput) -> CreateRaceInput:
        attrs["rules"] = rules_of(attrs.get("rules"))
        return attrs


class JoinSerializer(serializers.Serializer[None]):
    code = serializers.CharField(max_length=8, required=False, help_text="A private race's code.")


class ClaimSerializer(serializers.Serializer[None]):
    player = serializers.CharField(
        max_length=150, help_text="The username of the racer claimed against as absent."
    )


class QuickMatchSerializer(serializers.Serializer[None]):
    rules = RulesSerializer(required=False)
    layout = serializers.CharField(max_length=40, default="classic")

    def validate(self, attrs: QuickMatchInput) -> QuickMatchInput:
        attrs["rules"] = rules_of(attrs.get("rules"))
        return attrs
