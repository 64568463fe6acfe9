"""Idle stack: `make run`'s whole stack with its pools full and nobody playing, and what it costs.

    .venv/bin/python -m bench.idle_stack [--seconds 60] [--floor N] [--layouts '*']
                                         [--fill-within 3600] [--limit 2.0] [--json out.json]

1. Starts `python -m tripeaks.stack.run` on a free port in a fresh VAR_DIR: its embedded
   PostgreSQL and Redis, migrate, the two workers (`urgent,celery`; `solver`), the server and
   beat, exactly as `make run` does (DEBUG on, as `make run`). With `STACK_TEMPLATE` set (the
   tests), the VAR_DIR is a copy of that prepared one (bench/stack_template.py): a second start.
2. Waits until every random pool (`--layouts` x 8 rule sets and starts) holds `--floor` deals
   (RANDOM_POOL_SIZE; nobody plays, so every pool's target is its floor) and prints the time from
   the start to full: the time to fill every pool from a fresh start.
3. Waits `--settle` seconds, then samples the CPU time (user + system) of every process of the
   stack (the supervisor, the workers and their children, the server, beat, Redis,
   PostgreSQL's postmaster and every backend) once a second for `--seconds`, and prints it as a
   share of one core, per process kind and in total. A process that ends in the window counts
   up to its last sample.

With `--attach PID --port P --var VAR_DIR` it measures a stack that is running already (PID its
`make run` process, P its port, VAR_DIR its data; started with `--floor` and `--layouts` as its
RANDOM_POOL_SIZE and RANDOM_POOL_LAYOUTS) from step 2 on, and leaves it running: the test of
`make run`'s second start measures the stack it started (tests/foundation/test_make_run_restart.py).

Exit 1 when the pools are not full within `--fill-within` seconds or the idle total is `--limit`
percent of a core or more.
"""

from __future__ import annotations

import argparse
import json
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections import defaultdict
from pathlib import Path
from typing import Any

import psutil
import psycopg

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.stack_template import copy_into, from_environment, stack_env  # noqa: E402
from tests.ports import free_port  # noqa: E402
from tripeaks.stack.forked import NAME_PREFIX  # noqa: E402

RULE_SETS_AND_STARTS = 8
# RANDOM_POOL_SIZE's default (tripeaks/config/settings.py): the floor every pool keeps.
DEFAULT_FLOOR = 5


def start_stack(
    var: Path,
    port: int,
    floor: int,
    layouts: str,
    log: Path,
    template: Path | None = None,
    **extra: str,
) -> subprocess.Popen[bytes]:
    """`make run`'s stack in `var`; on a copy of `template` (bench/stack_template.py) if given:
    a second start's steps instead of a first's."""
    if template is not None:
        copy_into(var, template)
    env = stack_env(var, RANDOM_POOL_SIZE=str(floor), RANDOM_POOL_LAYOUTS=layouts, **extra)
    with log.open("ab") as out:
        return subprocess.Popen(
            [sys.executable, "-m", "tripeaks.stack.run", "--port", str(port)],
            cwd=ROOT,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=subprocess.STDOUT,
        )


def healthy(port: int) -> bool:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/health", timeout=5) as answer:
            return bool(json.loads(answer.read())["status"] == "ok")
    except (OSError, ValueError, KeyError):
        return False


def full_pools(var: Path, floor: int, pools: int) -> int:
    """How many pools hold at least `floor` unclaimed deals a worker made (a floor of 0: all of
    them). The shipped deals loaded at the start (`Deal.shipped`) do not count: the
    fill measured is the workers', and the idle sample must not catch them still filling."""
    if floor == 0:
        return pools
    try:
        with psycopg.connect(host=str(var / "postgres"), user="postgres", dbname="tripeaks") as db:
            row = db.execute(
                "SELECT count(*) FROM (SELECT 1 FROM play_deal WHERE source = 'random' AND NOT"
                " claimed AND NOT shipped GROUP BY rules_key, layout HAVING count(*) >= %s)"
                " AS pools",
                [floor],
            ).fetchone()
    except psycopg.Error:
        return 0
    return int(row[0]) if row else 0


def kind(process: psutil.Process) -> str:
    try:
        line = " ".join(process.cmdline())
        name = process.name()
    except psutil.Error:
        return "gone"
    # make run forks its processes and names each (tripeaks/stack/forked.py).
    named = {"solver": "solver worker", "worker": "worker", "beat": "beat", "web": "web"}
    if name.startswith(NAME_PREFIX) and name.removeprefix(NAME_PREFIX) in named:
        return named[name.removeprefix(NAME_PREFIX)]
    if "tripeaks.stack.run" in line:
        return "supervisor"
    if "redis" in name or "redis" in line:
        return "redis"
    if "postgres" in name or "postgres" in line:
        return "postgres"
    return name


def stack_processes(root: psutil.Process, var: Path) -> list[psutil.Process]:
    found = [root, *root.children(recursive=True)]
    pid_file = var / "postgres" / "postmaster.pid"
    if pid_file.exists():
        postmaster = psutil.Process(int(pid_file.read_text().split()[0]))
        found += [postmaster, *postmaster.children(recursive=True)]
    return list({process.pid: process for process in found}.values())


def cpu_seconds(process: psutil.Process) -> float:
    times = process.cpu_times()
    return float(times.user + times.system)


def sample_cpu(root: psutil.Process, var: Path, seconds: float) -> dict[str, float]:
    """CPU seconds used in the window, by process kind (a process new in the window counts
    from its start: its whole CPU time, which it used inside the window)."""
    first: dict[int, float] = {}
    last: dict[int, float] = {}
    kinds: dict[int, str] = {}
    started = time.monotonic()
    window_start = time.time()
    while True:
        for process in stack_processes(root, var):
            try:
                used = cpu_seconds(process)
                if process.pid not in first:
                    new = process.create_time() > window_start
                    first[process.pid] = 0.0 if new else used
                    kinds[process.pid] = kind(process)
                last[process.pid] = used
            except psutil.Error:
                continue
        if time.monotonic() - started >= seconds:
            break
        time.sleep(1.0)
    by_kind: dict[str, float] = defaultdict(float)
    for pid, used in last.items():
        by_kind[kinds[pid]] += used - first[pid]
    return dict(by_kind)


def wait_until(check: Any, seconds: float, what: str, process: subprocess.Popen[bytes]) -> float:
    started = time.monotonic()
    while not check():
        if process.poll() is not None:
            raise SystemExit(f"the stack exited ({process.returncode}) before {what}")
        if time.monotonic() - started > seconds:
            raise SystemExit(f"no {what} within {seconds:.0f} s")
        time.sleep(1.0)
    return time.monotonic() - started


def stop(process: subprocess.Popen[bytes]) -> None:
    process.send_signal(signal.SIGINT)
    try:
        process.wait(60)
    except subprocess.TimeoutExpired:
        process.kill()


def pools_of(args: argparse.Namespace) -> int:
    return layout_count(args.layouts) * RULE_SETS_AND_STARTS


def layout_count(layouts: str) -> int:
    if layouts == "*":
        sys.path.insert(0, str(ROOT))
        from tripeaks.engine.layouts import LAYOUTS

        return len(LAYOUTS)
    return len([name for name in layouts.split(",") if name])


def report(args: argparse.Namespace, fill_s: float, used: dict[str, float]) -> dict[str, Any]:
    share = {name: 100 * cpu / args.seconds for name, cpu in sorted(used.items())}
    total = sum(share.values())
    for name, percent in share.items():
        print(f"  {name:<16} {percent:6.2f} % of a core")
    print(f"idle stack: {total:.2f} % of a core over {args.seconds:.0f} s (limit {args.limit} %)")
    return {"fill_seconds": round(fill_s, 1), "idle_percent": round(total, 3), "by_kind": share}


class Attached:
    """A running stack this bench did not start, watched as `wait_until` watches a started one."""

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self.returncode: int | None = None
        self.process = psutil.Process(pid)

    def poll(self) -> int | None:
        running = self.process.is_running() and self.process.status() != psutil.STATUS_ZOMBIE
        if not running:
            self.returncode = -1
        return self.returncode


def measure(args: argparse.Namespace, process: Any, var: Path, port: int) -> tuple[float, Any]:
    """Steps 2 and 3 on the stack of `process`: seconds to full pools, CPU by process kind."""
    floor, pools = args.floor, pools_of(args)
    up = wait_until(lambda: healthy(port), 240, "a healthy stack", process)
    print(f"healthy after {up:.1f} s; filling {pools} pools to {floor} deals each")
    fill = up + wait_until(
        lambda: full_pools(var, floor, pools) >= pools,
        args.fill_within,
        "full pools",
        process,
    )
    print(f"every pool full {fill:.1f} s after the start")
    time.sleep(args.settle)
    return fill, sample_cpu(psutil.Process(process.pid), var, args.seconds)


def started_and_measured(args: argparse.Namespace) -> tuple[float, Any] | None:
    """Steps 1 to 3 on a stack of its own, stopped afterwards; None when it failed."""
    with tempfile.TemporaryDirectory(prefix="idle-stack-") as scratch:
        var, log, port = Path(scratch) / "var", Path(scratch) / "run.log", free_port()
        process = start_stack(var, port, args.floor, args.layouts, log, from_environment())
        try:
            return measure(args, process, var, port)
        except SystemExit as failure:
            print(f"failed: {failure}; the stack's log:\n{log.read_text()[-3000:]}")
            return None
        finally:
            stop(process)


def attached_and_measured(args: argparse.Namespace) -> tuple[float, Any] | None:
    try:
        return measure(args, Attached(args.attach), args.var, args.port)
    except SystemExit as failure:
        print(f"failed: {failure} (the stack's log is its starter's)")
        return None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--settle", type=float, default=30, help="idle before sampling (s)")
    parser.add_argument("--floor", type=int, default=DEFAULT_FLOOR, help="RANDOM_POOL_SIZE")
    parser.add_argument("--layouts", default="*", help="RANDOM_POOL_LAYOUTS (default: all)")
    parser.add_argument("--fill-within", type=float, default=3600)
    parser.add_argument("--limit", type=float, default=2.0, help="percent of one core")
    parser.add_argument("--json", type=Path)
    parser.add_argument("--attach", type=int, metavar="PID", help="a running stack's make run")
    parser.add_argument("--port", type=int, help="with --attach: the stack's port")
    parser.add_argument("--var", type=Path, help="with --attach: the stack's VAR_DIR")
    args = parser.parse_args(argv)
    if args.attach and (args.port is None or args.var is None):
        parser.error("--attach needs the stack's --port and --var")
    measured = attached_and_measured(args) if args.attach else started_and_measured(args)
    if measured is None:
        return 1
    fill, used = measured
    result = report(args, fill, used) | {"pools": pools_of(args), "floor": args.floor}
    if args.json:
        args.json.write_text(json.dumps(result, indent=2) + "\n")
    return 0 if result["idle_percent"] < args.limit else 1


if __name__ == "__main__":
    sys.exit(main())
