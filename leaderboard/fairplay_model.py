"""The timing check: is a run's distribution of think times one a human could produce?

Pure functions, no Django: the finishing path calls `think_times` and `verdict`; the bench
(bench/fairplay_bench.py) draws honest runs from `honest_run` and cheats from `CHEATS` and measures
how often `verdict` is wrong. The reasoning behind every number is in docs/fair-play.md.

A move's *think time* is the server time between the moment the position it was played on was
shown and the move: the previous move, a resume (the cards come back), or the game's start (the
deal is shown with the start's answer). Time with the cards hidden (paused) never counts, and never
helps either: thinking while paused shows up as an inhumanly quick move after the resume.
"""

from __future__ import annotations

import math
import random
import statistics
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

TIMED_ACTIONS = frozenset({"play", "draw", "undo", "restart"})

# --------------------------------------------------------------------------- the check

# Thresholds (docs/fair-play.md, "Thresholds"): each sits far outside what the honest model
# produces, and each catches at least one pattern of the cheat corpus.
MIN_MOVES = 8  # fewer timed moves say too little about a distribution; no check
MEDIAN_FLOOR_MS = 250.0  # a run's median think time below this: bots, bursts, pause-per-move
SPREAD_FLOOR = 0.20  # interquartile range of ln(think time) below this: machine-steady pacing
P90_FLOOR_MS = 550.0  # with at least P90_MIN_MOVES moves: no move ever needed a thought
P90_MIN_MOVES = 20


_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_MICROSECOND = timedelta(microseconds=1)


def microseconds(at: datetime) -> int:
    """An aware time as whole microseconds since the epoch (exact: a time has no finer part)."""
    return (at - _EPOCH) // _MICROSECOND


def think_times(shown_at: datetime, log: Iterable[tuple[str, datetime]]) -> list[float]:
    """Each timed move's think time in ms, from the game's start (`shown_at`) and its move log
    (action, server time) in seq order."""
    return think_times_us(microseconds(shown_at), ((a, microseconds(at)) for a, at in log))


def think_times_us(shown_at: int, log: Iterable[tuple[str, int]]) -> list[float]:
    """`think_times` with the times as microseconds since the epoch (the finishing path reads
    the move log's times so: PostgreSQL's times as datetimes cost it 5-10 us of CPU each)."""
    times = []
    shown = shown_at
    for action, at in log:
        if action in TIMED_ACTIONS:
            # As `timedelta.total_seconds() * 1000` works it out: the same float to the last bit.
            times.append(max(0.0, (at - shown) / 10**6 * 1000))
            shown = at
        elif action == "resume":
            shown = at
    return times


@dataclass(frozen=True)
class Summary:
    moves: int
    median_ms: float
    p90_ms: float
    spread: float  # interquartile range of ln(ms)


def _quantile(ordered: Sequence[float], q: float) -> float:
    """Linear interpolation between closest ranks (ordered ascending, not empty)."""
    position = q * (len(ordered) - 1)
    low = math.floor(position)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (position - low)


def summarize(times: Sequence[float]) -> Summary:
    ordered = sorted(times)
    logs = [math.log(max(t, 1.0)) for t in ordered]
    return Summary(
        moves=len(ordered),
        median_ms=statistics.median(ordered),
        p90_ms=_quantile(ordered, 0.9),
        spread=_quantile(logs, 0.75) - _quantile(logs, 0.25),
    )


def verdict(times: Sequence[float]) -> str:
    """Why these think times are not a human's, or "" when they may be."""
    if len(times) < MIN_MOVES:
        return ""
    s = summarize(times)
    if s.median_ms < MEDIAN_FLOOR_MS:
        return (
            f"median think time {s.median_ms:.0f} ms over {s.moves} moves"
            f" (no human under {MEDIAN_FLOOR_MS:.0f} ms)"
        )
    if s.spread < SPREAD_FLOOR:
        return (
            f"machine-steady pacing: think times spread {s.spread:.2f}"
            f" (ln IQR, humans over {SPREAD_FLOOR:.2f}) over {s.moves} moves,"
            f" median {s.median_ms:.0f} ms"
        )
    if s.moves >= P90_MIN_MOVES and s.p90_ms < P90_FLOOR_MS:
        return (
            f"no move needed a thought: 90% of {s.moves} moves within {s.p90_ms:.0f} ms"
            f" (humans over {P90_FLOOR_MS:.0f} ms)"
        )
    return ""


# --------------------------------------------------------------------------- honest humans

# The model (docs/fair-play.md, "The honest player"): each player has their own median pace,
# log-normal across players; each move is log-normal around it, with a player's own spread, plus
# now and then a real decision (a draw or not, which peak to open) that takes a few times longer;
# nobody clicks two different targets faster than a motor floor.
PACE_MEDIAN_MS = 1_000.0  # the median player's median think time
PACE_SIGMA = 0.35  # spread of players' paces (ln): 1 in 1,000 players is under ~340 ms
MOVE_SIGMA = (0.45, 0.85)  # a player's own spread of think times (ln), uniform in this range
DECISION_SHARE = (0.08, 0.20)  # share of moves that are decisions, per player
DECISION_FACTOR_LN = (1.0, 0.5)  # a decision takes e^N(1.0, 0.5) times longer (~2.7x)
MOTOR_FLOOR_MS = (120.0, 200.0)  # the fastest a player can click again, per player
MOVES = (20, 60)  # timed moves in a run (a classic daily: 28 plays and up to 23 draws)


@dataclass(frozen=True)
class HonestPlayer:
    """One honest player of the model: their pace, their own spread, how often they stop to
    decide, their motor floor. A contest (a race, an arena's games) is several runs of one."""

    pace_ms: float
    sigma: float
    decisions: float
    floor_ms: float

    def run(self, rng: random.Random, moves: int) -> list[float]:
        times = []
        for _ in range(moves):
            t = self.pace_ms * math.exp(rng.gauss(0.0, self.sigma))
            if rng.random() < self.decisions:
                t *= math.exp(rng.gauss(*DECISION_FACTOR_LN))
            times.append(max(self.floor_ms, t))
        return times


def honest_player(
    rng: random.Random, *, pace_median_ms: float = PACE_MEDIAN_MS, sigma_scale: float = 1.0
) -> HonestPlayer:
    return HonestPlayer(
        pace_ms=pace_median_ms * math.exp(rng.gauss(0.0, PACE_SIGMA)),
        sigma=rng.uniform(*MOVE_SIGMA) * sigma_scale,
        decisions=rng.uniform(*DECISION_SHARE),
        floor_ms=rng.uniform(*MOTOR_FLOOR_MS),
    )


def honest_run(
    rng: random.Random,
    moves: int | None = None,
    *,
    pace_median_ms: float = PACE_MEDIAN_MS,
    sigma_scale: float = 1.0,
) -> list[float]:
    """One honest run's think times in ms (`pace_median_ms` and `sigma_scale`: the bench's
    what-if, a population faster or steadier than the model says)."""
    player = honest_player(rng, pace_median_ms=pace_median_ms, sigma_scale=sigma_scale)
    count = moves if moves is not None else rng.randint(*MOVES)
    return player.run(rng, count)


# --------------------------------------------------------------------------- the cheats


def _pause_per_move(rng: random.Random) -> list[float]:
    """Resume, play, pause, think while paused: every move lands just after its resume."""
    return [rng.uniform(15, 70) for _ in range(43)]


def _pause_then_burst(rng: random.Random) -> list[float]:
    """One long pause to work the deal out, then the line as a burst at 83-88 ms a move."""
    first = rng.uniform(2_000, 30_000)
    return [first, *(rng.uniform(83, 88) for _ in range(rng.randint(35, 50)))]


def _steady_bot(rng: random.Random) -> list[float]:
    """A bot at a steady 175 ms a move."""
    return [rng.gauss(175, 4) for _ in range(rng.randint(35, 50))]


def _replay_300(rng: random.Random) -> list[float]:
    """A known line (a hinted win, another account's) replayed at 300 ms a move."""
    return [rng.gauss(300, 10) for _ in range(rng.randint(35, 50))]


CHEATS: dict[str, Callable[[random.Random], list[float]]] = {
    "pause per move, think while paused": _pause_per_move,
    "long pause, then a burst at 83-88 ms": _pause_then_burst,
    "bot at a steady 175 ms": _steady_bot,
    "replay of a known line at 300 ms": _replay_300,
}
