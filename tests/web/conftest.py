"""Fixtures of the browser tests: Chromium through Playwright, the live server.

The tests need Playwright (the ``test`` extras) and Debian's Chromium at
``/usr/bin/chromium`` (``UTH_CHROMIUM`` to override). Without them the tests skip
with the reason locally, and fail when the ``CI`` environment variable is set.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from web_harness import (
    CHROMIUM,
    CHROMIUM_ARGS,
    LiveServer,
    Player,
    browser_unavailable,
    running_server,
)


def _require_browser() -> None:
    reason = browser_unavailable()
    if reason is None:
        return
    if os.environ.get("CI"):
        pytest.fail(f"{reason} (CI is set: the browser tests must run)")
    pytest.skip(reason)


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    """One headless Chromium for the whole session."""
    _require_browser()
    from playwright.sync_api import expect, sync_playwright

    # The assertions wait up to 10 s (Playwright's default is 5 s): the suite runs
    # the browsers beside the other tests' workers on two cores, where a page that
    # is right may take longer than 5 s to show it (the actions wait 8 s, below).
    expect.set_options(timeout=10_000)

    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        try:
            yield b
        finally:
            b.close()


@pytest.fixture
def seed() -> int:
    """The deck seed of a test's server (override with @pytest.mark.parametrize)."""
    return 7


@pytest.fixture
def server(tmp_path: Path, seed: int) -> Iterator[LiveServer]:
    """A fresh server (database, clock, decks) for one test."""
    with running_server(tmp_path, seed) as s:
        yield s


@pytest.fixture
def new_player(browser: Any, server: LiveServer) -> Iterator[Any]:
    """A factory: ``new_player(width=1280, height=860)`` opens a page in its own context."""
    contexts: list[Any] = []

    def make(width: int = 1280, height: int = 860, locale: str = "en-US") -> Player:
        ctx = browser.new_context(viewport={"width": width, "height": height}, locale=locale)
        ctx.set_default_timeout(8000)
        contexts.append(ctx)
        return Player(ctx.new_page(), server)

    yield make
    for ctx in contexts:
        ctx.close()
