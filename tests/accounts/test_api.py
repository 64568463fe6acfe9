"""The accounts API: sign up, tokens, session sign-in/out, /api/me, and bad input."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from accounts.models import User
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

STRONG = "tri-peaks-Solitaire-42"


def signup(client: APIClient, **data: Any) -> Any:
    return client.post("/api/auth/signup", data, format="json")


# --------------------------------------------------------------------------- sign up
def test_signup_creates_a_player_and_answers_201_with_the_user(api_client: APIClient) -> None:
    response = signup(api_client, username="ace_high", password=STRONG, display_name=" Ace ")

    assert response.status_code == 201
    body = response.json()
    assert body["username"] == "ace_high"
    assert body["display_name"] == "Ace"
    assert body["public_name"] == "Ace"
    assert set(body) == {
        "id",
        "username",
        "display_name",
        "public_name",
        "date_joined",
        "guest",
        "email",
    }
    user = User.objects.get(username="ace_high")
    assert user.check_password(STRONG)
    assert "password" not in body


def test_signup_without_display_name_uses_the_username_publicly(api_client: APIClient) -> None:
    response = signup(api_client, username="solo-player", password=STRONG)

    assert response.status_code == 201
    assert response.json()["display_name"] == ""
    assert response.json()["public_name"] == "solo-player"


def test_duplicate_username_is_refused_regardless_of_case(api_client: APIClient) -> None:
    UserFactory(username="KingOfClubs")

    response = signup(api_client, username="kingofclubs", password=STRONG)

    assert response.status_code == 400
    body = response.json()
    assert body["detail"] == "username: That username is taken."
    assert "username" in body["errors"]
    assert User.objects.filter(username__iexact="kingofclubs").count() == 1


@pytest.mark.parametrize(
    ("data", "field"),
    [
        ({}, "username"),
        ({"username": "", "password": STRONG}, "username"),
        ({"username": "ab", "password": STRONG}, "username"),
        ({"username": "x" * 31, "password": STRONG}, "username"),
        ({"username": "x" * 5_000, "password": STRONG}, "username"),
        ({"username": "has space", "password": STRONG}, "username"),
        ({"username": "émile", "password": STRONG}, "username"),
        ({"username": "newbie", "password": ""}, "password"),
        ({"username": "newbie"}, "password"),
        ({"username": "newbie", "password": "short1"}, "password"),
        ({"username": "newbie", "password": "password123"}, "password"),
        ({"username": "newbie", "password": "8675309124"}, "password"),
        ({"username": "newbie", "password": "p" * 129}, "password"),
        ({"username": "newbie", "password": STRONG, "display_name": "d" * 41}, "display_name"),
        (
            {"username": "newbie", "password": STRONG, "display_name": "bad\u202ename"},
            "display_name",
        ),
    ],
)
def test_bad_signup_input_gets_a_clear_400(
    api_client: APIClient, data: dict[str, Any], field: str
) -> None:
    response = signup(api_client, **data)

    assert response.status_code == 400
    body = response.json()
    assert field in body["errors"]
    assert body["detail"].startswith(f"{field}: ")
    assert not User.objects.exists()


def test_password_similar_to_username_is_refused(api_client: APIClient) -> None:
    response = signup(api_client, username="grandmaster", password="grandmaster1")

    assert response.status_code == 400
    assert "password" in response.json()["errors"]


def test_malformed_json_gets_a_400_with_detail(api_client: APIClient) -> None:
    response = api_client.post("/api/auth/signup", "{not json", content_type="application/json")

    assert response.status_code == 400
    assert "JSON" in response.json()["detail"]


def test_signup_rejects_form_encoded_bodies(api_client: APIClient) -> None:
    response = api_client.post("/api/auth/signup", {"username": "formy", "password": STRONG})

    assert response.status_code == 415
    assert response.json()["detail"]


# --------------------------------------------------------------------------- tokens
def test_token_is_issued_for_right_credentials_and_authenticates(
    api_client: APIClient, user: User, password: str
) -> None:
    response = api_client.post(
        "/api/auth/token", {"username": user.username, "password": password}, format="json"
    )

    assert response.status_code == 200
    token = response.json()["token"]
    assert token == Token.objects.get(user=user).key

    api_client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    me = api_client.get("/api/me")
    assert me.status_code == 200
    assert me.json()["username"] == user.username


def test_token_sign_in_ignores_the_case_of_the_username(
    api_client: APIClient, password: str
) -> None:
    UserFactory(username="QueenOfHearts")

    response = api_client.post(
        "/api/auth/token", {"username": "queenofhearts", "password": password}, format="json"
    )

    assert response.status_code == 200


def test_asking_twice_returns_the_same_token(
    api_client: APIClient, user: User, password: str
) -> None:
    creds = {"username": user.username, "password": password}
    first = api_client.post("/api/auth/token", creds, format="json").json()["token"]
    second = api_client.post("/api/auth/token", creds, format="json").json()["token"]

    assert first == second


@pytest.mark.parametrize(
    "creds",
    [
        {"username": "player-that-is-not", "password": "whatever-it-is"},
        {"password": "x"},
        {"username": "someone"},
        {"username": "", "password": ""},
        {"username": "someone", "password": "p" * 5_000},
    ],
)
def test_bad_credentials_get_a_400_and_no_token(
    api_client: APIClient, user: User, creds: dict[str, str]
) -> None:
    response = api_client.post("/api/auth/token", creds, format="json")

    assert response.status_code == 400
    assert response.json()["detail"]
    assert "token" not in response.json()
    assert not Token.objects.exists()


def test_wrong_password_says_so_without_telling_which_part_was_wrong(
    api_client: APIClient, user: User
) -> None:
    response = api_client.post(
        "/api/auth/token",
        {"username": user.username, "password": "not-the-password"},
        format="json",
    )

    assert response.status_code == 400
    assert response.json()["detail"] == "Unable to sign in with that username and password."


def test_inactive_player_cannot_get_a_token(api_client: APIClient, password: str) -> None:
    user = UserFactory(is_active=False)

    response = api_client.post(
        "/api/auth/token", {"username": user.username, "password": password}, format="json"
    )

    assert response.status_code == 400


def test_deleting_the_token_revokes_it(token_client: APIClient, user: User) -> None:
    response = token_client.delete("/api/auth/token")

    assert response.status_code == 204
    assert not Token.objects.filter(user=user).exists()
    again = token_client.get("/api/me")
    assert again.status_code == 401
    assert again.json()["detail"] == "Invalid token."


def test_revoking_needs_authentication(api_client: APIClient) -> None:
    response = api_client.delete("/api/auth/token")

    assert response.status_code == 401
    assert response["WWW-Authenticate"] == "Token"


def test_a_stale_token_header_does_not_block_getting_a_new_token(
    api_client: APIClient, user: User, password: str
) -> None:
    api_client.credentials(HTTP_AUTHORIZATION="Token deadbeef")

    response = api_client.post(
        "/api/auth/token", {"username": user.username, "password": password}, format="json"
    )

    assert response.status_code == 200


# --------------------------------------------------------------------------- /api/me
def test_me_requires_authentication(api_client: APIClient) -> None:
    response = api_client.get("/api/me")

    assert response.status_code == 401
    assert response.json() == {"detail": "Authentication credentials were not provided."}


def test_me_with_a_session_returns_the_player(session_client: Client, user: User) -> None:
    response = session_client.get("/api/me")

    assert response.status_code == 200
    assert response.json()["id"] == user.pk


def test_me_patch_changes_the_display_name(token_client: APIClient, user: User) -> None:
    response = token_client.patch("/api/me", {"display_name": "  Lucky Seven "}, format="json")

    assert response.status_code == 200
    assert response.json()["display_name"] == "Lucky Seven"
    user.refresh_from_db()
    assert user.display_name == "Lucky Seven"


def test_me_patch_cannot_change_the_username(token_client: APIClient, user: User) -> None:
    old = user.username

    response = token_client.patch("/api/me", {"username": "renamed"}, format="json")

    assert response.status_code == 200
    user.refresh_from_db()
    assert user.username == old


def test_me_patch_rejects_a_huge_display_name(token_client: APIClient) -> None:
    response = token_client.patch("/api/me", {"display_name": "x" * 5000}, format="json")

    assert response.status_code == 400
    assert "display_name" in response.json()["errors"]


def test_me_refuses_put_and_delete_without_the_password(token_client: APIClient) -> None:
    assert token_client.put("/api/me", {}, format="json").status_code == 405
    # DELETE deletes the account (tests/accounts/test_deletion.py); it needs the password.
    assert token_client.delete("/api/me").status_code == 400


# --------------------------------------------------------------------------- session sign-in
def _csrf(client: Client) -> str:
    response = client.get("/api/auth/csrf")
    assert response.status_code == 200
    token: str = response.json()["csrf_token"]
    assert client.cookies["csrftoken"].value
    return token


def test_session_login_with_csrf_signs_in(user: User, password: str) -> None:
    client = Client(enforce_csrf_checks=True)
    token = _csrf(client)

    response = client.post(
        "/api/auth/login",
        {"username": user.username, "password": password},
        content_type="application/json",
        HTTP_X_CSRFTOKEN=token,
    )

    assert response.status_code == 200
    assert response.json()["username"] == user.username
    assert client.get("/api/me").json()["id"] == user.pk


def test_session_login_without_csrf_is_refused(user: User, password: str) -> None:
    client = Client(enforce_csrf_checks=True)

    response = client.post(
        "/api/auth/login",
        {"username": user.username, "password": password},
        content_type="application/json",
    )

    assert response.status_code == 403
    assert response.json()["detail"].startswith("CSRF Failed")
    assert client.get("/api/me").status_code == 401


def test_session_login_with_wrong_password_is_a_400(user: User) -> None:
    client = Client(enforce_csrf_checks=True)
    token = _csrf(client)

    response = client.post(
        "/api/auth/login",
        {"username": user.username, "password": "nope-nope-nope"},
        content_type="application/json",
        HTTP_X_CSRFTOKEN=token,
    )

    assert response.status_code == 400
    assert response.json()["detail"] == "Unable to sign in with that username and password."


def test_session_logout_needs_csrf_and_then_ends_the_session(user: User) -> None:
    client = Client(enforce_csrf_checks=True)
    client.force_login(user)

    refused = client.post("/api/auth/logout", content_type="application/json")
    assert refused.status_code == 403
    assert client.get("/api/me").status_code == 200

    token = _csrf(client)
    response = client.post(
        "/api/auth/logout", content_type="application/json", HTTP_X_CSRFTOKEN=token
    )
    assert response.status_code == 204
    assert client.get("/api/me").status_code == 401


def test_unsafe_api_calls_over_a_session_need_csrf(session_client: Client) -> None:
    response = session_client.patch(
        "/api/me", {"display_name": "x"}, content_type="application/json"
    )

    assert response.status_code == 403
    assert "CSRF" in response.json()["detail"]


def test_unknown_api_url_is_a_json_404(api_client: APIClient) -> None:
    response = api_client.get("/api/no-such-thing")

    assert response.status_code == 404
    assert response.json() == {"detail": "Not found."}


def test_a_body_over_the_upload_limit_is_a_413_with_detail(api_client: APIClient) -> None:
    response = signup(api_client, username="x" * 3_000_000, password=STRONG)

    assert response.status_code == 413
    assert response.json()["detail"] == "The request body is too large: at most 8192 bytes here."
