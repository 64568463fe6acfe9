"""What a race service can refuse, each with a message a player can read and a code for programs."""

from __future__ import annotations


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
