"""What a play service can refuse, each with a message a player can read."""

from __future__ import annotations


class PlayError(Exception):
    status_code = 400
    code = "refused"
    # Seconds to wait before trying again (a 429 or 503): the Retry-After header, if set.
    retry_after: int | None = None

    def __init__(self, message: str, *, view: dict[str, object] | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.view = view


class GameNotFound(PlayError):
    status_code = 404
    code = "not_found"


class MoveRefused(PlayError):
    """The rules, or the game's state (over, paused), do not allow the move."""

    code = "illegal_move"


class TimeUp(MoveRefused):
    """The game's contest ended (its `deadline` came): from then on nothing but resigning."""

    status_code = 409
    code = "time_up"


class SeqConflict(PlayError):
    """The client's `seq` is not the game's: it carries the current view so the client can resync."""

    status_code = 409
    code = "seq_mismatch"


class BadRequest(PlayError):
    code = "invalid"
