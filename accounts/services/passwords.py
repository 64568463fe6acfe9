"""Passwords: change (knowing the old one) and reset (by a link to the verified address).

Django's own forms and tokens check: ``PasswordChangeForm`` the old password and the
validators (``SetPasswordForm`` the validators, for a reset), ``PasswordResetForm`` finds the accounts of an address (active, with a usable
password; ``User.email`` holds verified addresses only) and mails each a link made by
``default_token_generator``. That token is one-time (it hashes the password, which the reset
changes) and expires after ``PASSWORD_RESET_TIMEOUT`` seconds. The new password is stored by
`change_password`, in the transaction that ends the player's other sessions and tokens.

Whatever the address, a reset request answers the same, and the mail is sent by a Celery task
after the answer, so neither the answer nor its timing tells whether an account exists.
Requests are counted like failed sign-ins (accounts.throttling.SignInGuard), per address asked
for and per client address.
"""

from __future__ import annotations

from django.contrib.auth import update_session_auth_hash
from django.contrib.auth.tokens import default_token_generator
from django.db import transaction
from django.http import HttpRequest
from django.utils.encoding import force_str
from django.utils.http import urlsafe_base64_decode

from accounts.models import User
from accounts.services import access
from accounts.tasks import send_password_reset_mail
from accounts.throttling import SignInGuard
from tripeaks.infra.socket_sessions import close_sockets_of_user


class InvalidResetLink(Exception):
    """The link is malformed, used already, or expired."""


@transaction.atomic
def change_password(
    *,
    user: User,
    password: str,
    session_of: HttpRequest | None = None,
    keep_token: str | None = None,
) -> int:
    """Store the new password (already checked: Django's password forms) and, in the same
    transaction, end the player's other sessions and tokens: either both happen or neither.
    `session_of` is the request whose session stays signed in (it gets a new key and the new
    password's hash), `keep_token` the token that stays. Every socket of the player closes after
    the commit but those of the kept session. How many sessions and tokens ended.

    (Django's session hash already refuses other sessions once the password changes; deleting
    them also takes them off the sessions list. A session that made no request since this
    deploy has no record to end, so its sockets are closed by player, not by session.)"""
    user.set_password(password)
    user.save(update_fields=["password"])
    sockets_of = keep_session = None
    if session_of is not None:
        sockets_of = session_of.session.session_key
        update_session_auth_hash(session_of, user)  # a new key for this session
        keep_session = session_of.session.session_key
    user_id = user.pk
    transaction.on_commit(lambda: close_sockets_of_user(user_id, except_session=sockets_of))
    return access.end_other_access(user=user, keep_session=keep_session, keep_token=keep_token)


def reset_guard(request: HttpRequest, email: str) -> SignInGuard:
    return SignInGuard.for_request(request, f"reset:{email.strip().lower()}")


def request_reset(*, request: HttpRequest, email: str) -> None:
    """Queue the reset mail for `email` (sent only if an account has it verified)."""
    domain = request.get_host()
    use_https = request.is_secure()
    transaction.on_commit(
        lambda: send_password_reset_mail.delay(email=email, domain=domain, use_https=use_https)
    )


def user_of_link(uidb64: str, token: str) -> User:
    """The account a reset link is for, or InvalidResetLink."""
    try:
        pk = force_str(urlsafe_base64_decode(uidb64))
        user = User.objects.filter(pk=int(pk), is_active=True).first()
    except (ValueError, TypeError, OverflowError):
        user = None
    if user is None or not default_token_generator.check_token(user, token):
        raise InvalidResetLink(uidb64)
    return user
