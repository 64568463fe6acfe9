"""Rebuild statistics (and, with --boards, every board's lines and records) from results."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from leaderboard.services.recompute import rebuild_boards, recompute_stats


class Command(BaseCommand):
    help = "Recompute player statistics from the results table (and boards with --boards)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--player", type=int, action="append", help="Only this player id.")
        parser.add_argument(
            "--boards", action="store_true", help="Also rebuild per-deal bests and records."
        )

    def handle(self, *args: Any, **options: Any) -> None:
        rows = recompute_stats(options["player"])
        self.stdout.write(f"statistics: {rows} rows rebuilt")
        if options["boards"]:
            deals = rebuild_boards()
            self.stdout.write(f"boards: {deals} deals rebuilt")
