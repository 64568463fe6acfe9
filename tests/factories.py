"""factory_boy factories shared by all rooms' tests."""

from __future__ import annotations

from typing import Any

import factory
from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import make_password

TEST_PASSWORD = "correct-horse-battery-9"


class UserFactory(factory.django.DjangoModelFactory):
    """A player with the password TEST_PASSWORD (or `password=`), stored hashed in one INSERT: the
    hash is made before the row is written, where `set_password` then a second `save()` cost every
    user an UPDATE (most of the suite's tests make one or more)."""

    class Meta:
        model = get_user_model()
        django_get_or_create = ("username",)

    username = factory.Sequence(lambda n: f"player{n}")
    display_name = factory.Faker("first_name")
    password = TEST_PASSWORD

    @classmethod
    def _adjust_kwargs(cls, **kwargs: Any) -> dict[str, Any]:
        kwargs["password"] = make_password(kwargs["password"])
        return kwargs


def make_token(user: Any) -> str:
    from rest_framework.authtoken.models import Token

    token, _ = Token.objects.get_or_create(user=user)
    return token.key
