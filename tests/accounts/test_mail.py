"""Email verification and password reset, through a real SMTP server (aiosmtpd)."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

import pytest
from django.contrib.auth.tokens import default_token_generator
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode

from accounts.mail import make_token
from accounts.models import User
from tests.accounts.helpers import OTHER_STRONG, STRONG, Browser, signed_up

# Mail goes out when the transaction commits (transaction.on_commit), as in production.
pytestmark = pytest.mark.django_db(transaction=True)

ADDRESS = "player@example.com"


def verify_path(link: str) -> str:
    return urlsplit(link).path


def token_of(link: str) -> str:
    return verify_path(link).rstrip("/").rsplit("/", 1)[-1]


def verified(browser: Browser, smtp: Any, address: str = ADDRESS) -> User:
    assert browser.put("/api/me/email", {"email": address}).status_code == 202
    token = token_of(smtp.link(address, "/accounts/email/verify/"))
    response = Browser().post("/api/auth/email/verify", {"token": token})
    assert response.status_code == 200, response.content
    return User.objects.get(email=address)


# --------------------------------------------------------------------------- verification


def test_an_address_is_stored_only_once_its_link_is_followed(smtp: Any) -> None:
    browser = signed_up("mailer")

    response = browser.put("/api/me/email", {"email": ADDRESS})

    assert response.status_code == 202
    assert User.objects.get(username="mailer").email == ""
    [message] = smtp.to(ADDRESS)
    assert message["To"] == ADDRESS and "verify" in message["Subject"].lower()
    token = token_of(smtp.link(ADDRESS, "/accounts/email/verify/"))
    assert Browser().post("/api/auth/email/verify", {"token": token}).status_code == 200
    assert User.objects.get(username="mailer").email == ADDRESS
    assert browser.get("/api/me").json()["email"] == ADDRESS


def test_an_address_given_at_sign_up_is_verified_by_mail(smtp: Any) -> None:
    browser = Browser()
    response = browser.post(
        "/api/auth/signup", {"username": "with_mail", "password": STRONG, "email": ADDRESS}
    )

    assert response.status_code == 201 and response.json()["email"] == ""
    token = token_of(smtp.link(ADDRESS, "/accounts/email/verify/"))
    assert browser.post("/api/auth/email/verify", {"token": token}).status_code == 200
    assert User.objects.get(username="with_mail").email == ADDRESS


def test_a_verification_link_works_once(smtp: Any) -> None:
    browser = signed_up("once")
    browser.put("/api/me/email", {"email": ADDRESS})
    token = token_of(smtp.link(ADDRESS, "/accounts/email/verify/"))

    first = Browser().post("/api/auth/email/verify", {"token": token})
    browser.put("/api/me/email", {"email": "second@example.com"})
    second_token = token_of(smtp.link("second@example.com", "/accounts/email/verify/"))
    Browser().post("/api/auth/email/verify", {"token": second_token})
    replay = Browser().post("/api/auth/email/verify", {"token": token})

    assert first.status_code == 200 and replay.status_code == 400
    assert User.objects.get(username="once").email == "second@example.com"


def test_tampered_and_expired_verification_links_are_refused(settings: Any) -> None:
    user = User.objects.create_user(username="tamper", password=STRONG)
    token = make_token(user=user, email=ADDRESS)

    tampered = Browser().post("/api/auth/email/verify", {"token": token[:-2] + "xx"})
    forged = Browser().post("/api/auth/email/verify", {"token": "eyJ1IjoxfQ:abc:def"})
    settings.EMAIL_VERIFICATION_MAX_AGE = -1
    expired = Browser().post("/api/auth/email/verify", {"token": token})

    assert [r.status_code for r in (tampered, forged, expired)] == [400, 400, 400]
    assert User.objects.get(pk=user.pk).email == ""


def test_no_mail_goes_to_an_address_another_account_has(smtp: Any) -> None:
    first = signed_up("first_owner")
    verified(first, smtp)
    second = signed_up("second_asker")

    response = second.put("/api/me/email", {"email": ADDRESS.upper()})

    assert response.status_code == 202  # the same answer as for a free address
    assert len(smtp.to(ADDRESS.upper())) == 0 and len(smtp.to(ADDRESS)) == 1


def test_removing_the_address(smtp: Any) -> None:
    browser = signed_up("remover")
    verified(browser, smtp)

    assert browser.delete("/api/me/email").status_code == 204
    assert User.objects.get(username="remover").email == ""


# --------------------------------------------------------------------------- password reset


def reset(address: str) -> Any:
    return Browser().post("/api/auth/password/reset", {"email": address})


def test_a_password_is_reset_by_the_link_mailed_to_the_verified_address(smtp: Any) -> None:
    browser = signed_up("forgetful")
    verified(browser, smtp)
    token_client = Browser()
    token = token_client.post(
        "/api/auth/token", {"username": "forgetful", "password": STRONG}
    ).json()["token"]

    assert reset(ADDRESS).status_code == 202
    link = smtp.link(ADDRESS, "/accounts/reset/")
    uid, token_in_link = urlsplit(link).path.rstrip("/").split("/")[-2:]
    response = Browser().post(
        "/api/auth/password/reset/confirm",
        {"uid": uid, "token": token_in_link, "new_password": OTHER_STRONG},
    )

    assert response.status_code == 204
    user = User.objects.get(username="forgetful")
    assert user.check_password(OTHER_STRONG)
    # Every session and token of the account ended.
    assert browser.get("/api/me").status_code in (401, 403)
    assert Browser().get("/api/me", HTTP_AUTHORIZATION=f"Token {token}").status_code == 401
    # The link is one-time: used, it is refused.
    replay = Browser().post(
        "/api/auth/password/reset/confirm",
        {"uid": uid, "token": token_in_link, "new_password": "yet-Another-pass-77"},
    )
    assert replay.status_code == 400
    assert User.objects.get(username="forgetful").check_password(OTHER_STRONG)


def test_reset_answers_never_tell_whether_an_account_or_address_exists(smtp: Any) -> None:
    browser = signed_up("known")
    verified(browser, smtp)
    signed_up("unverified").put("/api/me/email", {"email": "pending@example.com"})
    before = len(smtp.messages)

    answers = [reset(address) for address in (ADDRESS, "nobody@example.com", "pending@example.com")]

    assert {a.status_code for a in answers} == {202}
    assert len({a.content for a in answers}) == 1
    # Only the verified address got a mail.
    assert len(smtp.messages) == before + 1
    assert len(smtp.to(ADDRESS)) == 2 and len(smtp.to("nobody@example.com")) == 0


def test_an_expired_reset_link_is_refused() -> None:
    user = User.objects.create_user(username="slow", password=STRONG, email=ADDRESS)
    generator = default_token_generator
    two_hours_ago = generator._num_seconds(generator._now()) - 2 * 3600
    token = generator._make_token_with_timestamp(user, two_hours_ago, generator.secret)
    uid = urlsafe_base64_encode(force_bytes(user.pk))

    response = Browser().post(
        "/api/auth/password/reset/confirm",
        {"uid": uid, "token": token, "new_password": OTHER_STRONG},
    )

    assert response.status_code == 400
    assert User.objects.get(pk=user.pk).check_password(STRONG)


@pytest.mark.parametrize("uid", ["", "!!!", "MTIzNDU2Nzg5MDEyMzQ1Njc4OTA", "bm90LWEtbnVtYmVy"])
def test_malformed_reset_links_are_refused(uid: str) -> None:
    response = Browser().post(
        "/api/auth/password/reset/confirm",
        {"uid": uid, "token": "x-y", "new_password": OTHER_STRONG},
    )
    assert response.status_code == 400


def test_reset_requests_are_limited_like_sign_ins(smtp: Any, settings: Any) -> None:
    settings.SIGNIN_THROTTLE = {**settings.SIGNIN_THROTTLE, "per_username": 2}
    answers = [reset("flood@example.com").status_code for _ in range(4)]

    assert answers == [202, 202, 429, 429]


def test_sign_up_answers_the_same_whether_or_not_the_address_is_taken(smtp: Any) -> None:
    owner = signed_up("address_owner")
    verified(owner, smtp)
    before = len(smtp.messages)

    taken = Browser().post(
        "/api/auth/signup", {"username": "probe_one", "password": STRONG, "email": ADDRESS}
    )
    free = Browser().post(
        "/api/auth/signup",
        {"username": "probe_two", "password": STRONG, "email": "free@example.com"},
    )

    assert taken.status_code == free.status_code == 201
    assert taken.json()["email"] == free.json()["email"] == ""
    assert set(taken.json()) == set(free.json())
    # The owner's address got nothing more; the free one got its link.
    assert len(smtp.to(ADDRESS)) == 1 and len(smtp.to("free@example.com")) == 1
    assert len(smtp.messages) == before + 1
