"""The shapes of what the boards' API and socket send: one TypedDict per shape, built by
`selectors.shapes` and the selectors, sent as they are."""

from __future__ import annotations

from typing import TypedDict


class PlayerPayload(TypedDict):
    username: str
    display_name: str


class LinePayload(TypedDict):
    """A deal board's line. `rank` is None only for a game-over's own best, shown unranked."""

    rank: int | None
    player: PlayerPayload
    won: bool
    time_ms: int
    moves: int
    score: int
    cards_left: int
    finished_at: str


class AllTimeLine(TypedDict):
    rank: int
    player: PlayerPayload
    value: int | float | None
    played: int
    won: int
    win_rate: float
    daily_won: int
    best_daily_streak: int


class StatsPayload(TypedDict):
    played: int
    won: int
    lost: int
    win_rate: float
    current_streak: int
    best_streak: int
    best_win_ms: int | None
    average_win_ms: int | None
    daily_won: int
    daily_streak: int
    best_daily_streak: int
    last_daily_day: str | None


class ResultPayload(TypedDict):
    mode: str
    rules: str
    layout: str
    day: str | None
    number: int | None
    won: bool
    cards_left: int
    moves: int
    time_ms: int
    score: int
    assisted: bool
    ranked: bool
    attempt: str
    held: bool
    finished_at: str


class Announcement(TypedDict):
    kind: str
    text: str


class FirstTryStanding(TypedDict):
    rank: int
    lines: int | None


class GameOverBoard(TypedDict):
    mode: str
    rules: str
    day: str | None
    number: int | None
    rank: int
    lines: int
    this_run: bool
    best: LinePayload


class GameOverPayload(ResultPayload):
    """What the game-over view shows: the run, par, rank, news and statistics."""

    par: int | None
    matched_par: bool
    announcements: list[Announcement]
    board: GameOverBoard | None
    stats: StatsPayload | None
    first_try: FirstTryStanding | None
