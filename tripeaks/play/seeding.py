"""The shipped random deals: every pool holds a deal from the first request of a fresh deployment.

`tripeaks/play/seed_deals/<layout>.json` holds, for every pool (each layout x rule set x start,
`deals.POOL_RULE_SETS`), a few deals the exact solver proved winnable, each with the winning line
it found and its par (None when the par search ran past the pool's bounds, as a pool row keeps it).
`manage.py make_seed_deals` makes them (anyone can rerun it: random seeds, the pool's node budgets,
a seed the solver cannot settle within them is skipped), writing each layout's file as it goes.

`load_seed()` runs after `migrate` when the stack starts (`manage.py load_seed_deals`): into
every pool that holds no deal it puts the file's deals not yet in the database, each checked by
replaying its line through the engine (a line that does not win refuses the file: nothing is
loaded). These deals are public (anyone can read the repository), so they are kept apart: a
shipped row says so (`Deal.shipped`, set here and nowhere else), a solo start takes
one only when its pool has no worker-made deal (a contest never), the refill does not count
them, and once a pool holds its floor of worker-made deals its unclaimed shipped ones are
retired. A game on one is unranked (statistics only, never a board): docs/operations.md,
"Random pools".
"""

from __future__ import annotations

import json
import logging
import os
import secrets
import tempfile
from collections.abc import Iterable
from pathlib import Path
from typing import NamedTuple

from django.db import connection, transaction

from tripeaks.engine.deal import Deal as EngineDeal
from tripeaks.engine.deal import from_seed
from tripeaks.engine.game import Draw, Play, RuleError, replay
from tripeaks.engine.layouts import LAYOUTS, get_layout
from tripeaks.engine.rules import Rules
from tripeaks.engine.solver import Budget, BudgetExceeded, solve, solve_min_draws
from tripeaks.play.deals import (
    POOL_PAR_NODES,
    POOL_RULE_SETS,
    POOL_SOLVE_NODES,
    digest_fields,
    pool_layouts,
)
from tripeaks.play.models import Deal, Source

log = logging.getLogger("tripeaks.deals")

SEED_DIR = Path(__file__).resolve().parent / "seed_deals"
# How many deals each pool gets in the shipped file: the pools' floor (RANDOM_POOL_SIZE).
SEED_PER_POOL = 5
DRAW = "d"
# The advisory lock two processes loading the shipped deals at once take turns on.
LOAD_LOCK = 0x7E_5EED_0035


class SeedError(ValueError):
    """A seed file that is not what it claims: a line that does not win, a bad card or key."""


class SeedDeal(NamedTuple):
    """One shipped deal: `seed` deals it (`engine.deal.from_seed`), `line` wins it."""

    layout: str
    rules_key: str
    seed: int
    par: int | None
    line: str


def line_text(line: Iterable[Play | Draw]) -> str:
    return " ".join(DRAW if isinstance(move, Draw) else str(move.position) for move in line)


def parse_line(text: str) -> list[Play | Draw]:
    try:
        return [Draw() if token == DRAW else Play(int(token)) for token in text.split()]
    except ValueError:
        raise SeedError(f"{text[:40]!r} is not a line of moves") from None


def prove(rules: Rules, layout: str, seed: int, par_nodes: int = POOL_PAR_NODES) -> SeedDeal | None:
    """The seed's deal with a winning line, if the solver proves it winnable within the pool's
    bounds (the fewest-draws line and its par if that search fits in `par_nodes` too: else the
    line found and an unknown par); None otherwise."""
    made = from_seed(seed, get_layout(layout), rules.start)
    try:
        found = solve(made, rules, budget=Budget(max_nodes=POOL_SOLVE_NODES))
    except BudgetExceeded:
        return None
    if not found.winnable:
        return None
    line, moves = found.line, None
    try:
        shortest = solve_min_draws(made, rules, budget=Budget(max_nodes=par_nodes))
        line, moves = shortest.line, len(shortest.line)
    except BudgetExceeded:
        pass
    return SeedDeal(layout, rules.key, seed, moves, line_text(line))


def make_one(
    rules: Rules, layout: str, tries: int = 200, par_nodes: int = POOL_PAR_NODES
) -> SeedDeal | None:
    """A proven deal from fresh random seeds; None if `tries` seeds gave none."""
    for _ in range(tries):
        proven = prove(rules, layout, secrets.randbits(63), par_nodes)
        if proven is not None:
            return proven
    return None


def check(entry: SeedDeal) -> EngineDeal:
    """The entry's deal, once its line is replayed through the engine and wins (microseconds);
    SeedError if it does not, or if the par claims fewer moves than a win the line shows."""
    try:
        rules = Rules.from_key(entry.rules_key)
        made = from_seed(entry.seed, get_layout(entry.layout), rules.start)
        moves = parse_line(entry.line)
        end = replay(made, rules, moves)
    except (RuleError, ValueError) as error:
        raise SeedError(f"{entry.layout} {entry.rules_key} {entry.seed}: {error}") from None
    if end.status != "won":
        raise SeedError(f"{entry.layout} {entry.rules_key} {entry.seed}: the line does not win")
    if entry.par is not None and entry.par != len(moves):
        raise SeedError(f"{entry.layout} {entry.rules_key} {entry.seed}: par is not the line's")
    return made


# --------------------------------------------------------------------------- the files


def layout_path(layout: str, directory: Path = SEED_DIR) -> Path:
    return directory / f"{layout}.json"


def read_layout(path: Path) -> list[SeedDeal]:
    try:
        data = json.loads(path.read_text())
        layout = str(data["layout"])
        return [
            SeedDeal(layout, str(key), int(seed), None if par is None else int(par), str(line))
            for key, seed, par, line in data["deals"]
        ]
    except (KeyError, TypeError, ValueError) as error:
        raise SeedError(f"{path.name}: {error}") from None


def read_all(directory: Path = SEED_DIR) -> list[SeedDeal]:
    return [entry for path in sorted(directory.glob("*.json")) for entry in read_layout(path)]


def write_layout(layout: str, entries: list[SeedDeal], directory: Path = SEED_DIR) -> None:
    """One layout's file, one deal a line (readable diffs), replaced whole (never half written)."""
    rows = ",\n".join(
        "  " + json.dumps([entry.rules_key, entry.seed, entry.par, entry.line])
        for entry in sorted(entries, key=lambda entry: entry.rules_key)
    )
    text = f'{{"layout": {json.dumps(layout)}, "deals": [\n{rows}\n]}}\n'
    directory.mkdir(parents=True, exist_ok=True)
    fd, temporary = tempfile.mkstemp(dir=directory, suffix=".part")
    with os.fdopen(fd, "w") as out:
        out.write(text)
    os.replace(temporary, layout_path(layout, directory))


def pool_keys(layouts: Iterable[str] | None = None) -> list[tuple[str, str]]:
    """Every pool as (rules key, layout): all layouts, each under every pool rule set."""
    return [(rules.key, layout) for layout in (layouts or LAYOUTS) for rules in POOL_RULE_SETS]


# --------------------------------------------------------------------------- loading


def load_seed(directory: Path = SEED_DIR) -> int:
    """Put the shipped deals into every pool that holds none; returns how many were added.
    What is to be added is checked first, each line replayed (a bad one refuses the file:
    SeedError, nothing added; about 1.5 ms a deal, so a restart with its pools held checks
    nothing). A deal already in the database (by its game) is never added twice, so a second
    run adds nothing; two processes loading at once take turns (a transaction's advisory lock)."""
    entries = read_all(directory)
    layouts = set(pool_layouts())
    with transaction.atomic():
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s)", [LOAD_LOCK])
        held = set(
            Deal.objects.filter(source=Source.RANDOM, claimed=False, layout__in=layouts)
            .values_list("rules_key", "layout")
            .distinct()
        )
        wanted = [
            entry
            for entry in entries
            if entry.layout in layouts and (entry.rules_key, entry.layout) not in held
        ]
        rows = [_row(entry, check(entry)) for entry in wanted]
        known = set(
            Deal.objects.filter(
                source=Source.RANDOM, game_digest__in=[row.game_digest for row in rows]
            ).values_list("game_digest", flat=True)
        )
        rows = [row for row in rows if row.game_digest not in known]
        Deal.objects.bulk_create(rows)
    log.info("shipped deals loaded", extra={"added": len(rows)})
    return len(rows)


def _row(entry: SeedDeal, made: EngineDeal) -> Deal:
    """A pool row for a shipped deal (`Deal.shipped`), proven winnable."""
    return Deal(
        source=Source.RANDOM,
        rules_key=entry.rules_key,
        layout=entry.layout,
        code=made.code,
        seed=None,
        shipped=True,
        winnable=True,
        par=entry.par,
        claimed=False,
        **digest_fields(made),
    )
