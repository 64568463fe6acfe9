"""A new password and the end of the player's other sessions are one transaction: when ending
the sessions fails, the password is not changed either (the API, the page, a reset link)."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.tokens import default_token_generator
from django.test import Client
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode

from accounts.models import User
from accounts.services import access
from tests.accounts.helpers import OTHER_STRONG, STRONG, Browser, signed_up

pytestmark = pytest.mark.django_db(transaction=True)


class RevocationFailed(Exception):
    pass


@pytest.fixture
def failing_revocation(monkeypatch: Any) -> None:
    def fail(**kwargs: Any) -> int:
        raise RevocationFailed

    monkeypatch.setattr(access, "end_other_access", fail)


def test_the_api_keeps_the_old_password_when_the_sessions_cannot_be_ended(
    failing_revocation: None,
) -> None:
    laptop = signed_up("keeper")
    phone = Browser()
    phone.post("/api/auth/login", {"username": "keeper", "password": STRONG})

    response = laptop.post(
        "/api/me/password", {"old_password": STRONG, "new_password": OTHER_STRONG}
    )

    assert response.status_code == 500  # the API's own answer to an unexpected failure

    assert User.objects.get(username="keeper").check_password(STRONG)
    assert phone.get("/api/me").status_code == 200


def test_the_page_keeps_the_old_password_when_the_sessions_cannot_be_ended(
    failing_revocation: None,
) -> None:
    User.objects.create_user(username="pagekeeper", password=STRONG)
    client = Client()
    client.post("/accounts/login/", {"username": "pagekeeper", "password": STRONG})

    with pytest.raises(RevocationFailed):
        client.post(
            "/accounts/password/",
            {"old_password": STRONG, "new_password1": OTHER_STRONG, "new_password2": OTHER_STRONG},
        )

    assert User.objects.get(username="pagekeeper").check_password(STRONG)


def test_a_reset_keeps_the_old_password_when_the_sessions_cannot_be_ended(
    failing_revocation: None,
) -> None:
    user = User.objects.create_user(username="resetkeeper", password=STRONG)
    uid = urlsafe_base64_encode(force_bytes(user.pk))
    token = default_token_generator.make_token(user)

    response = Browser().post(
        "/api/auth/password/reset/confirm",
        {"uid": uid, "token": token, "new_password": OTHER_STRONG},
    )

    assert response.status_code == 500

    assert User.objects.get(username="resetkeeper").check_password(STRONG)
