"""Issue #38, item 7: German is complete. Every page walked in English and in German
(tests/frontend/language_walk.py): no text may be the same on both, but for names and words that
are German too."""

from __future__ import annotations

from typing import Any

import pytest

from tests.frontend.conftest import needs_chromium
from tests.frontend.language_walk import german_misses, walk, walker

pytestmark = [pytest.mark.e2e, needs_chromium]


def test_no_page_in_german_shows_a_text_the_english_page_shows(pages: Any) -> None:
    page, paths = walker(pages)
    english = walk(pages, page, "en", paths)
    german = walk(pages, page, "de", paths)
    misses = german_misses(english, german)
    assert misses == [], "\n" + "\n".join(misses)
