"""Load benchmark: simulated players play whole games over WebSocket against real servers.

    .venv/bin/python -m bench.play_load [--players 200] [--seconds 30] [--servers 2]

It makes its own PostgreSQL database (tripeaks_bench_play, or `BENCH_DATABASE_URL`; a copy of a
migrated template: bench/database.py) and uses
Redis database 5 (or `BENCH_REDIS_URL`), starts
`--servers` server processes (`python -m tripeaks.stack.serve`, Uvicorn) on loopback (state lives in
PostgreSQL, fan-out in Redis, so any number of them can serve one game), signs in `--players` players and has each play the daily
deal move by move over /ws/games/{id}/. When a game ends the player starts the next one on the
same socket, as the page does (`--starts rest`: over REST, with a new socket for each game). Every
reply is a move the server validated and stored. First a single player plays alone for a few seconds: that
is the baseline the figures are compared with. It prints moves/s, round-trip p50/p95/p99, errors,
each server's memory at the start and the end, and checks afterwards that every game's stored
state is the replay of its move log. Last, the same players, with no pause, send frames to a bare
WebSocket echo on the same Uvicorn stack (bench/echo_server.py) for `--echo-seconds`: the report
gives the servers' CPU a move against the echo server's CPU a message, the ratio issue #37 asks
to bring to 6x or under. The one player of the baseline is also set against one echo socket at
that player's own pace: a server woken for each frame pays more a frame than one kept busy.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import secrets
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench.database import create_migrated_database

ROOT = Path(__file__).resolve().parent.parent
BENCH_DB = "tripeaks_bench_play"
GOAL_MOVES_PER_S = 1000
GOAL_P99_MS = 50.0
REPLY_TIMEOUT_S = 15.0
# How long a bench's server may take to answer its first health check.
SERVER_START_S = 120.0
# The front gate's rates per address and credential (tripeaks/infra/front_gate.py).
FRONT_GATE_RATES = (
    "THROTTLE_SOCKET_OPENS_ADDRESS",
    "THROTTLE_API_ADDRESS",
    "THROTTLE_API_ADDRESS_MINUTE",
    "THROTTLE_API_CREDENTIAL",
    "THROTTLE_API_CREDENTIAL_MINUTE",
)
# Paced players arrive over this many seconds (--ramp).
RAMP_S = 3.0
# Each player's first game starts over REST with a socket of its own, all of them within the ramp:
# the measure starts once that burst is served, this share of the ramp after it.
SETTLE_SHARE = 2 / 3


def bench_env() -> dict[str, str]:
    env = dict(os.environ)
    env.update(
        DATABASE_URL=os.environ.get(
            "BENCH_DATABASE_URL", f"postgres://postgres@127.0.0.1:5432/{BENCH_DB}"
        ),
        REDIS_URL=os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/5"),
        DEBUG="0",
        SECRET_KEY=secrets.token_urlsafe(50),
        DEAL_SECRET=secrets.token_urlsafe(32),
        ALLOWED_HOSTS="127.0.0.1,localhost",
        SECURE_SSL_REDIRECT="0",
        LOG_LEVEL="WARNING",
        CONN_MAX_AGE="60",
        DJANGO_SETTINGS_MODULE="tripeaks.config.settings",
    )
    # Every simulated player comes from 127.0.0.1 and moves at machine speed: the throttles meant
    # for people on the open internet would measure themselves, not the server.
    for name in (
        "THROTTLE_MOVES",
        "THROTTLE_MOVES_ADDRESS",
        "THROTTLE_GAME_STARTS",
        "THROTTLE_GAME_STARTS_ADDRESS",
    ):
        env[name] = "1000000/s"
    env["THROTTLE_USER"] = env["THROTTLE_ANON"] = "1000000/s"
    env["SOCKETS_PER_ADDRESS"] = "0"  # hundreds of players, one address
    env.update(dict.fromkeys(FRONT_GATE_RATES, "1000000/s"))  # the same (infra/front_gate.py)
    return env


def setup_players(count: int) -> list[tuple[str, str]]:
    """Django set up, today's daily deal made, and `count` players ready to play."""
    import django

    django.setup()
    from django.core.cache import cache

    from tripeaks.engine.rules import Rules
    from tripeaks.play.dealday import deal_day
    from tripeaks.play.deals import daily_deal

    cache.clear()
    daily_deal(deal_day(), Rules())
    return make_players(count, "bench")


def make_players(count: int, prefix: str) -> list[tuple[str, str]]:
    """(Inside a Django process.) Players ``{prefix}{i}``, each with a signed-in session key (for
    the socket) and a token (for starting games over REST)."""
    from django.contrib.auth import (
        BACKEND_SESSION_KEY,
        HASH_SESSION_KEY,
        SESSION_KEY,
        get_user_model,
    )
    from django.contrib.sessions.backends.db import SessionStore
    from rest_framework.authtoken.models import Token

    users = get_user_model()
    players = []
    for i in range(count):
        user, _ = users.objects.get_or_create(username=f"{prefix}{i}")
        session = SessionStore()
        session[SESSION_KEY] = str(user.pk)
        session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
        session[HASH_SESSION_KEY] = user.get_session_auth_hash()
        session.create()
        token, _ = Token.objects.get_or_create(user=user)
        players.append((session.session_key or "", token.key))
    return players


def cpu_seconds(pid: int) -> float:
    """User + system CPU time the process has used so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def rss_kb(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


# The readiness probe below is /api/health, whose ping of the workers waits its whole second
# (HEALTH_WORKER_PING_SECONDS) when none answers, as none does beside most benches' servers: a
# second of each server's start, one server after another. With a worker up it answers within it.
NO_PING_WAIT = {"HEALTH_WORKER_PING_SECONDS": "0.05"}


def start_servers(count: int, base_port: int, env: dict[str, str]) -> list[subprocess.Popen[bytes]]:
    for port in range(base_port, base_port + count):
        with socket.socket() as probe:
            if probe.connect_ex(("127.0.0.1", port)) == 0:
                raise SystemExit(
                    f"port {port} is taken (a server left from an earlier run?); use --port"
                )
    # Server logs go to a file: a pipe nobody reads would fill up and stall the server.
    log = (Path(tempfile.gettempdir()) / "tripeaks-bench-servers.log").open("ab")
    env = {**NO_PING_WAIT, **env}
    servers = []
    for i in range(count):
        command = [
            str(ROOT / ".venv/bin/python"),
            "-m",
            "tripeaks.stack.serve",
            "--port",
            str(base_port + i),
        ]
        servers.append(subprocess.Popen(command, cwd=ROOT, env=env, stdout=log, stderr=log))
    for i, server in enumerate(servers):
        # A server that has not exited is still coming up: at load 25 (make test beside other
        # runs) one took over 30 s to, and the bench failed ("did not come up").
        deadline = time.monotonic() + SERVER_START_S
        while True:
            try:
                urllib.request.urlopen(
                    f"http://127.0.0.1:{base_port + i}/api/health", timeout=2
                ).read()
                break
            except OSError:
                if time.monotonic() > deadline or server.poll() is not None:
                    raise SystemExit(f"server on port {base_port + i} did not come up") from None
                time.sleep(0.2)
    return servers


def start_echo_server(port: int, env: dict[str, str], app: str = "bare") -> subprocess.Popen[bytes]:
    """The echo (bench/echo_server.py, bare unless `app` says), one process, ready for sockets."""
    with socket.socket() as probe:
        if probe.connect_ex(("127.0.0.1", port)) == 0:
            raise SystemExit(
                f"port {port} is taken (an echo left from an earlier run?); use --port"
            )
    log = (Path(tempfile.gettempdir()) / "tripeaks-bench-servers.log").open("ab")
    python = str(ROOT / ".venv/bin/python")
    command = [python, "-m", "bench.echo_server", "--port", str(port), "--app", app]
    server = subprocess.Popen(command, cwd=ROOT, env=env, stdout=log, stderr=log)
    deadline = time.monotonic() + 30
    while True:
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=2).read()
            return server
        except OSError:
            if time.monotonic() > deadline or server.poll() is not None:
                stop_servers([server])
                raise SystemExit(f"the echo server on port {port} did not come up") from None
            time.sleep(0.2)


def stop_servers(servers: list[subprocess.Popen[bytes]]) -> None:
    for server in servers:
        server.terminate()
    for server in servers:
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()


@dataclass
class Tally:
    latencies: list[float] = field(default_factory=list)
    starts: list[float] = field(default_factory=list)
    opens: list[float] = field(default_factory=list)
    socket_starts: list[float] = field(default_factory=list)
    # Whether each move ended its game (such a move also records and ranks the result).
    ended: list[bool] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    games: set[str] = field(default_factory=set)
    moves_in_all = 0  # warm-up included: what the servers' CPU time was spent on
    ends_in_all = 0  # of those, the moves that ended a game
    # Players whose first game is on screen: the burst of first starts over REST is served.
    playing = 0
    # Round trips answered from this moment on are measured (the warm-up's are not).
    since = 0.0

    def measuring(self) -> bool:
        return time.monotonic() >= self.since

    def timed(self, into: list[float], started: float) -> None:
        if self.measuring():
            into.append((time.perf_counter() - started) * 1000)

    def move(self, started: float, ended: bool) -> None:
        self.moves_in_all += 1
        self.ends_in_all += ended
        if self.measuring():
            self.latencies.append((time.perf_counter() - started) * 1000)
            self.ended.append(ended)

    def split(self) -> tuple[list[float], list[float]]:
        """Round trips of the moves that ended a game, and of the others."""
        ends = [latency for latency, ended in zip(self.latencies, self.ended, strict=True) if ended]
        others = [
            latency for latency, ended in zip(self.latencies, self.ended, strict=True) if not ended
        ]
        return ends, others


def start_game(port: int, token: str) -> dict[str, Any]:
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}/api/games",
        data=json.dumps({"mode": "daily"}).encode(),
        headers={"Content-Type": "application/json", "Authorization": f"Token {token}"},
    )
    with urllib.request.urlopen(request, timeout=30) as response:
        return dict(json.load(response))


def choose(view: dict[str, Any], chooser: random.Random) -> dict[str, Any]:
    if view["playable"]:
        return {"action": "play", "position": chooser.choice(view["playable"])}
    if view["stock_left"]:
        return {"action": "draw"}
    return {"action": "resign"}


async def player(
    port: int,
    session: str,
    token: str,
    until: float,
    tally: Tally,
    seed: int,
    interval: float,
    socket_starts: bool,
    ramp: float = RAMP_S,
) -> None:
    import websockets

    chooser = random.Random(seed)
    headers = {"Cookie": f"sessionid={session}", "Origin": f"http://127.0.0.1:{port}"}
    if interval:
        # People differ and do not all arrive at once: each player's pace is drawn around the
        # asked rate (the mean stays the asked rate) and each arrives within the ramp. Players in
        # lockstep would start, finish and start again all at the same moment.
        interval = interval / chooser.uniform(0.5, 1.5)
        await asyncio.sleep(chooser.uniform(0, ramp))
    while time.monotonic() < until:
        try:
            await play_session(port, token, headers, until, tally, chooser, interval, socket_starts)
        except (
            websockets.ConnectionClosed,
            websockets.InvalidHandshake,
            TimeoutError,
            OSError,
        ) as error:
            tally.errors.append(f"{type(error).__name__}: {error}")


async def play_session(
    port: int,
    token: str,
    headers: dict[str, str],
    until: float,
    tally: Tally,
    chooser: random.Random,
    interval: float,
    socket_starts: bool,
) -> None:
    """A game started over REST and played on its own socket; then, as the page does, the next
    games started on that socket (`new`), or each over REST on a socket of its own."""
    import websockets

    started = time.perf_counter()
    game = await asyncio.to_thread(start_game, port, token)
    tally.timed(tally.starts, started)
    tally.games.add(game["id"])
    started = time.perf_counter()
    async with websockets.connect(
        f"ws://127.0.0.1:{port}/ws/games/{game['id']}/", additional_headers=headers
    ) as connection:
        async with asyncio.timeout(REPLY_TIMEOUT_S):
            first = json.loads(await connection.recv())
        if first.get("type") != "view":  # refused as it opened (overloaded, throttled): counted
            tally.errors.append(f"socket open: {first.get('detail', first.get('type', '?'))}")
            return
        view = first["game"]
        tally.timed(tally.opens, started)
        tally.playing += 1
        while True:
            await play_one_game(connection, view, until, tally, chooser, interval)
            if not socket_starts or time.monotonic() >= until:
                return
            started = time.perf_counter()
            async with asyncio.timeout(REPLY_TIMEOUT_S):
                await connection.send(json.dumps({"type": "new", "mode": "daily"}))
                reply = json.loads(await connection.recv())
            if reply["type"] != "started":
                tally.errors.append(reply.get("detail", "?"))
                return
            tally.timed(tally.socket_starts, started)
            view = reply["game"]
            tally.games.add(view["id"])


async def play_one_game(
    connection: Any,
    view: dict[str, Any],
    until: float,
    tally: Tally,
    chooser: random.Random,
    interval: float,
) -> None:
    due = time.perf_counter() + chooser.random() * interval
    while view["status"] in ("playing", "stuck") and time.monotonic() < until:
        sent = time.perf_counter()
        if interval:
            # Paced: each move has its time. One sent late because the last reply was slow
            # is timed from when it was due, so a slow server cannot hide its queue.
            if due > sent:
                await asyncio.sleep(due - sent)
            sent = due
            due += interval
        # asyncio.timeout, not wait_for: no task per reply, so the players cost less CPU.
        async with asyncio.timeout(REPLY_TIMEOUT_S):
            await connection.send(json.dumps({"seq": view["seq"], **choose(view, chooser)}))
            reply = json.loads(await connection.recv())
        if reply["type"] != "view":
            tally.move(sent, ended=False)
            tally.errors.append(reply.get("detail", "?"))
            view = reply.get("game", view)
            continue
        view = reply["game"]
        tally.move(sent, ended=view["status"] not in ("playing", "stuck"))


async def echo_player(
    connection: Any, until: float, tally: Tally, seed: int, interval: float = 0.0
) -> None:
    """A player's loop against the bare echo: a move's frame sent, the echo read and parsed, one
    after another on one socket; at no pause (`play_one_game` at `--rate 0`), or a frame every
    `interval` seconds (the pace the players kept). No wait outlasts `until`."""
    chooser = random.Random(seed)
    view: dict[str, Any] = {"seq": 0, "playable": [], "stock_left": 1}
    if interval:  # paced sockets out of step with each other, as players are
        await asyncio.sleep(min(chooser.uniform(0, interval), until - time.monotonic()))
    due = time.monotonic()
    while time.monotonic() < until:
        sent = time.perf_counter()
        async with asyncio.timeout(REPLY_TIMEOUT_S):
            await connection.send(json.dumps({"seq": view["seq"], **choose(view, chooser)}))
            reply = json.loads(await connection.recv())
        view["seq"] = reply["seq"] + 1
        tally.move(sent, ended=False)
        if interval:
            due += interval
            await asyncio.sleep(max(0.0, min(due, until) - time.monotonic()))


async def run_echo(
    players: int, port: int, seconds: float, cpu: Callable[[], float], interval: float = 0.0
) -> tuple[Tally, float, float]:
    """`players` sockets on the echo, all open first, then each echoing as fast as it is answered
    (or a frame every `interval` seconds) for `seconds`: the tally, the seconds and the echo
    server's CPU seconds (`cpu`) in them."""
    import websockets

    tally = Tally()
    connections = await asyncio.gather(
        *(websockets.connect(f"ws://127.0.0.1:{port}/") for _ in range(players))
    )
    try:
        cpu_start, started = cpu(), time.monotonic()
        tally.since = started
        await asyncio.gather(
            *(
                echo_player(connection, started + seconds, tally, i, interval)
                for i, connection in enumerate(connections)
            )
        )
        return tally, time.monotonic() - started, cpu() - cpu_start
    finally:
        await asyncio.gather(*(connection.close() for connection in connections))


def measure_echo(
    players: int, port: int, seconds: float, env: dict[str, str], paces: tuple[float, float]
) -> dict[str, _Echoed]:
    """The echo server's CPU for one socket (`alone`), then for `players` sockets (`all`), each
    echoing with no pause for `seconds`: beside the one player of the baseline, and beside all of
    them. Then the same at the pace the players kept (`paces`: the one player's moves a second,
    all the players' together; 0: not run), `alone_paced` and `all_paced`: a server woken for
    each frame pays more a frame than one kept busy, and a loaded machine keeps the game server
    from being busy."""
    server = start_echo_server(port, env)
    alone_pace, players_pace = paces
    # A paced run lasts three times as long: at a few dozen frames a second, the server's CPU
    # time (counted in 10 ms ticks) needs the time to add up.
    runs = {"alone": (1, 0.0, seconds), "all": (players, 0.0, seconds)}
    if alone_pace > 0:
        runs["alone_paced"] = (1, 1 / alone_pace, 3 * seconds)
    if players_pace > 0:
        runs["all_paced"] = (players, players / players_pace, 3 * seconds)
    measured = {}
    try:
        for name, (sockets, interval, span) in runs.items():
            tally, elapsed, cpu_used = asyncio.run(
                run_echo(sockets, port, span, lambda: cpu_seconds(server.pid), interval)
            )
            measured[name] = _Echoed(
                sockets, tally.moves_in_all, elapsed, cpu_used, len(tally.errors), interval
            )
    finally:
        stop_servers([server])
    return measured


@dataclass
class Steady:
    """The servers' CPU seconds and the moves made from when every player had their first game
    on screen to the end: what moves cost once the burst of first starts and sockets is over."""

    cpu: Callable[[], float]
    cpu_used: float = 0.0
    moves: int = 0
    # Of those moves, the ones that ended a game: a game's end and the next start cost many
    # moves' CPU, so runs that ended a different share of games do not compare.
    ends: int = 0

    def cpu_ms(self) -> float:
        return self.cpu_used / self.moves * 1000 if self.moves else float("nan")

    async def watch(self, tally: Tally, players: int, until: float) -> None:
        while tally.playing < players and time.monotonic() < until:
            await asyncio.sleep(0.05)
        cpu, moves, ends = self.cpu(), tally.moves_in_all, tally.ends_in_all
        await asyncio.sleep(max(0.0, until - time.monotonic()))
        self.cpu_used, self.moves = self.cpu() - cpu, tally.moves_in_all - moves
        self.ends = tally.ends_in_all - ends


async def run_players(
    players: list[tuple[str, str]],
    ports: list[int],
    seconds: float,
    rate: float = 0.0,
    socket_starts: bool = True,
    ramp: float = RAMP_S,
    steady: Steady | None = None,
) -> tuple[Tally, float]:
    """Every player plays until `seconds` are up, `rate` moves a second each (0: no pause)."""
    tally = Tally()
    # Games start over REST from threads: one each, or players would queue in this process for
    # asyncio's few default threads and the bench would time its own queue.
    asyncio.get_running_loop().set_default_executor(ThreadPoolExecutor(max_workers=len(players)))
    started = time.monotonic()
    warmup = ramp * (1 + SETTLE_SHARE) if rate else 0.0
    until = started + seconds + warmup
    tally.since = started + warmup
    if steady is not None:
        watching = asyncio.create_task(steady.watch(tally, len(players), until))
    await asyncio.gather(
        *(
            player(
                ports[i % len(ports)],
                session,
                token,
                until,
                tally,
                i,
                1 / rate if rate else 0.0,
                socket_starts,
                ramp,
            )
            for i, (session, token) in enumerate(players)
        )
    )
    if steady is not None:
        await watching
    return tally, time.monotonic() - tally.since


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else float("nan")


def verify_replays(game_ids: set[str]) -> tuple[int, int]:
    """(games checked, games whose stored state is not the replay of their move log)."""
    from tripeaks.play.models import Game
    from tripeaks.play.replay import matches_log

    games = Game.objects.select_related("deal").filter(pk__in=game_ids).prefetch_related("log")
    verdicts = [matches_log(game) for game in games]
    return len(verdicts), verdicts.count(False)


def report(name: str, tally: Tally, elapsed: float) -> float:
    rate = len(tally.latencies) / elapsed
    print(
        f"{name:>10}: {len(tally.latencies):7d} moves in {elapsed:5.1f} s = {rate:7.1f} moves/s; "
        f"round trip p50 {percentile(tally.latencies, 0.5):6.1f} ms, p95 {percentile(tally.latencies, 0.95):6.1f} ms, "
        f"p99 {percentile(tally.latencies, 0.99):6.1f} ms; refused {len(tally.errors)}; games {len(tally.games)}"
    )
    if tally.socket_starts:
        print(
            f"{'':>10}  next game on the socket: {len(tally.socket_starts)}, "
            f"p50 {percentile(tally.socket_starts, 0.5):6.1f} ms, "
            f"p99 {percentile(tally.socket_starts, 0.99):6.1f} ms"
        )
    if tally.starts:
        print(
            f"{'':>10}  new game over REST: {len(tally.starts)}, p50 {percentile(tally.starts, 0.5):6.1f} ms, "
            f"p99 {percentile(tally.starts, 0.99):6.1f} ms; its socket open to first view: "
            f"p50 {percentile(tally.opens, 0.5):6.1f} ms, p99 {percentile(tally.opens, 0.99):6.1f} ms"
        )
    ends, others = tally.split()
    print(
        f"{'':>10}  moves that end a game: {len(ends)}, p50 {percentile(ends, 0.5):6.1f} ms, "
        f"p99 {percentile(ends, 0.99):6.1f} ms; the other moves: p50 {percentile(others, 0.5):6.1f} ms, "
        f"p95 {percentile(others, 0.95):6.1f} ms, p99 {percentile(others, 0.99):6.1f} ms"
    )
    return rate


@dataclass
class _Echoed:
    """What an echo run measured: sockets, messages echoed, seconds, the echo server's CPU seconds."""

    sockets: int
    messages: int
    elapsed: float
    cpu_used: float
    errors: int
    # Seconds between one socket's frames (0: no pause).
    interval: float = 0.0

    def cpu_ms(self) -> float:
        return self.cpu_used / self.messages * 1000 if self.messages else float("nan")

    def pace(self) -> str:
        return f"a frame every {self.interval * 1000:.1f} ms" if self.interval else "no pause"


@dataclass
class _Measured:
    """What a run measured, for `_print_report`."""

    baseline: Tally
    baseline_elapsed: float
    tally: Tally
    elapsed: float
    cpu_used: float
    own_cpu: float
    rss_start: list[int]
    rss_end: list[int]
    dropped: int
    # The first server's CPU over the baseline's moves once its game was on screen.
    baseline_cpu: Steady
    echo_alone: _Echoed
    echo: _Echoed
    steady: Steady
    # One echo socket at the pace of the baseline's one player, and as many as there are players
    # at their pace (None: no move was made).
    echo_paced: _Echoed | None = None
    echo_all_paced: _Echoed | None = None


def _arguments(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--servers", type=int, default=2)
    parser.add_argument(
        "--rate",
        type=float,
        default=5.0,
        help="moves a second each player makes (default 5: 200 players offer 1,000/s); "
        "0: no pause, as fast as the servers answer (their capacity)",
    )
    parser.add_argument(
        "--starts",
        choices=("socket", "rest"),
        default="socket",
        help="how a player starts each game after the first: on the socket it already has, as "
        "the page does (default), or over REST with a new socket each",
    )
    parser.add_argument(
        "--ramp",
        type=float,
        default=RAMP_S,
        help=f"seconds over which the paced players arrive (default {RAMP_S:g}); the measure "
        "starts two thirds of that after them",
    )
    parser.add_argument("--port", type=int, default=18600)
    parser.add_argument("--baseline-seconds", type=float, default=5.0)
    parser.add_argument(
        "--echo-seconds",
        type=float,
        default=5.0,
        help="seconds the players echo on the bare echo server (on the port after the servers'); "
        "the runs at the players' pace take three times as long",
    )
    args = parser.parse_args(argv)
    if (
        not 1 <= args.players <= 1000
        or not 1 <= args.seconds <= 900
        or not 1 <= args.servers <= 8
        or not 0 <= args.rate <= 100
        or not 0 <= args.ramp <= 60
        or not 1 <= args.echo_seconds <= 60
    ):
        parser.error(
            "keep it bounded: 1-1000 players, 1-900 seconds, 1-8 servers, rate 0-100, ramp 0-60,"
            " echo 1-60 seconds"
        )
    return args


def _measure(args: argparse.Namespace) -> _Measured:
    # A SIGTERM (a timeout, Ctrl-C from a supervisor) must still run the `finally` that stops the servers.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    env = bench_env()
    os.environ.update(env)
    sys.path.insert(0, str(ROOT))
    create_migrated_database(env["DATABASE_URL"], env)
    players = setup_players(args.players)
    ports = [args.port + i for i in range(args.servers)]
    servers = start_servers(args.servers, args.port, env)
    try:
        baseline_cpu = Steady(lambda: cpu_seconds(servers[0].pid))
        baseline, baseline_elapsed = asyncio.run(
            run_players(players[:1], ports[:1], args.baseline_seconds, steady=baseline_cpu)
        )
        rss_start = [rss_kb(server.pid) for server in servers]
        cpu_start = sum(cpu_seconds(server.pid) for server in servers)
        own_cpu_start = time.process_time()
        steady = Steady(lambda: sum(cpu_seconds(server.pid) for server in servers))
        tally, elapsed = asyncio.run(
            run_players(
                players, ports, args.seconds, args.rate, args.starts == "socket", args.ramp, steady
            )
        )
        cpu_used = sum(cpu_seconds(server.pid) for server in servers) - cpu_start
        own_cpu = time.process_time() - own_cpu_start
        rss_end = [rss_kb(server.pid) for server in servers]
        # The one player's pace and all the players' (moves a second), for the echo at them.
        paces = (
            len(baseline.latencies) / baseline_elapsed if baseline_elapsed else 0.0,
            len(tally.latencies) / elapsed if elapsed else 0.0,
        )
        echoes = measure_echo(args.players, args.port + args.servers, args.echo_seconds, env, paces)
    finally:
        stop_servers(servers)
        # No worker runs here (the bench measures the servers): drop what they queued.
        from tripeaks.config.celery import app as celery_app

        dropped = celery_app.control.purge()
    return _Measured(
        baseline,
        baseline_elapsed,
        tally,
        elapsed,
        cpu_used,
        own_cpu,
        rss_start,
        rss_end,
        dropped,
        baseline_cpu,
        echoes["alone"],
        echoes["all"],
        steady,
        echoes.get("alone_paced"),
        echoes.get("all_paced"),
    )


def _print_report(args: argparse.Namespace, run: _Measured) -> int:
    tally = run.tally
    print(
        f"TriPeaks play load: {args.players} players, {args.servers} Uvicorn servers, {os.cpu_count()} cores, loopback"
    )
    pace = (
        f"{args.rate:g} moves/s each, {args.rate * args.players:,.0f}/s offered"
        if args.rate
        else "no pause between moves"
    )
    print(
        f"players' pace: {pace}; the single player of the baseline never pauses; "
        f"next games start {'on the socket' if args.starts == 'socket' else 'over REST'}"
    )
    base_rate = report("1 player", run.baseline, run.baseline_elapsed)
    rate = report(f"{args.players} players", tally, run.elapsed)
    print(
        f"throughput vs 1 player: {_ratio(rate, base_rate):.1f}x; vs goal {GOAL_MOVES_PER_S}/s: {rate / GOAL_MOVES_PER_S:.2f}x"
    )
    print(
        f"p99 vs goal {GOAL_P99_MS:.0f} ms: {percentile(tally.latencies, 0.99) / GOAL_P99_MS:.2f}x (below 1 meets it)"
    )
    moves = max(1, tally.moves_in_all)
    print(
        f"server CPU: {run.cpu_used:.1f} s for {moves} moves = {run.cpu_used / moves * 1000:.2f} ms a move (all servers)"
    )
    print(
        f"simulated players' CPU (this process): {run.own_cpu:.1f} s = {run.own_cpu / moves * 1000:.2f} ms a move"
    )
    _print_echo(args, run)
    for i, (before, after) in enumerate(zip(run.rss_start, run.rss_end, strict=True)):
        print(
            f"server {i} RSS: {before / 1024:.1f} MB at start, {after / 1024:.1f} MB at end ({(after - before) / 1024:+.1f} MB)"
        )
    print(f"Celery tasks the servers queued, dropped unrun: {run.dropped}")
    if tally.errors:
        print("refusals:", sorted(set(tally.errors))[:5])
    checked, bad = verify_replays(tally.games | run.baseline.games)
    print(f"replayed {checked} games from their move logs: {bad} differ from their stored state")
    return 1 if bad else 0


def _ratio(part: float, whole: float) -> float:
    """`part / whole`, nan when `whole` is nothing: an echo's CPU within one 10 ms tick, or no move
    at all, in a tiny run on a loaded machine."""
    return part / whole if whole > 0 else float("nan")


def _print_echo(args: argparse.Namespace, run: _Measured) -> None:
    """The echo's CPU a message beside a move's, and their ratio (issue #37: at most 6x): all the
    players against as many echoing sockets, the one player of the baseline against one socket;
    each with no pause, and at the pace the players kept."""
    steady, base = run.steady, run.baseline_cpu
    pace = "" if args.rate == 0 else f" at {args.rate:g} moves/s each"
    paced = [echo for echo in (run.echo_paced, run.echo_all_paced) if echo is not None]
    for echo in [run.echo_alone, run.echo, *paced]:
        print(
            f"bare echo, same Uvicorn stack, {echo.sockets} sockets, {echo.pace()}: "
            f"{echo.messages} messages in {echo.elapsed:.1f} s = "
            f"{echo.messages / echo.elapsed:.0f}/s; server CPU {echo.cpu_used:.2f} s = "
            f"{echo.cpu_ms():.3f} ms a message; refused {echo.errors}"
        )
    print(
        f"server CPU a move once every player is playing ({steady.moves} moves, "
        f"{steady.ends} of them ending a game{pace}): "
        f"{steady.cpu_ms():.3f} ms; 1 player alone ({base.moves} moves): {base.cpu_ms():.3f} ms"
    )
    print(
        f"server CPU a move vs a bare echo message: {_ratio(steady.cpu_ms(), run.echo.cpu_ms()):.1f}x "
        f"({args.players} players{pace}, {args.players} echo sockets; goal 6x); "
        f"1 player alone vs 1 echo socket: {_ratio(base.cpu_ms(), run.echo_alone.cpu_ms()):.1f}x"
    )
    # A server woken now and then pays for each wake (its caches cold on a busy machine) what a
    # server kept busy does not: the moves against an echo kept at the players' pace.
    if run.echo_all_paced is not None:
        print(
            f"server CPU a move vs a bare echo message at the players' pace "
            f"({args.players} sockets, {args.players / run.echo_all_paced.interval:.0f} frames/s): "
            f"{_ratio(steady.cpu_ms(), run.echo_all_paced.cpu_ms()):.1f}x"
        )
    if run.echo_paced is not None:
        print(
            f"1 player alone vs 1 echo socket at the player's pace "
            f"({1 / run.echo_paced.interval:.0f} frames/s): "
            f"{_ratio(base.cpu_ms(), run.echo_paced.cpu_ms()):.1f}x"
        )


def main(argv: list[str] | None = None) -> int:
    args = _arguments(argv)
    return _print_report(args, _measure(args))


if __name__ == "__main__":
    raise SystemExit(main())
