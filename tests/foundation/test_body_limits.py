"""Bodies over their view's limit are refused with 413 before anything parses them (issue 35).

Before: DRF parsed any body under Django's 2.5 MB upload limit (which it never checks itself); a
1 MB JSON body to the move endpoint was parsed and answered 200, one to sign-up made an account.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.test import Client
from rest_framework.test import APIClient

from accounts.models import User
from tests.accounts.helpers import STRONG
from tests.play.helpers import client_for, move, start_custom, winnable_code
from tripeaks.play.models import Move

pytestmark = pytest.mark.django_db

MEGABYTE = 1024 * 1024


def padded(body: dict[str, Any], size: int = MEGABYTE) -> str:
    """`body` as JSON with an extra field that makes it `size` bytes or more."""
    return json.dumps({**body, "padding": "x" * size})


def test_a_megabyte_move_is_refused_before_parsing_and_a_normal_move_still_plays(
    user: Any, django_assert_num_queries: Any
) -> None:
    api = client_for(user)
    code, line = winnable_code()
    game = start_custom(api, code)
    body = padded({"seq": 0, **line[0]})

    with django_assert_num_queries(0):
        response = api.post(f"/api/games/{game['id']}/moves", body, content_type="application/json")

    assert response.status_code == 413
    assert response.json() == {
        "detail": "The request body is too large: at most 1024 bytes here.",
        "code": "too_large",
    }
    assert not Move.objects.filter(game_id=game["id"]).exists()
    assert move(api, game, **line[0]).status_code == 200
    assert Move.objects.filter(game_id=game["id"]).count() == 1


@pytest.mark.parametrize("path", ["/api/auth/signup", "/api/auth/login", "/api/auth/token"])
def test_a_megabyte_body_to_sign_up_or_sign_in_is_refused_before_parsing(
    path: str, django_assert_num_queries: Any
) -> None:
    body = padded({"username": "bigbody", "password": STRONG})

    with django_assert_num_queries(0):
        response = APIClient().post(path, body, content_type="application/json")

    assert response.status_code == 413
    assert response.json()["code"] == "too_large"
    assert "at most 8192 bytes" in response.json()["detail"]
    assert not User.objects.filter(username="bigbody").exists()


def test_a_body_just_under_the_api_limit_is_parsed() -> None:
    body = json.dumps({"username": "fits", "password": STRONG})
    body = body[:-1] + ', "padding": "' + "x" * (8192 - len(body) - 16) + '"}'
    assert len(body.encode()) <= 8192

    response = APIClient().post("/api/auth/signup", body, content_type="application/json")

    assert response.status_code == 201
    assert User.objects.filter(username="fits").exists()


def test_a_body_without_a_length_is_refused_with_411() -> None:
    response = Client().post(
        "/api/auth/signup",
        padded({"username": "chunked", "password": STRONG}),
        content_type="application/json",
        CONTENT_LENGTH="",
        HTTP_TRANSFER_ENCODING="chunked",
    )

    assert response.status_code == 411
    assert response.json()["code"] == "length_required"
    assert not User.objects.filter(username="chunked").exists()


def test_a_large_form_to_the_sign_up_page_is_refused_with_413(
    django_assert_num_queries: Any,
) -> None:
    form = {"username": "bigform", "password1": STRONG, "password2": STRONG}
    form["display_name"] = "x" * (100 * 1024)

    with django_assert_num_queries(0):
        response = Client().post("/accounts/signup/", form)
    german = Client().post("/accounts/signup/", form, HTTP_ACCEPT_LANGUAGE="de")

    assert response.status_code == 413 and german.status_code == 413
    assert response["Content-Type"].startswith("text/plain")
    assert response.content.decode() == "This form is too large to be sent."
    assert german.content.decode() == "Dieses Formular ist zu groß, um gesendet zu werden."
    assert not User.objects.filter(username="bigform").exists()
