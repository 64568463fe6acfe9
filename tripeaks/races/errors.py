"""What a race service can refuse, each with a message a player can read and a code for programs."""

from __future__ import annotations

from tripeaks.play.errors import MoveRefused


class RaceError(Exception):
    status_code = 400
    code = "refused"

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class RaceNotFound(RaceError):
    """No such race, or a private one asked for without its code (the same answer: no hint)."""

    status_code = 404
    code = "not_found"


class NotHost(RaceError):
    status_code = 403
    code = "not_host"


class RaceConflict(RaceError):
    """The race's state or seats do not allow it now (started, full, joined already...)."""

    status_code = 409
    code = "conflict"

    def __init__(self, message: str, *, code: str = "conflict") -> None:
        super().__init__(message)
        self.code = code


class RaceOver(MoveRefused):
    """A racer's win came after their race was over for them: another finish, the give-ups or
    the cap ended it (or they gave up) first, as the race row's lock ordered them. Refused inside
    play's finishing transaction, so nothing of the move is stored; the race's end resigns the
    game as it stood, and its seat keeps the place the end gave it."""

    status_code = 409
    code = "race_over"
