"""Celery under attack: does mail keep up while the solver's queue is flooded, and stay bounded?

    .venv/bin/python -m bench.celery_load [--minutes 10] [--attackers 6] [--mail-every 5]
                                          [--sample-every 10] [--json out.json]

1. Starts `make run`'s stack (`python -m tripeaks.stack.run`, bench/idle_stack.py) in a fresh
   VAR_DIR, its mail sent to an SMTP server of this bench (aiosmtpd on loopback), the rates for
   starts and sign-ups lifted (every client is 127.0.0.1), pools at their defaults.
2. Attack, for `--minutes`: `--attackers` accounts start numbered deals on the hard layouts (each
   new deal asks the solver for its verdict and par: `solve_deal`) and random deals on every
   layout (draining pools: `refill_random_pool`), as fast as they are answered.
3. Meanwhile a new player signs up with an email address every `--mail-every` seconds: the
   verification mail is queued (urgent) when the sign-up commits; its latency is the time from
   the sign-up's answer to the message's arrival at the SMTP server.
4. Every `--sample-every` seconds: the length of each queue (`urgent`, `celery`, `solver`) and
   the resident memory of each worker (its main process and children summed).

Prints mail latency p50 / p99 / max and mails not received, queue lengths (max, last), worker
RSS (first, max, last), starts answered by status. Exit 1 if a mail took 60 s or more or never
came.
"""

from __future__ import annotations

import argparse
import itertools
import json
import random
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from collections import Counter
from pathlib import Path
from typing import Any

import psutil
import redis
from aiosmtpd.controller import Controller

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.idle_stack import DEFAULT_FLOOR, healthy, start_stack, stop, wait_until  # noqa: E402
from bench.play_load import FRONT_GATE_RATES  # noqa: E402
from bench.stack_template import from_environment  # noqa: E402
from tests.ports import free_port  # noqa: E402
from tripeaks.stack.forked import NAME_PREFIX  # noqa: E402

HARD_LAYOUTS = ("torii", "waves", "stone-wall", "checkerboard", "pagoda", "classic")
QUEUES = ("urgent", "celery", "solver")
MAIL_LIMIT_S = 60.0


class Inbox:
    """Arrival times by recipient."""

    def __init__(self) -> None:
        self.arrived: dict[str, float] = {}

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        for rcpt in envelope.rcpt_tos:
            self.arrived.setdefault(rcpt, time.monotonic())
        return "250 accepted"


def call(port: int, path: str, body: dict[str, Any], token: str | None = None) -> tuple[int, Any]:
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}{path}",
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json"}
        | ({"Authorization": f"Token {token}"} if token else {}),
        method="POST",
    )
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            return answer.status, json.loads(answer.read() or b"null")
    except urllib.error.HTTPError as error:
        try:
            return error.code, json.loads(error.read())
        except ValueError:
            return error.code, None
    except OSError:
        return 0, None


def account(port: int, name: str, email: str = "") -> str:
    password = "a long enough password 1"
    body = {"username": name, "password": password} | ({"email": email} if email else {})
    status, _ = call(port, "/api/auth/signup", body)
    assert status == 201, (status, name)
    status, answer = call(port, "/api/auth/token", {"username": name, "password": password})
    assert status == 200, status
    return str(answer["token"])


def attacker(
    port: int, token: str, until: float, statuses: Counter[str], layouts: list[str]
) -> None:
    numbers = itertools.count(random.randrange(1, 40_000))
    while time.monotonic() < until:
        if random.random() < 0.5:
            body = {
                "mode": "numbered",
                "number": next(numbers),
                "layout": random.choice(HARD_LAYOUTS),
            }
        else:
            wrap = random.random() < 0.5
            body = {"mode": "random", "layout": random.choice(layouts), "rules": {"wrap": wrap}}
        status, answer = call(port, "/api/games", body, token)
        code = answer.get("code", "") if status >= 400 and isinstance(answer, dict) else ""
        statuses[f"{body['mode']} {status} {code}".strip()] += 1


def signups(port: int, until: float, every: float, sent: dict[str, float]) -> None:
    for n in itertools.count():
        if time.monotonic() >= until:
            return
        email = f"player{n}@example.test"
        status, _ = call(
            port,
            "/api/auth/signup",
            {"username": f"mail{n}", "password": "a long enough password 1", "email": email},
        )
        if status == 201:
            sent[email] = time.monotonic()
        time.sleep(every)


def worker_rss(root: psutil.Process) -> dict[str, float]:
    """MB resident of each worker: its main process and its pool's children."""
    sizes: dict[str, float] = {}
    for process in root.children(recursive=True):
        try:
            # make run forks its processes and names each (tripeaks/stack/forked.py).
            kind = process.name().removeprefix(NAME_PREFIX)
            if kind not in {"worker", "solver"} or process.parent().name() == process.name():
                continue  # not a worker, or a worker's child (counted with its worker)
            name = "solver worker" if kind == "solver" else "worker"
            tree = [process, *process.children(recursive=True)]
            sizes[name] = sum(p.memory_info().rss for p in tree) / 2**20
        except psutil.Error:
            continue
    return sizes


def redis_client(var: Path) -> redis.Redis:
    from tripeaks.stack.run import EmbeddedRedis

    return redis.Redis(unix_socket_path=str(EmbeddedRedis(var / "redis").socket))


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else float("nan")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--minutes", type=float, default=10)
    parser.add_argument("--attackers", type=int, default=6)
    parser.add_argument("--mail-every", type=float, default=5)
    parser.add_argument("--sample-every", type=float, default=10)
    parser.add_argument("--layouts", default="*", help="RANDOM_POOL_LAYOUTS (default: all)")
    parser.add_argument("--floor", type=int, default=DEFAULT_FLOOR, help="RANDOM_POOL_SIZE")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args(argv)
    inbox = Inbox()
    smtp = Controller(inbox, hostname="127.0.0.1", port=free_port())
    smtp.start()
    lifted = {
        "EMAIL_URL": f"smtp://127.0.0.1:{smtp.port}",
        "THROTTLE_SIGNUP": "100000/hour",
        "THROTTLE_ANON": "100000/min",
        "THROTTLE_USER": "100000/min",
        "THROTTLE_GAME_STARTS": "100000/min",
        "THROTTLE_GAME_STARTS_ADDRESS": "100000/min",
        "PASSWORD_HASH_ITERATIONS": "1000",
        "ALLOW_WEAK_PASSWORD_HASHES": "1",
        # The front gate's rates (infra/front_gate.py): every simulated player is 127.0.0.1.
        **dict.fromkeys(FRONT_GATE_RATES, "1000000/s"),
    }
    with tempfile.TemporaryDirectory(prefix="celery-load-") as scratch:
        var, log, port = Path(scratch) / "var", Path(scratch) / "run.log", free_port()
        process = start_stack(
            var, port, args.floor, args.layouts, log, from_environment(), **lifted
        )
        try:
            wait_until(lambda: healthy(port), 240, "a healthy stack", process)
            result = attack(args, port, var, psutil.Process(process.pid), inbox)
        except (SystemExit, AssertionError) as failure:
            print(f"failed: {failure!r}; the stack's log:\n{log.read_text()[-3000:]}")
            return 1
        finally:
            stop(process)
            smtp.stop()
    if args.json:
        args.json.write_text(json.dumps(result, indent=2) + "\n")
    late = result["mail"]["max_s"] >= MAIL_LIMIT_S or result["mail"]["lost"]
    return 1 if late else 0


def attack(
    args: argparse.Namespace, port: int, var: Path, root: psutil.Process, inbox: Inbox
) -> dict[str, Any]:
    layouts = layout_names(args.layouts)
    tokens = [account(port, f"attacker{n}") for n in range(args.attackers)]
    until = time.monotonic() + 60 * args.minutes
    statuses: Counter[str] = Counter()
    sent: dict[str, float] = {}
    threads = [
        threading.Thread(target=attacker, args=(port, token, until, statuses, layouts))
        for token in tokens
    ]
    threads.append(threading.Thread(target=signups, args=(port, until, args.mail_every, sent)))
    for thread in threads:
        thread.start()
    broker = redis_client(var)
    samples: list[dict[str, Any]] = []
    started = time.monotonic()
    while time.monotonic() < until:
        samples.append(
            {
                "t": round(time.monotonic() - started),
                "queues": {q: broker.llen(q) for q in QUEUES},
                "rss_mb": worker_rss(root),
            }
        )
        print(json.dumps(samples[-1]), flush=True)
        time.sleep(args.sample_every)
    for thread in threads:
        thread.join()
    # A mail still on its way is waited for, up to the limit (it used to be the whole limit).
    deadline = time.monotonic() + MAIL_LIMIT_S
    while any(e not in inbox.arrived for e in sent) and time.monotonic() < deadline:
        time.sleep(0.1)
    return summary(args, sent, inbox, samples, statuses)


def summary(
    args: argparse.Namespace,
    sent: dict[str, float],
    inbox: Inbox,
    samples: list[dict[str, Any]],
    statuses: Counter[str],
) -> dict[str, Any]:
    latencies = [inbox.arrived[e] - t for e, t in sent.items() if e in inbox.arrived]
    mail = {
        "sent": len(sent),
        "lost": len(sent) - len(latencies),
        "p50_s": round(percentile(latencies, 0.5), 3),
        "p99_s": round(percentile(latencies, 0.99), 3),
        "max_s": round(max(latencies, default=float("nan")), 3),
    }
    queues = {
        q: {"max": max(s["queues"][q] for s in samples), "last": samples[-1]["queues"][q]}
        for q in QUEUES
    }
    rss = {
        name: {
            "first": round(samples[0]["rss_mb"].get(name, 0), 1),
            "max": round(max(s["rss_mb"].get(name, 0) for s in samples), 1),
            "last": round(samples[-1]["rss_mb"].get(name, 0), 1),
        }
        for name in ("worker", "solver worker")
    }
    result = {
        "minutes": args.minutes,
        "attackers": args.attackers,
        "mail": mail,
        "queues": queues,
        "worker_rss_mb": rss,
        "starts": dict(statuses),
    }
    print(json.dumps(result, indent=2))
    return result


def layout_names(layouts: str) -> list[str]:
    if layouts == "*":
        from tripeaks.engine.layouts import LAYOUTS

        return list(LAYOUTS)
    return [name for name in layouts.split(",") if name]


if __name__ == "__main__":
    sys.exit(main())
