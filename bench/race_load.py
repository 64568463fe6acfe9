"""Race load benchmark: players race in 4-player races over WebSocket against real servers.

    .venv/bin/python -m bench.race_load [--players 40] [--cap 20] [--servers 2] [--rate 5]
                                        [--stagger 10] [--solo-seconds 10] [--channel-redis 1]

It makes its own PostgreSQL database (tripeaks_bench_race, or `BENCH_DATABASE_URL`) and uses
Redis database 5 (or `BENCH_REDIS_URL`), starts `--servers` server processes (Uvicorn, as
bench/play_load.py does) and seats `--players` players in races of 4, each race's players spread
over the servers (so every race's progress crosses servers through Redis). Each player opens the
race socket (/ws/races/{id}/) and, at the start instant, its game socket, and plays random legal
moves until the race ends (someone clears, or the `--cap` ends it).

- **Pace.** `--rate` moves a second a player on average: each player's own pace is drawn between
  0.5x and 1.5x of it, and the first move comes after a random part of one interval (people do
  not move in lockstep). A move sent late because the previous reply was slow is timed from when
  it was due (no coordinated omission).
- **Arrivals and race starts.** The players open their race sockets one every 15 ms (1,000
  players over 15 s: a thousand handshakes in one instant measure a connection storm, not play).
  Real races start whenever they fill up, at random instants: the bench sets the races' start
  instants (in the database, before any socket opens) spread evenly over `--stagger` seconds
  (default 10) after every socket had time to open; `--stagger 0` starts them all in the same
  instant (every race socket's timer, every race's games and every game socket then hit the
  servers at once: the worst case, measurable on its own). A run that is not over 30 s after
  the last race's cap is cut short (and says so).
- **Measured.** The move round trip (sent, or due, -> the stored view back), and the progress
  latency: from the instant the server stored the move (`stored_at` in the progress frame: the
  servers run on this machine, so their clock is ours) to each opponent's race socket receiving
  it; and, as a second figure, from the move being sent. p50/p99, also by seconds since the
  race's start and by whether mover and opponent sit on the same server; the round trip by
  seconds since the race's start too; how late this process's event loop wakes from a short
  sleep (a saturated client delays what it times); and how long after its race's start instant
  each player hears of their game (the race frame) and has it on screen (the game socket's first
  view). First one race of 4 runs alone: the baseline. Also printed: the CPU used during the run by this process (the
  simulated players: a saturated client shows here), by the servers, by PostgreSQL and by Redis
  (every such process on the machine, other users' included), and the machine's busy share.
  Afterwards it checks every race finished with places and every game replays to its stored
  state.
- **A race move against a solo move** (issue #37). The servers' CPU (/proc/<pid>/stat) a race
  move in the races' steady window (from `STEADY_AFTER_S` after every player has their game on
  screen to `STEADY_BEFORE_S` before the first cap) and all in; before the races, on the same
  servers, a solo phase (`--solo-seconds`; 0: none): as many players with solo games at the same
  pace, measured once all are in; and the ratio.
- **Several Redis servers** (`--channel-redis N`): N-1 Redis servers of the bench's own beside
  its Redis, given to the servers as CHANNEL_REDIS_URLS (the channel layer and the contest feed
  spread over them); printed: the races each carries, the PUBLISH commands each ran, and the
  progress frames missed (a gap in a player's `seq`).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import random
import signal
import sys
import tempfile
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import orjson
import psutil
import uvloop

from bench.database import create_migrated_database
from bench.play_load import (
    ROOT,
    bench_env,
    choose,
    cpu_seconds,
    make_players,
    percentile,
    play_one_game,
    start_game,
    start_servers,
    stop_servers,
    verify_replays,
)
from bench.play_load import Tally as PlayTally

BENCH_DB = "tripeaks_bench_race"
SEATS = 4
MAX_PLAYERS = 1000
# Issue #19's goals: a move's round trip p99 < 50 ms, its progress at the opponents p99 < 100 ms.
GOAL_P99_MS = {"move round trip": 50.0, "progress (stored)": 100.0}
# Time for every socket to open before the first race starts: the servers open some hundreds
# a second on two cores.
OPEN_S_PER_PLAYER = 0.015
REPLY_TIMEOUT_S = 30
PROVEN_DEALS = 4
# How long after its cap a race may take to be over before the run is cut short.
SLACK_S = 30
LAG_TICK_S = 0.01
# Seconds since a race's start, for the progress latency by phase.
PHASES = (0, 2, 5, 10, 20, 40, 80, 160, 320, 640)
# The steady window, where the race CPU a move is measured: from this long after the last race's
# start (its sockets opened, its games on screen) to this long before the first race's cap.
STEADY_AFTER_S = 2.0
STEADY_BEFORE_S = 1.0
# Issue #37's goal: a race move costs the servers at most this many solo moves.
GOAL_RACE_OVER_SOLO = 1.5


@dataclass
class Window:
    """Servers' CPU (from /proc/<pid>/stat) and the moves answered in the races' steady play:
    from `STEADY_AFTER_S` after every player has their game on screen (its socket's first view:
    every socket opened, every race started) to `end` (epoch seconds, before the first cap).
    No window if that comes first."""

    end: float
    players: int
    pids: list[int]
    # (epoch seconds) the first race's start instant: the servers' CPU until then is the race
    # sockets' opens (and their countdown frames), from then to every game on screen the starts
    # (games made, game sockets opened, first views) and the first moves.
    first_start: float = 0.0
    opening: list[float] = field(default_factory=list)
    start: float = float("inf")
    ready: int = 0
    all_ready: asyncio.Event = field(default_factory=asyncio.Event)
    moves: int = 0
    cpu: list[float] = field(default_factory=list)

    def arrive(self) -> None:
        self.ready += 1
        if self.ready == self.players:
            self.all_ready.set()

    moves_in_starts: int = 0
    moves_by_ready: int = 0

    def count(self, now: float) -> None:
        if self.start <= now <= self.end:
            self.moves += 1
        if not self.all_ready.is_set():
            self.moves_in_starts += 1

    async def sample(self) -> None:
        self.opening.append(sum(cpu_seconds(pid) for pid in self.pids))
        await asyncio.sleep(max(0.0, self.first_start - time.time()))
        self.opening.append(sum(cpu_seconds(pid) for pid in self.pids))
        await self.all_ready.wait()
        self.opening.append(sum(cpu_seconds(pid) for pid in self.pids))
        self.moves_by_ready = self.moves_in_starts
        await asyncio.sleep(STEADY_AFTER_S)
        if time.time() >= self.end:
            return
        self.start = time.time()
        self.cpu.append(sum(cpu_seconds(pid) for pid in self.pids))
        await asyncio.sleep(max(0.0, self.end - time.time()))
        self.cpu.append(sum(cpu_seconds(pid) for pid in self.pids))

    def ms_a_move(self) -> float:
        if len(self.cpu) < 2 or not self.moves:
            return float("nan")
        return (self.cpu[1] - self.cpu[0]) / self.moves * 1000


@dataclass
class Tally:
    # (ms of a move's round trip, seconds since the race's start when it was sent)
    trips: list[tuple[float, float]] = field(default_factory=list)
    # (ms from stored to an opponent's socket, seconds since the race's start, same server)
    stored: list[tuple[float, float, bool]] = field(default_factory=list)
    sent_based: list[float] = field(default_factory=list)
    frames: int = 0
    # Progress frames an opponent's socket never got: a gap in a player's `seq` between frames.
    missed: int = 0
    errors: list[str] = field(default_factory=list)
    # Moves refused because the race's cap had passed ("time_up"): the server doing its job.
    late: int = 0
    games: set[str] = field(default_factory=set)
    races: set[str] = field(default_factory=set)
    # (username, seq) -> when the move that made that seq was sent (time.time())
    sent: dict[tuple[str, int], float] = field(default_factory=dict)
    port_of: dict[str, int] = field(default_factory=dict)
    window: Window | None = None

    # ms from each race's start instant to each player hearing of their game (the race frame)...
    told: list[float] = field(default_factory=list)
    # ... and to their game on screen (its socket's first view)
    ready: list[float] = field(default_factory=list)
    # How late this process's event loop woke up (ms): a saturated client delays what it times.
    lag: list[float] = field(default_factory=list)

    @property
    def moves(self) -> list[float]:
        return [ms for ms, _since in self.trips]

    @property
    def progress(self) -> list[float]:
        return [ms for ms, _since, _same in self.stored]


def open_races(names: list[str], cap_s: float) -> list[str]:
    """(In this process.) Races of 4, each with a proven deal, their countdowns begun."""
    from django.contrib.auth import get_user_model

    from tripeaks.engine.rules import Rules
    from tripeaks.play.deals import make_random_deal
    from tripeaks.play.models import Deal
    from tripeaks.races import services

    users = {user.username: user for user in get_user_model().objects.filter(username__in=names)}
    races: list[str] = []
    # Proving a deal takes the solver up to a second: a few proven deals, each pooled again
    # (a row of its own) for several races; no more than there are races (the tiny run's one
    # race a round proved four: 0.7 s of its CPU for three deals no race took).
    wanted = min(PROVEN_DEALS, max(1, len(names) // SEATS))
    proven = [make_random_deal(Rules(), "classic", claimed=True) for _ in range(wanted)]
    fields = ("source", "rules_key", "layout", "code", "seed", "winnable", "par")
    for start in range(0, len(names) - len(names) % SEATS, SEATS):
        group = [users[name] for name in names[start : start + SEATS]]
        deal = proven[len(races) % len(proven)]
        # The pool the countdown claims from.
        Deal.objects.create(claimed=False, **{name: getattr(deal, name) for name in fields})
        race = services.create_race(host=group[0], rules=Rules(), seats=SEATS, cap_s=cap_s)
        for user in group[1:]:
            services.join_race(race_id=race.pk, user=user)
        races.append(str(race.pk))
    return races


def schedule_starts(races: list[str], first: float, stagger: float) -> None:
    """(In this process, before any socket opens.) Race i starts `first` seconds from now plus
    its share of `stagger`: no socket nor worker has armed a timer for the countdown's own
    instant yet, and every read takes the instant from the row."""
    from django.utils import timezone

    from tripeaks.races.models import Race

    now = timezone.now()
    for i, race_id in enumerate(races):
        at = now + timedelta(seconds=first + stagger * i / max(1, len(races)))
        Race.objects.filter(pk=race_id).update(starts_at=at)


def _epoch(iso: str) -> float:
    return datetime.fromisoformat(iso).timestamp()


@dataclass
class _Seen:
    """What one racer's race socket has shown: the others' progress, its game, the race's end."""

    name: str
    port: int
    tally: Tally
    seen: dict[str, int] = field(default_factory=dict)
    started: asyncio.Event = field(default_factory=asyncio.Event)
    game_id: list[str] = field(default_factory=list)
    start_at: list[float] = field(default_factory=list)
    over: asyncio.Event = field(default_factory=asyncio.Event)

    def progress(
        self, other: str, seq: int | None, stored_at: int | None, now: float, frame: bool = False
    ) -> None:
        tally, seen = self.tally, self.seen
        if other == self.name or seq is None or seq <= seen.get(other, 0):
            return
        if frame:
            tally.missed += seq - seen.get(other, 0) - 1
        for s in range(seen.get(other, 0) + 1, seq + 1):
            at = tally.sent.get((other, s))
            if at is not None:
                tally.sent_based.append((now - at) * 1000)
        if stored_at is not None:
            since = now - self.start_at[0] if self.start_at else 0.0
            same = tally.port_of.get(other) == self.port
            tally.stored.append((now * 1000 - stored_at, since, same))
        seen[other] = seq

    async def watch(self, race_socket: Any) -> None:
        async for text in race_socket:
            now = time.time()
            self.tally.frames += 1
            frame = orjson.loads(text)
            if frame.get("type") == "progress":
                line = frame["player"]
                self.progress(line["username"], line["seq"], line.get("stored_at"), now, True)
                continue
            if frame.get("type") != "race":
                continue
            race = frame["race"]
            if race["starts_at"] and not self.start_at:
                self.start_at.append(_epoch(race["starts_at"]))
            for line in race["players"]:
                self.progress(line["username"], line["seq"], line.get("stored_at"), now)
            if race["game"] and not self.game_id:
                if self.start_at:
                    self.tally.told.append((now - self.start_at[0]) * 1000)
                self.game_id.append(race["game"])
                self.started.set()
            if race["state"] == "finished":
                self.over.set()
                return


async def _play(game_socket: Any, shown: _Seen, chooser: random.Random, interval: float) -> None:
    """Random legal moves at the racer's pace until the race is over or nothing is left to do."""
    tally, start_at, over = shown.tally, shown.start_at, shown.over
    view = orjson.loads(await game_socket.recv())["game"]
    if start_at:
        tally.ready.append((time.time() - start_at[0]) * 1000)
    if tally.window is not None:
        tally.window.arrive()
    due = time.time() + chooser.random() * interval
    while not over.is_set() and view["status"] in ("playing", "stuck"):
        move = choose(view, chooser)
        if move["action"] == "resign":
            break  # nothing to do but wait for the race's end
        sent = time.time()
        if interval:
            # One sent late because the last reply was slow is timed from when it was
            # due, so a slow server cannot hide its queue.
            if due > sent:
                await asyncio.sleep(due - sent)
            sent, due = due, due + interval
            if over.is_set():
                break
        tally.sent[(shown.name, view["seq"] + 1)] = sent
        async with asyncio.timeout(REPLY_TIMEOUT_S):
            await game_socket.send(orjson.dumps({"seq": view["seq"], **move}).decode())
            reply = orjson.loads(await game_socket.recv())
        if reply.get("code") == "time_up":
            tally.late += 1
            break  # as the page does: no move counts any more
        if reply.get("type") != "view":
            tally.errors.append(str(reply.get("code")))
            view = reply.get("game") or view
            continue
        since, now = sent - start_at[0] if start_at else 0.0, time.time()
        tally.trips.append(((now - sent) * 1000, since))
        if tally.window is not None:
            tally.window.count(now)
        view = reply["game"]


async def racer(
    port: int,
    session: str,
    name: str,
    race_id: str,
    rate: float,
    tally: Tally,
    seed: int,
    arrive: float,
) -> None:
    import websockets

    chooser = random.Random(seed)
    # Each player's own pace, between 0.5x and 1.5x of the rate (the mean stays the rate).
    interval = 1 / (rate * (0.5 + chooser.random())) if rate else 0.0
    headers = {"Cookie": f"sessionid={session}", "Origin": f"http://127.0.0.1:{port}"}
    base = f"ws://127.0.0.1:{port}"
    shown = _Seen(name, port, tally)
    await asyncio.sleep(arrive)
    async with websockets.connect(
        f"{base}/ws/races/{race_id}/", additional_headers=headers, open_timeout=REPLY_TIMEOUT_S
    ) as race_socket:
        watcher = asyncio.ensure_future(shown.watch(race_socket))
        await asyncio.wait_for(shown.started.wait(), 120)
        tally.games.add(shown.game_id[0])
        async with websockets.connect(
            f"{base}/ws/games/{shown.game_id[0]}/",
            additional_headers=headers,
            open_timeout=REPLY_TIMEOUT_S,
        ) as game_socket:
            await _play(game_socket, shown, chooser, interval)
        await asyncio.wait_for(shown.over.wait(), 120)
        await watcher


async def watch_lag(tally: Tally) -> None:
    """How late this process wakes from a short sleep, for as long as the run lasts."""
    while True:
        before = time.monotonic()
        await asyncio.sleep(LAG_TICK_S)
        tally.lag.append((time.monotonic() - before - LAG_TICK_S) * 1000)


async def run(
    players: list[tuple[str, str]],
    names: list[str],
    races: list[str],
    ports: list[int],
    rate: float,
    limit: float,
    window: Window | None = None,
) -> tuple[Tally, float]:
    """Every player races; the run ends when every race is over, or after `limit` seconds."""
    tally = Tally(races=set(races), window=window)
    started = time.monotonic()
    jobs = []
    for i, ((session, _token), name) in enumerate(zip(players, names, strict=True)):
        race_id = races[i // SEATS]
        # A race's players on different servers: its progress crosses servers through Redis.
        port = ports[i % len(ports)]
        tally.port_of[name] = port
        # The players arrive over the seconds before the first start, as the start waits for.
        arrive = i * OPEN_S_PER_PLAYER if len(players) > SEATS else 0.0
        jobs.append(racer(port, session, name, race_id, rate, tally, i, arrive))
    probe = asyncio.ensure_future(watch_lag(tally))
    sampler = asyncio.ensure_future(window.sample()) if window is not None else None
    try:
        outcomes = await asyncio.wait_for(asyncio.gather(*jobs, return_exceptions=True), limit)
    except TimeoutError:
        # Bounded: servers that cannot keep up end the run, not the bench's patience.
        tally.errors.append(f"cut short: the races were not over {limit:.0f} s after the first")
        return tally, time.monotonic() - started
    finally:
        probe.cancel()
        if sampler is not None:
            sampler.cancel()
    tally.errors += [f"{type(o).__name__}: {o}" for o in outcomes if isinstance(o, BaseException)]
    return tally, time.monotonic() - started


def check_races(races: set[str]) -> tuple[int, int]:
    """(races finished with every player placed, races not)."""
    from tripeaks.races.models import Race

    good = bad = 0
    for race in Race.objects.filter(pk__in=races).prefetch_related("entries"):
        placed = all(seat.place for seat in race.entries.all() if seat.game_id)
        if race.state == "finished" and placed:
            good += 1
        else:
            bad += 1
    return good, bad


def _figures(values: list[float]) -> str:
    return f"p50 {percentile(values, 0.5):6.1f} ms, p99 {percentile(values, 0.99):6.1f} ms"


def report(label: str, tally: Tally, elapsed: float) -> None:
    print(
        f"{label:>10}: {len(tally.moves)} moves in {elapsed:.1f} s, {len(tally.errors)} errors, "
        f"{tally.late} refused after the cap, {tally.frames} race frames received\n"
        f"{'':>10}  move round trip                          {_figures(tally.moves)}\n"
        f"{'':>10}  progress, stored -> opponents' sockets   {_figures(tally.progress)}"
        f"  (n={len(tally.stored)})\n"
        f"{'':>10}  progress, sent -> opponents' sockets     {_figures(tally.sent_based)}"
        f"  (n={len(tally.sent_based)}); progress frames missed (a gap in a player's seq): "
        f"{tally.missed}"
    )


def _by_phase(timed: list[tuple[float, float]]) -> None:
    for low, high in zip(PHASES, PHASES[1:], strict=False):
        values = [ms for ms, since in timed if low <= since < high]
        if values:
            print(f"  {low:>3}-{high:<3} s  {_figures(values)}  (n={len(values)})")


def report_phases(tally: Tally) -> None:
    print("move round trip by seconds since the race's start:")
    _by_phase(tally.trips)
    print("progress (stored -> socket) by seconds since the race's start, and by server:")
    _by_phase([(ms, since) for ms, since, _same in tally.stored])
    for same, label in ((True, "same server"), (False, "across servers")):
        values = [ms for ms, _since, on in tally.stored if on == same]
        print(f"  {label:<14} {_figures(values)}  (n={len(values)})")
    print("after the race's start instant, each player")
    print(f"  hears of their game (the race frame)  {_figures(tally.told)}")
    print(f"  has it on screen (the game socket)    {_figures(tally.ready)}")
    print(
        f"the players' event loop woke late by {_figures(tally.lag)}, "
        f"at most {max(tally.lag, default=0):.0f} ms (a late wake delays what the bench times)"
    )


@dataclass
class Solo:
    """The solo phase: moves answered in its measured window and the servers' CPU over it."""

    moves: int
    cpu: float
    trips: list[float]
    games: set[str]
    errors: list[str]

    def ms_a_move(self) -> float:
        return self.cpu / self.moves * 1000 if self.moves else float("nan")


@dataclass
class SoloPhase:
    """The solo phase's clock: its players arrive (a game started over REST, its socket's first
    view), and once every one has, they play for `seconds`; the window measured begins
    `STEADY_AFTER_S` later, like the races' (no first starts nor socket opens in it)."""

    players: int
    seconds: float
    pids: list[int]
    tally: PlayTally = field(default_factory=PlayTally)
    arrived: int = 0
    go: asyncio.Event = field(default_factory=asyncio.Event)
    until: float = 0.0
    cpu: list[float] = field(default_factory=list)

    def arrive(self) -> None:
        self.arrived += 1
        if self.arrived == self.players:
            now = time.monotonic()
            self.tally.since = now + STEADY_AFTER_S
            self.until = self.tally.since + self.seconds
            self.go.set()

    async def sample(self) -> None:
        await self.go.wait()
        for at in (self.tally.since, self.until):
            await asyncio.sleep(max(0.0, at - time.monotonic()))
            self.cpu.append(sum(cpu_seconds(pid) for pid in self.pids))


async def solo_player(
    port: int, player: tuple[str, str], phase: SoloPhase, seed: int, interval: float
) -> None:
    """One solo player, as bench.play_load's: its first game over REST and its socket, then, once
    everyone is in, moves at its pace and each next game on the same socket (`new`)."""
    import websockets

    session, token = player
    chooser, tally = random.Random(seed), phase.tally
    interval = interval / chooser.uniform(0.5, 1.5) if interval else 0.0
    await asyncio.sleep(seed * OPEN_S_PER_PLAYER)  # they arrive as the racers do
    try:
        game = await asyncio.to_thread(start_game, port, token)
        tally.games.add(game["id"])
        headers = {"Cookie": f"sessionid={session}", "Origin": f"http://127.0.0.1:{port}"}
        connection = await websockets.connect(
            f"ws://127.0.0.1:{port}/ws/games/{game['id']}/",
            additional_headers=headers,
            open_timeout=REPLY_TIMEOUT_S,
        )
        view = orjson.loads(await connection.recv())["game"]
    finally:
        phase.arrive()  # (or failed: the others do not wait for it)
    async with connection:
        await phase.go.wait()
        while True:
            await play_one_game(connection, view, phase.until, tally, chooser, interval)
            if time.monotonic() >= phase.until:
                return
            async with asyncio.timeout(REPLY_TIMEOUT_S):
                await connection.send(orjson.dumps({"type": "new", "mode": "daily"}).decode())
                view = orjson.loads(await connection.recv())["game"]
            tally.games.add(view["id"])


async def solo_phase(
    players: list[tuple[str, str]], ports: list[int], rate: float, seconds: float, pids: list[int]
) -> Solo:
    """The same servers, as many players playing solo games (the daily deal, over their game
    sockets) at the same pace, for the servers' CPU a solo move over the window its moves are
    counted in."""
    asyncio.get_running_loop().set_default_executor(ThreadPoolExecutor(max_workers=len(players)))
    phase = SoloPhase(len(players), seconds, pids)
    sampler = asyncio.ensure_future(phase.sample())
    interval = 1 / rate if rate else 0.0
    outcomes = await asyncio.gather(
        *(
            solo_player(ports[i % len(ports)], player, phase, i, interval)
            for i, player in enumerate(players)
        ),
        return_exceptions=True,
    )
    await sampler
    tally = phase.tally
    errors = [f"{type(o).__name__}: {o}" for o in outcomes if isinstance(o, BaseException)]
    cpu = phase.cpu[1] - phase.cpu[0]
    return Solo(len(tally.latencies), cpu, tally.latencies, tally.games, errors + tally.errors)


def first_cap(first: float, cap: float) -> float:
    """(epoch seconds) When the steady window ends: before the first race's cap."""
    return time.time() + first + cap - STEADY_BEFORE_S


class CpuMeter:
    """CPU seconds used between `start` and `stop` by this process, the servers, PostgreSQL and
    Redis (every process of those names: other users' work on the machine counts too), and the
    machine's busy share."""

    GROUPS = ("postgres", "redis-server")

    def __init__(self, servers: list[int]) -> None:
        self.servers = servers

    def _services(self) -> dict[str, float]:
        used = dict.fromkeys(self.GROUPS, 0.0)
        for process in psutil.process_iter(["name", "cpu_times"]):
            name = process.info["name"] or ""
            times = process.info["cpu_times"]
            for group in self.GROUPS:
                if times is not None and name.startswith(group):
                    used[group] += times.user + times.system
        return used

    def _sample(self) -> tuple[float, float, dict[str, float], Any]:
        return (
            time.process_time(),
            sum(cpu_seconds(pid) for pid in self.servers),
            self._services(),
            psutil.cpu_times(),
        )

    def start(self) -> None:
        self.each = [cpu_seconds(pid) for pid in self.servers]
        self.began, self.at = self._sample(), time.monotonic()
        self.load = os.getloadavg()[0]

    def stop(self) -> None:
        self.ended, self.elapsed = self._sample(), time.monotonic() - self.at
        self.each = [cpu_seconds(pid) - at for pid, at in zip(self.servers, self.each, strict=True)]
        self.load_end = os.getloadavg()[0]

    def servers_cpu(self) -> float:
        return self.ended[1] - self.began[1]

    def print(self) -> None:
        (own0, servers0, services0, machine0), (own1, servers1, services1, machine1) = (
            self.began,
            self.ended,
        )
        wall = self.elapsed
        busy = sum(machine1) - sum(machine0) - (machine1.idle - machine0.idle)
        total = sum(machine1) - sum(machine0)
        parts = [
            f"this process (the players) {own1 - own0:.1f} s ({(own1 - own0) / wall:.0%} of a core)",
            f"servers {servers1 - servers0:.1f} s ({(servers1 - servers0) / wall:.0%}: "
            + ", ".join(f"{used:.1f} s" for used in self.each)
            + " each)",
        ]
        for group in self.GROUPS:
            used = services1[group] - services0[group]
            parts.append(f"{group} {used:.1f} s ({used / wall:.0%})")
        print(
            f"CPU over {wall:.0f} s of the run: " + "; ".join(parts) + f"; the machine "
            f"({os.cpu_count()} cores) busy {busy / total if total else 0:.0%}; load average "
            f"{self.load:.1f} at the start, {self.load_end:.1f} at the end"
        )


def _arguments(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--players", type=int, default=40, help="a multiple of 4")
    parser.add_argument("--cap", type=float, default=20.0, help="each race's time cap, seconds")
    parser.add_argument("--servers", type=int, default=2)
    parser.add_argument("--rate", type=float, default=5.0, help="moves a second each player")
    parser.add_argument(
        "--stagger",
        type=float,
        default=10.0,
        help="seconds over which the races' starts are spread (0: all in one instant)",
    )
    parser.add_argument(
        "--solo-seconds",
        type=float,
        default=10.0,
        help="the solo phase: as many players play solo games at the same pace for this long, "
        "for the servers' CPU a solo move (0: none)",
    )
    parser.add_argument(
        "--channel-redis",
        type=int,
        default=1,
        help="Redis servers the channel layer and the contest feed are spread over: the bench's "
        "Redis and as many more of its own, less one (CHANNEL_REDIS_URLS)",
    )
    parser.add_argument("--port", type=int, default=18700)
    args = parser.parse_args(argv)
    if not SEATS <= args.players <= MAX_PLAYERS or args.players % SEATS:
        parser.error(f"keep it bounded: 4-{MAX_PLAYERS} players (a multiple of 4)")
    if (
        not 1 <= args.servers <= 8
        or not 0 <= args.stagger <= 60
        or not 1 <= args.channel_redis <= 4
    ):
        parser.error("keep it bounded: 1-8 servers, a stagger of 0-60 s, 1-4 channel Redis servers")
    if not 1 <= args.cap <= 600 or not 0 <= args.rate <= 100 or not 0 <= args.solo_seconds <= 60:
        parser.error("keep it bounded: a cap of 1-600 s, a rate of 0-100, a solo phase of 0-60 s")
    return args


@contextlib.contextmanager
def private_redis() -> Iterator[str]:
    """A Redis server of the bench's own (a child process on a Unix socket), for the while."""
    from tripeaks.stack.run import EmbeddedRedis

    with tempfile.TemporaryDirectory(prefix="race-load-redis-") as data:
        server = EmbeddedRedis(Path(data))
        try:
            yield server.start()
        finally:
            server.stop()


def _setup(args: argparse.Namespace, channel_redis: list[str]) -> dict[str, str]:
    """Django set up on the bench's own database; the servers' environment (the channel layer
    and the contest feed over `channel_redis` too, when given)."""
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    env = bench_env()
    env["DATABASE_URL"] = os.environ.get(
        "BENCH_DATABASE_URL", f"postgres://postgres@127.0.0.1:5432/{BENCH_DB}"
    )
    if channel_redis:
        env["CHANNEL_REDIS_URLS"] = ",".join([env["REDIS_URL"], *channel_redis])
    os.environ.update(env)
    sys.path.insert(0, str(ROOT))
    create_migrated_database(env["DATABASE_URL"], env)
    import django

    django.setup()
    from django.core.cache import cache

    from tripeaks.engine.rules import Rules
    from tripeaks.play.dealday import deal_day
    from tripeaks.play.deals import daily_deal

    cache.clear()
    daily_deal(deal_day(), Rules())  # the solo phase's deal
    return env


class FeedCount:
    """PUBLISH commands each of the channel layer's Redis servers ran (INFO commandstats: on a
    shared server, other users' count too), and how many of the races each carries."""

    def __init__(self, races: list[str]) -> None:
        from django.conf import settings

        from tripeaks.infra import contest_feed
        from tripeaks.races.models import contest_of

        self.urls: list[str] = list(settings.CHANNEL_REDIS_URLS)
        self.races = [
            sum(contest_feed.server_of(contest_of(race)) == url for race in races)
            for url in self.urls
        ]
        self.before = self._calls()

    def _calls(self) -> list[int]:
        import redis

        calls = []
        for url in self.urls:
            stats = redis.Redis.from_url(url).info("commandstats")
            calls.append(int(stats.get("cmdstat_publish", {}).get("calls", 0)))
        return calls

    def stop(self) -> None:
        self.used = [
            after - before for after, before in zip(self._calls(), self.before, strict=True)
        ]

    def print(self) -> None:
        print(
            f"channel layer and contest feed over {len(self.urls)} Redis server(s): races on "
            f"each {self.races}, PUBLISH commands each ran during the run {self.used}"
        )


@dataclass
class Measured:
    """What a run measured, for `_report_all`."""

    baseline: tuple[Tally, float]
    loaded: tuple[Tally, float]
    solo: Solo | None
    meter: CpuMeter
    feeds: FeedCount


def _measure(args: argparse.Namespace, env: dict[str, str]) -> Measured:
    names = [f"racer{i}" for i in range(args.players + SEATS)]
    players = make_players(args.players + SEATS, "racer")
    solo_players = make_players(args.players, "solo") if args.solo_seconds else []
    ports = [args.port + i for i in range(args.servers)]
    servers = start_servers(args.servers, args.port, env)
    pids = [server.pid for server in servers]
    meter = CpuMeter(pids)
    try:
        baseline_races = open_races(names[:SEATS], args.cap)
        limit = 3 + args.cap + SLACK_S
        baseline = uvloop.run(
            run(players[:SEATS], names[:SEATS], baseline_races, ports, args.rate, limit)
        )
        solo = None
        if solo_players:
            solo = uvloop.run(solo_phase(solo_players, ports, args.rate, args.solo_seconds, pids))
        races = open_races(names[SEATS:], args.cap)
        first = 2 + OPEN_S_PER_PLAYER * args.players
        schedule_starts(races, first, args.stagger)
        window = Window(first_cap(first, args.cap), len(races) * SEATS, pids)
        window.first_start = time.time() + first
        feeds = FeedCount(races)
        meter.start()
        limit = first + args.stagger + args.cap + SLACK_S
        loaded = uvloop.run(
            run(players[SEATS:], names[SEATS:], races, ports, args.rate, limit, window)
        )
        meter.stop()
        feeds.stop()
    finally:
        stop_servers(servers)
        from tripeaks.config.celery import app as celery_app

        celery_app.control.purge()
    return Measured(baseline, loaded, solo, meter, feeds)


def main(argv: list[str] | None = None) -> int:
    args = _arguments(argv)
    with contextlib.ExitStack() as stack:
        more = [stack.enter_context(private_redis()) for _ in range(args.channel_redis - 1)]
        env = _setup(args, more)
        return _report_all(args, _measure(args, env))


def report_cost(tally: Tally, solo: Solo | None, meter: CpuMeter) -> None:
    """The servers' CPU a race move (in the steady window, and all in) against a solo move."""
    all_in = meter.servers_cpu() / len(tally.moves) * 1000 if tally.moves else float("nan")
    window = tally.window
    steady = window.ms_a_move() if window is not None else float("nan")
    if window is None or len(window.cpu) < 2:
        print(
            f"servers' CPU a race move: {all_in:.2f} ms all in (socket opens, starts and caps "
            "included); no steady window: some player had no game on screen until just before "
            "the first cap"
        )
    else:
        print(
            f"servers' CPU a race move: {steady:.2f} ms in the steady window ({window.moves} "
            f"moves in {window.end - window.start:.1f} s: every game on screen, no race capped), "
            f"{all_in:.2f} ms all in (socket opens, starts and caps included)"
        )
    if solo is None:
        return
    print(
        f"servers' CPU a solo move (same servers, {solo.moves} moves, round trip "
        f"{_figures(solo.trips)}): {solo.ms_a_move():.2f} ms; race / solo: "
        f"{steady / solo.ms_a_move():.2f}x steady, {all_in / solo.ms_a_move():.2f}x all in "
        f"(goal {GOAL_RACE_OVER_SOLO:g}x)"
    )
    if solo.errors:
        print(f"solo phase: {len(solo.errors)} errors:", sorted(set(solo.errors))[:3])


def report_opening(tally: Tally) -> None:
    """The servers' CPU over the race sockets' opens (before the first start), and from the first
    start to every game on screen (the starts, the game sockets' opens and the first moves)."""
    window = tally.window
    if window is None or len(window.opening) < 3:
        return
    before, first, ready = window.opening
    players = window.players
    print(
        f"servers' CPU before the first start (the {players} race sockets' opens): "
        f"{first - before:.2f} s, {(first - before) / players * 1000:.2f} ms a racer; from the "
        f"first start to every game on screen (the {players // SEATS} starts, the game sockets' "
        f"opens, first views and {window.moves_by_ready} moves): {ready - first:.2f} s, "
        f"{(ready - first) / (players // SEATS) * 1000:.1f} ms a race"
    )


def _report_all(args: argparse.Namespace, measured: Measured) -> int:
    (baseline, baseline_elapsed), (tally, elapsed) = measured.baseline, measured.loaded
    print(
        f"TriPeaks race load: {args.players} players in {args.players // SEATS} races of {SEATS}, "
        f"{args.servers} Uvicorn servers, {os.cpu_count()} cores, loopback; {args.rate:g} moves/s "
        f"each (about {args.players * args.rate:g}/s in all), cap {args.cap:g} s, starts spread "
        f"over {args.stagger:g} s"
    )
    report("1 race", baseline, baseline_elapsed)
    report(f"{args.players // SEATS} races", tally, elapsed)
    report_phases(tally)
    measured.meter.print()
    measured.feeds.print()
    report_opening(tally)
    report_cost(tally, measured.solo, measured.meter)
    for what, values, base in (
        ("move round trip", tally.moves, baseline.moves),
        ("progress (stored)", tally.progress, baseline.progress),
    ):
        p99, base_p99, goal = percentile(values, 0.99), percentile(base, 0.99), GOAL_P99_MS[what]
        print(
            f"{what} p99 vs 1 race: {p99 / base_p99:.2f}x; vs goal {goal:.0f} ms: "
            f"{p99 / goal:.2f}x (below 1 meets it)"
        )
    if tally.errors or baseline.errors:
        print("errors:", sorted(set(tally.errors + baseline.errors))[:5])
    good, bad = check_races(tally.races | baseline.races)
    print(f"races finished with every player placed: {good}; not: {bad}")
    solo_games = measured.solo.games if measured.solo is not None else set()
    checked, differ = verify_replays(tally.games | baseline.games | solo_games)
    print(f"replayed {checked} games from their move logs: {differ} differ from their stored state")
    return 1 if bad or differ or not tally.progress else 0


if __name__ == "__main__":
    raise SystemExit(main())
