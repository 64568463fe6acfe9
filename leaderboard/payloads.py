"""The shapes of what the boards' API and socket send: one TypedDict per shape, built by
`selectors.shapes` and the selectors, sent as they are."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal, NotRequired, TypedDict

from tripeaks.infra.json_types import JSON, JSONObject


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
    # A past daily board's line (once its day has ended in Kathmandu): the run's game, whose
    # replay anyone may open then (tripeaks/review).
    game: NotRequired[str]


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


class MyToday(TypedDict):
    """Today's daily deals as one player stands on them: a rule set's entry is its `state`
    (not_played, playing, won, lost) and, once finished, the run and its rank."""

    day: str
    rule_sets: dict[str, JSONObject]
    daily_streak: int
    best_daily_streak: int


class MyHistory(TypedDict):
    """A player's runs, oldest first, one list of `fields` each."""

    fields: list[str]
    runs: list[list[JSON]]
    layouts: list[str]


class BoardUpdate(TypedDict):
    """A first try on today's board of a rule set (`live.update_message`), to its watchers."""

    type: Literal["update"]
    date: str | None
    rules: str
    version: int
    total: int
    lines: list[LinePayload]


class BoardEvent(TypedDict):
    """What the channel layer carries to each watcher's consumer."""

    type: Literal["board.update"]
    message: BoardUpdate


class BoardMessage(TypedDict):
    """The first-try board's first page, to a watcher that opens or syncs."""

    type: Literal["board"]
    board: str
    date: str
    rules: str
    version: int
    total: int
    lines: Sequence[LinePayload] | Sequence[AllTimeLine]
    next_cursor: str | None
    me: LinePayload | AllTimeLine | None
