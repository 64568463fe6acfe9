"""What the review's services refuse, each with a code and a message a player can read."""

from __future__ import annotations


class ReviewError(Exception):
    status_code = 400

    def __init__(self, message: str, *, code: str) -> None:
        super().__init__(message)
        self.message = message
        self.code = code


class NotShareable(ReviewError):
    """A game that cannot be shared (unfinished, or on a deal whose runs are not shared)."""
