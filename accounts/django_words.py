"""Django's own words on the account pages that Django's Nepali catalog leaves in English (the
password validators' help and errors, the password forms' mismatch). Listed here only so that
`makemessages` keeps them in locale/, whose catalogs Django reads before its own."""

from __future__ import annotations

from django.utils.translation import gettext_noop, ngettext_lazy

PASSWORD_WORDS = (
    gettext_noop("Your password can’t be too similar to your other personal information."),
    gettext_noop("Your password can’t be a commonly used password."),
    gettext_noop("Your password can’t be entirely numeric."),
    gettext_noop("The two password fields didn’t match."),
    ngettext_lazy(
        "This password is too short. It must contain at least %d character.",
        "This password is too short. It must contain at least %d characters.",
        8,
    ),
)
