"""What an arena service can refuse (play's error shape: a status, a code, a readable message)."""

from __future__ import annotations

from tripeaks.play.errors import PlayError


class ArenaNotFound(PlayError):
    status_code = 404
    code = "not_found"


class ArenaRefused(PlayError):
    """The arena's phase or the player's entry does not allow it (not running, not joined)."""

    status_code = 409
    code = "refused"
