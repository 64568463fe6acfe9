"""One account opens hundreds of game sockets (issue #35): does another player's move stay fast?

    .venv/bin/python -m bench.socket_flood [--sockets 500] [--seconds 15] [--port 8797] [--retry]
        [--victims 3] [--rounds 6] [--attacker-address 127.0.0.2] [--open-cost N] [--pin]

One server (the production profile: its socket caps `SOCKETS_PER_GAME`, `_ACCOUNT`, `_ADDRESS`
and the front gate's rates as configured), `--victims` players and an attacker. Each victim plays
the daily deal over REST (again and again), a move every 0.25 s, in a process of its own, through
`--rounds` pairs of phases of `--seconds` each: quiet, then while the attacker opens `--sockets`
game sockets on its own game, 50 at a time, and keeps those that open (with `--retry`, it opens
each refused one again a second later, for the whole phase: a flood of handshakes). The attacker
connects from an address of its own (`--attacker-address`, another loopback address), as an
attacker would: the gate counts and refuses by address, and the victims' address is not the
flood's. Then, with no victim, the server idles for 10 s (`--seconds` if less), and the attacker
opens `--sockets` again for as long, each refused one again a second later: the server's CPU time over those opens,
less its idle time, is what a refused open costs. It prints the victims' move p50/p99 in
each phase and over all the rounds' phases together, the ratios flood/quiet (the issue's measure:
p99 within 1.5x; one ratio a round, for the spread, and the pooled one), how the attacker's opens
were answered, the server's CPU time per open and the machine's load average. A phase of 15 s
gives a victim 60 moves, whose p99 is about the 2nd slowest: several victims and rounds give the
p99 more samples. With `--elsewhere` the attacker floods a second server process instead of the
victims' (a control: the same attack on the same cores, none of it in the victims' server).
Last, a flood's first burst alone, broken down (`first_bursts`), with no victim, `BURSTS` (5)
times each in turn: a fresh address opens `--sockets` once; another opens only as many as its
rate allows (10: the consumer's part); an address whose window of the open rate is spent already
opens `--sockets` (the refusals: 429 at the upgrade, then closed at connect); the same address
at once again, now flooding (all closed at connect). How each was answered and the server's CPU
for it over idle (the scheduler's count, in nanoseconds).
With `--open-cost N`, last, a game socket is opened and closed N times one after the other (each
from an address of its own among 250: the gate's rates stay production's), alone on its game,
beside one kept open, and over the game's cap: the server's CPU over idle for each open and close.
`--connection-cost N` only times the server's refusals: its CPU for N handshakes from an address
the gate knows is over, closed as they connect and answered 429 at the upgrade, alternating.
Besides the victims' times (wall clock, which the machine's other load moves as much as the flood),
the victims' server is clocked: for each victim's move, the CPU of the server's event loop from
the move's connection to its answer, whatever the loop spent it on (the move's own part, the
other requests' and sockets', the flood's): the work the move waited behind, in the server's CPU
rather than the machine's time (`--serve-clocked`, the stack's server with a protocol that notes
it). Less moved by the machine's other load than the times, not free of it: a move the machine
slows takes in more of the loop's other work.
With `--pin` (Linux, two cores or more) the server processes run on the first core and this
process, the attacker's client, with the victims' processes it forks, on the others
(`pin_cores`): as in a deployment, where the attacker and the players are elsewhere on the
internet, the clients' own CPU (the attacker's 50 handshakes at a time, the victims' requests)
no longer takes the server's core from it. Redis and PostgreSQL stay where the system puts them.
Before the caps the issue measured the victim's median going from 70 to 446 ms
with 300 sockets.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import multiprocessing
import os
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

if __package__ in (None, ""):  # run as a script: make the repository importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.database import create_migrated_database
from bench.hint_attack import Tally, call, solver_bench_env
from bench.play_load import (
    FRONT_GATE_RATES,
    ROOT,
    SERVER_START_S,
    choose,
    cpu_seconds,
    percentile,
    start_servers,
    stop_servers,
)

BENCH_DB = "tripeaks_bench_sockets"
# A round's own p99 is its 2nd slowest move of 180 and one slow move moves it: stop 51 saw single
# rounds from 0.54x to 3.12x on either side of a change, and runs of 4 rounds from 1.0x to 1.8x.
# Six rounds pool 1,080 moves a phase (p99: the 11th slowest), some 4 minutes a run.
ROUNDS = 6
MOVE_GAP_S = 0.25
COST_PHASE_S = 10.0
# A flood's first burst, from a fresh address each time, alone on the server (phases of at most
# `--seconds`).
BURSTS = 5
BURST_PHASE_S = 3.0


def setup(victims: int = 1) -> list[tuple[str, str]]:
    """(In this process, on the bench database.) Today's daily deal and `victims` players, then
    the attacker (the last one)."""
    from bench.play_load import setup_players

    return setup_players(victims + 1)


def victim(port: int, token: str, until: float, results: multiprocessing.Queue[Any]) -> None:
    """Plays the daily over REST, a move every MOVE_GAP_S, a new game when one ends; puts each
    move's (seconds, status) on `results`. In a process of its own: in a thread beside the
    attacker's, the attacker's client work (its handshakes hold the GIL) showed in the victim's
    times (p99 900 ms with the attacker refused at once)."""
    import random

    moves: list[tuple[float, int]] = []
    chooser = random.Random(token)
    view: dict[str, Any] | None = None
    while time.monotonic() < until:
        if view is None or view["status"] not in ("playing", "stuck"):
            status, view = call(port, token, "POST", "/api/games", {"mode": "daily"})
            assert status == 201, (status, view)
        assert view is not None
        began = time.monotonic()
        body = {"seq": view["seq"], **choose(view, chooser)}
        status, answer = call(port, token, "POST", f"/api/games/{view['id']}/moves", body)
        moves.append((time.monotonic() - began, status))
        view = answer if status == 200 else None
        time.sleep(max(0.0, MOVE_GAP_S - (time.monotonic() - began)))
    results.put(moves)


async def attacker(
    port: int,
    session: str,
    game_id: str,
    sockets: int,
    until: float,
    retry: bool,
    address: str = "127.0.0.1",
) -> Counter[str]:
    """`sockets` game sockets opened from `address` (a loopback address of the attacker's own),
    50 handshakes at a time; how they were answered."""
    import websockets

    outcomes: Counter[str] = Counter()
    headers = {"Cookie": f"sessionid={session}", "Origin": f"http://127.0.0.1:{port}"}
    url = f"ws://127.0.0.1:{port}/ws/games/{game_id}/"
    gate = asyncio.Semaphore(50)

    async def hold() -> None:
        while time.monotonic() < until:
            try:
                async with gate:
                    connection = await websockets.connect(
                        url, additional_headers=headers, local_addr=(address, 0)
                    )
                async with connection:
                    await connection.recv()  # the view, or the close
                    outcomes["opened"] += 1
                    await asyncio.sleep(max(0.0, until - time.monotonic()))
                    return
            except websockets.ConnectionClosed as closed:
                outcomes[f"closed {closed.rcvd.code if closed.rcvd else '?'}"] += 1
            except websockets.InvalidStatus as refused:
                outcomes[f"status {refused.response.status_code}"] += 1
            except websockets.InvalidMessage:  # closed before any answer: refused as it connected
                outcomes["no answer"] += 1
            except (websockets.InvalidHandshake, OSError, TimeoutError, EOFError) as error:
                outcomes[type(error).__name__] += 1
            if not retry:
                return
            await asyncio.sleep(1)

    await asyncio.gather(*(hold() for _ in range(sockets)))
    return outcomes


def play(
    port: int, tokens: list[str], until: float, flood: Any
) -> tuple[list[tuple[float, int]], Counter[str] | None]:
    """The victims' moves, each victim in a process of its own, and the attacker's `flood`
    meanwhile (in this process) if there is one."""
    forked = multiprocessing.get_context("fork")
    results: multiprocessing.Queue[Any] = forked.Queue()
    players = [forked.Process(target=victim, args=(port, t, until, results)) for t in tokens]
    for player in players:
        player.start()
    outcomes = asyncio.run(flood(until)) if flood else None
    moves = [move for _ in players for move in results.get(timeout=until - time.monotonic() + 120)]
    for player in players:
        player.join()
    return moves, outcomes


def phase(
    port: int,
    token: str | list[str] | None,
    seconds: float,
    server: int,
    flood: Any = None,
    latencies: bool = False,
) -> dict[str, Any]:
    """The victims' moves (`token`, or one token a victim; None: no victim) for `seconds`, and
    the attacker's `flood` meanwhile if there is one; the server's CPU time over the phase (and
    with `latencies`, every move's time, under "_latencies")."""
    tokens = [token] if isinstance(token, str) else list(token or [])
    tally = Tally()
    cpu, client_cpu = cpu_seconds(server), time.process_time()
    began = time.monotonic()
    moves, outcomes = play(port, tokens, began + seconds, flood)
    for seconds_taken, status in moves:
        tally.add(seconds_taken, status)
    out: dict[str, Any] = {
        "server CPU s": round(cpu_seconds(server) - cpu, 2),
        "load average": round(os.getloadavg()[0], 1),
    }
    if flood:  # the attacker's client shares the machine's cores with the server and the victim
        out["attacker's client CPU s"] = round(time.process_time() - client_cpu, 2)
    if tokens:
        out["victim's REST moves"] = tally.summary()
        if latencies:
            out["_latencies"] = tally.latencies
            out["_span"] = (began, began + seconds)
    if outcomes is not None:
        out["attacker's socket opens"] = dict(outcomes)
        opens = sum(outcomes.values())
        out["server CPU ms per open"] = round(out["server CPU s"] * 1000 / max(opens, 1), 3)
    return out


def ratio(flooded: list[float], quiet: list[float], share: float) -> float:
    return round(percentile(flooded, share) / max(percentile(quiet, share), 1e-4), 2)


def pooled(rounds: list[dict[str, Any]]) -> dict[str, Any]:
    """Every round's quiet moves against every round's flooded ones: p50 and p99 of each, the
    ratios, and each round's own p99 ratio (their spread)."""
    quiet = [s for r in rounds for s in r["quiet"].pop("_latencies")]
    flooded = [s for r in rounds for s in r["flood"].pop("_latencies")]
    ms = {
        name: [round(percentile(values, q) * 1000, 1) for q in (0.5, 0.99)]
        for name, values in (("quiet", quiet), ("flood", flooded))
    }
    return {
        "moves quiet / flood": [len(quiet), len(flooded)],
        "p50 / p99 ms quiet": ms["quiet"],
        "p50 / p99 ms flood": ms["flood"],
        "p50 flood / quiet": ratio(flooded, quiet, 0.5),
        "p99 flood / quiet": ratio(flooded, quiet, 0.99),
        "p99 ms quiet, each round": [p99_ms(r, "quiet") for r in rounds],
        "p99 ms flood, each round": [p99_ms(r, "flood") for r in rounds],
        "p99 flood / quiet, each round": [
            round(p99_ms(r, "flood") / max(p99_ms(r, "quiet"), 0.1), 2) for r in rounds
        ],
    }


def p99_ms(round_: dict[str, Any], phase_: str) -> float:
    return float(round_[phase_]["victim's REST moves"]["p99_ms"])


HANDSHAKE = (
    b"GET /ws/x/ HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
    b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
)


def handshakes(port: int, count: int) -> None:
    """(A process of its own.) `count` socket handshakes one after the other, each on a new
    connection, reading the first bytes of the answer if there is one."""
    import socket

    for _ in range(count):
        with socket.create_connection(("127.0.0.1", port)) as connection:
            try:
                connection.sendall(HANDSHAKE)
                connection.recv(64)
            except OSError:
                pass


async def refusal_cpu_us(count: int, flood_refusals: int, at_upgrade: bool = True) -> float:
    """The server's CPU (user + system, µs) for each of `count` handshakes from an address the
    gate knows is over its open rate: Uvicorn with the stack's options in this process, the gate's
    memory primed, `FRONT_GATE_FLOOD_REFUSALS` as given (0: closed as it connects; a large one:
    the 429 at the upgrade, or, not `at_upgrade`, by the gate once a WebSocket is made of it, as
    a burst's first opens are refused: their upgrades came before the address was known over)."""
    import resource

    import uvicorn
    from django.conf import settings

    from tripeaks.infra import front_gate, limiter
    from tripeaks.stack.serve import uvicorn_options

    settings.FRONT_GATE_FLOOD_REFUSALS = flood_refusals
    checked_at_upgrade = front_gate.known_refused_socket
    if not at_upgrade:
        front_gate.known_refused_socket = lambda *_: None  # type: ignore[assignment]
    port = 18800 + os.getpid() % 100
    config = uvicorn.Config(front_gate.FrontGate(lambda *_: None), port=port, **uvicorn_options())
    server = uvicorn.Server(config)
    serving = asyncio.create_task(server.serve())
    while not server.started:
        await asyncio.sleep(0.02)
    windows = front_gate.address_open_windows("127.0.0.1")
    limiter.forget_refusals()
    limiter._refusals.note(windows, [windows[0].allowed + 1], time.time())
    client = multiprocessing.get_context("spawn").Process(target=handshakes, args=(port, count))
    before = resource.getrusage(resource.RUSAGE_SELF)
    client.start()
    while client.is_alive():
        await asyncio.sleep(0.05)
    after = resource.getrusage(resource.RUSAGE_SELF)
    server.should_exit = True
    await serving
    front_gate.known_refused_socket = checked_at_upgrade  # type: ignore[assignment]
    used = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    return used * 1e6 / count


def connection_cost(count: int, runs: int) -> dict[str, Any]:
    """`refusal_cpu_us` closed at connect, answered 429 at the upgrade and by the gate, in turn,
    `runs` times each."""
    import django
    import uvloop

    os.environ["THROTTLE_SOCKET_OPENS_ADDRESS"] = "1/hour"
    django.setup()
    modes = {
        "closed at connect": (0, True),
        "429 at the upgrade": (10**9, True),
        "429 by the gate": (10**9, False),
    }
    costs: dict[str, list[float]] = {mode: [] for mode in modes}
    for _ in range(runs):
        for mode, (refusals, at_upgrade) in modes.items():
            used = uvloop.run(refusal_cpu_us(count, refusals, at_upgrade))
            costs[mode].append(round(used, 1))
    closed, answered, gated = (sorted(v)[len(v) // 2] for v in costs.values())
    return {
        "server CPU µs a refused handshake": costs,
        "429 / closed, medians": round(answered / closed, 2),
        "429 by the gate / at the upgrade, medians": round(gated / answered, 2),
        "load average": round(os.getloadavg()[0], 1),
    }


def spend_opens(address: str, seconds: float) -> None:
    """(In this process, on the bench's Redis.) The address's window of its open rate at its
    limit, as if it had opened its 10 already, for the next `seconds` at least."""
    from django.core.cache import cache

    from tripeaks.infra import redis_client
    from tripeaks.infra.front_gate import address_open_windows

    window = address_open_windows(address)[0]
    if window.left < seconds + 1:
        time.sleep(window.left + 0.05)
        window = address_open_windows(address)[0]
    redis_client.client().set(cache.make_key(window.key), window.allowed, ex=window.period + 1)


def server_cpu_s(pid: int) -> float:
    """The process's CPU time so far, all its threads', from the scheduler's own count
    (/proc/.../schedstat, in nanoseconds), where psutil's has 10 ms ticks: a burst is 50-150 ms."""
    total = 0
    for stat in Path(f"/proc/{pid}/task").glob("*/schedstat"):
        with contextlib.suppress(OSError, ValueError):
            total += int(stat.read_text().split()[0])
    return total / 1e9


BURST_KINDS = (
    "fresh address",
    "fresh address, the rate's opens only",
    "spent address",
    "flooding address",
)


def first_bursts(
    port: int, server: int, flood: Any, seconds: float, rate_opens: int
) -> dict[str, list[dict[str, Any]]]:
    """A flood's first burst broken down, in phases of `seconds` with no victim, BURSTS times
    each kind in turn (once in phases shorter than BURST_PHASE_S, the tests' tiny run):

    - fresh address: the attacker's `--sockets` opened once from an address that has never
      flooded (what the gate lets reach the consumer, refuses at the handshake, and closes at
      connect once it judges the address flooding);
    - the rate's opens only: as many opens as the rate allows (`rate_opens`), from another
      fresh address: the consumer's part of the burst alone;
    - spent address: `--sockets` from an address whose window has its opens spent
      (`spend_opens`): the refusals alone, answered 429 then closed at connect;
    - flooding address: the same address again at once, in the same window, now judged
      flooding: every connection closed at connect.

    The server's CPU over each phase by `server_cpu_s`."""
    bursts: dict[str, list[dict[str, Any]]] = {kind: [] for kind in BURST_KINDS}
    for n in range(BURSTS if seconds >= BURST_PHASE_S else 1):
        runs = (
            (BURST_KINDS[0], f"127.0.9.{n + 1}", 0),
            (BURST_KINDS[1], f"127.0.10.{n + 1}", rate_opens),
            (BURST_KINDS[2], f"127.0.8.{n + 1}", 0),
            (BURST_KINDS[3], f"127.0.8.{n + 1}", 0),
        )
        for kind, address, sockets in runs:
            if kind == "spent address":
                spend_opens(address, 2 * seconds)  # and the flooding burst's in the same window
            before = server_cpu_s(server)
            burst = phase(
                port,
                None,
                seconds,
                server,
                lambda until, at=address, count=sockets: flood(until, False, at, count),
            )
            burst["server CPU s"] = server_cpu_s(server) - before
            bursts[kind].append(burst)
    return bursts


async def open_and_close(
    port: int, session: str, game_id: str, count: int, hold: int
) -> Counter[str]:
    """`hold` sockets opened on the game and kept, then `count` opened and closed one after the
    other, each from an address of its own among 250 (the gate's open rate is production's);
    how the `count` were answered."""
    import websockets

    headers = {"Cookie": f"sessionid={session}", "Origin": f"http://127.0.0.1:{port}"}
    url = f"ws://127.0.0.1:{port}/ws/games/{game_id}/"
    outcomes: Counter[str] = Counter()
    async with contextlib.AsyncExitStack() as held:
        for n in range(hold):
            address = f"127.0.6.{n + 1}"
            kept = await held.enter_async_context(
                websockets.connect(url, additional_headers=headers, local_addr=(address, 0))
            )
            await kept.recv()
        for n in range(count):
            address = f"127.0.7.{n % 250 + 1}"
            try:
                async with websockets.connect(
                    url, additional_headers=headers, local_addr=(address, 0)
                ) as connection:
                    await connection.recv()
                    outcomes["opened"] += 1
            except websockets.ConnectionClosed as closed:
                outcomes[f"closed {closed.rcvd.code if closed.rcvd else '?'}"] += 1
            await asyncio.sleep(0.01)  # the server's close done before the next open
    return outcomes


def open_cost(port: int, server: int, session: str, game_id: str, count: int) -> dict[str, Any]:
    """The server's CPU over idle for a game socket opened and closed, `count` times one after
    the other: the game's only socket (its clock started and stopped each time), beside one
    socket kept open on it (the clock runs), and over the game's cap (closed 4409)."""
    from django.conf import settings

    modes = {"alone": 0, "beside another": 1, "over the game's cap": settings.SOCKETS_PER_GAME}
    out: dict[str, Any] = {}
    for mode, hold in modes.items():
        idle = cpu_seconds(server)
        time.sleep(2.0)
        idle_per_s = (cpu_seconds(server) - idle) / 2.0
        cpu, began = cpu_seconds(server), time.monotonic()
        outcomes = asyncio.run(open_and_close(port, session, game_id, count, hold))
        used = cpu_seconds(server) - cpu - idle_per_s * (time.monotonic() - began)
        out[mode] = {
            "server CPU ms an open and close": round(used * 1000 / count, 2),
            "answers": dict(outcomes),
        }
    out["load average"] = round(os.getloadavg()[0], 1)
    return out


def pin_cores(servers: list[int], client: int) -> dict[str, list[int]]:
    """The `servers` processes (every thread of each) on the first of the CPUs this process may
    use, the `client` process on the others (the processes it forks from now on inherit them)."""
    cpus = sorted(os.sched_getaffinity(0))
    if len(cpus) < 2:
        raise SystemExit("--pin needs two cores or more")
    for pid in servers:
        for thread in Path(f"/proc/{pid}/task").iterdir():
            with contextlib.suppress(ProcessLookupError):  # (a thread that ended meanwhile)
                os.sched_setaffinity(int(thread.name), cpus[:1])
    os.sched_setaffinity(client, cpus[1:])
    return {"server CPUs": cpus[:1], "client CPUs": cpus[1:]}


def serve_clocked(port: int, log: str) -> None:
    """(The victims' server, a process of its own.) The stack's server (tripeaks.stack.serve's
    options) whose protocol notes, for each move answered (a POST to .../moves), when its
    connection was made (monotonic) and the event loop's CPU from then to the answer (its thread's:
    the protocol's calls are the loop's): a line of
    `log` each, as it is answered (Uvicorn ends its process with the signal that stops it)."""
    import uvicorn

    from tripeaks.stack.header_timeout import HeaderTimeoutProtocol
    from tripeaks.stack.serve import APPLICATION, uvicorn_options

    class Clocked(HeaderTimeoutProtocol):
        made = (0.0, 0.0)

        def connection_made(self, transport: Any) -> None:
            self.made = (time.monotonic(), time.thread_time())
            super().connection_made(transport)

        def on_response_complete(self) -> None:
            super().on_response_complete()
            if self.scope["method"] == "POST" and str(self.scope["path"]).endswith("/moves"):
                used = time.thread_time() - self.made[1]
                lines.write(f"{self.made[0]} {used}\n")

    with Path(log).open("a", buffering=1) as lines:
        uvicorn.run(APPLICATION, port=port, **{**uvicorn_options(), "http": Clocked})


def start_clocked(port: int, env: dict[str, str], log: str) -> Any:
    """`serve_clocked` on `port`, once it answers."""
    import subprocess
    import urllib.request

    command = [str(ROOT / ".venv/bin/python"), "-m", "bench.socket_flood"]
    command += ["--serve-clocked", str(port), "--clock-log", log]
    out = (Path(log).parent / "tripeaks-bench-servers.log").open("ab")
    server = subprocess.Popen(command, cwd=ROOT, env=env, stdout=out, stderr=out)
    deadline = time.monotonic() + SERVER_START_S
    while True:
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/api/health", timeout=2).read()
            return server
        except OSError:
            if time.monotonic() > deadline or server.poll() is not None:
                raise SystemExit(f"server on port {port} did not come up") from None
            time.sleep(0.2)


def clocked(log: str, rounds: list[dict[str, Any]]) -> dict[str, Any]:
    """The server's event loop's CPU while each victim's move was in it, quiet and under the flood (each
    phase's moves by when their connection was made): p50 and p99 pooled, their ratios, and each
    round's p99 ratio."""
    moves = [tuple(map(float, line.split())) for line in Path(log).read_text().splitlines()]
    cpu: dict[str, list[list[float]]] = {"quiet": [], "flood": []}
    for round_ in rounds:
        for kind in cpu:
            began, ended = round_[kind].pop("_span")
            cpu[kind].append([c for made, c in moves if began <= made <= ended])
    pooled_cpu = {kind: [c for r in runs for c in r] for kind, runs in cpu.items()}
    return {
        "moves quiet / flood": [len(v) for v in pooled_cpu.values()],
        "p50 / p99 ms quiet": [
            round(percentile(pooled_cpu["quiet"], q) * 1000, 2) for q in (0.5, 0.99)
        ],
        "p50 / p99 ms flood": [
            round(percentile(pooled_cpu["flood"], q) * 1000, 2) for q in (0.5, 0.99)
        ],
        "p99 flood / quiet": ratio(pooled_cpu["flood"], pooled_cpu["quiet"], 0.99),
        "p99 flood / quiet, each round": [
            ratio(f, q, 0.99) for q, f in zip(cpu["quiet"], cpu["flood"], strict=True)
        ],
    }


def arguments(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--sockets", type=int, default=500)
    parser.add_argument("--seconds", type=float, default=15)
    parser.add_argument("--port", type=int, default=8797)
    parser.add_argument(
        "--retry", action="store_true", help="open each refused socket again a second later"
    )
    parser.add_argument("--victims", type=int, default=3, help="players moving meanwhile")
    parser.add_argument(
        "--rounds",
        type=int,
        default=ROUNDS,
        help=f"quiet and flood phases, in turn (default {ROUNDS})",
    )
    parser.add_argument(
        "--attacker-address", default="127.0.0.2", help="the loopback address the attacker uses"
    )
    parser.add_argument(
        "--elsewhere",
        action="store_true",
        help="flood a second server process (same database and Redis), not the victims': what"
        " is left of their slowdown is the machine's, the attacker's client on the same cores",
    )
    parser.add_argument(
        "--connection-cost",
        type=int,
        metavar="N",
        help="only measure the server's CPU for N refused handshakes, closed at connect and"
        " answered 429, in this process (3 runs each, alternating)",
    )
    parser.add_argument(
        "--pin",
        action="store_true",
        help="the servers on one core, the attacker's and the victims' clients on the others",
    )
    parser.add_argument("--serve-clocked", type=int, metavar="PORT", help=argparse.SUPPRESS)
    parser.add_argument("--clock-log", help=argparse.SUPPRESS)
    parser.add_argument(
        "--open-cost",
        type=int,
        default=0,
        metavar="N",
        help="last, the server's CPU for a game socket opened and closed, N times one after the"
        " other: alone on its game, beside one kept open, over the game's cap",
    )
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = arguments(argv)
    if args.serve_clocked:
        serve_clocked(args.serve_clocked, args.clock_log)
        return 0
    env = solver_bench_env(BENCH_DB, "BENCH_SOCKETS_REDIS_URL", "redis://127.0.0.1:6379/2")
    if args.connection_cost:
        os.environ.update(env)
        print(json.dumps(connection_cost(args.connection_cost, 3), indent=1, ensure_ascii=False))
        return 0
    env.pop("SOCKETS_PER_ADDRESS")  # the production caps, all three
    for name in FRONT_GATE_RATES:  # and the front gate's production rates
        env.pop(name)
    os.environ.update(env)
    create_migrated_database(env["DATABASE_URL"], env)
    *victims, (attacker_session, attacker_token) = setup(args.victims)
    tokens = [token for _, token in victims]
    clock_log = str(Path(tempfile.mkdtemp(prefix="socket-flood-")) / "moves.json")
    servers = [start_clocked(args.port, env, clock_log)]
    if args.elsewhere:
        servers += start_servers(1, args.port + 1, env)
    target = args.port + 1 if args.elsewhere else args.port
    pinned = pin_cores([s.pid for s in servers], os.getpid()) if args.pin else None
    try:
        status, game = call(args.port, attacker_token, "POST", "/api/games", {"mode": "daily"})
        assert status == 201, (status, game)

        def flood(
            until: float, retry: bool = args.retry, address: str = "", sockets: int = 0
        ) -> Any:
            return attacker(
                target,
                attacker_session,
                game["id"],
                sockets or args.sockets,
                until,
                retry,
                address or args.attacker_address,
            )

        server = servers[0].pid
        rounds = [
            {
                "quiet": phase(args.port, tokens, args.seconds, server, latencies=True),
                "flood": phase(args.port, tokens, args.seconds, server, flood, latencies=True),
            }
            for _ in range(args.rounds)
        ]
        # What refusing an open costs the server, with nothing else running: the server idle,
        # then the attacker's opens, each refused one again a second later.
        cost_s = min(COST_PHASE_S, args.seconds)
        idle = phase(args.port, None, cost_s, server)
        alone = phase(args.port, None, cost_s, server, lambda until: flood(until, True))
        burst_s = min(BURST_PHASE_S, args.seconds)
        from tripeaks.infra.front_gate import address_open_windows

        rate_opens = address_open_windows(args.attacker_address)[0].allowed
        first = first_bursts(args.port, server, flood, burst_s, rate_opens)
        if args.open_cost:
            time.sleep(1.0)  # the last burst's sockets closed
            costs = open_cost(args.port, server, attacker_session, game["id"], args.open_cost)
    finally:
        stop_servers(servers)
    report: dict[str, Any] = {
        "server loop's CPU while a move was in it": clocked(clock_log, rounds)
    }
    if pinned:
        report["pinned"] = pinned
    report.update({"rounds": rounds, "all rounds": pooled(rounds)})
    opens = sum(alone["attacker's socket opens"].values())
    alone["server CPU ms per open over idle"] = round(
        (alone["server CPU s"] - idle["server CPU s"]) * 1000 / max(opens, 1), 3
    )
    report["server idle"], report["refused opens alone"] = idle, alone
    idle_per_s = idle["server CPU s"] / cost_s
    report["a flood's first burst alone"] = {
        kind: {
            "attacker's socket opens": [b["attacker's socket opens"] for b in bursts],
            "server CPU ms a burst over idle": [
                round((b["server CPU s"] - idle_per_s * burst_s) * 1000, 1) for b in bursts
            ],
        }
        for kind, bursts in first.items()
    }
    if args.open_cost:
        report["a socket opened and closed"] = costs
    print(json.dumps(report, indent=1))
    statuses = {s for r in rounds for p in r.values() for s in p["victim's REST moves"]["statuses"]}
    return 0 if statuses <= {200, 201} else 1


if __name__ == "__main__":
    sys.exit(main())
