"""Betting with chips (004): chip tray, spots, Undo, Double, Repeat, the maximum notice,
the low-balance warning, the traffic light, and everything disabled once betting closes;
an Ante below the table minimum (hinted while betting, declined at the red light).
"""

from __future__ import annotations

import re
from typing import Any

from web_harness import Player


def test_chips_spots_undo_double_and_maximum(new_player: Any) -> None:
    p: Player = new_player()
    p.sign_in("Ann")
    p.join("live-1")
    p.wait_betting()
    light = p.loc("#light-box")
    p.expect(light).to_have_attribute("data-light", "green")
    p.expect(p.loc("#light-status")).to_have_text("Place your bets")
    p.expect(p.loc("#light-count")).to_have_text(re.compile(r"^1[0-5]s$"))  # counts down locally

    # The chip tray is the table's chips; every chip is covered by 1,000 (the Ante
    # needs twice the chip: 2 x 500).
    chips = p.loc("#chips [data-chip]")
    p.expect(chips).to_have_count(5)
    for i, value in enumerate(["1", "5", "25", "100", "500"]):
        p.expect(chips.nth(i)).to_have_attribute("data-chip", value)
        p.expect(chips.nth(i)).to_be_enabled()
    p.expect(p.loc("#btn-undo")).to_be_disabled()
    p.expect(p.loc("#btn-double")).to_be_disabled()
    p.expect(p.loc("#btn-repeat")).to_be_disabled()  # no previous round
    p.expect(p.loc("#spot-trips")).to_be_disabled()  # Trips needs an Ante first
    p.expect(p.loc("#spot-ante kbd")).to_have_text("A")  # the key hint while it takes chips

    # Two clicks of 5 on the Ante: 10, and the Blind follows.
    p.bet("ante", 5, times=2)
    p.expect_bets(ante="10", blind="10")
    p.expect(p.loc("#t-total")).to_have_text("20")
    p.expect_balance("980")
    # Keyboard: Shift+3 picks the third chip (25), T bets it on Trips.
    p.page.keyboard.press("Shift+Digit3")
    p.expect(chips.nth(2)).to_have_attribute("aria-pressed", "true")
    p.page.keyboard.press("t")
    p.expect_bets(trips="25")
    p.expect(p.loc("#t-total")).to_have_text("45")
    p.expect_balance("955")

    # Undo is repeatable, in reverse order.
    p.loc("#btn-undo").click()
    p.expect_bets(trips="", ante="10")
    p.loc("#btn-undo").click()
    p.expect_bets(ante="5", blind="5")
    p.page.keyboard.press("u")
    p.expect_bets(ante="", blind="")
    p.expect(p.loc("#t-total")).to_have_text("0")
    p.expect(p.loc("#btn-undo")).to_be_disabled()
    p.expect_balance("1,000")

    # Double: once per round; undoing it allows it again.
    p.bet("ante", 5, times=2)
    p.loc("#btn-double").click()
    p.expect_bets(ante="20", blind="20")
    p.expect(p.loc("#btn-double")).to_be_disabled()
    p.expect_balance("960")
    p.loc("#btn-undo").click()
    p.expect_bets(ante="10")
    p.expect(p.loc("#btn-double")).to_be_enabled()
    p.page.keyboard.press("d")
    p.expect_bets(ante="20")

    # Trips up to its maximum (100 at this table): then the "maximum" notice.
    p.bet("trips", 100)
    p.expect_bets(trips="100")
    p.expect(p.loc("#spot-trips .spot-max")).to_have_text("Maximum")
    p.expect(p.loc(".toast").last).to_have_text("Maximum bet reached on this spot")
    p.expect(p.loc("#spot-ante .spot-max")).to_have_count(0)
    p.loc("#spot-trips").click()  # refused: at the maximum
    p.expect(p.loc(".toast").last).to_have_text("Not placed: Trips is at its maximum, 100.")
    p.expect_bets(trips="100")
    # The refusal does not stay up once a later command succeeds.
    p.loc("#btn-undo").click()
    p.expect_bets(trips="")
    p.expect(p.loc(".toast-error")).to_have_count(0)
    p.bet("trips", 100)
    p.expect_bets(trips="100")
    p.expect(p.loc("#t-total")).to_have_text("140")
    p.expect_balance("860")

    # The light turns yellow for the last 5 seconds, then red: everything is disabled.
    p.server.advance(10)
    p.expect(light).to_have_attribute("data-light", "yellow")
    p.expect(p.loc("#light-status")).to_have_text("Betting closes")
    p.server.advance(5)
    p.expect_decision("play_4x", "play_3x", "check")
    p.expect(light).to_have_attribute("data-light", "red")
    p.expect(p.loc("#light-status")).to_have_text("Betting closed")
    for i in range(5):
        p.expect(chips.nth(i)).to_be_disabled()
    p.expect(p.loc("#spot-ante")).to_be_disabled()
    p.expect(p.loc("#spot-trips")).to_be_disabled()
    p.page.keyboard.press("u")  # nothing happens: betting is closed
    p.expect_bets(ante="20", blind="20", trips="100")
    assert p.console_errors == []


def test_low_balance_warning_and_only_affordable_decisions(new_player: Any) -> None:
    """A 500 Ante (and its Blind) uses the whole 1,000: the warning shows, no chip is
    covered any more, and the decisions offered are those the balance covers: CHECK
    only before the flop and on the flop, FOLD only at the river (RULES.md, 004).
    The timer decides here: AUTO CHECKED twice, then AUTO FOLDED.
    """
    p: Player = new_player()
    p.sign_in("Bob")
    p.join("live-1")
    p.wait_betting()
    p.expect(p.loc("#warning")).to_be_hidden()
    p.bet("ante", 500)
    p.expect_bets(ante="500", blind="500")
    p.expect_balance("0")
    p.expect(p.loc("#warning")).to_have_text(
        "Your balance left, 0, would not cover a 1x Play of 500: you could only fold at the river."
    )
    for chip in p.loc("#chips [data-chip]").all():
        p.expect(chip).to_be_disabled()

    p.close_betting()
    p.expect(p.loc("#warning")).to_be_hidden()
    p.expect_decision("check")
    why = p.loc("#decision-why")
    p.expect(why).to_have_text(
        "Not enough for PLAY 4x (2,000) or PLAY 3x (1,500): your balance is 0. You can check."
    )
    before = _layout(p)
    p.server.advance(10)  # the pre-flop decision times out
    p.expect(p.loc("#auto-notice")).to_have_text("AUTO CHECKED")
    p.expect_decision("check")
    # The notice overlays the bar: nothing moves when it shows.
    assert _layout(p) == before
    p.expect(p.loc("#view-table")).to_have_attribute("data-decisions", "auto:check")
    p.expect(why).to_have_text("Not enough for PLAY 2x (1,000): your balance is 0. You can check.")
    p.server.advance(10)
    p.expect_decision("fold")
    p.expect(why).to_have_text(
        "Not enough for PLAY 1x (500): your balance is 0. You can only fold."
    )
    p.loc(".lang-btn[data-lang='ru']").click()
    p.expect(why).to_have_text("Не хватает на ИГРАТЬ 1× (500): ваш баланс 0. Остаётся только пас.")
    p.loc(".lang-btn[data-lang='en']").click()
    p.expect(p.loc("#view-table")).to_have_attribute("data-decisions", "auto:check auto:check")
    p.expect(p.loc("#auto-notice")).to_have_text("AUTO CHECKED")
    p.server.advance(10)
    p.expect(p.loc("#auto-notice")).to_have_text("AUTO FOLDED")
    p.expect(p.loc("#view-table")).to_have_attribute(
        "data-decisions", "auto:check auto:check auto:fold"
    )
    p.expect(p.loc("#result .result-head")).to_have_text("You lose 1,000")
    p.expect(p.loc("#spot-ante .spot-result")).to_have_text("Lose −500")
    p.expect(p.loc("#spot-blind .spot-result")).to_have_text("Lose −500")
    p.expect_balance("0")
    assert p.console_errors == []


def test_auto_check_then_play(new_player: Any) -> None:
    """Time runs out before the flop (AUTO CHECKED); the player then plays 2x."""
    p: Player = new_player()
    p.sign_in("Cy")
    p.join("live-1")
    p.wait_betting()
    p.bet("ante", 25)
    p.close_betting()
    p.expect_decision("play_4x", "play_3x", "check")
    p.server.advance(10)
    p.expect(p.loc("#auto-notice")).to_have_text("AUTO CHECKED")
    p.expect_decision("play_2x", "check")
    p.decide("play_2x", key="2")
    # 6d Js | Qc 4s 2c 6s 5h | dealer 9s 4h (seed 7): sixes beat fours.
    p.expect(p.loc("#announcement")).to_have_text("Dealer has a pair of fours: qualifies")
    p.expect(p.loc("#result .result-head")).to_have_text("You win 75")
    p.expect_bets(play="50")
    p.expect_balance("1,075")


def _layout(p: Player) -> dict[str, tuple[float, float]]:
    """Where the bar, the felt and the decision buttons are (x, y)."""
    out = {}
    for selector in (".table-bar", "#felt", "#decision-buttons"):
        box = p.loc(selector).bounding_box()
        assert box is not None, selector
        out[selector] = (round(box["x"]), round(box["y"]), round(box["height"]))
    return out


def test_ante_below_the_minimum_is_hinted_then_declined(new_player: Any) -> None:
    """Chips may add up to the minimum, so an Ante of 1 (the minimum is 5) is taken
    while betting, with a hint; at the red light the server declines it and the page
    says why, from the table's limits, in the page's language.
    """
    p: Player = new_player()
    p.sign_in("Dee")
    p.join("live-1")
    p.wait_betting()
    status = p.loc("#status-line")
    p.expect(status).to_have_attribute("data-status", "status.place_bets")
    p.bet("ante", 1)
    p.expect_bets(ante="1", blind="1")
    p.expect(status).to_have_text(
        "Minimum Ante 5: add chips, or your bets are declined when the light turns red."
    )
    p.expect(status).to_have_class(re.compile(r"\bstatus-warn\b"))
    p.bet("ante", 5)  # 6: enough
    p.expect(status).to_have_attribute("data-status", "status.bets_placed")
    p.loc("#btn-undo").click()
    p.expect(status).to_have_attribute("data-status", "status.min_ante")
    p.bet("trips", 1)  # Trips below its minimum too: the Ante is named first
    p.expect(status).to_have_attribute("data-status", "status.min_ante")

    p.close_betting()
    result = p.loc("#result")
    p.expect(result).to_have_text("Your bets were declined: the Ante must be at least 5.")
    p.expect(result).to_have_attribute("data-banner", "banner.declined_min_ante")
    p.expect_phase("pause")  # nobody else bet: no deal
    p.expect(result).to_be_visible()
    p.expect_bets(ante="", blind="", trips="")
    p.expect_balance("1,000")
    p.loc(".lang-btn[data-lang='ru']").click()
    p.expect(result).to_have_text("Ваши ставки не приняты: Анте должно быть не меньше 5.")
    assert "wagers" not in p.loc("#view-table").inner_text()
    p.loc(".lang-btn[data-lang='en']").click()

    # The next round: the reason stays in the status line until an Ante is placed.
    game = p.wait_pause_then_next("live-1", p.loc("#t-game").inner_text())
    assert game
    p.expect(result).to_be_hidden()
    p.expect(status).to_have_text("Your bets were declined: the Ante must be at least 5.")
    p.bet("ante", 5)
    p.expect(status).to_have_attribute("data-status", "status.bets_placed")
    assert p.console_errors == []


def test_the_selected_chip_never_changes_by_itself(new_player: Any) -> None:
    """Balance 1,400, the 500 chip, three clicks on the Ante: the first places 500 (and
    its Blind), the next two are refused with the numbers and the chip stays 500 (it
    used to switch to 100 without a word and place 500 + 100 + 100). A chip the
    balance cannot cover is not picked by key either: the page says why.
    """
    p: Player = new_player()
    p.sign_in("Fay")
    p.server.credit(p.player_id(), 400)
    p.join("live-1")
    p.wait_betting()
    p.expect_balance("1,400")
    p.chip(500)
    chip500 = p.loc("#chips [data-chip='500']")
    for _ in range(3):
        p.loc("#spot-ante").click()
    p.expect_bets(ante="500", blind="500")
    p.expect_balance("400")
    refusal = (
        "Not placed: the 500 chip on the Ante takes 1,000 with the Blind, and your balance is 400."
    )
    p.expect(p.loc(".toast-error")).to_have_count(2)
    p.expect(p.loc(".toast-error").last).to_have_text(refusal)
    p.expect(chip500).to_have_attribute("aria-pressed", "true")
    p.expect(chip500).to_be_disabled()  # not covered, but still the player's pick
    p.expect(p.loc("#chips [aria-pressed='true']")).to_have_count(1)
    # The player picks the 100 chip: it is placed.
    p.bet("ante", 100)
    p.expect_bets(ante="600", blind="600")
    p.expect_balance("200")
    # Shift+5 (the 500 chip) is refused with the reason; the 100 chip stays picked.
    p.page.keyboard.press("Shift+Digit5")
    p.expect(p.loc(".toast-error").last).to_have_text(
        "The 500 chip is more than your balance, 200."
    )
    p.expect(p.loc("#chips [data-chip='100']")).to_have_attribute("aria-pressed", "true")
    # Trips takes the chip alone: 100 of the 200 left.
    p.loc("#spot-trips").click()
    p.expect_bets(trips="100")
    p.loc("#spot-ante").click()
    p.expect(p.loc(".toast-error").last).to_have_text(
        "Not placed: the 100 chip on the Ante takes 200 with the Blind, and your balance is 100."
    )
    p.expect_bets(ante="600", trips="100")
    p.loc(".lang-btn[data-lang='ru']").click()
    p.expect(p.loc(".toast-error").last).to_have_text(
        "Не поставлено: фишка 100 на Анте требует 200 вместе с Блайндом, а ваш баланс 100."
    )
    assert p.console_errors == []


def test_a_missing_play_says_why(new_player: Any) -> None:
    """Ante 200 of 1,000: 600 left covers PLAY 3x (600) but not PLAY 4x (800); the
    panel says so with the numbers. PLAY 3x is then taken."""
    p: Player = new_player()
    p.sign_in("Gus")
    p.join("live-1")
    p.wait_betting()
    p.bet("ante", 100, times=2)
    p.expect_balance("600")
    p.expect(p.loc("#warning")).to_be_hidden()
    p.close_betting()
    p.expect_decision("play_3x", "check")
    p.expect(p.loc("#decision-why")).to_have_text(
        "Not enough for PLAY 4x (800): your balance is 600."
    )
    p.decide("play_3x")
    p.expect(p.loc("#result .result-head")).to_have_text("You win 800")
    assert p.console_errors == []
