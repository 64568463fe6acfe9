"""The shapes of what the arena API and socket send: one TypedDict per shape, built by
`selectors` and `live`, sent as they are."""

from __future__ import annotations

from typing import Literal, TypedDict


class PlayerPayload(TypedDict):
    username: str
    display_name: str


class ArenaLine(TypedDict):
    rank: int
    player: PlayerPayload
    points: int
    wins: int
    games: int
    streak: int
    best_streak: int
    fire: bool
    active: bool


class Standings(TypedDict):
    version: int
    total: int
    lines: list[ArenaLine]


class ArenaSummary(TypedDict):
    id: str
    name: str
    rules: str
    layout: str
    starts_at: str
    ends_at: str
    state: str
    final: bool
    players: int | None


class ArenaReplay(TypedDict):
    """One finished game of a player's in an arena, for its replay (`/review/{game}`)."""

    game: str
    won: bool
    points: int


class ArenaDetail(ArenaSummary):
    server_time: str
    scoring: dict[str, int]
    version: int
    standings: Standings
    me: ArenaLine | None
    podium: list[ArenaLine] | None
    # Once the arena has ended, to its players: each listed player's games (username -> games
    # in the order played), which the review shows them (review.visibility.may_view); else None.
    replays: dict[str, list[ArenaReplay]] | None


class ArenaLists(TypedDict):
    server_time: str
    scoring: dict[str, int]
    running: list[ArenaSummary]
    upcoming: list[ArenaSummary]
    finished: list[ArenaSummary]


class ArenaMessage(ArenaDetail):
    """`arena` (a watcher's first page, or after a `sync`) carries the watcher's own line."""

    type: Literal["arena"]


class StandingsMessage(ArenaSummary):
    """`standings`, sent to the whole group: no one's own line."""

    type: Literal["standings"]
    server_time: str
    scoring: dict[str, int]
    version: int
    standings: Standings
    podium: list[ArenaLine] | None


class StandingsEvent(TypedDict):
    """What the channel layer carries to each watcher's consumer (`live.tell`)."""

    type: Literal["arena.standings"]
    message: StandingsMessage
