from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.serve.browser import CHROMIUM_ARGS, require_chromium


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    """Headless Chromium (Debian's), one per test module."""
    chromium = require_chromium()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
        yield browser
        browser.close()
