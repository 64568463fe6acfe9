from __future__ import annotations

from django.contrib.auth import views as auth_views
from django.urls import path

from accounts import pages, views

app_name = "accounts"

urlpatterns = [
    path("signup/", views.sign_up, name="signup"),
    path("login/", views.SignInView.as_view(), name="login"),
    path("logout/", views.SignOutView.as_view(), name="logout"),
    # Issue 20 (accounts/pages.py).
    path("guest/", pages.play_as_guest, name="guest"),
    path("", pages.account, name="account"),
    path("email/", pages.email, name="email"),
    path("email/verify/<str:token>/", pages.email_verify, name="email_verify"),
    path("password/", pages.PasswordChangeView.as_view(), name="password_change"),
    path("password/reset/", pages.PasswordResetView.as_view(), name="password_reset"),
    path(
        "password/reset/done/",
        auth_views.PasswordResetDoneView.as_view(template_name="accounts/password_reset_done.html"),
        name="password_reset_done",
    ),
    path(
        "reset/<uidb64>/<token>/",
        pages.PasswordResetConfirmView.as_view(),
        name="password_reset_confirm",
    ),
    path(
        "reset/done/",
        auth_views.PasswordResetCompleteView.as_view(
            template_name="accounts/password_reset_complete.html"
        ),
        name="password_reset_complete",
    ),
    path("sessions/", pages.sessions, name="sessions"),
    path("sessions/<int:pk>/end/", pages.end_session, name="end_session"),
    path("sessions/end-others/", pages.end_other_sessions, name="end_other_sessions"),
    path("delete/", pages.delete_account, name="delete"),
]
