"""`make run` (python -m tripeaks.stack.run): the real stack on embedded PostgreSQL and Redis.

One test, run for real: first start in an empty VAR_DIR, the worker precomputes today's daily
deals at once (beat queues its schedule at start), every random pool got the shipped deals,
Ctrl-C stops every process, and a second start finds the same data and secrets. The second start
on a VAR_DIR of the first's steps is test_make_run_restart.py (each start is most of its file's
time: together they took 57-70 s). Given a database and a Redis, it uses them:
test_make_run_services.py.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.foundation.make_run import (
    health,
    interrupt,
    solved_daily_deals,
    solved_daily_deals_when_stopped,
    start,
    wait_until,
)
from tests.ports import free_port
from tripeaks.engine.layouts import LAYOUTS
from tripeaks.play.deals import POOL_RULE_SETS
from tripeaks.play.seeding import SEED_PER_POOL
from tripeaks.stack.run import HEALTHY_WITHIN_S

pytestmark = pytest.mark.slow


def test_make_run_starts_the_real_stack_embedded_and_stops_on_ctrl_c(
    tmp_path: Path, var_dir: Path
) -> None:
    var, log, port = var_dir, tmp_path / "run.log", free_port()
    # One deal a pool: a top-up task for each of the hundreds of pools is queued at the start, as
    # on a fresh deployment, and today's deals must not wait behind them all.
    pools = {"RANDOM_POOL_SIZE": "1"}

    process = start(var, port, log, pools)
    try:
        body = wait_until(lambda: health(port), 240, "healthy stack", log, process)
        assert body["database"] | {"version": "-"} == {
            "ok": True,
            "vendor": "postgresql",
            "version": "-",
            "embedded": True,
        }
        assert body["redis"]["vendor"] == "redis" and body["redis"]["embedded"] is True
        assert body["worker"]["ok"] is True and body["worker"]["workers"] >= 1
        # Every random pool got its shipped deals before the first request (issue #35 item 3;
        # bench/first_start.py's tiny run starts on the prepared VAR_DIR and leaves this here).
        shipped = SEED_PER_POOL * len(LAYOUTS) * len(POOL_RULE_SETS)  # 2,160
        assert f"shipped deals: {shipped} added to the empty pools" in log.read_text()
        # Nobody asked for a deal: the worker made today's daily deals because beat queued them.
        made = wait_until(lambda: solved_daily_deals(var), 120, "solved daily deal", log, process)
        secrets_first = (var / "secrets.json").read_text()

        # The stack says so itself once its own health probe answers, which may come after ours
        # (and after the daily deals, made while the probe waited on a loaded machine; a worker's
        # ping answered late says "degraded" to a probe): it probes until its own deadline, and
        # exits when that passes.
        def said_healthy() -> bool:
            return "make run: healthy" in log.read_text()

        wait_until(said_healthy, HEALTHY_WITHIN_S, "the stack's own 'healthy'", log, process)
    finally:
        interrupt(process, log)

    # Ctrl-C left the data where it was: the secrets, and the deals the workers made in the
    # database it stopped (a whole second start on such a VAR_DIR: test_make_run_restart.py).
    assert (var / "secrets.json").read_text() == secrets_first
    assert solved_daily_deals_when_stopped(var) >= made
