"""Browser pages: sign up, sign in, sign out (session cookie + CSRF)."""

from __future__ import annotations

from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.contrib.auth.forms import AuthenticationForm
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from accounts.forms import SignInForm, SignUpForm
from accounts.services import guests, players
from accounts.web_limits import form_wait, throttled_form_message


class SignInView(auth_views.LoginView):
    template_name = "accounts/login.html"
    authentication_form = SignInForm
    redirect_authenticated_user = True

    def form_invalid(self, form: AuthenticationForm) -> HttpResponse:
        response = super().form_invalid(form)
        retry_after = getattr(form, "retry_after", None)
        if retry_after is not None:
            response.status_code = 429
            response["Retry-After"] = str(retry_after)
        return response


class SignOutView(auth_views.LogoutView):
    """POST only (with CSRF), as Django requires."""


@require_http_methods(["GET", "POST"])
def sign_up(request: HttpRequest) -> HttpResponse:
    guest = getattr(request.user, "is_guest", False)
    if request.user.is_authenticated and not guest:
        return redirect("frontend:home")
    form = SignUpForm(request.POST or None)
    if request.method == "POST":
        # The API sign-up's limits, counted before the form reads the database or hashes.
        wait = form_wait(request, scope="signup")
        if wait is not None:
            form = SignUpForm()  # empty: the refused one is never validated
            form.cleaned_data = {}
            form.add_error(None, throttled_form_message(wait))
            response = render(request, "accounts/signup.html", {"form": form}, status=429)
            response["Retry-After"] = str(wait)
            return response
    if request.method == "POST" and form.is_valid():
        fields = {
            "username": form.cleaned_data["username"],
            "password": form.cleaned_data["password1"],
            "display_name": form.cleaned_data.get("display_name", ""),
        }
        try:
            # A guest becomes the account in place, keeping what it played (accounts.services.guests).
            if guest:
                user = guests.claim_guest(guest=request.user, request=request, **fields)  # type: ignore[arg-type]
            else:
                user = players.sign_up(**fields)
        except players.UsernameTaken:
            form.add_error("username", _("That username is taken."))
        else:
            login(request, user, backend="django.contrib.auth.backends.ModelBackend")
            return HttpResponseRedirect(reverse("frontend:home"))
    return render(request, "accounts/signup.html", {"form": form})
