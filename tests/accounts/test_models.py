from __future__ import annotations

import pytest
from django.contrib import admin
from django.core.exceptions import ValidationError
from django.db import IntegrityError

from accounts.models import User
from accounts.services import players
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def test_usernames_are_unique_without_regard_to_case_in_the_database() -> None:
    UserFactory(username="Spades")

    with pytest.raises(IntegrityError):
        User.objects.create_user(username="SPADES", password="x")


def test_sign_up_service_refuses_a_taken_name() -> None:
    UserFactory(username="Hearts")

    with pytest.raises(players.UsernameTaken):
        players.sign_up(username="hearts", password="tri-peaks-Solitaire-42")


@pytest.mark.parametrize("name", ["ab", "a" * 31, "no spaces", "dot.ted", "at@sign", ""])
def test_model_validation_rejects_bad_usernames(name: str) -> None:
    user = User(username=name)
    user.set_password("tri-peaks-Solitaire-42")

    with pytest.raises(ValidationError) as info:
        user.full_clean()
    assert "username" in info.value.message_dict


@pytest.mark.parametrize("name", ["abc", "a" * 30, "Under_score", "hy-phen", "123"])
def test_model_validation_accepts_good_usernames(name: str) -> None:
    user = User(username=name)
    user.set_password("tri-peaks-Solitaire-42")

    user.full_clean()


def test_public_name_falls_back_to_the_username() -> None:
    assert User(username="plain").public_name == "plain"
    assert User(username="plain", display_name="Fancy").public_name == "Fancy"


def test_user_is_registered_in_the_admin() -> None:
    assert admin.site.is_registered(User)


def test_admin_user_list_and_change_pages_render(admin_client: object) -> None:
    user = UserFactory()
    assert admin_client.get("/admin/accounts/user/").status_code == 200  # type: ignore[attr-defined]
    page = admin_client.get(f"/admin/accounts/user/{user.pk}/change/")  # type: ignore[attr-defined]
    assert page.status_code == 200
    assert b"display_name" in page.content
