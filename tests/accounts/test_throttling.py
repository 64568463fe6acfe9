"""Repeated failed sign-ins are throttled (429 + Retry-After), per username and per address,
through the Redis-backed cache."""

from __future__ import annotations

from typing import Any

import pytest
import redis
from django.conf import settings
from django.test import Client
from rest_framework.test import APIClient

from accounts.models import User

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def small_limits(settings: Any) -> None:
    settings.SIGNIN_THROTTLE = {"per_username": 3, "per_address": 5, "window_seconds": 600}


def token(client: APIClient, username: str, password: str, address: str = "10.0.0.1") -> int:
    response = client.post(
        "/api/auth/token",
        {"username": username, "password": password},
        format="json",
        REMOTE_ADDR=address,
    )
    return int(response.status_code)


def test_too_many_wrong_passwords_for_a_username_get_429_even_with_the_right_one(
    api_client: APIClient, user: User, password: str
) -> None:
    assert [token(api_client, user.username, "wrong-guess") for _ in range(3)] == [400, 400, 400]

    response = api_client.post(
        "/api/auth/token",
        {"username": user.username, "password": password},
        format="json",
        REMOTE_ADDR="10.0.0.1",
    )

    assert response.status_code == 429
    retry_after = int(response["Retry-After"])
    assert 0 < retry_after <= 600
    assert "Too many failed sign-in attempts" in response.json()["detail"]


def test_the_username_limit_holds_from_another_address_too(
    api_client: APIClient, user: User, password: str
) -> None:
    for _ in range(3):
        token(api_client, user.username, "wrong-guess", address="10.0.0.1")

    assert token(api_client, user.username.upper(), password, address="10.9.9.9") == 429


def test_many_failures_from_one_address_block_that_address_for_every_username(
    api_client: APIClient, user: User, password: str
) -> None:
    for n in range(5):
        assert token(api_client, f"nobody{n}", "wrong-guess", address="10.0.0.7") == 400

    assert token(api_client, user.username, password, address="10.0.0.7") == 429
    assert token(api_client, user.username, password, address="10.0.0.8") == 200


def test_a_right_password_clears_the_usernames_failures(
    api_client: APIClient, user: User, password: str
) -> None:
    for _ in range(2):
        token(api_client, user.username, "wrong-guess")
    assert token(api_client, user.username, password) == 200

    for _ in range(2):
        assert token(api_client, user.username, "wrong-guess") == 400
    assert token(api_client, user.username, password) == 200


def test_session_login_api_is_throttled_the_same_way(user: User, password: str) -> None:
    client = Client(enforce_csrf_checks=True)
    csrf = client.get("/api/auth/csrf").json()["csrf_token"]

    def attempt(pw: str) -> int:
        response = client.post(
            "/api/auth/login",
            {"username": user.username, "password": pw},
            content_type="application/json",
            HTTP_X_CSRFTOKEN=csrf,
        )
        return int(response.status_code)

    assert [attempt("wrong-guess") for _ in range(3)] == [400, 400, 400]
    assert attempt(password) == 429


def test_browser_sign_in_page_is_throttled_with_429_and_retry_after(
    user: User, password: str
) -> None:
    client = Client()
    for _ in range(3):
        response = client.post("/accounts/login/", {"username": user.username, "password": "wrong"})
        assert response.status_code == 200

    response = client.post("/accounts/login/", {"username": user.username, "password": password})

    assert response.status_code == 429
    assert int(response["Retry-After"]) > 0
    assert b"Too many failed sign-in attempts" in response.content
    assert "_auth_user_id" not in client.session


def test_failure_counts_live_in_redis(api_client: APIClient, user: User) -> None:
    token(api_client, user.username, "wrong-guess")

    assert settings.CACHES["default"]["BACKEND"] == "django.core.cache.backends.redis.RedisCache"
    client = redis.Redis.from_url(settings.REDIS_URL)
    try:
        keys = client.keys(f"{settings.TEST_RUN_PREFIX}:*signin-fail*")
    finally:
        client.close()
    assert len(keys) == 2  # one for the username, one for the address
    assert not any(user.username.encode() in key for key in keys)  # usernames are hashed


def test_a_forged_x_forwarded_for_does_not_dodge_the_address_limit(
    api_client: APIClient, user: User, password: str
) -> None:
    for n in range(5):
        response = api_client.post(
            "/api/auth/token",
            {"username": f"nobody{n}", "password": "wrong-guess"},
            format="json",
            REMOTE_ADDR="10.0.0.7",
            HTTP_X_FORWARDED_FOR=f"192.0.2.{n}",
        )
        assert response.status_code == 400

    assert token(api_client, user.username, password, address="10.0.0.7") == 429


def test_the_admin_sign_in_page_shares_the_limit(user: User, password: str) -> None:
    user.is_staff = True
    user.save()
    client = Client()
    for _ in range(3):
        response = client.post("/admin/login/", {"username": user.username, "password": "wrong"})
        assert response.status_code == 200 and "_auth_user_id" not in client.session

    response = client.post("/admin/login/", {"username": user.username, "password": password})

    assert response.status_code == 200  # the form again, with the reason
    assert b"Too many failed sign-in attempts" in response.content
    assert "_auth_user_id" not in client.session
    assert token(APIClient(), user.username, password) == 429
