"""A run's *line*: what its moves came to (plays and draws as they stand at the end, undone moves
and restarts taken out), and the short digest a won run keeps of it, so that runs sharing a line
are found by an index instead of by reading move logs (``selectors.identical_lines``)."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

LINE_ACTIONS = ("play", "draw", "undo", "restart")
DIGEST_LENGTH = 16


def line_of(actions: Sequence[str], positions: Sequence[int | None]) -> tuple[int, ...]:
    """The plays (their positions) and draws (-1) that stand at the end of a move log."""
    line: list[int] = []
    for action, position in zip(actions, positions, strict=True):
        if action == "undo":
            if line:
                line.pop()
        elif action == "restart":
            line.clear()
        elif action == "play" and position is not None:
            line.append(position)
        elif action == "draw":
            line.append(-1)
    return tuple(line)


def line_digest(line: Sequence[int]) -> str:
    """64 bits of the line's hash: two different lines of one deal share it about once in 10^19."""
    if not line:
        return ""
    text = ",".join(map(str, line)).encode()
    return hashlib.blake2b(text, digest_size=DIGEST_LENGTH // 2).hexdigest()
