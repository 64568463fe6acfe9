"""Issue #38, item 7: Nepali is complete. Every page walked in Nepali
(tests/frontend/language_walk.py): no Latin word and no ASCII digit may show, but for the few
proper names the walk allows."""

from __future__ import annotations

from typing import Any

import pytest

from tests.frontend.conftest import needs_chromium
from tests.frontend.language_walk import nepali_misses, walk, walker

pytestmark = [pytest.mark.e2e, needs_chromium]


def test_no_page_in_nepali_shows_a_latin_word_or_digit(pages: Any) -> None:
    page, paths = walker(pages)
    misses = nepali_misses(walk(pages, page, "ne", paths))
    assert misses == [], "\n" + "\n".join(misses)
