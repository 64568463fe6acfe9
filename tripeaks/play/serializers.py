"""Input shapes of the play API; strict so that bad input is a clear 400 and never a 500."""

from __future__ import annotations

from typing import NotRequired, TypedDict

from rest_framework import serializers

from tripeaks.engine.rules import Rules, Start
from tripeaks.play.deals import NUMBERED_DEALS
from tripeaks.play.models import Source
from tripeaks.play.steps import ACTIONS


class StrictIntegerField(serializers.IntegerField):
    """An integer in JSON: no strings, floats or booleans standing in for one."""

    def to_internal_value(self, data: object) -> int:
        if isinstance(data, bool) or not isinstance(data, int):
            self.fail("invalid")
        return super().to_internal_value(data)


class StrictBooleanField(serializers.BooleanField):
    def to_internal_value(self, data: object) -> bool:
        if not isinstance(data, bool):
            self.fail("invalid", input=data)
        return bool(data)


class RulesInput(TypedDict, total=False):
    wrap: bool
    open: bool
    start: Start


def rules_of(given: RulesInput | Rules | None) -> Rules:
    """The rules a validated `RulesSerializer` asked for (the defaults where it said nothing)."""
    if isinstance(given, Rules):
        return given
    given = given or {}
    return Rules(
        wrap=given.get("wrap", True),
        open=given.get("open", False),
        start=given.get("start", "waste"),
    )


class StartGameInput(TypedDict, total=False):
    mode: str
    rules: RulesInput | Rules
    layout: str
    number: int
    deal: str


class MoveInput(TypedDict):
    seq: int
    action: str
    position: NotRequired[int | None]


class RulesSerializer(serializers.Serializer[None]):
    wrap = StrictBooleanField(default=True, help_text="King and Ace connect.")
    open = StrictBooleanField(default=False, help_text="Every layout card face up from the start.")
    start = serializers.ChoiceField(choices=["waste", "empty"], default="waste")


class StartGameSerializer(serializers.Serializer[None]):
    mode = serializers.ChoiceField(choices=Source.choices)
    rules = RulesSerializer(required=False)
    layout = serializers.CharField(max_length=40, default="classic")
    number = StrictIntegerField(min_value=1, max_value=NUMBERED_DEALS, required=False)
    deal = serializers.CharField(
        max_length=400, required=False, help_text="A deal code, for custom deals."
    )

    def validate(self, attrs: StartGameInput) -> StartGameInput:
        if attrs["mode"] == Source.NUMBERED and "number" not in attrs:
            raise serializers.ValidationError({"number": "a numbered deal needs its number"})
        if attrs["mode"] == Source.CUSTOM and not attrs.get("deal"):
            raise serializers.ValidationError({"deal": "a custom deal needs a deal code"})
        attrs["rules"] = rules_of(attrs.get("rules"))
        return attrs


class MoveSerializer(serializers.Serializer[None]):
    seq = StrictIntegerField(min_value=0, help_text="How many actions the client has seen.")
    action = serializers.ChoiceField(choices=sorted(ACTIONS))
    position = StrictIntegerField(min_value=0, max_value=51, required=False, allow_null=True)

    def validate(self, attrs: MoveInput) -> MoveInput:
        if attrs["action"] == "play" and attrs.get("position") is None:
            raise serializers.ValidationError(
                {"position": "a play needs the position of the card to play"}
            )
        return attrs
