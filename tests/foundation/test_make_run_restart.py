"""`make run` (python -m tripeaks.stack.run) started again on the VAR_DIR a first start left: it
finds the data and the secrets where they were, loads no shipped deal twice, and Ctrl-C stops
every process. The VAR_DIR is a copy of the tests' prepared one (bench/stack_template.py: the
first start's own steps, initdb, migrate, the shipped deals and collectstatic, stopped as `make
run` stops them); the first start itself, in an empty VAR_DIR: test_make_run.py.

The restarted stack is also bench/idle_stack.py's at its tiny size (tests/bench/runs.py): the
bench, attached to it (`--attach`), waits for its pools to fill and samples its idle CPU. One
start for both: each started a stack of its own, 8 s of CPU a start.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.bench.runs import TINY, run_bench
from tests.foundation.make_run import count, health, interrupt, start, wait_until
from tests.ports import free_port
from tripeaks.engine.layouts import LAYOUTS
from tripeaks.play.deals import POOL_RULE_SETS
from tripeaks.play.seeding import SEED_PER_POOL

pytestmark = pytest.mark.slow

# The pools bench/idle_stack.py's tiny run fills (its --floor and --layouts in TINY).
IDLE_POOLS = {"RANDOM_POOL_SIZE": "1", "RANDOM_POOL_LAYOUTS": "pyramid"}


def test_make_run_restarts_with_the_data_and_secrets_a_first_start_left(
    tmp_path: Path, var_dir: Path, stack_template: Path
) -> None:
    log, port = tmp_path / "run.log", free_port()
    secrets = (stack_template / "secrets.json").read_text()

    process = start(var_dir, port, log, IDLE_POOLS, template=stack_template)
    try:
        body = wait_until(lambda: health(port), 240, "healthy stack after a restart", log, process)
        assert body["database"]["embedded"] is True and body["worker"]["ok"] is True
        # Every pool held its shipped deals already: none loaded again, none lost. (Not counted:
        # the pyramid pools, which this stack's worker fills to their floor of 1 at once, and a
        # pool at its floor lets its shipped deals go, as it should: CI saw 40 fewer.)
        assert "shipped deals: 0 added" in log.read_text()
        shipped = SEED_PER_POOL * (len(LAYOUTS) - 1) * len(POOL_RULE_SETS)  # 2,120
        assert count(var_dir, "shipped AND layout <> 'pyramid'") == shipped
        assert (var_dir / "secrets.json").read_text() == secrets

        attached = ["--attach", str(process.pid), "--port", str(port), "--var", str(var_dir)]
        out = run_bench([*TINY["idle_stack.py"], *attached])
        assert "every pool full" in out and "idle stack:" in out
    finally:
        interrupt(process, log)
