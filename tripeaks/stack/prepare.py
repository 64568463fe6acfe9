"""`python -m tripeaks.stack.prepare`: `make run`'s steps before anything serves or works
(tripeaks/stack/run.py), one Django process for the three: ``migrate``, ``load_seed_deals`` (the
shipped deals into every empty random pool) and ``collectstatic``. Three ``manage.py`` processes
set Django up three times: 0.6 s of CPU each time, a tenth of a second start's.
"""

from __future__ import annotations

import os

# In order: the deals go into tables migrate made; nothing serves before collectstatic is done.
STEPS: tuple[tuple[str, ...], ...] = (
    ("migrate", "--noinput", "-v0"),
    # Every empty random pool gets the shipped deals before the first request (idempotent:
    # tripeaks/play/seeding.py, docs/operations.md "Random pools").
    ("load_seed_deals",),
    # The hashed, compressed static files WhiteNoise serves, DEBUG on or off
    # (frontend/storage.py); a file unchanged since the last start is not copied again.
    ("collectstatic", "--noinput", "-v0"),
)


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tripeaks.config.settings")
    import django
    from django.core.management import call_command

    django.setup()
    for command, *args in STEPS:
        call_command(command, *args)


if __name__ == "__main__":
    main()
