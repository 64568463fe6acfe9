"""factory_boy factories shared by all rooms' tests."""

from __future__ import annotations

from typing import Any

import factory
from django.contrib.auth import get_user_model

TEST_PASSWORD = "correct-horse-battery-9"


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = get_user_model()
        django_get_or_create = ("username",)
        skip_postgeneration_save = True

    username = factory.Sequence(lambda n: f"player{n}")
    display_name = factory.Faker("first_name")
    password = factory.PostGenerationMethodCall("set_password", TEST_PASSWORD)

    @factory.post_generation
    def _save(obj: Any, create: bool, extracted: Any, **kwargs: Any) -> None:
        if create:
            obj.save()


def make_token(user: Any) -> str:
    from rest_framework.authtoken.models import Token

    token, _ = Token.objects.get_or_create(user=user)
    return token.key
