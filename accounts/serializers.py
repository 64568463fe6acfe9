from __future__ import annotations

from django.contrib.auth import password_validation
from django.core.exceptions import ValidationError as DjangoValidationError
from rest_framework import serializers

from accounts import selectors
from accounts.display_names import clean_display_name
from accounts.models import User
from accounts.validators import (
    DISPLAY_NAME_MAX_LENGTH,
    USERNAME_MAX_LENGTH,
    DisplayNameValidator,
    UsernameValidator,
    refuse_reserved_username,
)

PASSWORD_MAX_LENGTH = 128


class UserSerializer(serializers.ModelSerializer[User]):
    """A player as the API shows them."""

    class Meta:
        model = User
        fields = ["id", "username", "display_name", "public_name", "date_joined", "guest", "email"]
        read_only_fields = fields

    public_name = serializers.CharField(read_only=True)
    guest = serializers.BooleanField(source="is_guest", read_only=True)
    email = serializers.EmailField(read_only=True, help_text="Verified; empty when none.")


class MeUpdateSerializer(serializers.ModelSerializer[User]):
    display_name = serializers.CharField(
        max_length=DISPLAY_NAME_MAX_LENGTH,
        allow_blank=True,
        trim_whitespace=True,
        validators=[DisplayNameValidator()],
    )

    class Meta:
        model = User
        fields = ["display_name"]

    def validate_display_name(self, value: str) -> str:
        own = self.instance.username if isinstance(self.instance, User) else None
        try:
            return clean_display_name(value, own_username=own)
        except DjangoValidationError as exc:
            raise serializers.ValidationError(list(exc.messages), code=exc.code) from exc


class SignUpSerializer(serializers.Serializer[dict[str, object]]):
    username = serializers.CharField(
        max_length=USERNAME_MAX_LENGTH,
        validators=[UsernameValidator(), refuse_reserved_username],
    )
    password = serializers.CharField(
        max_length=PASSWORD_MAX_LENGTH,
        write_only=True,
        trim_whitespace=False,
        style={"input_type": "password"},
    )
    display_name = serializers.CharField(
        max_length=DISPLAY_NAME_MAX_LENGTH,
        required=False,
        allow_blank=True,
        default="",
        validators=[DisplayNameValidator()],
    )
    email = serializers.EmailField(
        required=False, allow_blank=True, help_text="Optional; verified by a link."
    )

    def validate_username(self, value: str) -> str:
        if selectors.username_taken(value):
            raise serializers.ValidationError("That username is taken.", code="unique")
        return value

    def validate(self, attrs: dict[str, str]) -> dict[str, str]:
        try:
            attrs["display_name"] = clean_display_name(
                attrs.get("display_name", ""), own_username=attrs["username"]
            )
        except DjangoValidationError as exc:
            raise serializers.ValidationError({"display_name": list(exc.messages)}) from exc
        candidate = User(username=attrs["username"], display_name=attrs.get("display_name", ""))
        try:
            password_validation.validate_password(attrs["password"], user=candidate)
        except DjangoValidationError as exc:
            raise serializers.ValidationError({"password": list(exc.messages)}) from exc
        return attrs


class CredentialsSerializer(serializers.Serializer[dict[str, object]]):
    username = serializers.CharField(max_length=USERNAME_MAX_LENGTH)
    password = serializers.CharField(
        max_length=PASSWORD_MAX_LENGTH,
        write_only=True,
        trim_whitespace=False,
        style={"input_type": "password"},
    )


class TokenSerializer(serializers.Serializer[dict[str, object]]):
    token = serializers.CharField(read_only=True)


class CsrfSerializer(serializers.Serializer[dict[str, object]]):
    csrf_token = serializers.CharField(read_only=True)
