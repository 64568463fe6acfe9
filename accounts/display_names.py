"""Display names that are safe to show next to everybody else's (the rules: accounts/name_shapes.py)."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from accounts import selectors
from accounts.name_shapes import looks_reserved, normalize, refuse_unsafe_characters, skeleton


def clean_display_name(value: str, *, own_username: str | None) -> str:
    """The display name to store (NFKC, trimmed), or ValidationError saying why not. A name that
    looks like the player's own username is fine; like anybody else's, it is not."""
    value = normalize(value)
    if not value:
        return value
    refuse_unsafe_characters(value)
    if looks_reserved(value):
        raise ValidationError(
            _("That display name looks like a name reserved for the site's staff."),
            code="reserved_display_name",
        )
    shape = skeleton(value)
    if own_username is not None and skeleton(own_username) == shape:
        return value
    if selectors.username_looks_like(shape, except_username=own_username):
        raise ValidationError(
            _("That display name looks like another player's username."),
            code="confusable_display_name",
        )
    return value
