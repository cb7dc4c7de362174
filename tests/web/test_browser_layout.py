"""Narrow (360 px) and wide layouts, and the screenshots of docs/screenshots/.

At each width the lobby, a decision and a showdown fit the window's width (nothing
scrolls sideways), and what a player needs is on screen without scrolling: the light
on joining, the cards while deciding, the result at the showdown. Passing messages
(toasts) never cover the game number or the light; the Keys dialog shows its keys
and the History list fits. The screenshots (the window, as a player sees it) go to
``$UTH_SCREENSHOTS_DIR`` when it is set (``UTH_SCREENSHOTS_DIR=docs/screenshots``
refreshes the pictures of docs/browser-table.md), else to the test's temporary folder.
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
    """A screenshot of the window (what a player sees), without the toasts."""
    p.page.evaluate("() => document.querySelectorAll('.toast').forEach((n) => n.remove())")
    p.page.screenshot(path=str(path), full_page=False, animations="disabled")


def _box(p: Player, selector: str) -> dict[str, float]:
    box = p.loc(selector).first.bounding_box()
    assert box is not None, selector
    return dict(box)


def _inside(p: Player, selector: str, width: int) -> None:
    for el in p.loc(selector).all():
        box = el.bounding_box()
        assert box is not None, selector
        assert box["x"] >= 0 and box["x"] + box["width"] <= width + 0.5, (selector, box)


def _on_screen(p: Player, selector: str, height: int, *, above: str | None = None) -> None:
    """Every element of ``selector`` lies in the window, above ``above`` (a sticky panel)."""
    limit = float(height)
    if above is not None:
        limit = min(limit, _box(p, above)["y"])
    els = p.loc(selector).all()
    assert els, selector
    for el in els:
        box = el.bounding_box()
        assert box is not None, selector
        assert box["y"] >= 0 and box["y"] + box["height"] <= limit + 0.5, (selector, box, limit)


def _apart(a: dict[str, float], b: dict[str, float]) -> bool:
    return (
        a["x"] + a["width"] <= b["x"]
        or b["x"] + b["width"] <= a["x"]
        or a["y"] + a["height"] <= b["y"]
        or b["y"] + b["height"] <= a["y"]
    )


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
    # The welcome message leaves the language switch in view (on a phone it used to
    # cover it).
    welcome = ".toast[data-key='lobby.welcome']"
    p.expect(p.loc(welcome)).to_be_visible()
    assert _apart(_box(p, welcome), _box(p, ".topbar .lang"))
    _fits(p, width, "lobby")
    _shoot(p, shots / f"lobby{suffix}.png")

    # Joining from a scrolled lobby starts at the top of the table: the light in view.
    p.page.evaluate("() => window.scrollTo(0, document.body.scrollHeight)")
    other.join("live-1")
    p.join("live-1")
    p.wait_betting()
    assert p.page.evaluate("() => window.scrollY") == 0
    _on_screen(p, "#light-box", height)

    # A toast (Trips before the Ante) covers neither the game number nor the light.
    p.page.keyboard.press("t")
    toast = p.loc(".toast[data-key='notice.ante_first']")
    p.expect(toast).to_be_visible()
    for selector in ("#light-box", ".game-no"):
        assert _apart(_box(p, ".toast[data-key='notice.ante_first']"), _box(p, selector)), selector

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
    # While deciding, the hand, the board and the dealer's cards are in view, above
    # the decision panel that sticks to the bottom of the window.
    _on_screen(
        p, "#board .card, #dealer-cards .card, #player-cards .card", height, above="#controls"
    )
    _on_screen(p, "#decision-buttons [data-action]", height)
    _shoot(p, shots / f"decision{suffix}.png")

    # Bob checks first: "You checked." until the next street.
    other.decide("check")
    other.expect(other.loc("#status-line")).to_have_text("You checked.")
    p.decide("play_4x")
    other.expect_decision("play_2x", "check")
    other.expect(other.loc("#status-line")).to_have_attribute("data-status", "")
    other.decide("check")
    other.decide("play_1x")
    p.expect_phase("pause")
    p.expect(p.loc("#result-balance")).to_have_text("1,120")
    _fits(p, width, "showdown")
    _inside(p, "#result .result-head", width)
    # The showdown's result is in view without scrolling: all of it on a wide
    # screen (beside the felt), its first line on a phone (under the felt).
    p.page.evaluate("() => window.scrollTo(0, 0)")
    _on_screen(p, "#result" if width > 1000 else "#result .result-head", height)
    _shoot(p, shots / f"showdown{suffix}.png")
    for name in ("lobby", "decision", "showdown"):
        assert (shots / f"{name}{suffix}.png").stat().st_size > 10_000

    # History fits the window: no column cut off, every Open button inside the dialog.
    p.loc("#btn-history").click()
    p.expect(p.loc("#history-body tbody tr")).to_have_count(1)
    dialog = _box(p, "#dlg-history")
    for button in p.loc("#history-body tbody button").all():
        box = button.bounding_box()
        assert box is not None
        assert dialog["x"] <= box["x"] and box["x"] + box["width"] <= dialog["x"] + dialog["width"]
    assert p.page.evaluate(
        "() => [...document.querySelectorAll('#history-body .scroll-x')]"
        ".every((e) => e.scrollWidth <= e.clientWidth)"
    )
    p.page.keyboard.press("Escape")

    # The Keys dialog lists every key, at every width.
    p.loc("#btn-keys").click()
    keys = p.loc("#keys-body kbd")
    p.expect(keys).to_have_count(16)
    for key in keys.all():
        p.expect(key).to_be_visible()
    p.page.keyboard.press("Escape")
    assert p.console_errors == []


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_welcome_toast_clear_of_the_logo_at_360(new_player: Any, lang: str) -> None:
    """On a phone the welcome message covers neither the logo (the suits and the
    name, as far as the bar shows it) nor the language switch, in either language."""
    p: Player = new_player(360, 740)
    p.open()
    if lang == "ru":
        p.loc(".lang-btn[data-lang='ru']").click()
    p.page.fill("#signin-name", "Ivy")
    p.page.click("#signin-btn")
    welcome = ".toast[data-key='lobby.welcome']"
    p.expect(p.loc(welcome)).to_be_visible()
    toast = _box(p, welcome)
    logo: list[dict[str, float]] = p.page.evaluate(
        """() => {
        const brand = document.querySelector('.topbar .brand').getBoundingClientRect();
        return [...document.querySelectorAll('.topbar .brand > *')]
          .filter((el) => el.getClientRects().length)
          .map((el) => {
            const r = el.getBoundingClientRect();
            const right = Math.min(r.right, brand.right);
            return {x: r.x, y: r.y, width: right - r.x, height: r.height};
          });
    }"""
    )
    assert len(logo) == 2, logo  # the suits and the name
    for part in logo:
        assert _apart(toast, part), (toast, part)
    assert _apart(toast, _box(p, ".topbar .lang"))
    _inside(p, welcome, 360)
