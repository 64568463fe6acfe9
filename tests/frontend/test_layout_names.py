"""Every layout the engine has is named in the player's language: format.js's table gives each
engine layout's title (by its name) through the catalog, and the catalogs translate it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tripeaks.engine.layouts.catalog import CATALOG

ROOT = Path(__file__).resolve().parents[2]
FORMAT_JS = ROOT / "frontend" / "static" / "frontend" / "js" / "format.js"
ENTRY = re.compile(r"""'?([a-z-]+)'?: \(\) => _\('([^']+)'\)""")


def table() -> dict[str, str]:
    source = FORMAT_JS.read_text(encoding="utf-8")
    block = source[
        source.index("const LAYOUTS = {") : source.index("};", source.index("const LAYOUTS = {"))
    ]
    return dict(ENTRY.findall(block))


def test_every_engine_layout_has_its_title_in_the_table() -> None:
    named = table()
    assert {layout.name: layout.title for layout in CATALOG} == named


@pytest.mark.parametrize("language", ["de", "ne"])
def test_every_layout_title_is_in_the_javascript_catalog(language: str) -> None:
    po = (ROOT / "locale" / language / "LC_MESSAGES" / "djangojs.po").read_text(encoding="utf-8")
    missing = [t for t in table().values() if f'msgid "{t}"' not in po]
    assert missing == []
