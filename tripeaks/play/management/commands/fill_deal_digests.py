"""Give deals made before the card digests existed theirs (run once after migration play 0005)."""

from __future__ import annotations

from django.core.management.base import BaseCommand

from tripeaks.play.deals import fill_missing_digests


class Command(BaseCommand):
    help = "Fill the card and game digests of deals made before they existed."

    def handle(self, *args: object, **options: object) -> None:
        self.stdout.write(f"digests: {fill_missing_digests()} deals filled")
