from __future__ import annotations

from django.urls import path

from accounts import api, api_account

app_name = "accounts-api"

urlpatterns = [
    path("auth/signup", api.SignUpView.as_view(), name="signup"),
    path("auth/token", api.TokenView.as_view(), name="token"),
    path("auth/login", api.LoginView.as_view(), name="login"),
    path("auth/logout", api.LogoutView.as_view(), name="logout"),
    path("auth/csrf", api.CsrfView.as_view(), name="csrf"),
    path("me", api.MeView.as_view(), name="me"),
    # Issue 20: guests, email, passwords, sessions, export (accounts/api_account.py).
    path("auth/guest", api_account.GuestView.as_view(), name="guest"),
    path("auth/password/reset", api_account.PasswordResetView.as_view(), name="password-reset"),
    path(
        "auth/password/reset/confirm",
        api_account.PasswordResetConfirmView.as_view(),
        name="password-reset-confirm",
    ),
    path("auth/email/verify", api_account.EmailVerifyView.as_view(), name="email-verify"),
    path("me/password", api_account.PasswordChangeView.as_view(), name="password"),
    path("me/email", api_account.EmailView.as_view(), name="email"),
    path("me/sessions", api_account.SessionsView.as_view(), name="sessions"),
    path("me/sessions/end-others", api_account.EndOthersView.as_view(), name="sessions-end-others"),
    path("me/sessions/<int:pk>", api_account.SessionView.as_view(), name="session"),
]
