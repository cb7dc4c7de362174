"""Leaving and coming back (issue 7, items 11, 13, 16, 19): a page hidden while betting
(004's note: minimising the browser or switching tab counts as leaving), a reload
during betting and at the showdown, Repeat after a reload, a second tab of the same
player, and the notice after going back to the lobby.

Headless Chromium never hides a page by itself, so ``_set_hidden`` does what the
browser does when a tab is minimised or another tab is chosen: ``visibilityState``
becomes ``hidden`` and ``visibilitychange`` fires.
"""

from __future__ import annotations

import re
from typing import Any

from web_harness import Player


def _set_hidden(p: Player, hidden: bool) -> None:
    p.page.evaluate(
        """(hidden) => {
        if (hidden) {
          Object.defineProperty(document, 'visibilityState', { value: 'hidden', configurable: true });
          Object.defineProperty(document, 'hidden', { value: true, configurable: true });
        } else {
          delete document.visibilityState;
          delete document.hidden;
        }
        document.dispatchEvent(new Event('visibilitychange'));
    }""",
        hidden,
    )


def test_a_hidden_page_declines_the_bets(new_player: Any) -> None:
    p: Player = new_player()
    p.sign_in("Ann")
    p.join("live-1")
    p.wait_betting()
    # Hidden without bets: nothing to decline, nothing said.
    _set_hidden(p, True)
    _set_hidden(p, False)
    p.expect(p.loc("#result")).to_be_hidden()
    p.bet("ante", 25)
    p.bet("trips", 5)
    p.expect_balance("945")
    _set_hidden(p, True)
    _set_hidden(p, False)
    result = p.loc("#result")
    p.expect(result).to_have_attribute("data-banner", "banner.declined_hidden")
    p.expect(result).to_have_text(
        "Your bets were declined and refunded: the page was hidden while betting was open,"
        " which counts as leaving the game."
    )
    p.expect_bets(ante="", blind="", trips="")
    p.expect_balance("1,000")
    p.loc(".lang-btn[data-lang='ru']").click()
    p.expect(result).to_have_text(
        "Ваши ставки не приняты и возвращены: страница была скрыта во время приёма ставок,"
        " а это считается уходом из игры."
    )
    p.loc(".lang-btn[data-lang='en']").click()
    # Betting is still open: the player bets again, and the notice goes.
    p.bet("ante", 5)
    p.expect(result).to_be_hidden()
    p.expect_bets(ante="5")
    # After the red light a hidden page changes nothing: the bets stand.
    p.close_betting()
    p.expect_decision("play_4x", "play_3x", "check")
    _set_hidden(p, True)
    _set_hidden(p, False)
    p.expect_bets(ante="5", blind="5")
    p.expect_balance("990")
    assert p.console_errors == []


def test_reloads_keep_the_result_and_repeat(new_player: Any) -> None:
    p: Player = new_player()
    p.sign_in("Ann")
    p.join("live-1")
    game = p.wait_betting()
    p.bet("ante", 25)
    p.bet("trips", 5)
    p.close_betting()
    p.decide("play_4x")
    p.expect_phase("pause")
    p.expect(p.loc("#result .result-head")).to_have_text("You win 120")

    # A reload at the showdown: the result is still shown.
    p.page.reload()
    p.expect(p.loc("#view-table")).to_have_attribute("data-connected", "true")
    p.expect_phase("pause")
    p.expect(p.loc("#result .result-head")).to_have_text("You win 120")
    p.expect(p.loc("#result-balance")).to_have_text("1,120")
    p.expect(p.loc("#spot-play .spot-result")).to_have_text("Win +100")
    p.expect(p.loc("#spot-trips .spot-result")).to_have_text("Lose −5")
    p.expect(p.loc("#player-hand-name")).to_have_text("Pair of sixes")
    p.expect_balance("1,120")
    p.expect(p.loc("#light-count")).to_have_text(re.compile(r"^[1-4]s$"))  # the pause counts

    # The next round: Repeat works after the reload.
    game = p.wait_pause_then_next("live-1", game)
    p.expect(p.loc("#btn-repeat")).to_be_enabled()
    p.loc("#btn-repeat").click()
    p.expect_bets(ante="25", blind="25", trips="5")
    p.expect_balance("1,065")

    # A reload during betting is leaving the table (004): the bets are declined, and
    # the page says so after the reload; Repeat puts them back.
    p.page.reload()
    p.expect(p.loc("#view-table")).to_have_attribute("data-connected", "true")
    result = p.loc("#result")
    p.expect(result).to_have_attribute("data-banner", "banner.declined_left")
    p.expect(result).to_have_text(
        "Your bets were declined and refunded: you left the table (or the connection"
        " dropped) while betting was open."
    )
    p.expect_balance("1,120")
    p.expect_bets(ante="")
    p.loc("#btn-repeat").click()
    p.expect_bets(ante="25", blind="25", trips="5")
    p.expect(result).to_be_hidden()
    assert p.console_errors == []


def test_a_second_tab_shows_the_same_bets_and_balance(new_player: Any) -> None:
    first: Player = new_player()
    first.sign_in("Ann")
    second = Player(first.page.context.new_page(), first.server)  # the same browser
    second.open()
    second.expect(second.loc("#me-name")).to_have_text("Ann")
    first.join("live-1")
    second.join("live-1")
    first.wait_betting()
    second.wait_betting()
    first.bet("ante", 25)
    # No clock moves: the second tab is told at once.
    second.expect_bets(ante="25", blind="25")
    second.expect_balance("950")
    second.expect(second.loc("#t-total")).to_have_text("50")
    second.loc("#btn-double").click()
    first.expect_bets(ante="50", blind="50")
    first.expect_balance("900")
    first.loc("#btn-undo").click()
    second.expect_bets(ante="25")
    second.expect_balance("950")
    # A decision in one tab is the other's too: its panel moves on to the flop.
    first.close_betting()
    first.expect_decision("play_4x", "play_3x", "check")
    second.expect_decision("play_4x", "play_3x", "check")
    second.decide("check")
    first.expect(first.loc("#view-table")).to_have_attribute("data-decisions", "check")
    first.expect_decision("play_2x", "check")
    assert first.console_errors == [] and second.console_errors == []


def test_back_to_the_lobby_says_what_became_of_the_bets(new_player: Any) -> None:
    p: Player = new_player()
    p.sign_in("Ann")
    p.join("live-1")
    p.wait_betting()
    p.bet("ante", 25)
    p.loc("#btn-lobby").click()
    p.expect(p.loc("#view-lobby")).to_be_visible()
    p.expect(p.loc(".toast[data-key='leave.declined']")).to_have_text(
        "You left the table while betting was open: your bets (50) were declined and refunded."
    )
    p.expect(p.loc("#me-balance")).to_have_text("1,000")
    # Leaving after the red light: the hand plays on.
    p.join("live-1")
    p.wait_betting()
    p.bet("ante", 25)
    p.close_betting()
    p.expect_decision("play_4x", "play_3x", "check")
    game = p.loc("#t-game").inner_text()
    p.loc("#btn-lobby").click()
    p.expect(p.loc(".toast[data-key='leave.hand_plays_on']")).to_have_text(
        f"You left game {game}: your hand plays on and the timer decides for it (check,"
        " or fold at the river). The result will be in the History."
    )
    assert p.console_errors == []
