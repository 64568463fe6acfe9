"""The account endpoints people trust: guests, email, passwords, sessions, export, deletion.

Views stay thin: parse with a serializer, call one service, shape the answer. Answers about
passwords and addresses never tell whether an account or address exists.
"""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from django.contrib.auth import login, logout
from django.contrib.auth.forms import PasswordChangeForm, SetPasswordForm
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.authentication import SessionAuthentication
from rest_framework.authtoken.models import Token
from rest_framework.exceptions import NotFound, Throttled, ValidationError
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.throttling import ScopedRateThrottle
from rest_framework.views import APIView

from accounts import selectors
from accounts.account_serializers import (
    AccessSerializer,
    DetailSerializer,
    EmailSerializer,
    EmailVerifySerializer,
    EndedSerializer,
    PasswordChangeSerializer,
    PasswordResetConfirmSerializer,
    PasswordResetSerializer,
    PasswordSerializer,
)
from accounts.models import User
from accounts.payloads import SignUp
from accounts.serializers import UserSerializer
from accounts.services import access, deletion, email_verification, guests, passwords
from accounts.throttling import SignInGuard, throttled_message
from tripeaks.infra.addresses import client_address
from tripeaks.infra.throttling import FailOpenAnonRateThrottle

BACKEND = "django.contrib.auth.backends.ModelBackend"
RESET_SENT = (
    "If an account has this verified address, a link to choose a new password is on its way."
)
VERIFY_SENT = "A link to verify this address is on its way to it."
BAD_RESET_LINK = "This reset link is invalid, used already, or expired."
BAD_VERIFY_LINK = "This verification link is invalid, used already, or expired."
ADDRESS_TAKEN = "Another account has this address."
GUEST_FIRST = "Guests have no password or email: sign up first (your games stay yours)."
WRONG_PASSWORD = "That is not your password."
ALREADY_SIGNED_UP = "This guest has signed up already."

_ERROR = OpenApiResponse(description='Error: `{"detail": "...", "errors": {...}?}`')
_THROTTLED = OpenApiResponse(description="Too many attempts; see `Retry-After`.")


def enforce_csrf(request: Request) -> None:
    # DRF checks CSRF only for requests it authenticated by session; these are checked anyway.
    SessionAuthentication().enforce_csrf(request)


def _me(request: Request) -> User:
    assert isinstance(request.user, User)
    return request.user


def _current_keys(request: Request) -> tuple[str | None, str | None]:
    """(session key, token key) of the credential this request came with."""
    if isinstance(request.auth, Token):
        return None, request.auth.key
    return request._request.session.session_key, None


def _guard(request: Request, username: str) -> SignInGuard:
    guard = SignInGuard.for_request(request._request, username)
    wait = guard.reserve()
    if wait is not None:
        raise Throttled(wait=wait, detail=throttled_message(wait))
    return guard


def _form_errors(form: Any, names: dict[str, str]) -> ValidationError:
    return ValidationError(
        {names.get(field, field): list(errors) for field, errors in form.errors.items()}
    )


# --------------------------------------------------------------------------- guests


class GuestView(APIView):
    """Play at once: create a guest account and sign it in with a session (needs CSRF).

    A request that is already signed in gets its own account back (200)."""

    permission_classes = [AllowAny]
    authentication_classes = [SessionAuthentication]
    throttle_classes = [FailOpenAnonRateThrottle]

    @extend_schema(
        request=None,
        responses={201: UserSerializer, 200: UserSerializer, 403: _ERROR, 429: _THROTTLED},
    )
    def post(self, request: Request) -> Response:
        enforce_csrf(request)
        current = request.user
        if isinstance(current, User) and current.is_authenticated:
            return Response(UserSerializer(current).data)
        wait = guests.creation_wait(client_address(request._request))
        if wait is not None:
            raise Throttled(wait=wait)
        user = guests.create_guest()
        login(request._request, user, backend=BACKEND)
        return Response(UserSerializer(user).data, status=status.HTTP_201_CREATED)


def sign_up_guest(request: Request, data: SignUp) -> User | None:
    """(POST /api/auth/signup) From a guest session: turn the guest into the account in place
    and keep the session signed in. None when the request is not a guest's."""
    current = request.user
    if not isinstance(current, User) or not current.is_guest:
        return None
    enforce_csrf(request)
    try:
        # The session follows the new password hash inside the claim's transaction.
        user = guests.claim_guest(guest=current, request=request._request, **data)
    except guests.NotAGuest as exc:  # signed up a moment ago (a second click, say)
        raise ValidationError({"non_field_errors": [ALREADY_SIGNED_UP]}) from exc
    return user


# --------------------------------------------------------------------------- passwords


class PasswordChangeView(APIView):
    """Change the password (the old one is asked); every other session and token ends."""

    @extend_schema(
        request=PasswordChangeSerializer,
        responses={200: EndedSerializer, 400: _ERROR, 401: _ERROR, 429: _THROTTLED},
    )
    def post(self, request: Request) -> Response:
        serializer = PasswordChangeSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        user = _me(request)
        if user.is_guest:
            raise ValidationError({"non_field_errors": [GUEST_FIRST]})
        guard = _guard(request, user.username)
        new = serializer.validated_data["new_password"]
        form = PasswordChangeForm(
            user,
            {
                "old_password": serializer.validated_data["old_password"],
                "new_password1": new,
                "new_password2": new,
            },
        )
        if "old_password" not in form.errors:
            guard.record_success()
        if not form.is_valid():
            raise _form_errors(
                form, {"new_password1": "new_password", "new_password2": "new_password"}
            )
        session_key, token_key = _current_keys(request)
        ended = passwords.change_password(
            user=user,
            password=new,
            session_of=request._request if session_key else None,
            keep_token=token_key,
        )
        return Response({"ended": ended})


class PasswordResetView(APIView):
    """Ask for a reset link. The answer is the same whether or not the address has an account."""

    permission_classes = [AllowAny]
    authentication_classes: list[type] = []

    @extend_schema(
        request=PasswordResetSerializer,
        responses={202: DetailSerializer, 400: _ERROR, 429: _THROTTLED},
    )
    def post(self, request: Request) -> Response:
        serializer = PasswordResetSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        email: str = serializer.validated_data["email"]
        guard = passwords.reset_guard(request._request, email)
        wait = guard.reserve()  # every request counts, like a failed sign-in
        if wait is not None:
            raise Throttled(wait=wait)
        passwords.request_reset(request=request._request, email=email)
        return Response({"detail": RESET_SENT}, status=status.HTTP_202_ACCEPTED)


class PasswordResetConfirmView(APIView):
    """Set a new password with the `uid` and `token` of a reset link (once; it expires)."""

    permission_classes = [AllowAny]
    authentication_classes: list[type] = []

    @extend_schema(request=PasswordResetConfirmSerializer, responses={204: None, 400: _ERROR})
    def post(self, request: Request) -> Response:
        serializer = PasswordResetConfirmSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        try:
            user = passwords.user_of_link(data["uid"], data["token"])
        except passwords.InvalidResetLink as exc:
            raise ValidationError({"token": [BAD_RESET_LINK]}) from exc
        new = data["new_password"]
        form = SetPasswordForm(user, {"new_password1": new, "new_password2": new})
        if not form.is_valid():
            raise _form_errors(
                form, {"new_password1": "new_password", "new_password2": "new_password"}
            )
        passwords.change_password(user=user, password=new)
        return Response(status=status.HTTP_204_NO_CONTENT)


# --------------------------------------------------------------------------- email


class EmailView(APIView):
    """PUT: mail a verification link to an address (stored once verified). DELETE: remove it."""

    throttle_classes = [ScopedRateThrottle]
    throttle_scope = "signup"

    @extend_schema(
        request=EmailSerializer, responses={202: DetailSerializer, 400: _ERROR, 401: _ERROR}
    )
    def put(self, request: Request) -> Response:
        serializer = EmailSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        try:
            email_verification.request_verification(
                request=request._request,
                user=_me(request),
                email=serializer.validated_data["email"],
            )
        except email_verification.GuestsHaveNoEmail as exc:
            raise ValidationError({"non_field_errors": [GUEST_FIRST]}) from exc
        return Response({"detail": VERIFY_SENT}, status=status.HTTP_202_ACCEPTED)

    @extend_schema(request=None, responses={204: None, 401: _ERROR})
    def delete(self, request: Request) -> Response:
        email_verification.remove_email(user=_me(request))
        return Response(status=status.HTTP_204_NO_CONTENT)


class EmailVerifyView(APIView):
    """Store the address of a verification link's `token` (once; it expires)."""

    permission_classes = [AllowAny]
    authentication_classes: list[type] = []

    @extend_schema(request=EmailVerifySerializer, responses={200: UserSerializer, 400: _ERROR})
    def post(self, request: Request) -> Response:
        serializer = EmailVerifySerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        try:
            user = email_verification.confirm(token=serializer.validated_data["token"])
        except email_verification.InvalidLink as exc:
            raise ValidationError({"token": [BAD_VERIFY_LINK]}) from exc
        except email_verification.AddressTaken as exc:
            raise ValidationError({"token": [ADDRESS_TAKEN]}) from exc
        return Response(UserSerializer(user).data)


# --------------------------------------------------------------------------- sessions


def access_payload(row: selectors.Access) -> dict[str, object]:
    return AccessSerializer(asdict(row)).data


class SessionsView(APIView):
    """The player's sessions and API token: device, address, first and last use."""

    @extend_schema(responses={200: AccessSerializer(many=True), 401: _ERROR})
    def get(self, request: Request) -> Response:
        session_key, token_key = _current_keys(request)
        rows = selectors.list_access(
            user=_me(request), current_session=session_key, current_token=token_key
        )
        return Response([access_payload(row) for row in rows])


class SessionView(APIView):
    """End one session or the token (`id` from the list)."""

    @extend_schema(request=None, responses={204: None, 401: _ERROR, 404: _ERROR})
    def delete(self, request: Request, pk: int) -> Response:
        try:
            access.end_access(user=_me(request), record_id=pk)
        except access.NotYours as exc:
            raise NotFound("No such session.") from exc
        return Response(status=status.HTTP_204_NO_CONTENT)


class EndOthersView(APIView):
    """End every session and token but the one this request came with."""

    @extend_schema(request=None, responses={200: EndedSerializer, 401: _ERROR})
    def post(self, request: Request) -> Response:
        session_key, token_key = _current_keys(request)
        ended = access.end_other_access(
            user=_me(request), keep_session=session_key, keep_token=token_key
        )
        return Response({"ended": ended})


# --------------------------------------------------------------------------- export, deletion


def delete_me(request: Request) -> Response:
    """(DELETE /api/me) Delete the account; an account (not a guest) confirms with its password."""
    user = _me(request)
    if not user.is_guest:
        serializer = PasswordSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        guard = _guard(request, user.username)
        if not user.check_password(serializer.validated_data["password"]):
            raise ValidationError({"password": [WRONG_PASSWORD]})
        guard.record_success()
    deletion.delete_account(user=user)
    logout(request._request)
    return Response(status=status.HTTP_204_NO_CONTENT)
