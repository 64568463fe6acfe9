"""A browser test waits for what comes late on a loaded machine (tests/frontend/conftest.py,
`WAIT_MS`): a page's own waits and `expect` outlast a page that answers after 10 s."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from tests.frontend.conftest import needs_chromium

pytestmark = [pytest.mark.e2e, needs_chromium]

# Two stalls (page time, not the test's): each past the caps the tests had (10 s for a page's
# waits, 5 s for `expect`), each far inside `WAIT_MS`.
LATE = """<script>
  const add = (id) => document.body.append(Object.assign(document.createElement('p'), { id }));
  setTimeout(() => add('late'), 11000);
  setTimeout(() => add('later'), 17000);
</script>"""


def test_a_page_that_answers_after_ten_seconds_is_waited_for(pages: Any) -> None:
    page = pages.new()
    page.set_content(LATE)
    page.locator("#late").wait_for(state="attached")  # the page's default wait
    expect(page.locator("#later")).to_be_attached()  # `expect`'s, 6 s after
