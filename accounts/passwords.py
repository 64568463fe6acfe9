"""Passwords: change (knowing the old one) and reset (by a link to the verified address).

Django's own forms and tokens do the work: ``PasswordChangeForm`` checks the old password and
the validators, ``PasswordResetForm`` finds the accounts of an address (active, with a usable
password; ``User.email`` holds verified addresses only) and mails each a link made by
``default_token_generator``. That token is one-time (it hashes the password, which the reset
changes) and expires after ``PASSWORD_RESET_TIMEOUT`` seconds.

Whatever the address, a reset request answers the same, and the mail is sent by a Celery task
after the answer, so neither the answer nor its timing tells whether an account exists.
Requests are counted like failed sign-ins (accounts.throttling.SignInGuard), per address asked
for and per client address.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth.forms import PasswordResetForm
from django.contrib.auth.tokens import default_token_generator
from django.db import transaction
from django.http import HttpRequest
from django.utils.encoding import force_str
from django.utils.http import urlsafe_base64_decode

from accounts import access
from accounts.models import User
from accounts.throttling import SignInGuard
from tripeaks.infra.socket_sessions import close_sockets_of_user

RESET_SUBJECT = "accounts/mail/password_reset_subject.txt"
RESET_BODY = "accounts/mail/password_reset.txt"


class InvalidResetLink(Exception):
    """The link is malformed, used already, or expired."""


@transaction.atomic
def password_changed(
    *,
    user: User,
    keep_session: str | None = None,
    keep_token: str | None = None,
    sockets_of: str | None = None,
) -> int:
    """After a new password is stored: end the player's other sessions and tokens, and close
    every socket of the player but those opened with `sockets_of` (the key the kept session had
    before the change gave it a new one). How many sessions and tokens ended.

    (Django's session hash already refuses other sessions once the password changes; deleting
    them also takes them off the sessions list. A session that made no request since this
    deploy has no record to end, so its sockets are closed by player, not by session.)"""
    user_id = user.pk
    transaction.on_commit(lambda: close_sockets_of_user(user_id, except_session=sockets_of))
    return access.end_other_access(user=user, keep_session=keep_session, keep_token=keep_token)


def reset_guard(request: HttpRequest, email: str) -> SignInGuard:
    return SignInGuard.for_request(request, f"reset:{email.strip().lower()}")


def request_reset(*, request: HttpRequest, email: str) -> None:
    """Queue the reset mail for `email` (sent only if an account has it verified)."""
    from accounts.tasks import send_password_reset_mail

    domain = request.get_host()
    use_https = request.is_secure()
    transaction.on_commit(
        lambda: send_password_reset_mail.delay(email=email, domain=domain, use_https=use_https)
    )


def send_reset_mail(*, email: str, domain: str, use_https: bool) -> None:
    form = PasswordResetForm({"email": email})
    if not form.is_valid():
        return
    form.save(
        domain_override=domain,
        use_https=use_https,
        subject_template_name=RESET_SUBJECT,
        email_template_name=RESET_BODY,
        extra_email_context={
            "site_name": "TriPeaks Online",
            "minutes": str(settings.PASSWORD_RESET_TIMEOUT // 60),
        },
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
