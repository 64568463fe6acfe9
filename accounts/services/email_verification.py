"""An optional email address, stored only once verified by a signed link.

``User.email`` holds verified addresses only (unique without case): asking for an address mails
a link signed with Django's signing (salted, timestamped, ``EMAIL_VERIFICATION_MAX_AGE``
seconds); following it stores the address. The link names the address the account had when it
was made, so it works once: after it (or any other change of address) it is refused. The mail
goes out from a Celery task (``accounts.mail``), and nothing is sent to an address another account already has; the
answer is the same either way.
"""

from __future__ import annotations

from django.conf import settings
from django.core import signing
from django.db import IntegrityError, transaction
from django.http import HttpRequest

from accounts import mail
from accounts.models import User
from accounts.tasks import send_verification_mail


class InvalidLink(Exception):
    """Malformed, expired, used already, or for an account that changed since."""


class AddressTaken(Exception):
    """Another account has this address."""


class GuestsHaveNoEmail(Exception):
    """A guest signs up before adding an address."""


def request_verification(*, request: HttpRequest, user: User, email: str) -> None:
    """Queue the mail with the verification link for `email`."""
    if user.is_guest:
        raise GuestsHaveNoEmail(user.pk)
    domain, use_https, user_id = request.get_host(), request.is_secure(), user.pk
    transaction.on_commit(
        lambda: send_verification_mail.delay(
            user_id=user_id, email=email, domain=domain, use_https=use_https
        )
    )


@transaction.atomic
def confirm(*, token: str) -> User:
    """Store the address the link was made for; the account."""
    try:
        data = signing.loads(
            token, salt=mail.VERIFICATION_SALT, max_age=settings.EMAIL_VERIFICATION_MAX_AGE
        )
        user_id, email, was = int(data["u"]), str(data["e"]), str(data["was"])
    except (signing.BadSignature, KeyError, TypeError, ValueError) as exc:
        raise InvalidLink() from exc
    user = User.objects.select_for_update().filter(pk=user_id, is_active=True).first()
    if user is None or user.email != was or user.is_guest:
        raise InvalidLink()
    if User.objects.filter(email__iexact=email).exclude(pk=user_id).exists():
        raise AddressTaken()
    user.email = email
    try:
        with transaction.atomic():
            user.save(update_fields=["email"])
    except IntegrityError as exc:
        raise AddressTaken() from exc
    return user


@transaction.atomic
def remove_email(*, user: User) -> None:
    User.objects.filter(pk=user.pk).update(email="")
    user.email = ""
