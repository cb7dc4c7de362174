"""Narrow (360 px) and wide layouts, and the screenshots of docs/screenshots/.

At each width the lobby, a decision and a showdown fit the window's width (nothing
scrolls sideways) and the controls a player needs are on screen. The screenshots go
to ``$UTH_SCREENSHOTS_DIR`` when it is set (``UTH_SCREENSHOTS_DIR=docs/screenshots``
refreshes the README's pictures), else to the test's temporary folder.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from web_harness import Player


def _shots(tmp_path: Path) -> Path:
    target = Path(os.environ.get("UTH_SCREENSHOTS_DIR") or tmp_path)
    target.mkdir(parents=True, exist_ok=True)
    return target


def _fits(p: Player, width: int, where: str) -> None:
    scroll = p.page.evaluate("() => document.documentElement.scrollWidth")
    assert scroll <= width, f"{where}: the page is {scroll}px wide in a {width}px window"


def _shoot(p: Player, path: Path) -> None:
    """A full-page screenshot without the passing messages (toasts)."""
    p.page.evaluate("() => document.querySelectorAll('.toast').forEach((n) => n.remove())")
    p.page.screenshot(path=str(path), full_page=True)


def _inside(p: Player, selector: str, width: int) -> None:
    for el in p.loc(selector).all():
        box = el.bounding_box()
        assert box is not None, selector
        assert box["x"] >= 0 and box["x"] + box["width"] <= width + 0.5, (selector, box)


@pytest.mark.parametrize(
    ("width", "height", "suffix"), [(1280, 860, ""), (360, 740, "-narrow")], ids=["wide", "narrow"]
)
def test_layout_and_screenshots(
    new_player: Any, tmp_path: Path, width: int, height: int, suffix: str
) -> None:
    shots = _shots(tmp_path)
    p: Player = new_player(width, height)
    other: Player = new_player(1024, 768)
    other.sign_in("Bob")
    p.sign_in("Ann")
    _fits(p, width, "lobby")
    _shoot(p, shots / f"lobby{suffix}.png")

    other.join("live-1")
    p.join("live-1")
    p.wait_betting()
    other.wait_betting()
    other.bet("ante", 100)
    other.bet("trips", 25)
    p.bet("ante", 25)
    p.bet("trips", 5)
    p.server.advance(1)
    p.expect(p.loc("#others .other[data-name='Bob']")).to_be_visible()
    _fits(p, width, "betting")
    _inside(p, "#chips [data-chip]", width)
    _inside(p, ".spot:not([hidden])", width)

    p.close_betting()
    p.expect_decision("play_4x", "play_3x", "check")
    _fits(p, width, "decision")
    _inside(p, "#decision-buttons [data-action]", width)
    _inside(p, "#board .card, #dealer-cards .card, #player-cards .card", width)
    _shoot(p, shots / f"decision{suffix}.png")

    p.decide("play_4x")
    other.decide("check")
    other.decide("check")
    other.decide("play_1x")
    p.expect_phase("pause")
    p.expect(p.loc("#result-balance")).to_have_text("1,120")
    _fits(p, width, "showdown")
    _inside(p, "#result .result-head", width)
    _shoot(p, shots / f"showdown{suffix}.png")
    for name in ("lobby", "decision", "showdown"):
        assert (shots / f"{name}{suffix}.png").stat().st_size > 10_000
    assert p.console_errors == []
