"""Records the session or API token each signed-in request used (accounts.services.access)."""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponseBase
from rest_framework.authtoken.models import Token

from accounts.models import AccessKind
from accounts.services import access
from tripeaks.infra.addresses import client_address, ip_or_none


class RecordAccess:
    """After the response: note the session or token of a signed-in request (once a minute)."""

    sync_capable = True
    async_capable = False

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        response = self.get_response(request)
        user = getattr(request, "user", None)
        if user is None or not user.is_authenticated:
            return response
        auth = getattr(request, "auth", None)  # DRF sets it on the Django request too
        if isinstance(auth, Token):
            kind, key = AccessKind.TOKEN, auth.key
        else:
            session = getattr(request, "session", None)
            key = session.session_key if session is not None else None
            if not key:
                return response
            kind = AccessKind.SESSION
        recorded = access.record(
            user_id=user.pk,
            kind=kind,
            key=key,
            user_agent=request.headers.get("User-Agent", ""),
            address=ip_or_none(client_address(request)),
        )
        if recorded and kind == AccessKind.SESSION and getattr(user, "is_guest", False):
            # The cookie is a guest's only key: its session lasts SESSION_COOKIE_AGE from the
            # last use (saved again at most once a minute), not from its creation.
            request.session.modified = True
        return response
