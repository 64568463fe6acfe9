"""Ending a session closes its sockets (the mechanism: tripeaks/infra/socket_sessions.py)."""

from __future__ import annotations

from django.contrib.auth.signals import user_logged_out
from django.dispatch import receiver
from django.http import HttpRequest

from accounts.signals import access_ended
from tripeaks.infra.socket_sessions import close_sockets_of_session


@receiver(access_ended, dispatch_uid="accounts.close_sockets_of_ended_sessions")
def _close_sockets_of_ended_sessions(
    sender: object, user_id: int, session_keys: list[str], **kwargs: object
) -> None:
    # A password change or reset, "end this session", "end all others", a deletion.
    for key in session_keys:
        close_sockets_of_session(key)


@receiver(user_logged_out, dispatch_uid="accounts.close_sockets_on_sign_out")
def _close_sockets_on_sign_out(
    sender: object, request: HttpRequest | None, **kwargs: object
) -> None:
    # Sent before the session is flushed: its key is still the one the sockets know.
    session = getattr(request, "session", None)
    close_sockets_of_session(getattr(session, "session_key", None))
