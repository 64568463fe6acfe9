"""What a username and a display name may be."""

from __future__ import annotations

import unicodedata

from django.core.exceptions import ValidationError
from django.core.validators import RegexValidator
from django.utils.deconstruct import deconstructible
from django.utils.functional import lazy
from django.utils.translation import gettext as _

from accounts.name_shapes import looks_reserved, refuse_unsafe_characters

USERNAME_MIN_LENGTH = 3
USERNAME_MAX_LENGTH = 30
DISPLAY_NAME_MAX_LENGTH = 40

USERNAME_HELP = (
    f"{USERNAME_MIN_LENGTH} to {USERNAME_MAX_LENGTH} characters: "
    "letters, digits, underscores and hyphens."
)


def username_help() -> str:
    """USERNAME_HELP in the current language (the model keeps the English one)."""
    return _("%(min)s to %(max)s characters: letters, digits, underscores and hyphens.") % {
        "min": USERNAME_MIN_LENGTH,
        "max": USERNAME_MAX_LENGTH,
    }


def _invalid_username() -> str:
    return _("Enter a valid username: %(help)s") % {"help": username_help()}


@deconstructible
class UsernameValidator(RegexValidator):
    regex = rf"\A[A-Za-z0-9_-]{{{USERNAME_MIN_LENGTH},{USERNAME_MAX_LENGTH}}}\Z"
    message = lazy(_invalid_username, str)()
    code = "invalid_username"
    flags = 0


def refuse_reserved_username(value: str) -> None:
    """A username that looks like a name of the site's staff (``admin``, ``Root``, ``ad_m1n``:
    the display names' rule, accounts/name_shapes.py) is refused, also when a guest signs up."""
    if looks_reserved(value):
        raise ValidationError(
            _("That username looks like a name reserved for the site's staff."),
            code="reserved_username",
        )


@deconstructible
class DisplayNameValidator:
    """Printable text only: no control, format or invisible characters (which could spoof other
    names); see accounts/display_names.py, which also refuses names that look like others'."""

    code = "invalid_display_name"

    def __call__(self, value: str) -> None:
        refuse_unsafe_characters(unicodedata.normalize("NFKC", value))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, DisplayNameValidator)

    def __hash__(self) -> int:
        return hash(self.code)
