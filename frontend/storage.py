"""The static files' storage: WhiteNoise's hashed, compressed names, for the page's ES modules too.

collectstatic writes each file under a name carrying a hash of its content (``app.3f2a9c1b0d4e.js``)
with a ``.gz`` beside it; WhiteNoise serves those names with a far-future ``max-age`` (immutable),
the rest (the plain names, kept for anything that asks for them) with a short one.

- The modules import each other by relative paths (``import { _ } from './i18n.js';``): Django's
  module-import rewriting (``support_js_module_import_aggregation``) puts the hashed name in each
  static and literal dynamic ``import('./pages/play.js')``, so a page loads one consistent set of
  modules, each cached for good. (A module named by a computed path would escape it: app.js names
  its pages in full.)
- gzip only, and a file's .gz is made once (``KeptCompressor``).
- ``make run`` runs with ``DEBUG`` on and collects at each start (tripeaks/stack/run.py): once a
  manifest is there its hashed names are used, ``DEBUG`` or not, so development serves what
  production serves. Without one (tests, a fresh checkout never collected) the plain names are
  given, as Django does with ``DEBUG`` on.
"""

from __future__ import annotations

import os
from typing import Any

from django.contrib.staticfiles.storage import ManifestStaticFilesStorage
from whitenoise.compress import Compressor
from whitenoise.storage import CompressedManifestStaticFilesStorage


class StaticStorage(CompressedManifestStaticFilesStorage):  # type: ignore[misc]  # untyped
    # Django's module-import rewriting (support_js_module_import_aggregation), for our own
    # modules only: its patterns over the API docs' megabytes of minified JavaScript were most of
    # collectstatic's time (10 of 14 s here).
    patterns = (
        *ManifestStaticFilesStorage.patterns,
        ("frontend/*.js", ManifestStaticFilesStorage._js_module_import_aggregation_patterns[1]),  # type: ignore[attr-defined]  # not in the stubs
    )
    # A module's hash covers the hashed names of what it imports, so each pass settles one more
    # level of the import graph (app.js -> pages/play.js -> play/assemble.js -> ...).
    max_post_process_passes = 16

    def url(self, name: str | None, force: bool = False) -> str:
        url: str = super().url(name, force=force or bool(self.hashed_files))
        return url

    def create_compressor(self, **kwargs: Any) -> Compressor:
        # gzip only, whether or not brotli is installed (the test extras have it, for the font):
        # browsers ask for br over HTTPS alone, and brotli's best level took long on the 24 MB of
        # the API docs' files at every start.
        return KeptCompressor(**{**kwargs, "use_brotli": False})


class KeptCompressor(Compressor):  # type: ignore[misc]  # untyped
    """A file whose .gz was made from it (WhiteNoise gives the .gz its file's time) is not
    compressed again: `make run` collects at every start, and gzipping the API docs' 24 MB
    again took most of collectstatic's time."""

    def compress(self, path: str) -> list[str]:
        packed = path + ".gz"
        if os.path.exists(packed) and abs(os.stat(packed).st_mtime - os.stat(path).st_mtime) < 1e-3:
            return [packed]
        made: list[str] = super().compress(path)
        return made
