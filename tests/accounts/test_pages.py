"""Browser sign up / sign in / sign out pages: forms, CSRF, password rules."""

from __future__ import annotations

import pytest
from django.test import Client

from accounts.models import User
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

STRONG = "tri-peaks-Solitaire-42"


def test_sign_up_page_renders_a_form_with_csrf(client: Client) -> None:
    response = client.get("/accounts/signup/")

    assert response.status_code == 200
    html = response.content.decode()
    assert 'name="csrfmiddlewaretoken"' in html
    assert 'name="username"' in html and 'name="password1"' in html


def test_signing_up_in_the_browser_creates_the_player_and_signs_in(client: Client) -> None:
    response = client.post(
        "/accounts/signup/",
        {"username": "web_player", "display_name": "Web", "password1": STRONG, "password2": STRONG},
    )

    assert response.status_code == 302
    assert response["Location"] == "/"
    user = User.objects.get(username="web_player")
    assert client.session["_auth_user_id"] == str(user.pk)
    assert b"Signed in as" in client.get("/").content


def test_sign_up_form_shows_password_rule_errors(client: Client) -> None:
    response = client.post(
        "/accounts/signup/", {"username": "web_player", "password1": "123", "password2": "123"}
    )

    assert response.status_code == 200
    assert b"too short" in response.content
    assert not User.objects.exists()


def test_sign_up_form_refuses_a_taken_name_in_any_case(client: Client) -> None:
    UserFactory(username="Joker")

    response = client.post(
        "/accounts/signup/", {"username": "JOKER", "password1": STRONG, "password2": STRONG}
    )

    assert response.status_code == 200
    assert b"That username is taken." in response.content


def test_sign_up_form_needs_csrf() -> None:
    client = Client(enforce_csrf_checks=True)

    response = client.post(
        "/accounts/signup/", {"username": "sneaky", "password1": STRONG, "password2": STRONG}
    )

    assert response.status_code == 403
    assert not User.objects.exists()


def test_sign_in_and_out_in_the_browser(client: Client, user: User, password: str) -> None:
    assert client.get("/accounts/login/").status_code == 200

    response = client.post("/accounts/login/", {"username": user.username, "password": password})
    assert response.status_code == 302
    assert client.session["_auth_user_id"] == str(user.pk)

    response = client.post("/accounts/logout/")
    assert response.status_code == 302
    assert "_auth_user_id" not in client.session


def test_wrong_password_in_the_browser_shows_an_error(client: Client, user: User) -> None:
    response = client.post("/accounts/login/", {"username": user.username, "password": "nope"})

    assert response.status_code == 200
    assert b"Unable to sign in with that username and password." in response.content


def test_sign_out_is_post_only(client: Client, user: User) -> None:
    client.force_login(user)

    assert client.get("/accounts/logout/").status_code == 405
    assert "_auth_user_id" in client.session
