"""Put the shipped random deals into the pools that hold none (the stack runs it after migrate)."""

from __future__ import annotations

import time
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError, CommandParser

from tripeaks.play import seeding


class Command(BaseCommand):
    help = "Load the shipped, solver-proven random deals into every empty pool (idempotent)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--dir", default=str(seeding.SEED_DIR), help="the seed files' folder")

    def handle(self, *args: object, **options: object) -> None:
        began = time.monotonic()
        try:
            added = seeding.load_seed(Path(str(options["dir"])))
        except seeding.SeedError as error:
            raise CommandError(f"the shipped deals were refused: {error}") from None
        took = time.monotonic() - began
        self.stdout.write(f"shipped deals: {added} added to the empty pools ({took:.2f} s)")
