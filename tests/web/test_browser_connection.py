"""A lost connection (issue 7, item 14): an overlay over the table that says what it
means at that moment, every action out of reach, automatic reconnection with backoff
(and "Reconnect now"), and on reconnecting what happened meanwhile.

The page's WebSockets go through the test (``Player.install_cable``), which drops
them as a lost network would.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

from web_harness import LiveServer, Player


def test_connection_lost_mid_round(new_player: Any, tmp_path: Path) -> None:
    p: Player = new_player()
    p.install_cable()
    p.sign_in("Ann")
    p.join("live-1")
    p.wait_betting()
    p.bet("ante", 25)
    p.close_betting()
    p.expect_decision("play_4x", "play_3x", "check")

    p.cut_cable()
    overlay = p.loc("#conn-lost")
    p.expect(overlay).to_be_visible()
    p.expect(overlay.locator("h2")).to_have_text("Connection lost")
    p.expect(p.loc("#conn-lost-what")).to_have_text(
        "Your hand stays in the round: a decision not made in time is taken by the timer"
        " (check, or fold at the river)."
    )
    p.expect(p.loc("#conn-lost-retry")).to_have_text(re.compile(r"^Reconnecting in \ds…$"))
    p.expect(p.loc("#view-table")).to_have_attribute("data-connected", "false")
    # No decision can be made: the panel is gone and its keys do nothing.
    p.expect(p.loc("#decision")).to_be_hidden()
    p.page.keyboard.press("4")
    assert p.decisions() == []
    # The overlay covers the table: a click on the felt lands on the overlay.
    box = p.loc("#felt").bounding_box()
    assert box is not None
    hit = p.page.evaluate(
        "([x, y]) => document.elementFromPoint(x, y).closest('#conn-lost') !== null",
        [box["x"] + box["width"] / 2, box["y"] + box["height"] / 2],
    )
    assert hit
    shots = Path(os.environ.get("UTH_SCREENSHOTS_DIR") or tmp_path)  # as in test_browser_layout
    p.page.screenshot(
        path=str(shots / "connection-lost.png"), full_page=False, animations="disabled"
    )

    # Away past the decision: the timer checks. Back: the page says so and the flop
    # decision is open.
    p.server.advance(10)
    p.mend_cable()
    p.reconnect_now()
    p.expect(overlay).to_be_hidden()
    p.expect(p.loc("#view-table")).to_have_attribute("data-connected", "true")
    p.expect(p.loc(".toast[data-key='conn.restored']")).to_have_text("Connection restored.")
    p.expect(p.loc(".toast[data-key='conn.check_while_away']")).to_have_text(
        "While you were away the timer checked for you (AUTO CHECKED)."
    )
    p.expect_decision("play_2x", "check")
    p.expect(p.loc("#view-table")).to_have_attribute("data-decisions", "auto:check")
    p.decide("play_2x")
    p.expect(p.loc("#result .result-head")).to_have_text("You win 75")
    assert p.console_errors == []


def test_reconnects_by_itself_and_while_betting(new_player: Any) -> None:
    """Dropped while betting with a bet on: the overlay says the bets are declined;
    the page reconnects by itself (first try after a second)."""
    p: Player = new_player()
    p.install_cable()
    p.sign_in("Bea")
    p.join("live-1")
    p.wait_betting()
    p.bet("ante", 5)
    p.cut_cable()
    p.expect(p.loc("#conn-lost-what")).to_have_text(
        "Bets on the table while betting is open are declined when the connection drops"
        " (it counts as leaving the game), and refunded."
    )
    for chip in p.loc("#chips [data-chip]").all():
        p.expect(chip).to_be_disabled()
    p.mend_cable()
    p.expect(p.loc("#conn-lost")).to_be_hidden(timeout=15000)
    p.expect(p.loc(".toast[data-key='conn.restored']")).to_be_visible()
    p.expect_balance("1,000")
    p.expect_bets(ante="")
    assert p.console_errors == []


def test_away_for_the_whole_round(new_player: Any) -> None:
    """Dropped before the pre-flop decision and back after the showdown: the page
    says how the round ended, from the snapshot's last result."""
    p: Player = new_player()
    p.install_cable()
    p.sign_in("Cy")
    p.join("live-1")
    game = p.wait_betting()
    p.bet("ante", 25)
    p.close_betting()
    p.expect_decision("play_4x", "play_3x", "check")
    p.cut_cable()
    # The timer decides every street: check, check, fold.
    for phase in ("flop", "river", "pause"):
        p.server.advance(10)
        p.server.wait_phase("live-1", phase)
    p.mend_cable()
    p.reconnect_now()
    p.expect(p.loc(".toast[data-key='conn.settled_lose']")).to_have_text(
        f"While you were away game {game} was settled: you lost 50."
    )
    p.expect(p.loc("#result .result-head")).to_have_text("You lose 50")
    p.expect_balance("950")
    assert p.console_errors == []


def test_server_restart_mid_round(new_player: Any) -> None:
    """The server stops mid-round and starts again: the page reconnects, says the
    round was voided by the restart (with its game number), and Repeat still works."""
    p: Player = new_player()
    p.sign_in("Di")
    p.join("live-1")
    game = p.wait_betting()
    p.bet("ante", 25)
    p.close_betting()
    p.expect_decision("play_4x", "play_3x", "check")
    server = p.server.restarted()
    p.server = server
    try:
        p.expect(p.loc("#conn-lost")).to_be_visible()
        p.reconnect_now()
        p.expect(p.loc("#view-table")).to_have_attribute("data-connected", "true")
        result = p.loc("#result")
        p.expect(result).to_have_attribute("data-banner", "banner.voided_restart")
        p.expect(result).to_have_text(
            f"Game {game} was voided because the server restarted during it: every bet is refunded."
        )
        p.expect_balance("1,000")
        p.wait_betting()
        p.expect(p.loc("#btn-repeat")).to_be_enabled()
        p.loc("#btn-repeat").click()
        p.expect_bets(ante="25", blind="25")
        # A reconnect tried while the server was down is refused by the network:
        # Chromium logs that itself. Nothing else may be logged as an error.
        refused = "net::ERR_CONNECTION_REFUSED"
        assert [e for e in p.console_errors if refused not in e] == []
    finally:
        server.stop()


def test_a_paused_round(new_player: Any) -> None:
    """004's malfunction procedure: the operator pauses the round; the page says it is
    being investigated and the decision buttons are disabled until it resumes."""
    p: Player = new_player()
    p.sign_in("Eli")
    p.join("live-1")
    p.wait_betting()
    p.bet("ante", 25)
    p.close_betting()
    p.expect_decision("play_4x", "play_3x", "check")
    game = p.loc("#t-game").inner_text()
    p.server.operator(f"rounds/{game}/pause", {"reason": "browser test: card on the floor"})
    status = p.loc("#status-line")
    p.expect(status).to_have_text("The round is paused: the issue is being investigated.")
    for button in p.loc("#decision-buttons [data-action]").all():
        p.expect(button).to_be_disabled()
    p.page.keyboard.press("4")
    p.expect(p.loc("#view-table")).to_have_attribute("data-decisions", "")
    p.loc(".lang-btn[data-lang='ru']").click()
    p.expect(status).to_have_text("Раунд приостановлен: причина выясняется.")
    p.loc(".lang-btn[data-lang='en']").click()
    p.server.operator(f"rounds/{game}/resume", {"reason": "browser test: resumed"})
    p.expect(status).not_to_have_attribute("data-status", "status.paused")
    p.expect_decision("play_4x", "play_3x", "check")
    p.expect(p.loc("#decision-buttons [data-action='play_4x']")).to_be_enabled()
    p.decide("play_4x")
    p.expect(p.loc("#result .result-head")).to_have_text("You win 125")
    assert p.console_errors == []


def test_server_down_says_unreachable(new_player: Any) -> None:
    """The server stops mid-round and stays down: once a try has failed and the server
    does not answer HTTP either, the overlay says the server is unreachable (not that
    the player's connection is lost), what that means for the hand, and counts the
    attempts down, in English and Russian; back when the server is."""
    p: Player = new_player()
    p.sign_in("Fay")
    p.join("live-1")
    game = p.wait_betting()
    p.bet("ante", 25)
    p.close_betting()
    p.expect_decision("play_4x", "play_3x", "check")
    p.server.stop()
    title = p.loc("#conn-lost-title")
    p.expect(p.loc("#conn-lost")).to_be_visible()
    p.expect(title).to_have_text("Server unreachable", timeout=15000)
    p.expect(title).to_have_attribute("data-key", "conn.unreachable_title")
    p.expect(p.loc("#conn-lost-what")).to_have_text(
        "The server does not answer. If it is still running, your hand stays in the round"
        " and the timer decides for it; if it stopped, the round is voided and every bet"
        " refunded when it starts again."
    )
    retry = p.loc("#conn-lost-retry")
    p.expect(retry).to_have_text(re.compile(r"^Attempt [1-9] failed\. Next attempt in [1-9]\d?s…$"))
    p.page.evaluate("() => document.querySelector(\".lang-btn[data-lang='ru']\").click()")
    p.expect(title).to_have_text("Сервер недоступен")
    p.expect(retry).to_have_text(
        re.compile(r"^(Попытка [1-9] не удалась\. Следующая через [1-9]\d? с…|Попытка \d…)$")
    )
    p.page.evaluate("() => document.querySelector(\".lang-btn[data-lang='en']\").click()")
    again = LiveServer(p.server.tmp, p.server.seed, p.server.port)
    again.start()
    p.server = again
    try:
        p.reconnect_now()
        p.expect(p.loc("#conn-lost")).to_be_hidden()
        p.expect(p.loc("#result")).to_have_attribute("data-banner", "banner.voided_restart")
        p.expect(p.loc("#result")).to_contain_text(f"Game {game} was voided")
        # The browser itself logs each refused try; the page logs nothing.
        refused = "net::ERR_CONNECTION_REFUSED"
        assert [e for e in p.console_errors if refused not in e] == []
        assert any(refused in e for e in p.console_errors)
    finally:
        again.stop()


def test_offline_says_no_network(new_player: Any) -> None:
    """The browser goes offline: the page drops the socket at once and says there is
    no network; back online, it reconnects at once."""
    p: Player = new_player()
    p.sign_in("Gil")
    p.join("live-1")
    p.wait_betting()
    p.page.context.set_offline(True)
    p.expect(p.loc("#conn-lost")).to_be_visible()
    p.expect(p.loc("#conn-lost-title")).to_have_text("No network")
    p.expect(p.loc("#conn-lost-what")).to_have_text("Nothing of yours is in play.")
    p.page.context.set_offline(False)
    p.expect(p.loc("#conn-lost")).to_be_hidden()
    p.expect(p.loc(".toast[data-key='conn.restored']")).to_be_visible()
    p.expect(p.loc("#view-table")).to_have_attribute("data-connected", "true")
