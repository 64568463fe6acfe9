"""Browser pages of the account (issue 20): play as a guest, the account page, email, password
change and reset, sessions, deletion. Django's own auth views and forms where there is one."""

from __future__ import annotations

from collections.abc import Mapping

from django import forms
from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login, logout
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import PasswordChangeForm, PasswordResetForm, SetPasswordForm
from django.contrib.auth.views import INTERNAL_RESET_SESSION_TOKEN
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import redirect, render
from django.urls import reverse_lazy
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods, require_POST

from accounts import selectors
from accounts.models import User
from accounts.services import access, deletion, email_verification, guests, passwords
from accounts.throttling import SignInGuard, throttled_message
from accounts.zones import player_zone
from tripeaks.infra.addresses import client_address

BACKEND = "django.contrib.auth.backends.ModelBackend"


def _retention() -> dict[str, int]:
    return {"days": settings.GUEST_IDLE_DAYS, "hold_days": settings.USERNAME_HOLD_DAYS}


def _player(request: HttpRequest) -> User:
    assert isinstance(request.user, User)
    return request.user


def _throttled(
    request: HttpRequest, template: str, context: Mapping[str, object], wait: int
) -> HttpResponse:
    context = {**context, "throttled": throttled_message(wait)}
    response = render(request, template, context, status=429)
    response["Retry-After"] = str(wait)
    return response


# --------------------------------------------------------------------------- guests


@require_http_methods(["GET", "POST"])
def play_as_guest(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect("frontend:home")
    if request.method == "POST":
        wait = guests.creation_wait(client_address(request))
        if wait is not None:
            return _throttled(request, "accounts/guest.html", _retention(), wait)
        login(request, guests.create_guest(), backend=BACKEND)
        # The game page deals at once when nothing is on the table (issue 38: a guest lands on a
        # deal, not on "No deal in progress").
        return redirect("/#/play/deal")
    return render(request, "accounts/guest.html", _retention())


# --------------------------------------------------------------------------- account page


@login_required
def account(request: HttpRequest) -> HttpResponse:
    return render(request, "accounts/account.html", {"player": _player(request)})


# --------------------------------------------------------------------------- email


class EmailForm(forms.Form):
    email = forms.EmailField(label=gettext_lazy("Email address"))


@login_required
@require_http_methods(["GET", "POST"])
def email(request: HttpRequest) -> HttpResponse:
    user = _player(request)
    if user.is_guest:
        return redirect("accounts:account")
    form = EmailForm(request.POST if request.POST.get("action") == "send" else None)
    if request.method == "POST" and request.POST.get("action") == "remove":
        email_verification.remove_email(user=user)
        messages.success(request, _("Your email address was removed."))
        return redirect("accounts:account")
    if request.method == "POST" and form.is_valid():
        email_verification.request_verification(
            request=request, user=user, email=form.cleaned_data["email"]
        )
        messages.success(request, _("A link to verify this address is on its way to it."))
        return redirect("accounts:account")
    return render(request, "accounts/email.html", {"form": form, "player": user})


@require_http_methods(["GET", "POST"])
def email_verify(request: HttpRequest, token: str) -> HttpResponse:
    """GET shows a button (mail scanners follow links); POST stores the address."""
    if request.method == "GET":
        return render(request, "accounts/email_verify.html", {"token": token})
    try:
        email_verification.confirm(token=token)
    except email_verification.InvalidLink:
        error = _("This verification link is invalid, used already, or expired.")
    except email_verification.AddressTaken:
        error = _("Another account has this address.")
    else:
        return render(request, "accounts/email_verify.html", {"done": True})
    return render(request, "accounts/email_verify.html", {"error": error}, status=400)


# --------------------------------------------------------------------------- passwords


class PasswordChangeView(auth_views.PasswordChangeView):
    """Django's: asks the old password. Wrong old passwords count like failed sign-ins; the
    other sessions and the API token end."""

    template_name = "accounts/password_change.html"
    success_url = reverse_lazy("accounts:account")

    def dispatch(self, request: HttpRequest, *args: object, **kwargs: object) -> HttpResponseBase:
        if request.user.is_authenticated and _player(request).is_guest:
            return redirect("accounts:account")
        return super().dispatch(request, *args, **kwargs)

    def post(self, request: HttpRequest, *args: object, **kwargs: object) -> HttpResponse:
        guard = SignInGuard.for_request(request, _player(request).username)
        wait = guard.reserve()
        if wait is not None:
            return _throttled(request, self.template_name, self.get_context_data(), wait)
        self.guard = guard
        return super().post(request, *args, **kwargs)

    def form_invalid(self, form: PasswordChangeForm) -> HttpResponse:
        if "old_password" not in form.errors:
            self.guard.record_success()
        return super().form_invalid(form)

    def form_valid(self, form: PasswordChangeForm) -> HttpResponse:
        # Not Django's form_valid: it saves the form apart from ending the other sessions.
        self.guard.record_success()
        passwords.change_password(
            user=form.user, password=form.cleaned_data["new_password1"], session_of=self.request
        )
        messages.success(self.request, _("Your password was changed; your other sessions ended."))
        return redirect(self.get_success_url())


class PasswordResetView(auth_views.PasswordResetView):
    """Django's form; the mail goes from a task, whatever the address, so the answer (and its
    time) is the same whether an account has it or not."""

    template_name = "accounts/password_reset.html"
    success_url = reverse_lazy("accounts:password_reset_done")

    def form_valid(self, form: PasswordResetForm) -> HttpResponse:
        address = form.cleaned_data["email"]
        guard = passwords.reset_guard(self.request, address)
        wait = guard.reserve()  # every request counts, like a failed sign-in
        if wait is not None:
            return _throttled(
                self.request, self.template_name, self.get_context_data(form=form), wait
            )
        passwords.request_reset(request=self.request, email=address)
        return redirect(self.get_success_url())


class PasswordResetConfirmView(auth_views.PasswordResetConfirmView):
    template_name = "accounts/password_reset_confirm.html"
    success_url = reverse_lazy("accounts:password_reset_complete")

    def form_valid(self, form: SetPasswordForm[User]) -> HttpResponse:
        # Not Django's form_valid: it saves the form apart from ending the sessions.
        passwords.change_password(user=form.user, password=form.cleaned_data["new_password1"])
        del self.request.session[INTERNAL_RESET_SESSION_TOKEN]
        return redirect(self.get_success_url())


# --------------------------------------------------------------------------- sessions


@login_required
def sessions(request: HttpRequest) -> HttpResponse:
    """The times in the player's zone (the browser's), named on the page."""
    rows = selectors.list_access(
        user=_player(request), current_session=request.session.session_key, current_token=None
    )
    zone = player_zone(request)
    with timezone.override(zone):
        return render(request, "accounts/sessions.html", {"rows": rows, "zone": zone.key})


@login_required
@require_POST
def end_session(request: HttpRequest, pk: int) -> HttpResponse:
    try:
        access.end_access(user=_player(request), record_id=pk)
    except access.NotYours as exc:
        raise Http404 from exc
    messages.success(request, _("That session was ended."))
    return redirect("accounts:sessions")


@login_required
@require_POST
def end_other_sessions(request: HttpRequest) -> HttpResponse:
    access.end_other_access(user=_player(request), keep_session=request.session.session_key)
    messages.success(request, _("Every other session and your API token were ended."))
    return redirect("accounts:sessions")


# --------------------------------------------------------------------------- deletion


class DeleteForm(forms.Form):
    password = forms.CharField(
        label=gettext_lazy("Your password"), strip=False, widget=forms.PasswordInput
    )


@login_required
@require_http_methods(["GET", "POST"])
def delete_account(request: HttpRequest) -> HttpResponse:
    user = _player(request)
    form = DeleteForm(request.POST or None)
    if request.method == "POST":
        if not user.is_guest:
            guard = SignInGuard.for_request(request, user.username)
            wait = guard.reserve()
            if wait is not None:
                return _throttled(
                    request, "accounts/delete.html", {"form": form, **_retention()}, wait
                )
            if not form.is_valid() or not user.check_password(form.cleaned_data["password"]):
                form.add_error(None, _("That is not your password."))
                return render(
                    request, "accounts/delete.html", {"form": form, **_retention()}, status=400
                )
            guard.record_success()
        deletion.delete_account(user=user)
        logout(request)
        messages.success(request, _("Your account was deleted."))
        return redirect("frontend:home")
    return render(request, "accounts/delete.html", {"form": form, **_retention()})
