"""The first card on a slow line, before and after, side by side in one run (issue #38, item 9).

    .venv/bin/python -m bench.first_card [--rounds 3] [--baseline main] [--languages en,de,ne]
                                         [--port P]

Two servers set up as `make run` sets up its own (DEBUG on, `collectstatic` with the project's
storage: hashed, gzipped names, cached for a year), on one database made anew (a copy of the
migrated template, bench/database.py) and one Redis database (`BENCH_REDIS_URL`, default
redis://127.0.0.1:6379/7): one serves this checkout, the other the `--baseline` commit
(`git archive`, default main; it must have the same migrations); with `STACK_TEMPLATE` set (the
tests) each collects over a copy of that prepared VAR_DIR's files (bench/stack_template.py).
Chromium (Debian's headless build) opens each page cold (a new context, the cache off) on
Lighthouse's "slow 4G" (CDP's throttling: 1.6 Mbps down, 750 kbps up, 150 ms latency), the two
servers taking turns round by round, and reads:

- **first card**: when a card of the table is first in the page (a MutationObserver set before
  the page's own scripts: the same measure for both trees, whatever marks they make);
- **live** (the game page): when the table takes moves (`window.__tpGame` set);
- the bytes on the wire and the requests, once the network is idle.

Two pages: a newcomer's first screen (`/`, signed out: the face-down table) and a player's game
page (`/#/play`, a guest with numbered deal 1 in progress), in each language. The figures are
medians over the rounds; the machine's load average is printed with them (absolute times on a
loaded machine are noise; the ratio of the two servers in one run is the figure).
"""

from __future__ import annotations

import argparse
import os
import secrets
import socket
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench.database import create_migrated_database
from bench.play_load import NO_PING_WAIT
from bench.stack_template import copy_into, from_environment

ROOT = Path(__file__).resolve().parent.parent
PYTHON = str(ROOT / ".venv/bin/python") if (ROOT / ".venv/bin/python").exists() else sys.executable
BENCH_DB = "tripeaks_bench_first_card"
CHROMIUM = "/usr/bin/chromium-headless-shell"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-quic",
]
SLOW_LINE = {
    "offline": False,
    "latency": 150,
    "downloadThroughput": 1_600_000 / 8,
    "uploadThroughput": 750_000 / 8,
}
PAGES = {"newcomer": "/", "game page": "/#/play"}
# A server's process collects its tree's static files, then serves (tripeaks.stack.serve): Django
# is set up once, where `manage.py collectstatic` before the server set it up twice (1.5 s of CPU
# each time). Nothing answers the readiness probe before the collect is done.
# Over a copy of the prepared VAR_DIR's files (the tests: STACK_TEMPLATE), make run's own
# collect, which finds the copy's stamp and collects nothing (its second start's); the ignoring
# collect, which post-processed its files again, was 0.55 s of CPU a server.
COLLECT_AND_SERVE = """
import os, sys
import django
from django.core.management import call_command
django.setup()
ignore = ["admin", "rest_framework", "drf_spectacular_sidecar"]
try:
    from tripeaks.stack.prepare import collect_static
except ImportError:  # a tree older than make run's stamped collect
    collect_static = None
if os.environ.get("STACK_TEMPLATE") and collect_static is not None:
    collect_static(call_command, "--noinput", "-v0")
else:
    call_command("collectstatic", "--noinput", "-v0", *(f"--ignore={name}" for name in ignore))
from tripeaks.stack.serve import main
main(["--port", sys.argv[1]])
"""
# Set before the page's scripts: when a card is first drawn, and when the game is live.
WATCH = """(() => {
  new MutationObserver((_, seen) => {
    if (document.querySelector('.table .pc svg')) { window.__tpCardMs = performance.now(); seen.disconnect(); }
  }).observe(document, { childList: true, subtree: true });
  let game;
  Object.defineProperty(window, '__tpGame', { configurable: true,
    get: () => game, set: (g) => { game = g; window.__tpLiveMs ??= performance.now(); } });
})();"""
FIGURES = """() => {
  const nav = performance.getEntriesByType('navigation')[0];
  const res = performance.getEntriesByType('resource');
  return { card: window.__tpCardMs, live: window.__tpLiveMs ?? null, requests: 1 + res.length,
    wire: nav.transferSize + res.reduce((n, e) => n + e.transferSize, 0) };
}"""


def bench_env(database_url: str) -> dict[str, str]:
    env = dict(os.environ)
    env.update(
        DATABASE_URL=database_url,
        REDIS_URL=os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/7"),
        DEBUG="1",  # as `make run` has it
        SECRET_KEY=secrets.token_urlsafe(50),
        DEAL_SECRET=secrets.token_urlsafe(32),
        ALLOWED_HOSTS="127.0.0.1,localhost",
        LOG_LEVEL="WARNING",
        DJANGO_SETTINGS_MODULE="tripeaks.config.settings",
        THROTTLE_GUESTS_ADDRESS="1000/hour",  # a guest per server and run, all from 127.0.0.1
    )
    env.update(NO_PING_WAIT)  # no worker here: the readiness probe need not wait for its ping
    return env


def export_tree(ref: str, into: Path) -> Path:
    """The files of commit `ref` in `into` (git archive: the checkout is not touched)."""
    into.mkdir(parents=True)
    archive = into.parent / "baseline.tar"
    subprocess.run(["git", "archive", "-o", str(archive), ref], cwd=ROOT, check=True)
    with tarfile.open(archive) as tar:
        tar.extractall(into, filter="data")
    return into


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def port_free(port: int) -> int:
    with socket.socket() as probe:
        if probe.connect_ex(("127.0.0.1", port)) == 0:
            raise SystemExit(
                f"port {port} is taken (a server left from an earlier run?); use --port"
            )
    return port


@contextmanager
def serving(tree: Path, static_root: Path, env: dict[str, str], port: int) -> Iterator[str]:
    """The site of `tree`, its static files collected into `static_root`; yields its URL."""
    env = {**env, "STATIC_ROOT": str(static_root), "PYTHONPATH": str(tree)}
    if (template := from_environment()) is not None:
        # The tests (their baseline is this commit): the prepared VAR_DIR's collected files
        # first, so that collectstatic copies and gzips only what is newer than them. Two cold
        # collects were a third of the tiny run's CPU.
        copy_into(static_root.parent, template, database=False)
    command = [PYTHON, "-c", COLLECT_AND_SERVE, str(port)]
    static_root.parent.mkdir(parents=True, exist_ok=True)
    log = (static_root.parent / "server.log").open("ab")
    server = subprocess.Popen(command, cwd=tree, env=env, stdout=log, stderr=log)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 120  # the collect's time too (a cold one, no template)
        while True:
            try:
                urllib.request.urlopen(f"{url}/api/health", timeout=2).read()
                break
            except OSError:
                if time.monotonic() > deadline or server.poll() is not None:
                    said = (static_root.parent / "server.log").read_text(errors="replace")
                    raise SystemExit(
                        f"the server of {tree} did not come up:\n{said[-3000:]}"
                    ) from None
                time.sleep(0.2)
        yield url
    finally:
        server.terminate()
        server.wait(timeout=20)
        log.close()


def a_player_with_a_deal(browser: Any, url: str) -> dict[str, Any]:
    """A guest with numbered deal 1 in progress, made through `url`; its storage state."""
    context = browser.new_context(base_url=url)
    page = context.new_page()
    page.goto("/accounts/login/")
    token = next(c["value"] for c in context.cookies() if c["name"] == "csrftoken")
    headers = {"X-CSRFToken": token}
    assert page.request.post("/api/auth/guest", headers=headers).ok
    token = next(c["value"] for c in context.cookies() if c["name"] == "csrftoken")
    body = {"mode": "numbered", "number": 1, "rules": {"wrap": True}}
    started = page.request.post("/api/games", data=body, headers={"X-CSRFToken": token})
    assert started.status == 201, started.text()
    state: dict[str, Any] = context.storage_state()
    context.close()
    return state


def cold_load(
    browser: Any, url: str, path: str, language: str, state: dict[str, Any] | None
) -> dict[str, Any]:
    """One page loaded with nothing cached over the slow line; its figures."""
    context = browser.new_context(
        base_url=url, storage_state=state, viewport={"width": 390, "height": 844}
    )
    try:
        context.add_cookies([{"name": "django_language", "value": language, "url": url}])
        context.add_init_script(WATCH)
        page = context.new_page()
        cdp = context.new_cdp_session(page)
        cdp.send("Network.enable")
        cdp.send("Network.setCacheDisabled", {"cacheDisabled": True})
        cdp.send("Network.emulateNetworkConditions", SLOW_LINE)
        page.goto(path, timeout=60_000)
        page.wait_for_function("() => window.__tpCardMs !== undefined", timeout=60_000)
        if path != "/":
            page.wait_for_function("() => window.__tpLiveMs !== undefined", timeout=60_000)
        page.wait_for_load_state("networkidle", timeout=60_000)
        figures: dict[str, Any] = page.evaluate(FIGURES)
        return figures
    finally:
        context.close()


@dataclass
class Tally:
    runs: dict[tuple[str, str, str], list[dict[str, Any]]] = field(default_factory=dict)

    def add(self, tree: str, page: str, language: str, figures: dict[str, Any]) -> None:
        self.runs.setdefault((tree, page, language), []).append(figures)

    def median(self, tree: str, page: str, language: str, key: str) -> float | None:
        values = [f[key] for f in self.runs[(tree, page, language)] if f[key] is not None]
        return statistics.median(values) if values else None


def measure(browser: Any, urls: dict[str, str], args: argparse.Namespace) -> Tally:
    players = {tree: a_player_with_a_deal(browser, url) for tree, url in urls.items()}
    tally = Tally()
    for _ in range(args.rounds):
        for language in args.languages:
            for page, path in PAGES.items():
                for tree, url in urls.items():  # the two servers take turns
                    state = players[tree] if path != "/" else None
                    tally.add(tree, page, language, cold_load(browser, url, path, language, state))
    return tally


def report(tally: Tally, args: argparse.Namespace) -> None:
    print(f"first card at 1.6 Mbps / 150 ms, cold, 390x844; medians of {args.rounds} rounds")
    print(f"before: {args.baseline} ({args.baseline_commit}); after: this checkout")
    print(
        f"{'page':<10} {'lang':<4} {'first card ms before/after':>27} {'ratio':>6} "
        f"{'live ms before/after':>21} {'wire B before/after':>20} {'requests':>9}"
    )
    for page in PAGES:
        for language in args.languages:
            row = {
                key: (
                    tally.median("before", page, language, key),
                    tally.median("after", page, language, key),
                )
                for key in ("card", "live", "wire", "requests")
            }
            card, live, wire, requests = (row[k] for k in ("card", "live", "wire", "requests"))
            ratio = f"{card[0] / card[1]:.2f}x" if card[0] and card[1] else "-"
            lives = f"{live[0]:.0f} / {live[1]:.0f}" if live[0] and live[1] else "-"
            print(
                f"{page:<10} {language:<4} {card[0]:>13.0f} / {card[1]:<11.0f} {ratio:>6} "
                f"{lives:>21} {wire[0]:>9.0f} / {wire[1]:<8.0f} {requests[0]:>4.0f}/{requests[1]:<4.0f}"
            )
    print("load average (1, 5, 15 min): " + ", ".join(f"{x:.2f}" for x in os.getloadavg()))


def _arguments(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument(
        "--baseline", default="main", help="the commit to compare with (git archive)"
    )
    parser.add_argument("--languages", default="en,de,ne", type=lambda s: s.split(","))
    parser.add_argument("--port", type=int, default=0, help="the baseline's; this checkout's next")
    args = parser.parse_args(argv)
    args.baseline_commit = subprocess.run(
        ["git", "rev-parse", "--short", args.baseline],
        cwd=ROOT,
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    return args


def main(argv: list[str] | None = None) -> int:
    from playwright.sync_api import sync_playwright

    args = _arguments(argv)
    database_url = os.environ.get(
        "BENCH_DATABASE_URL", f"postgres://postgres@127.0.0.1:5432/{BENCH_DB}"
    )
    env = bench_env(database_url)
    create_migrated_database(database_url, env)
    ports = [port_free(args.port + i) for i in (0, 1)] if args.port else [free_port(), free_port()]
    with tempfile.TemporaryDirectory(prefix="tripeaks-first-card-") as tmp:
        before = export_tree(args.baseline, Path(tmp) / "before" / "tree")
        with (
            serving(before, Path(tmp) / "before" / "static", env, ports[0]) as before_url,
            serving(ROOT, Path(tmp) / "after" / "static", env, ports[1]) as after_url,
            sync_playwright() as playwright,
        ):
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            try:
                tally = measure(browser, {"before": before_url, "after": after_url}, args)
            finally:
                browser.close()
    report(tally, args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
