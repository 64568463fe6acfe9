"""Celery tasks of accounts: mail (sent off the request, so an answer takes the same time whether
or not an account or address exists) and the retention clean-ups run by beat."""

from __future__ import annotations

from celery import shared_task


@shared_task
def send_password_reset_mail(*, email: str, domain: str, use_https: bool) -> None:
    from accounts.mail import send_reset_mail

    send_reset_mail(email=email, domain=domain, use_https=use_https)


@shared_task
def send_verification_mail(*, user_id: int, email: str, domain: str, use_https: bool) -> None:
    from accounts.mail import send_verification

    send_verification(user_id=user_id, email=email, domain=domain, use_https=use_https)


@shared_task
def remove_idle_guests() -> int:
    from accounts.services.guests import remove_idle_guests as remove

    return remove()


@shared_task
def release_usernames() -> int:
    from accounts.services.deletion import release_usernames as release

    return release()


@shared_task
def forget_ended_access() -> int:
    from accounts.services.access import forget_ended

    return forget_ended()
