from __future__ import annotations

from django import forms
from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth.forms import AuthenticationForm, BaseUserCreationForm
from django.http import HttpRequest
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from accounts import selectors
from accounts.display_names import clean_display_name
from accounts.models import User
from accounts.throttling import SignInGuard, throttled_message
from accounts.validators import refuse_reserved_username, username_help
from accounts.web_limits import form_wait, throttled_form_message


class SignUpForm(BaseUserCreationForm[User]):
    class Meta:
        model = User
        fields = ("username", "display_name")

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)
        # The model's English words, said in the page's language (the API keeps the model's).
        username, display_name = self.fields["username"], self.fields["display_name"]
        username.label = _("Username")
        username.help_text = username_help()
        display_name.label = _("Display name")
        display_name.help_text = _("Shown to other players; the username when empty.")

    def clean_username(self) -> str:
        username: str = self.cleaned_data["username"]
        refuse_reserved_username(username)
        if selectors.username_taken(username):
            raise forms.ValidationError(_("That username is taken."), code="unique")
        return username

    def clean_display_name(self) -> str:
        value: str = self.cleaned_data.get("display_name", "")
        return clean_display_name(value, own_username=self.cleaned_data.get("username"))


class GuardedSignIn(AuthenticationForm):
    """Django's sign-in form with the API sign-in's limits: the anonymous request rate, then the
    sign-in guard's slot reserved before the password is hashed; refused while either says so."""

    def __init__(self, request: HttpRequest | None = None, *args: object, **kwargs: object) -> None:
        super().__init__(request, *args, **kwargs)
        self.retry_after: int | None = None

    def clean(self) -> dict[str, object]:
        username = self.cleaned_data.get("username")
        if username and self.request is not None:
            # The limits of the API's sign-in, counted before the password is hashed.
            self.retry_after = form_wait(self.request)
            if self.retry_after is not None:
                message = throttled_form_message(self.retry_after)
                raise forms.ValidationError(message, code="throttled")
            guard = SignInGuard.for_request(self.request, username)
            self.retry_after = guard.reserve()
            if self.retry_after is not None:
                raise forms.ValidationError(throttled_message(self.retry_after), code="throttled")
            cleaned = super().clean()  # a failure stays counted
            guard.record_success()
            return cleaned
        return super().clean()


class SignInForm(GuardedSignIn):
    """The site's sign-in page."""

    error_messages = {
        **AuthenticationForm.error_messages,
        "invalid_login": gettext_lazy("Unable to sign in with that username and password."),
    }

    def __init__(self, request: HttpRequest | None = None, *args: object, **kwargs: object) -> None:
        super().__init__(request, *args, **kwargs)
        self.fields["username"].label = _("Username")


class StaffSignInForm(GuardedSignIn, AdminAuthenticationForm):
    """The admin's sign-in page: without the guard it was a way around the sign-in limits."""
