"""Usernames: staff names refused by the display names' rules, held names held in every variant
(issue 35).

Before: ``admin``, ``root``, ``support`` and the rest were accepted as usernames (also when a
guest became an account) though display names refused exactly these; a deleted account's
``held_name`` was held but ``held-name`` was free.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from accounts.models import User, UsernameHold
from accounts.services import deletion
from tests.accounts.helpers import STRONG, Browser

pytestmark = pytest.mark.django_db

STAFF_NAMES = ["admin", "administrator", "staff", "moderator", "support", "system", "root"]
VARIANTS = ["Admin", "ROOT", "r00t", "ad_min", "adm1n", "sys-tem", "Mod_Erator", "-support-"]


def sign_up(browser: Browser, username: str) -> tuple[int, dict[str, object]]:
    response = browser.post("/api/auth/signup", {"username": username, "password": STRONG})
    return int(response.status_code), response.json()


@pytest.mark.parametrize("username", STAFF_NAMES + VARIANTS)
def test_staff_names_and_their_lookalikes_are_refused_as_usernames(username: str) -> None:
    status, body = sign_up(Browser(), username)

    assert status == 400
    assert body["errors"] == {
        "username": ["That username looks like a name reserved for the site's staff."]
    }
    assert not User.objects.exists()


@pytest.mark.parametrize("username", ["rootbeer", "staffan", "supporter1", "admiral"])
def test_names_that_only_contain_a_staff_name_are_fine(username: str) -> None:
    assert sign_up(Browser(), username)[0] == 201


def test_a_guest_cannot_become_a_staff_name() -> None:
    browser = Browser()
    assert browser.post("/api/auth/guest").status_code == 201

    status, body = sign_up(browser, "Moderator")

    assert status == 400 and "username" in body["errors"]  # type: ignore[operator]
    assert User.objects.get().is_guest


@pytest.mark.parametrize("as_guest", [False, True])
def test_the_sign_up_page_refuses_staff_names(as_guest: bool) -> None:
    browser = Browser()
    if as_guest:
        assert browser.post("/api/auth/guest").status_code == 201
    fields = {"username": "Root", "password1": STRONG, "password2": STRONG}

    response = browser.client.post(
        "/accounts/signup/", {**fields, "csrfmiddlewaretoken": browser.csrf()}
    )

    assert response.status_code == 200
    assert "reserved for the site" in response.content.decode()
    assert not User.objects.filter(username__iexact="root").exists()


def held(username: str) -> User:
    user = User.objects.create_user(username=username, password=STRONG)
    deletion.delete_account(user=user)
    return user


@pytest.mark.parametrize(
    "variant", ["held-name", "HELD_NAME", "heldname", "he1d_name", "held_narne"]
)
def test_a_held_name_is_held_in_all_its_variants(variant: str) -> None:
    held("held_name")

    status, body = sign_up(Browser(), variant)

    assert status == 400
    assert body["errors"] == {"username": ["That username is taken."]}
    assert not User.objects.filter(username=variant).exists()


def test_a_guest_cannot_take_a_held_names_variant() -> None:
    held("famous_one")
    browser = Browser()
    assert browser.post("/api/auth/guest").status_code == 201

    assert sign_up(browser, "famous-one")[0] == 400
    assert User.objects.get(is_guest=True)


def test_a_released_name_is_free_in_all_its_variants() -> None:
    held("held_name")
    UsernameHold.objects.update(until=timezone.now() - timedelta(seconds=1))

    assert sign_up(Browser(), "held-name")[0] == 201
