"""The accounts API: sign up, API tokens, session sign-in for the JS front end, and /api/me.

Views stay thin: parse with a serializer, call one service, shape the answer.
"""

from __future__ import annotations

from django.contrib.auth import authenticate, login, logout
from django.middleware.csrf import get_token
from django.utils.decorators import method_decorator
from django.views.decorators.csrf import ensure_csrf_cookie
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import generics, status
from rest_framework.authentication import BaseAuthentication, SessionAuthentication
from rest_framework.exceptions import Throttled, ValidationError
from rest_framework.permissions import AllowAny, BasePermission, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts import api_account
from accounts.account_serializers import PasswordSerializer
from accounts.models import User
from accounts.payloads import SignUp
from accounts.serializers import (
    CredentialsSerializer,
    CsrfSerializer,
    MeUpdateSerializer,
    SignUpSerializer,
    TokenSerializer,
    UserSerializer,
)
from accounts.services import access, email_verification, players
from accounts.throttling import SignInGuard, throttled_message
from tripeaks.infra.throttling import StrictAnonRateThrottle, StrictScopedRateThrottle

BAD_CREDENTIALS = "Unable to sign in with that username and password."

_ERROR = OpenApiResponse(description='Error: `{"detail": "...", "errors": {...}?}`')
_THROTTLED = OpenApiResponse(description="Too many attempts; see `Retry-After`.")


def _check_credentials(request: Request) -> User:
    """Authenticate username + password, counting failures against the sign-in guard."""
    serializer = CredentialsSerializer(data=request.data)
    serializer.is_valid(raise_exception=True)
    username: str = serializer.validated_data["username"]
    guard = SignInGuard.for_request(request._request, username)
    wait = guard.reserve()  # before the password is hashed or the database asked
    if wait is not None:
        raise Throttled(wait=wait, detail=throttled_message(wait))
    user = authenticate(
        request._request, username=username, password=serializer.validated_data["password"]
    )
    if not isinstance(user, User):
        raise ValidationError({"non_field_errors": [BAD_CREDENTIALS]}, code="authorization")
    guard.record_success()
    return user


def _enforce_csrf(request: Request) -> None:
    # DRF only checks CSRF for requests already authenticated by session; a session sign-in or
    # sign-out must be checked too (login CSRF).
    SessionAuthentication().enforce_csrf(request)


class SignUpView(APIView):
    """Create a player account. Password rules are Django's validators."""

    permission_classes = [AllowAny]
    # The session tells a guest's sign-up (which keeps the guest's row) from a new player's.
    authentication_classes = [SessionAuthentication]
    throttle_classes = [StrictAnonRateThrottle, StrictScopedRateThrottle]
    throttle_scope = "signup"

    @extend_schema(
        request=SignUpSerializer,
        responses={201: UserSerializer, 400: _ERROR, 429: _THROTTLED},
    )
    def post(self, request: Request) -> Response:
        serializer = SignUpSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        validated = serializer.validated_data
        data: SignUp = {
            "username": validated["username"],
            "password": validated["password"],
            "display_name": validated["display_name"],
        }
        email = validated.get("email", "")
        try:
            # From a guest session the guest becomes the account (issue 20).
            user = api_account.sign_up_guest(request, data) or players.sign_up(**data)
        except players.UsernameTaken as exc:
            raise ValidationError({"username": ["That username is taken."]}, code="unique") from exc
        if email:
            email_verification.request_verification(
                request=request._request, user=user, email=email
            )
        return Response(UserSerializer(user).data, status=status.HTTP_201_CREATED)


class TokenView(APIView):
    """POST: trade username + password for the API token. DELETE: revoke your token."""

    def get_permissions(self) -> list[BasePermission]:
        return [AllowAny()] if self.request.method == "POST" else [IsAuthenticated()]

    def get_authenticators(self) -> list[BaseAuthentication]:
        # Credentials in the body are the authentication for POST; a stale token header or
        # session must not get in the way.
        if getattr(self, "request", None) is not None and self.request.method == "POST":
            return []
        return super().get_authenticators()

    @extend_schema(
        request=CredentialsSerializer,
        responses={200: TokenSerializer, 400: _ERROR, 429: _THROTTLED},
    )
    def post(self, request: Request) -> Response:
        user = _check_credentials(request)
        token = access.issue_token(user=user)
        return Response({"token": token.key})

    @extend_schema(request=None, responses={204: None, 401: _ERROR})
    def delete(self, request: Request) -> Response:
        assert isinstance(request.user, User)
        access.revoke_token(user=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


class LoginView(APIView):
    """Sign in with a session cookie (for the site's own JS). Needs the CSRF token."""

    permission_classes = [AllowAny]
    authentication_classes: list[type] = []

    @extend_schema(
        request=CredentialsSerializer,
        responses={200: UserSerializer, 400: _ERROR, 403: _ERROR, 429: _THROTTLED},
    )
    def post(self, request: Request) -> Response:
        _enforce_csrf(request)
        user = _check_credentials(request)
        login(request._request, user)
        return Response(UserSerializer(user).data)


class LogoutView(APIView):
    """End the session. Needs the CSRF token. Answers 204 even when not signed in."""

    permission_classes = [AllowAny]
    authentication_classes: list[type] = []

    @extend_schema(request=None, responses={204: None, 403: _ERROR})
    def post(self, request: Request) -> Response:
        _enforce_csrf(request)
        logout(request._request)
        return Response(status=status.HTTP_204_NO_CONTENT)


@method_decorator(ensure_csrf_cookie, name="dispatch")
class CsrfView(APIView):
    """Set the `csrftoken` cookie and return the token for the `X-CSRFToken` header."""

    permission_classes = [AllowAny]
    authentication_classes: list[type] = []

    @extend_schema(responses={200: CsrfSerializer})
    def get(self, request: Request) -> Response:
        return Response({"csrf_token": get_token(request._request)})


class MeView(generics.RetrieveUpdateAPIView[User]):
    """The signed-in player. PATCH changes the display name; DELETE deletes the account."""

    http_method_names = ["get", "patch", "delete", "head", "options"]

    def get_object(self) -> User:
        assert isinstance(self.request.user, User)
        return self.request.user

    def get_serializer_class(self) -> type[UserSerializer] | type[MeUpdateSerializer]:
        return MeUpdateSerializer if self.request.method == "PATCH" else UserSerializer

    @extend_schema(responses={200: UserSerializer, 401: _ERROR})
    def get(self, request: Request, *args: object, **kwargs: object) -> Response:
        return super().get(request, *args, **kwargs)

    @extend_schema(
        request=MeUpdateSerializer, responses={200: UserSerializer, 400: _ERROR, 401: _ERROR}
    )
    def patch(self, request: Request, *args: object, **kwargs: object) -> Response:
        serializer = MeUpdateSerializer(self.get_object(), data=request.data, partial=True)
        serializer.is_valid(raise_exception=True)
        user = self.get_object()
        if "display_name" in serializer.validated_data:
            user = players.change_display_name(
                user=user, display_name=serializer.validated_data["display_name"]
            )
        return Response(UserSerializer(user).data)

    @extend_schema(
        request=PasswordSerializer,
        responses={204: None, 400: _ERROR, 401: _ERROR, 429: _THROTTLED},
    )
    def delete(self, request: Request, *args: object, **kwargs: object) -> Response:
        return api_account.delete_me(request)
