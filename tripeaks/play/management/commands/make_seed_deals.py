"""Make (or add to) the shipped random deals, `tripeaks/play/seed_deals/<layout>.json`.

Each deal comes from a fresh random seed and is proven winnable by the exact solver within the
pool's bound (a seed it cannot settle within it is skipped), with its winning line and its par
(the fewest-draws line, searched within `--par-nodes`: unknown past it, as a pool row keeps it).
Round by round: every pool gets its first deal before any gets its second, and each layout's
file is written after each deal, so a run stopped early leaves every pool as even as it got and a
rerun goes on from there. CPU-heavy: run it with `nice`, and split the layouts between processes
with `--part 1/2`, `--part 2/2` (or `--layouts`, `--rules`; a process of its own per file, or
its own `--dir`). docs/operations.md, "Shipped deals".
"""

from __future__ import annotations

import time
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError, CommandParser

from tripeaks.engine.layouts import LAYOUTS
from tripeaks.engine.rules import Rules
from tripeaks.play import seeding
from tripeaks.play.deals import POOL_PAR_NODES


class Command(BaseCommand):
    help = "Make solver-proven deals for every random pool into the shipped seed files."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--per-pool", type=int, default=seeding.SEED_PER_POOL)
        parser.add_argument("--layouts", default="", help="comma-separated; default: all")
        parser.add_argument("--part", default="1/1", help="k/n: every n-th layout from the k-th")
        parser.add_argument(
            "--rules", default="", help="comma-separated rule-set keys; default: all"
        )
        parser.add_argument("--dir", default=str(seeding.SEED_DIR))
        parser.add_argument(
            "--par-nodes",
            type=int,
            default=POOL_PAR_NODES,
            help="the par search's bound (past it the par is stored unknown)",
        )

    def handle(self, *args: object, **options: object) -> None:
        directory = Path(str(options["dir"]))
        per_pool = int(str(options["per_pool"]))
        names = [name for name in str(options["layouts"]).split(",") if name] or list(LAYOUTS)
        try:
            k, n = (int(part) for part in str(options["part"]).split("/"))
        except ValueError:
            raise CommandError("--part is k/n, such as 1/2") from None
        layouts = names[k - 1 :: n]
        rule_sets = {key for key in str(options["rules"]).split(",") if key}
        held = {
            layout: seeding.read_layout(path)
            for layout in layouts
            if (path := seeding.layout_path(layout, directory)).exists()
        }
        began = time.monotonic()
        for round_ in range(1, per_pool + 1):
            for rules_key, layout in seeding.pool_keys(layouts):
                if rule_sets and rules_key not in rule_sets:
                    continue
                entries = held.setdefault(layout, [])
                if sum(1 for entry in entries if entry.rules_key == rules_key) >= round_:
                    continue
                made = seeding.make_one(
                    Rules.from_key(rules_key), layout, par_nodes=int(str(options["par_nodes"]))
                )
                if made is None:
                    self.stderr.write(f"{layout} {rules_key}: no provable deal, skipped")
                    continue
                entries.append(made)
                seeding.write_layout(layout, entries, directory)
                self.stdout.write(
                    f"{time.monotonic() - began:7.1f}s round {round_} {layout} {rules_key}"
                    f" par {made.par}"
                )
