"""Sections of a player's data export (GET /api/me/export, assembled in leaderboard/export.py)
that the apps built on play contribute: a name and a function from the player's id to their
rows, given from the app's `AppConfig.ready` (races: their races; arenas: their entries).

The list lives in play because every contributor imports play and the assembler does too: the
boards may not import arenas' way round (arenas may not import the boards, a contract), and a
board that imported races would loop through play's finish hook (races -> play -> leaderboard).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from datetime import date

# Rows of any shape (each app types its own): they are only written out, as JSON.
Section = Callable[[int], Sequence[Mapping[str, object]]]

_sections: dict[str, Section] = {}


def contribute(name: str, section: Section) -> None:
    """Export `section(player_id)` under `name`, once per name (`ready` runs once per process)."""
    _sections[name] = section


def iso(moment: date | None) -> str | None:
    """A moment (or a day) as the whole export writes it."""
    return moment.isoformat() if moment is not None else None


def sections() -> dict[str, Section]:
    """Every contributed section, by name, in the order of the names."""
    return dict(sorted(_sections.items()))
