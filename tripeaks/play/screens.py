"""Which screens show a game: its open game sockets, counted where every server process sees them.

The game clock is the time the cards were on screen (docs/fair-play.md, "One clock"): a solo
game's clock stops when its last game socket closes (`services.hide_game`) and starts again when
one opens or a move comes (`services.show_game`, `services.apply_move`). Sockets of one game may
be held by several server processes, so the count lives in Redis: the game's set of open sockets
(`tripeaks/infra/socket_caps.py`, which also caps how many a game may have), one member a socket
(its channel name), scored by when the member lapses.

A member lapses `LEASE_S` after it was added or last renewed (the socket renews it, at most once
every `RENEW_S`, as frames come): a server that dies with sockets open leaves no member behind
for longer than that, so a later close of the game's last socket still stops the clock. A socket
idle for longer than the lease no longer counts; if another socket of the game then closes, the
clock stops while the idle one still shows the cards, and its next move starts it again. The set
itself expires a lease after its last change.

Redis unreachable: the socket counts as watching (the clock runs, as it always did), and a
warning is logged; PostgreSQL stays the truth.
"""

from __future__ import annotations

from uuid import UUID

from tripeaks.infra import socket_caps

LEASE_S = socket_caps.LEASE_S
RENEW_S = socket_caps.RENEW_S


def key(game_id: UUID | str) -> str:
    """The game's sockets: the set the per-game cap counts too (`infra/socket_caps.py`)."""
    return socket_caps.holder("game", game_id)


def shown(game_id: UUID | str, screen: str) -> None:
    """The socket `screen` shows the game (it opened, or renews its lease)."""
    socket_caps.admit(screen, [(key(game_id), 0)])


def moved(leaving: UUID | str, game_id: UUID | str, screen: str) -> None:
    """The socket `screen` shows the game `game_id` instead of `leaving` (a next game started on
    it): `shown` and `gone` by one Redis round trip."""
    socket_caps.admit(screen, [(key(game_id), 0)], leaving=[key(leaving)])


def gone(game_id: UUID | str, screen: str) -> None:
    """The socket `screen` no longer shows the game (it closed, or plays another)."""
    socket_caps.release(screen, [key(game_id)])


def watched(game_id: UUID | str) -> bool:
    """Does any socket, of any server process, show the game now? True when Redis cannot say."""
    count = socket_caps.open_count(key(game_id))
    return count is None or count > 0
