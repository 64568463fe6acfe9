"""What a game looks like to its player: the engine's view plus the server's clock and score."""

from __future__ import annotations

from datetime import datetime
from typing import Literal, TypedDict

from leaderboard.models import AnswerSeen, Result
from leaderboard.selectors import result_for_game
from tripeaks.engine import game as engine
from tripeaks.engine.rules import Rules, Start
from tripeaks.engine.solver import Hint
from tripeaks.engine.view import player_view
from tripeaks.play.clock import clock_ms
from tripeaks.play.models import Game

# A game as its player sees it: the engine's view (typed `dict[str, object]` there) plus the
# server's fields. It only travels on, to JSON; nothing reads it back.
ViewPayload = dict[str, object]


def view_seq(view: ViewPayload) -> int:
    """The `seq` `game_payload` puts in every view."""
    seq = view["seq"]
    if not isinstance(seq, int):
        raise TypeError(f"a view's seq is {seq!r}")
    return seq


class RulesPayload(TypedDict):
    key: str
    wrap: bool
    open: bool
    start: Start


class HintMove(TypedDict, total=False):
    action: Literal["play", "draw"]
    position: int


class HintPayload(TypedDict):
    move: HintMove | None
    winnable: bool


class BudgetedHint(TypedDict):
    """A hint worked out within the request's budget: `winnable` None when it ran out."""

    move: HintMove | None
    winnable: bool | None
    certain: bool
    fewest_draws: bool


def rules_payload(rules: Rules) -> RulesPayload:
    return {"key": rules.key, "wrap": rules.wrap, "open": rules.open, "start": rules.start}


# What a run counts for, as the server will decide it (docs/fair-play.md): `ranks` says whether
# it can rank (a board's first try or best run, a random deal's ranked statistics), the code says
# why or why not (the page says it in the player's words), `ranking_reason` says it in English for
# other clients. Before the end it is what the run will count for if nothing is found against it;
# once the game is over it is what its result did.
RankingCode = Literal[
    "first-try",
    "practice",
    "guest",
    "hint",
    "answer_seen",
    "custom",
    "shipped",
    "contest",
    "held",
    "flagged",
    "excluded",
]
RANKS: dict[RankingCode, bool] = {"first-try": True, "practice": True}

RANKING_REASONS: dict[tuple[RankingCode, str], str] = {
    ("first-try", "daily"): "Your first try at this daily deal: it ranks on the daily board.",
    ("first-try", "numbered"): "Your first try at this deal: it counts on its board.",
    ("first-try", "random"): "A fresh deal: it counts in your ranked statistics.",
    ("practice", "daily"): (
        "Practice: your first try at this deal is played. A faster win still improves your best"
        " time."
    ),
    ("practice", "numbered"): "Practice: a better run still improves your best on this deal.",
}
REASONS: dict[RankingCode, str] = {
    "first-try": "Your first try at this deal: it ranks.",
    "practice": "Practice: a better run still improves your best on this deal.",
    "guest": (
        "Guest: a guest's runs count in its own statistics but never rank on a board. Sign up to"
        " rank."
    ),
    "hint": "Unranked: you took a hint on this deal, so no run on it ranks.",
    "answer_seen": "Unranked: you opened the solver's line for this deal, so no run on it ranks.",
    "custom": "Unranked: custom deals never rank.",
    "shipped": "Unranked: a deal shipped with the game for a fresh start, which anyone can read.",
    "contest": "A contest: its places come from the contest, not from the deal boards.",
    "held": (
        "Held for review: another account played this deal today from the same browser or"
        " network. Staff decide; until then only you see the run."
    ),
    "flagged": (
        "Held for review: the timing check found moves faster or steadier than people play."
        " Staff decide; until then only you see the run."
    ),
    "excluded": "Not ranked: this account is off the boards.",
}


def ranking_reason(code: RankingCode, mode: str) -> str:
    return RANKING_REASONS.get((code, mode)) or REASONS[code]


def _never_ranks(game: Game, custom: bool, guest: bool) -> RankingCode | None:
    """Why a run can never rank, whatever it does (the deepest reason first), or None."""
    if game.contest:
        return "contest"
    if custom:
        return "custom"
    if game.deal.shipped:
        return "shipped"
    return "guest" if guest else None


def _seen_answer_code(game: Game, hinted_here: bool) -> RankingCode:
    """Why a run on a deal whose answer its player has seen is unranked: a hint (this game's, or
    an earlier one's) or the solver's lines (the review's reveal, numbered deals only: one read
    a loaded game, for these runs only; a socket's game keeps it for every move's view)."""
    if hinted_here or game.deal.source != "numbered":
        return "hint"
    seen = game.__dict__.get(_ANSWER_SEEN)
    if seen is None:
        marks = AnswerSeen.objects.filter(player_id=game.player_id, deal_id=game.deal_id)
        seen = game.__dict__[_ANSWER_SEEN] = marks.exists()
    return "answer_seen" if seen else "hint"


# Where a loaded game keeps whether its player has revealed its deal's answer (read once).
_ANSWER_SEEN = "_tp_answer_seen"


def live_ranking(game: Game, guest: bool) -> RankingCode:
    """What a game still being played will count for (``services._ranking`` decided first try,
    practice or unranked at its start; a hint since makes it unranked)."""
    never = _never_ranks(game, game.deal.source == "custom", guest)
    if never is not None:
        return never
    if game.ranking == "unranked" or game.assisted:
        return _seen_answer_code(game, game.assisted)
    return "practice" if game.ranking == "practice" else "first-try"


def result_ranking(game: Game, result: Result, guest: bool) -> RankingCode:
    """What a finished game's result did (``leaderboard.services.results.record_result``): the
    first reason found keeps it off the boards, the deepest first."""
    never = _never_ranks(game, not result.ranked, guest)
    if never is not None:
        return never
    if result.attempt == "unranked" or result.assisted:
        return _seen_answer_code(game, result.assisted)
    if result.flagged:
        return "flagged"
    if result.held:
        return "held"
    if result.hidden:
        return "excluded"
    return "practice" if result.attempt == "practice" else "first-try"


# Where a loaded game keeps the fields of its view that never change (its deal's, its id): made
# once, not for every move's view (a step's game is a copy of the game before it, `__dict__` too).
_FIXED = "_tp_fixed_view"


def _fixed_fields(game: Game, rules: Rules) -> dict[str, object]:
    fixed: dict[str, object] | None = game.__dict__.get(_FIXED)
    if fixed is None:
        deal = game.deal
        fixed = game.__dict__[_FIXED] = {
            "id": str(game.id),
            "mode": deal.source,
            "layout": deal.layout,
            "rules": rules_payload(rules),
            "day": deal.day.isoformat() if deal.day else None,
            "number": deal.number,
            # A live contest's game (a race, an arena): no undo, start again, hint or pause.
            "contest": bool(game.contest),
        }
    return fixed


# Where a running game keeps the fields of its view that change only with its ranking, its hints
# and its first move (what the run counts for, when it started), with what they were made from:
# made again only when one of those changes, not for every move's view.
_LIVE = "_tp_live_view"


def _live_fields(game: Game) -> dict[str, object]:
    made_from = (game.ranking, game.assisted, game.started_at)
    found: tuple[object, dict[str, object]] | None = game.__dict__.get(_LIVE)
    if found is not None and found[0] == made_from:
        return found[1]
    code = live_ranking(game, game.player.is_guest)
    fields: dict[str, object] = {
        # Told before the first move: what this run counts for (docs/fair-play.md).
        "ranking": game.ranking,
        "started_at": game.started_at.isoformat() if game.started_at else None,
        "ranks": RANKS.get(code, False),
        "ranking_code": code,
        "ranking_reason": ranking_reason(code, game.deal.source),
    }
    game.__dict__[_LIVE] = (made_from, fields)
    return fields


def game_payload(
    game: Game, state: engine.State, now: datetime, result: Result | None = None
) -> ViewPayload:
    """The view; `result` is the one the game's finish has just made, else it is read."""
    payload = player_view(state, paused=game.paused)
    payload.update(_fixed_fields(game, state.rules))
    payload.update(
        status=game.status,
        seq=game.seq,
        moves=game.moves,
        score=game.score,
        elapsed_ms=clock_ms(game, now),
        clock_running=game.running_since is not None,
        server_time=now.isoformat(),
        paused=game.paused,
        assisted=game.assisted,
        hints=game.hints,
    )
    if game.finished:
        _finished_fields(payload, game, result)
    else:
        payload.update(_live_fields(game), finished_at=None)
    return payload


def _finished_fields(payload: ViewPayload, game: Game, result: Result | None) -> None:
    """A finished game's ranking as its result made it, its deal's verdict and par (told only
    once the game is over) and its result (`result`, else read)."""
    deal = game.deal
    payload.update(
        ranking=game.ranking,
        started_at=game.started_at.isoformat() if game.started_at else None,
        finished_at=game.finished_at.isoformat() if game.finished_at else None,
    )
    guest = game.player.is_guest
    code = live_ranking(game, guest)
    payload["deal"] = {"winnable": deal.winnable, "par": deal.par}
    if result is None:
        result = Result.objects.filter(game_id=game.pk).first()
    payload["result"] = None if result is None else result_for_game(game, result)
    if result is not None:
        code = result_ranking(game, result, guest)
    payload.update(ranks=RANKS.get(code, False), ranking_code=code)
    payload["ranking_reason"] = ranking_reason(code, deal.source)


def hint_payload(hint: Hint) -> HintPayload:
    move: HintMove | None = None
    if isinstance(hint.move, engine.Play):
        move = {"action": "play", "position": hint.move.position}
    elif isinstance(hint.move, engine.Draw):
        move = {"action": "draw"}
    return {"move": move, "winnable": hint.winnable}
