"""A rule-set key in an API query or body, checked against the engine's rule sets."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers
from rest_framework.exceptions import ValidationError

from tripeaks.engine.rules import Rules, RulesError


class RulesField(serializers.CharField):
    def to_internal_value(self, data: Any) -> str:
        text = super().to_internal_value(data)
        try:
            return Rules.from_key(text).key
        except RulesError as error:
            raise ValidationError(str(error)) from None
