"""`make run`'s collectstatic (tripeaks/stack/prepare.py `collect_static`): run again only when
what it collects changed since its last run into STATIC_ROOT, or that run left no manifest or
did not end."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tripeaks.stack.prepare import collect_static, stamp_of


class Collect:
    """collectstatic, as far as `collect_static` sees it: a manifest in STATIC_ROOT; or a failure."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.runs = 0
        self.fails = False

    def __call__(self, command: str, *options: str) -> None:
        assert command == "collectstatic"
        self.runs += 1
        if self.fails:
            raise RuntimeError("collectstatic failed")
        self.root.mkdir(exist_ok=True)
        (self.root / "staticfiles.json").write_text("{}")


def test_collectstatic_runs_again_only_when_its_sources_changed(
    tmp_path: Path, settings: Any
) -> None:
    sources = tmp_path / "sources"
    sources.mkdir()
    (sources / "extra.css").write_text("a {}")
    settings.STATIC_ROOT = tmp_path / "static"
    settings.STATICFILES_DIRS = [sources]
    collect = Collect(tmp_path / "static")

    collect_static(collect)
    collect_static(collect)
    assert collect.runs == 1

    (sources / "extra.css").write_text("b {}")
    collect_static(collect)
    (sources / "new.js").write_text("export {};")
    collect_static(collect)
    collect_static(collect)
    assert collect.runs == 3

    (tmp_path / "static" / "staticfiles.json").unlink()  # the collected files gone
    collect_static(collect)
    assert collect.runs == 4

    (sources / "extra.css").write_text("c {}")
    collect.fails = True
    with pytest.raises(RuntimeError):
        collect_static(collect)
    collect.fails = False
    collect_static(collect)  # the failed run's files are not taken for a collect
    assert collect.runs == 6

    # Another collect's options (what it ignores): another collect.
    collect_static(collect, "--ignore", "admin")
    collect_static(collect, "--ignore", "admin")
    assert collect.runs == 7


def test_the_collect_stamp_is_not_served(tmp_path: Path, settings: Any) -> None:
    from whitenoise import WhiteNoise

    settings.STATIC_ROOT = tmp_path / "static"
    collect_static(Collect(tmp_path / "static"))

    assert stamp_of(tmp_path / "static").exists()
    served = WhiteNoise(None, root=tmp_path / "static", prefix="static").files
    assert served and not any("collected-from" in url for url in served)
