"""Display names are NFKC-normalised; invisible, control and format characters are refused; a name
that looks like another player's username or a reserved name is refused with a clear 400."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from accounts.models import User
from accounts.name_shapes import skeleton

pytestmark = pytest.mark.django_db

STRONG = "a long and right password 7"


def patch_name(client: APIClient, name: str) -> Any:
    return client.patch("/api/me", {"display_name": name}, format="json")


@pytest.fixture
def me(token_client: APIClient) -> APIClient:
    User.objects.create_user(username="alice_w", password=STRONG)
    User.objects.create_user(username="admin", password=STRONG)
    return token_client


@pytest.mark.parametrize(
    "name",
    [
        "\u3164",  # HANGUL FILLER: shows as nothing
        "Bob\u3164",
        "line\u2028break",
        "para\u2029graph",
        "zero\u200bwidth",
        "joiner\u200dname",
        "bidi\u202eeman",
        "tab\tname",
        "nul\x00name",
        "braille\u2800blank",
        "e\u0301\u0301\u0301\u0301",  # stacked accents
        "ogham\u1680space",
    ],
)
def test_invisible_control_and_format_characters_are_refused(me: APIClient, name: str) -> None:
    response = patch_name(me, name)
    assert response.status_code == 400, response.json()
    assert "display_name" in response.json()["errors"]


@pytest.mark.parametrize(
    "name",
    [
        "admin",
        "Admin",
        "ADM1N",
        "\u0430dmin",  # Cyrillic a
        "ａｄｍｉｎ",  # fullwidth
        "A.D.M.I.N",
        "Moderator",
        "St\u0430ff",
        "SYSTEM",
        "alice_w",  # another player's username
        "ALICE_W",
        "\u0430lice_w",
        "a1ice_w",
    ],
)
def test_names_that_look_like_a_username_or_a_reserved_name_are_refused(
    me: APIClient, name: str
) -> None:
    response = patch_name(me, name)
    assert response.status_code == 400, response.json()
    detail = response.json()["detail"]
    assert "looks like" in detail, detail


def test_a_plain_name_is_stored_nfkc_normalised(me: APIClient, user: User) -> None:
    response = patch_name(me, "  ＬＵＣＫＹ\u00a0Ｓｅｖｅｎ ")
    assert response.status_code == 200, response.json()
    assert response.json()["display_name"] == "LUCKY Seven"
    user.refresh_from_db()
    assert user.display_name == "LUCKY Seven"
    for fine in ("Zoë", "José María", "李小龍", "Renée ☘", ""):
        assert patch_name(me, fine).status_code == 200, fine


def test_a_name_like_ones_own_username_is_fine(me: APIClient, user: User) -> None:
    assert patch_name(me, user.username.upper()).status_code == 200


def test_sign_up_refuses_a_name_like_another_players_username(api_client: APIClient) -> None:
    User.objects.create_user(username="champion", password=STRONG)
    body = {"username": "newbie", "password": STRONG, "display_name": "CHAMP1ON"}
    response = api_client.post("/api/auth/signup", body, format="json")
    assert response.status_code == 400
    assert "looks like another player's username" in response.json()["detail"]
    assert not User.objects.filter(username="newbie").exists()
    body["display_name"] = "Newbie"  # one's own username, any case
    assert api_client.post("/api/auth/signup", body, format="json").status_code == 201


def test_the_sign_up_page_refuses_it_too(client: Any) -> None:
    User.objects.create_user(username="champion", password=STRONG)
    response = client.post(
        "/accounts/signup/",
        {
            "username": "webnewbie",
            "display_name": "ch\u0430mpion",
            "password1": STRONG,
            "password2": STRONG,
        },
    )
    assert response.status_code == 200
    assert b"looks like another player" in response.content
    assert not User.objects.filter(username="webnewbie").exists()


def test_skeletons_fold_lookalikes_and_keep_different_names_apart() -> None:
    assert skeleton("p\u0430yp\u0430l") == skeleton("PAYPAL")  # Cyrillic a
    assert skeleton("rnike") == skeleton("mike")
    assert skeleton("\u0391\u0392") == skeleton("ab")  # Greek capitals
    assert skeleton("O0") == skeleton("oo")
    assert skeleton("bob") != skeleton("rob")
