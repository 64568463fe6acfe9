"""What every board, record and statistic is built from, and what is kept of them.

- ``Result``: one row per finished game whose first move was made (the truth; everything else
  here can be rebuilt from it: ``manage.py recompute_stats``).
- ``DealBest``: a player's best ranked run on a daily or numbered deal (one line per player per
  board), with the columns the board orders by and an index per board order.
- ``DealRecord``: per board deal, the best run ever, who set it and when, the first winner, and
  how many players have a line (``lines``) and a ``version`` bumped on every change of the board.
- ``PlayerStats``: per player, one row per rule set plus one with ``rules_key="all"`` (overall).

Custom deals are unranked: their results are kept (and listed in a player's recent results) but
count in no statistic, best, record or board. Assisted (hinted) runs count in statistics but never
rank. ``Result.hidden`` keeps a run out of boards and records (a run flagged as not humanly
possible, issue 7) while it still counts in statistics.

Fair play (issue 15, docs/fair-play.md):

- ``Result.attempt``: ``first-try`` (the player's first game with a move on the deal), ``practice``
  (a later one: it may better their best line, never their first try) or ``unranked`` (custom deals,
  and every run of a player who took a hint on the deal: they have seen the answer).
- ``FirstTry``: the daily deal's first-try board, one line per player, written once.
- ``Result.held``: a possible second account's run, off every board until staff accept it
  (``RunReview`` keeps who decided what).
- ``PlayerStats.board_*``: what the all-time boards count: clean first tries only.
- ``AnswerSeen``: a player opened the solver's lines of a game on the deal (the review's
  analysis, issue 39): like a hint, every later run of theirs on the deal is ``unranked``.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.conf import settings
from django.db import models
from django.db.models import Q

ALL_RULES = "all"
BOARD_MODES = ("daily", "numbered")


class Attempt(models.TextChoices):
    FIRST_TRY = "first-try"
    PRACTICE = "practice"
    UNRANKED = "unranked"


class Result(models.Model):
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="results"
    )
    game = models.OneToOneField("play.Game", on_delete=models.CASCADE, related_name="result")
    deal = models.ForeignKey("play.Deal", on_delete=models.PROTECT, related_name="results")
    mode = models.CharField(max_length=10)
    rules_key = models.CharField(max_length=24)
    layout = models.CharField(max_length=40)
    day = models.DateField(null=True, blank=True, help_text="The deal day of a daily deal.")
    number = models.PositiveIntegerField(null=True, blank=True)
    won = models.BooleanField()
    cards_left = models.PositiveSmallIntegerField()
    moves = models.PositiveIntegerField()
    time_ms = models.BigIntegerField()
    score = models.IntegerField()
    assisted = models.BooleanField()
    ranked = models.BooleanField(help_text="False for custom deals: they count nowhere.")
    hidden = models.BooleanField(
        default=False, help_text="Kept out of boards and records (a flagged run)."
    )
    flagged = models.BooleanField(
        default=False, help_text="For staff to review: the run's timing is not humanly possible."
    )
    flag_reason = models.CharField(max_length=200, blank=True, default="")
    attempt = models.CharField(
        max_length=10,
        choices=Attempt.choices,
        default=Attempt.FIRST_TRY,
        help_text="First try, practice, or unranked (a hint was taken on the deal, a custom deal).",
    )
    held = models.BooleanField(
        default=False,
        help_text="Held for review (a possible second account): off every board until accepted.",
    )
    hold_reason = models.CharField(max_length=200, blank=True, default="")
    finished_at = models.DateTimeField()
    # False for a game its contest ended (a race's end resigned it while the player was still
    # playing): neither won nor lost by the player, it counts in no statistics.
    in_stats = models.BooleanField(default=True)
    # A won run's line (its moves as they stand at the end) as a digest (leaderboard.lines): runs
    # of one deal that share it are found by the index below, not by reading move logs.
    line_digest = models.CharField(max_length=16, blank=True, default="")
    # What the player was told when the game ended.
    first_win = models.BooleanField(default=False)
    new_record = models.BooleanField(default=False)
    personal_best = models.BooleanField(default=False)
    # Not stored: set on the result that record_result has just made.
    standing: Standing | None = None

    class Meta:
        indexes = [
            models.Index(fields=["player", "-finished_at", "-id"], name="result_player_recent"),
            models.Index(fields=["deal", "player"], name="result_deal_player"),
            models.Index(fields=["-finished_at"], condition=Q(flagged=True), name="result_flagged"),
            models.Index(fields=["-finished_at"], condition=Q(held=True), name="result_held"),
            models.Index(
                fields=["finished_at", "deal", "line_digest"],
                condition=Q(won=True, line_digest__gt=""),
                name="result_line",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player} {'won' if self.won else 'lost'} {self.deal}"

    @property
    def on_boards(self) -> bool:
        """Counts on boards: a ranked attempt, no hint, not hidden, not held."""
        return (
            self.ranked
            and self.attempt != Attempt.UNRANKED
            and not self.assisted
            and not self.hidden
            and not self.held
        )

    @property
    def counts_all_time(self) -> bool:
        """Counts on the all-time boards: a clean first try."""
        return self.on_boards and self.attempt == Attempt.FIRST_TRY


# The results the all-time boards count (``Result.counts_all_time``, as a filter).
ALL_TIME_RUNS = Q(ranked=True, attempt=Attempt.FIRST_TRY, assisted=False, hidden=False, held=False)


class BoardLine(models.Model):
    """The columns of a line on a deal's board."""

    player = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    deal = models.ForeignKey("play.Deal", on_delete=models.CASCADE, related_name="+")
    result = models.ForeignKey(Result, on_delete=models.CASCADE, related_name="+")
    mode = models.CharField(max_length=10)
    rules_key = models.CharField(max_length=24)
    # The board orders (leaderboard.boards): daily (lost, time_ms, moves, finished_at, result);
    # numbered (cards_left, moves, finished_at, result). `lost` rather than `won` so every column ascends and a
    # row comparison can walk the index.
    lost = models.BooleanField()
    cards_left = models.PositiveSmallIntegerField()
    moves = models.PositiveIntegerField()
    time_ms = models.BigIntegerField()
    score = models.IntegerField()
    finished_at = models.DateTimeField()

    class Meta:
        abstract = True

    @property
    def won(self) -> bool:
        return not self.lost


class DealBest(BoardLine):
    """One line of a deal's best-run board: the player's best ranked run on it."""

    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="deal_bests"
    )
    deal = models.ForeignKey("play.Deal", on_delete=models.CASCADE, related_name="bests")

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["player", "deal"], name="one_best_per_player_deal"),
        ]
        indexes = [
            models.Index(
                fields=["deal", "lost", "time_ms", "moves", "finished_at", "result"],
                condition=Q(mode="daily"),
                name="daily_board_order",
            ),
            models.Index(
                fields=["deal", "cards_left", "moves", "finished_at", "result"],
                condition=Q(mode="numbered"),
                name="numbered_board_order",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player} on {self.deal_id}: {self.cards_left} left, {self.moves} moves"


class FirstTry(BoardLine):
    """One line of a daily deal's first-try board: the player's first attempt, if it was clean.
    Written once (a first try is never replaced); removed only by a rebuild (a run hidden)."""

    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="first_tries"
    )
    deal = models.ForeignKey("play.Deal", on_delete=models.CASCADE, related_name="first_tries")

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["player", "deal"], name="one_first_try_per_deal"),
        ]
        indexes = [
            models.Index(
                fields=["deal", "lost", "time_ms", "moves", "finished_at", "result"],
                name="first_try_board_order",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player}'s first try on {self.deal_id}"


class DealRecord(models.Model):
    """The record of a board deal: its best line, its first winner, how many lines it has."""

    deal = models.OneToOneField(
        "play.Deal", on_delete=models.CASCADE, primary_key=True, related_name="record"
    )
    mode = models.CharField(max_length=10)
    rules_key = models.CharField(max_length=24)
    layout = models.CharField(max_length=40)
    day = models.DateField(null=True, blank=True)
    number = models.PositiveIntegerField(null=True, blank=True)
    lines = models.PositiveIntegerField(default=0, help_text="Players with a line on the board.")
    version = models.PositiveIntegerField(default=0, help_text="Bumped on every board change.")
    best = models.ForeignKey(
        Result, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    holder = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    set_at = models.DateTimeField(null=True, blank=True)
    first_winner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    first_win = models.ForeignKey(
        Result, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    first_won_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [
            models.Index(
                fields=["rules_key", "day", "layout"],
                condition=Q(mode="daily"),
                name="daily_board_lookup",
            ),
            models.Index(
                fields=["rules_key", "number", "layout"],
                condition=Q(mode="numbered"),
                name="numbered_board_lookup",
            ),
        ]

    def __str__(self) -> str:
        return f"record of deal {self.deal_id}"


class PlayerStats(models.Model):
    """A player's statistics under one rule set, or overall (`rules_key="all"`)."""

    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="stats"
    )
    rules_key = models.CharField(max_length=24)
    played = models.PositiveIntegerField(default=0)
    won = models.PositiveIntegerField(default=0)
    win_rate = models.FloatField(default=0.0, help_text="won / played, kept for the board.")
    current_streak = models.PositiveIntegerField(default=0, help_text="Wins in a row, now.")
    best_streak = models.PositiveIntegerField(default=0)
    best_win_ms = models.BigIntegerField(null=True, blank=True)
    total_win_ms = models.BigIntegerField(default=0, help_text="Sum of winning times.")
    daily_won = models.PositiveIntegerField(default=0, help_text="Deal days with the daily won.")
    daily_streak = models.PositiveIntegerField(
        default=0, help_text="Consecutive won deal days ending at last_daily_day."
    )
    best_daily_streak = models.PositiveIntegerField(default=0)
    last_daily_day = models.DateField(null=True, blank=True)
    # What the all-time boards count: clean first tries only (no hint, not held, not hidden).
    board_played = models.PositiveIntegerField(default=0)
    board_won = models.PositiveIntegerField(default=0)
    board_win_rate = models.FloatField(default=0.0)
    board_daily_won = models.PositiveIntegerField(default=0)
    board_daily_streak = models.PositiveIntegerField(default=0)
    board_best_daily_streak = models.PositiveIntegerField(default=0)
    board_last_daily_day = models.DateField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["player", "rules_key"], name="one_stats_per_rules"),
        ]
        indexes = [
            models.Index(
                "rules_key",
                models.F("board_daily_won").desc(),
                "player",
                condition=Q(board_daily_won__gt=0),
                name="alltime_daily_wins",
            ),
            models.Index(
                "rules_key",
                models.F("board_best_daily_streak").desc(),
                "player",
                condition=Q(board_best_daily_streak__gt=0),
                name="alltime_daily_streak",
            ),
            models.Index(
                "rules_key",
                models.F("board_win_rate").desc(),
                models.F("board_played").desc(),
                "player",
                condition=Q(board_played__gte=20),
                name="alltime_win_rate",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player} ({self.rules_key}): {self.won}/{self.played}"

    @property
    def lost(self) -> int:
        return self.played - self.won

    @property
    def average_win_ms(self) -> int | None:
        return round(self.total_win_ms / self.won) if self.won else None


class BoardExclusion(models.Model):
    """A player staff removed from every board: their runs stay in statistics, off the boards."""

    player = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        primary_key=True,
        related_name="board_exclusion",
    )
    reason = models.CharField(max_length=200, blank=True, default="")
    excluded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"{self.player} off the boards"


class AnswerSeen(models.Model):
    """A player asked for the solver's lines (winning line, par's line) of a game on a deal that
    still ranks (``leaderboard.services.answers.mark_answer_seen``): from then on none of their
    runs on the deal ranks, as after a hint (docs/fair-play.md, "No spoilers")."""

    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="answers_seen"
    )
    deal = models.ForeignKey("play.Deal", on_delete=models.CASCADE, related_name="answers_seen")
    # The game whose analysis showed them (for staff; kept if that game goes).
    game = models.ForeignKey(
        "play.Game", on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    seen_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["player", "deal"], name="answer_seen_once"),
        ]

    def __str__(self) -> str:
        return f"{self.player} saw the answer to {self.deal}"


class RunReview(models.Model):
    """The audit trail of staff decisions on held or flagged runs: who did what, why, when."""

    class Decision(models.TextChoices):
        ACCEPT = "accept"
        HIDE = "hide"

    result = models.ForeignKey(Result, on_delete=models.CASCADE, related_name="reviews")
    staff = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    decision = models.CharField(max_length=8, choices=Decision.choices)
    reason = models.CharField(max_length=200)
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-at", "-id"]

    def __str__(self) -> str:
        return f"{self.staff} {self.decision} result {self.result_id}: {self.reason}"


@dataclass
class Standing:
    """What the transaction that finishes a game learnt about the run, kept with its ``Result`` so
    that the game-over view and the live board need not read it back (a game's ending move used to
    read six rows again after its commit, while every other finish on the deal queued behind it).
    Not stored."""

    # The player's statistics row of the run's rule set, as updated.
    stats: PlayerStats | None = None
    # The player's line on the deal's board (this run's or an earlier better one), if it ranks.
    line: DealBest | None = None
    # The board's number of lines and version as this finish left them; None when not learnt.
    lines: int | None = None
    version: int | None = None
    # Whether `line` and `lines` (None where there is none) are the player's earlier line and the
    # board's size as a run off the boards found them: the view need not read them again.
    line_read: bool = False
    # The line's rank, once the board's set holds it (after commit).
    rank: int | None = None
    # The run's line on the daily deal's first-try board, when it is the player's first try.
    first_try: FirstTry | None = None
    # Its rank and the first-try board's size, once its set holds it (after commit).
    first_try_rank: int | None = None
    first_try_lines: int | None = None
