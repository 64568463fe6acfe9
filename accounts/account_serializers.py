"""Request and answer shapes of the account endpoints (guests, email, passwords, sessions,
export, deletion)."""

from __future__ import annotations

from rest_framework import serializers

from accounts.serializers import PASSWORD_MAX_LENGTH


def _password() -> serializers.CharField:
    return serializers.CharField(
        max_length=PASSWORD_MAX_LENGTH,
        write_only=True,
        trim_whitespace=False,
        style={"input_type": "password"},
    )


class PasswordChangeSerializer(serializers.Serializer[dict[str, object]]):
    old_password = _password()
    new_password = _password()


class PasswordResetSerializer(serializers.Serializer[dict[str, object]]):
    email = serializers.EmailField()


class PasswordResetConfirmSerializer(serializers.Serializer[dict[str, object]]):
    uid = serializers.CharField(max_length=64)
    token = serializers.CharField(max_length=128)
    new_password = _password()


class EmailSerializer(serializers.Serializer[dict[str, object]]):
    email = serializers.EmailField()


class EmailVerifySerializer(serializers.Serializer[dict[str, object]]):
    token = serializers.CharField(max_length=1000)


class PasswordSerializer(serializers.Serializer[dict[str, object]]):
    password = _password()


class DetailSerializer(serializers.Serializer[dict[str, object]]):
    detail = serializers.CharField(read_only=True)


class AccessSerializer(serializers.Serializer[dict[str, object]]):
    id = serializers.IntegerField(read_only=True)
    kind = serializers.ChoiceField(choices=["session", "token"], read_only=True)
    device = serializers.CharField(read_only=True)
    address = serializers.IPAddressField(read_only=True, allow_null=True)
    created_at = serializers.DateTimeField(read_only=True)
    last_seen = serializers.DateTimeField(read_only=True)
    current = serializers.BooleanField(read_only=True)


class EndedSerializer(serializers.Serializer[dict[str, object]]):
    ended = serializers.IntegerField(read_only=True)
