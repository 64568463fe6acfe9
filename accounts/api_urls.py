from __future__ import annotations

from django.urls import path

from accounts import api

app_name = "accounts-api"

urlpatterns = [
    path("auth/signup", api.SignUpView.as_view(), name="signup"),
    path("auth/token", api.TokenView.as_view(), name="token"),
    path("auth/login", api.LoginView.as_view(), name="login"),
    path("auth/logout", api.LogoutView.as_view(), name="logout"),
    path("auth/csrf", api.CsrfView.as_view(), name="csrf"),
    path("me", api.MeView.as_view(), name="me"),
]
