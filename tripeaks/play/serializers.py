"""Input shapes of the play API; strict so that bad input is a clear 400 and never a 500."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from tripeaks.engine.rules import Rules
from tripeaks.play.deals import NUMBERED_DEALS
from tripeaks.play.models import Source
from tripeaks.play.steps import ACTIONS


class StrictIntegerField(serializers.IntegerField):
    """An integer in JSON: no strings, floats or booleans standing in for one."""

    def to_internal_value(self, data: Any) -> int:
        if isinstance(data, bool) or not isinstance(data, int):
            self.fail("invalid")
        return super().to_internal_value(data)


class StrictBooleanField(serializers.BooleanField):
    def to_internal_value(self, data: Any) -> bool:
        if not isinstance(data, bool):
            self.fail("invalid", input=data)
        return bool(data)


class RulesSerializer(serializers.Serializer[Any]):
    wrap = StrictBooleanField(default=True, help_text="King and Ace connect.")
    open = StrictBooleanField(default=False, help_text="Every layout card face up from the start.")
    start = serializers.ChoiceField(choices=["waste", "empty"], default="waste")


class StartGameSerializer(serializers.Serializer[Any]):
    mode = serializers.ChoiceField(choices=Source.choices)
    rules = RulesSerializer(required=False)
    layout = serializers.CharField(max_length=40, default="classic")
    number = StrictIntegerField(min_value=1, max_value=NUMBERED_DEALS, required=False)
    deal = serializers.CharField(
        max_length=400, required=False, help_text="A deal code, for custom deals."
    )

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if attrs["mode"] == Source.NUMBERED and "number" not in attrs:
            raise serializers.ValidationError({"number": "a numbered deal needs its number"})
        if attrs["mode"] == Source.CUSTOM and not attrs.get("deal"):
            raise serializers.ValidationError({"deal": "a custom deal needs a deal code"})
        rules = attrs.get("rules") or {}
        attrs["rules"] = Rules(
            wrap=rules.get("wrap", True),
            open=rules.get("open", False),
            start=rules.get("start", "waste"),
        )
        return attrs


class MoveSerializer(serializers.Serializer[Any]):
    seq = StrictIntegerField(min_value=0, help_text="How many actions the client has seen.")
    action = serializers.ChoiceField(choices=sorted(ACTIONS))
    position = StrictIntegerField(min_value=0, max_value=51, required=False, allow_null=True)

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if attrs["action"] == "play" and attrs.get("position") is None:
            raise serializers.ValidationError(
                {"position": "a play needs the position of the card to play"}
            )
        return attrs
