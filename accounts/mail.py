"""The mails of accounts, rendered and sent by the Celery tasks (``accounts.tasks``): the link that
verifies an address, and the link that resets a password (Django's ``PasswordResetForm``).

They read and send; they write nothing. The write paths that ask for them (the services'
``email_verification`` and ``passwords``) queue the tasks after their commit.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth.forms import PasswordResetForm
from django.core import signing
from django.core.mail import send_mail
from django.template.loader import render_to_string
from django.urls import reverse

from accounts.models import User

VERIFICATION_SALT = "accounts.email-verification"
RESET_SUBJECT = "accounts/mail/password_reset_subject.txt"
RESET_BODY = "accounts/mail/password_reset.txt"


def make_token(*, user: User, email: str) -> str:
    return signing.dumps(
        {"u": user.pk, "e": email, "was": user.email}, salt=VERIFICATION_SALT, compress=True
    )


def send_verification(*, user_id: int, email: str, domain: str, use_https: bool) -> None:
    user = User.objects.filter(pk=user_id, is_active=True, is_guest=False).first()
    if user is None or User.objects.filter(email__iexact=email).exclude(pk=user_id).exists():
        return
    path = reverse("accounts:email_verify", kwargs={"token": make_token(user=user, email=email)})
    context: dict[str, object] = {
        "user": user,
        "email": email,
        "link": f"{'https' if use_https else 'http'}://{domain}{path}",
        "hours": settings.EMAIL_VERIFICATION_MAX_AGE // 3600,
    }
    send_mail(
        subject=render_to_string("accounts/mail/verify_email_subject.txt", context).strip(),
        message=render_to_string("accounts/mail/verify_email.txt", context),
        from_email=None,
        recipient_list=[email],
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
