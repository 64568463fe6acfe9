"""What the review's API sends: one TypedDict per shape (REVIEW_CONTRACT, docs/api.md)."""

from __future__ import annotations

from typing import Literal, TypedDict

from tripeaks.engine.view import LayoutView
from tripeaks.play.payloads import RulesPayload

Verdict = Literal["winnable", "lost", "unknown"]
LineToken = int | str  # a position played, or "draw" (engine.solver.line_tokens)
# "later": stored, but held while the deal still counts (a daily before its day ends, a live
# contest): the analysis route then answers `analysis_later`.
ReviewState = Literal["ready", "later", "pending", "none"]


class DealSummary(TypedDict):
    source: str
    layout: str
    rules_key: str
    number: int | None
    day: str | None
    label: str


class PlayerName(TypedDict):
    name: str


class GameSummary(TypedDict):
    id: str
    player: PlayerName
    status: str
    score: int
    moves: int
    elapsed_ms: int
    finished_at: str | None
    deal: DealSummary


class ReplayMove(TypedDict):
    seq: int
    action: Literal["play", "draw", "undo", "restart"]
    position: int | None
    elapsed_ms: int


class ReplayPayload(TypedDict):
    game: GameSummary
    rules: RulesPayload
    layout: LayoutView
    moves: list[ReplayMove]
    # engine.view.player_view of every position: the deal, then after each move.
    positions: list[dict[str, object]]


class AnalysisPayload(TypedDict):
    state: Literal["ready"]
    verdicts: list[Verdict]
    losing_move: int | None
    winning_line: list[LineToken]
    par: int | None
    par_line: list[LineToken]
    over_par: int | None
    shorter_from: int | None
    budget_nodes: int


class ShownAnalysis(TypedDict):
    """An AnalysisPayload as a viewer gets it (tripeaks/review/spoilers.py): on a deal that still
    ranks, without its lines (null) until the viewer has seen the answer (`lines_hidden`)."""

    state: Literal["ready"]
    verdicts: list[Verdict]
    losing_move: int | None
    winning_line: list[LineToken] | None
    par: int | None
    par_line: list[LineToken] | None
    over_par: int | None
    shorter_from: int | None
    budget_nodes: int
    lines_hidden: bool


class Pending(TypedDict):
    state: Literal["pending"]


class RecentReview(TypedDict):
    state: ReviewState
    losing_move: bool


class RecentGame(TypedDict):
    id: str
    deal: DealSummary
    layout: str
    status: str
    score: int
    moves: int
    elapsed_ms: int
    finished_at: str | None
    review: RecentReview


class ShareLinkPayload(TypedDict):
    token: str
    url: str
