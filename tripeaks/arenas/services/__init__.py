"""Every write of arenas, a module per concern, each one transaction; standings told after the
commit (`live`):

- ``making``: an arena made (by hand or from beat's schedule, one way: `create_arena`);
- ``entries``: joining, taking a break, leaving every arena;
- ``games``: the player's next arena game, a finished one counted;
- ``ending``: the clock's tick, an ended arena finalized;
- ``standings``: the places written; a game held for review settled by staff.

The API, tasks and receivers call them by these names.
"""

from __future__ import annotations

from tripeaks.arenas.services.ending import finalize, tick
from tripeaks.arenas.services.entries import join, leave, leave_every_arena
from tripeaks.arenas.services.games import GROUP_PREFIX, arena_id_of, count_finish, play
from tripeaks.arenas.services.making import create_arena, schedule_arenas
from tripeaks.arenas.services.standings import settle_held_game

__all__ = [
    "GROUP_PREFIX",
    "arena_id_of",
    "count_finish",
    "create_arena",
    "finalize",
    "join",
    "leave",
    "leave_every_arena",
    "play",
    "schedule_arenas",
    "settle_held_game",
    "tick",
]
