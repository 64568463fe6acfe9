"""Who a name in a URL is: the player a statistics page or a staff action is about."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model


def player_named(username: str, *, active_only: bool = True) -> Any | None:
    """The player of that username (compared without case), or None; `active_only`: not a
    deactivated account (public pages), else any (staff actions)."""
    players = get_user_model()._default_manager.filter(username__iexact=username)
    if active_only:
        players = players.filter(is_active=True)
    return players.first()
