"""`python -m tripeaks.stack.prepare`: `make run`'s steps before anything serves or works
(tripeaks/stack/run.py), one Django process for the three: ``migrate``, ``load_seed_deals`` (the
shipped deals into every empty random pool) and ``collectstatic``. Three ``manage.py`` processes
set Django up three times: 0.6 s of CPU each time, a tenth of a second start's.

collectstatic runs only when what it would collect changed since its last run into
``STATIC_ROOT`` (`collect_static`): on unchanged files it still read, hashed and rewrote every one
of them, 1.1 s of CPU (4.6 s of time on a loaded machine) of each second start.
"""

from __future__ import annotations

import hashlib
import inspect
import os
from collections.abc import Callable
from pathlib import Path

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


# What the collected files were collected from (`static_sources_digest`), in a file beside
# STATIC_ROOT: WhiteNoise serves every file inside it.
STAMP = ".collected-from"


def stamp_of(root: Path) -> Path:
    return root.with_name(root.name + STAMP)


def static_sources_digest(*args: str) -> str:
    """What collectstatic (given `args`) would collect and how: every file its finders list (its
    name and content, in their order: the first of a name wins) and the storage that
    post-processes them (its class and code, Django's and WhiteNoise's versions)."""
    from importlib.metadata import version

    import django
    from django.apps import apps
    from django.conf import settings
    from django.contrib.staticfiles.finders import get_finders
    from django.core.files.storage import storages

    storage = type(storages["staticfiles"])
    how = f"{args}|{settings.STORAGES['staticfiles']}|{django.__version__}|{version('whitenoise')}"
    digest = hashlib.sha256(how.encode() + Path(inspect.getfile(storage)).read_bytes())
    ignore = apps.get_app_config("staticfiles").ignore_patterns  # type: ignore[attr-defined]
    for finder in get_finders():
        for path, source in sorted(finder.list(ignore), key=lambda found: found[0]):
            name = os.path.join(getattr(source, "prefix", None) or "", path)
            digest.update(f"{name}\0".encode() + Path(source.path(path)).read_bytes())
    return digest.hexdigest()


def collect_static(call_command: Callable[..., object], *args: str) -> None:
    """collectstatic, unless `STATIC_ROOT` holds a collect of the same sources (its manifest, and
    the stamp the collect left). A partial collect leaves no stamp: the next start collects."""
    from django.conf import settings

    root = Path(settings.STATIC_ROOT)
    digest = static_sources_digest(*args)
    stamp = stamp_of(root)
    if (root / "staticfiles.json").exists() and stamp.exists() and stamp.read_text() == digest:
        return
    stamp.unlink(missing_ok=True)
    (root / STAMP).unlink(missing_ok=True)  # where earlier starts left it, served
    call_command("collectstatic", *args)
    stamp.write_text(digest)


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tripeaks.config.settings")
    import django
    from django.core.management import call_command

    django.setup()
    for command, *args in STEPS:
        if command == "collectstatic":
            collect_static(call_command, *args)
        else:
            call_command(command, *args)


if __name__ == "__main__":
    main()
