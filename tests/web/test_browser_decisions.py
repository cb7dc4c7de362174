"""Every decision on every street, through the browser, with the exact balances.

The live table (one shared player hand, 004) with seeded decks: the cards of each
round are known, so each showdown's balance is asserted to the unit. The test also
checks the announcement, the best five highlighted, each wager's result, Repeat
across rounds, keyboard shortcuts, and the history of the five rounds.
"""

from __future__ import annotations

import re
from typing import Any

from web_harness import Player


def _showdown(p: Player, *, announcement: str, balance: str, results: dict[str, str]) -> None:
    p.expect(p.loc("#announcement")).to_have_text(announcement)
    p.expect(p.loc("#result")).to_be_visible()
    for wager, text in results.items():
        p.expect(p.loc(f"#spot-{wager} .spot-result")).to_have_text(text)
    p.expect(p.loc("#result-balance")).to_have_text(balance)
    p.expect_balance(balance)
    # The spots' key hints are gone (they overlapped the result labels).
    p.expect(p.loc("#spots kbd")).to_have_count(0)
    # The player's best five: five cards of the table glow (hole cards and board).
    if "fold" not in p.decisions():
        p.expect(p.loc("#player-cards .card.best, #board .card.best")).to_have_count(5)


def _hover_keeps_colour(p: Player) -> None:
    """Each decision button keeps its colour under the pointer, brighter (a hover that
    darkened PLAY 3x read as disabled).
    """
    buttons = p.loc("#decision-buttons [data-action]")
    for i in range(buttons.count()):
        button = buttons.nth(i)
        style = "(e) => [getComputedStyle(e).backgroundImage, getComputedStyle(e).filter]"
        image, filt = button.evaluate(style)
        assert "gradient" in image and filt == "none", (image, filt)
        button.hover()
        hovered, filt = button.evaluate(style)
        assert hovered == image, button.get_attribute("data-action")
        assert "brightness" in filt, filt
    p.page.mouse.move(0, 0)


def test_every_decision_on_every_street(new_player: Any) -> None:
    p: Player = new_player()
    p.sign_in("Ann")
    p.join("live-1")
    game = p.wait_betting()
    assert game == "20261129-233015-0001"
    p.expect_balance("1,000")

    # Round 1: Ante 25 (Blind 25 follows), Trips 5; PLAY 4x before the flop.
    p.bet("ante", 25)
    p.bet("trips", 5)
    p.expect_bets(ante="25", blind="25", trips="5")
    p.expect(p.loc("#t-total")).to_have_text("55")
    p.expect_balance("945")
    p.close_betting()
    p.expect_decision("play_4x", "play_3x", "check")
    p.expect(p.loc("#decision h2")).to_have_text("Make your decision")
    p.expect(p.loc("#decision-count")).to_have_text(re.compile(r"^([1-9]|10)s$"))
    p.expect(p.loc("#player-cards .card")).to_have_count(2)
    p.expect(p.loc("#dealer-cards .card-back")).to_have_count(2)
    # The hand while deciding, named from the server's hand (6d Js).
    p.expect(p.loc("#player-hand-name")).to_have_text("Jack high")
    _hover_keeps_colour(p)
    p.decide("play_4x")
    # 6d Js with Qc 4s 2c 6s 5h: a pair of sixes beats the dealer's pair of fours.
    _showdown(
        p,
        announcement="Dealer has a pair of fours: qualifies",
        balance="1,120",
        results={"ante": "Win +25", "blind": "Push", "play": "Win +100", "trips": "Lose −5"},
    )
    p.expect(p.loc("#result .result-head")).to_have_text("You win 120")
    p.expect(p.loc("#player-hand-name")).to_have_text("Pair of sixes")
    p.expect_bets(play="100")

    # Round 2: Repeat; PLAY 3x with the keyboard.
    game = p.wait_pause_then_next("live-1", game)
    p.expect(p.loc("#btn-repeat")).to_be_enabled()
    p.loc("#btn-repeat").click()
    p.expect_bets(ante="25", blind="25", trips="5")
    p.expect(p.loc("#btn-repeat")).to_be_disabled()
    p.close_betting()
    p.expect_decision("play_4x", "play_3x", "check")
    p.expect(p.loc("#player-cards .card[data-card='Td'] text")).to_have_text("10")  # never "T"
    p.decide("play_3x", key="3")
    _showdown(
        p,
        announcement=ROUND_2_ANNOUNCEMENT,
        balance=ROUND_2_BALANCE,
        results=ROUND_2_RESULTS,
    )

    # Round 3: Repeat (key R); CHECK (key C), then PLAY 2x on the flop.
    game = p.wait_pause_then_next("live-1", game)
    p.page.keyboard.press("r")
    p.expect_bets(ante="25", blind="25", trips="5")
    p.close_betting()
    p.decide("check", key="c")
    p.expect(p.loc("#board .card[data-card]:not([data-card=''])")).to_have_count(3)
    # Card indices: A K Q J 10 (the ace is "A"; no "T", which reads as a ten).
    p.expect(p.loc("#board .card[data-card='Ad'] text")).to_have_text("A")
    p.expect_decision("play_2x", "check")
    p.expect(p.loc("#player-hand-name")).to_have_text("Pair of aces")  # Qc 7c | Ad 2c Ac
    p.decide("play_2x")
    _showdown(
        p,
        announcement=ROUND_3_ANNOUNCEMENT,
        balance=ROUND_3_BALANCE,
        results=ROUND_3_RESULTS,
    )

    # Round 4: CHECK, CHECK, PLAY 1x (key 1).
    game = p.wait_pause_then_next("live-1", game)
    p.loc("#btn-repeat").click()
    p.expect_bets(ante="25")
    p.close_betting()
    p.decide("check")
    p.decide("check")
    p.expect(p.loc("#board .card[data-card]:not([data-card=''])")).to_have_count(5)
    p.expect_decision("play_1x", "fold")
    p.decide("play_1x", key="1")
    _showdown(
        p,
        announcement=ROUND_4_ANNOUNCEMENT,
        balance=ROUND_4_BALANCE,
        results=ROUND_4_RESULTS,
    )

    # Round 5: CHECK, CHECK, FOLD (key F): Ante and Blind lose, Trips still counts.
    game = p.wait_pause_then_next("live-1", game)
    p.loc("#btn-repeat").click()
    p.expect_bets(ante="25")
    p.close_betting()
    p.decide("check")
    p.decide("check")
    p.expect(p.loc("#player-hand-name")).to_have_text("Two pair, kings and tens")
    p.decide("fold", key="f")
    p.expect(p.loc("#player-hand-name")).to_have_text("Folded")
    _showdown(
        p,
        announcement=ROUND_5_ANNOUNCEMENT,
        balance=ROUND_5_BALANCE,
        results=ROUND_5_RESULTS,
    )

    # History: the five rounds, newest first; the first one opened in detail.
    p.loc("#btn-history").click()
    rows = p.loc("#history-body tbody tr")
    p.expect(rows).to_have_count(5)
    p.expect(rows.first.locator("td").first).to_have_text(game)
    p.loc("#history-body [data-game='20261129-233015-0001'] button").click()
    detail = p.loc("#history-body .round-detail")
    p.expect(detail).to_have_attribute("data-game", "20261129-233015-0001")
    p.expect(detail.locator(".detail-decisions")).to_contain_text("PLAY 4x")
    p.expect(detail.locator("[data-wager='play']")).to_contain_text("+100")
    p.expect(detail.locator(".detail-balance")).to_have_text("Balance: 1,000 → 1,120")
    p.expect(detail.locator(".card[data-card='6d']")).to_have_count(1)
    p.loc("#history-back").click()
    p.expect(rows).to_have_count(5)
    p.page.keyboard.press("Escape")
    p.expect(p.loc("#dlg-history")).to_be_hidden()
    assert p.console_errors == []


# The seeded decks of rounds 2-5 (SeededShuffler(7), one deck a round):
# 2: Td 8d | 5c 9h 7d 6d 4c | dealer Qd Qc: a ten-high straight; Blind 1:1, Trips 4:1.
ROUND_2_ANNOUNCEMENT = "Dealer has a pair of queens: qualifies"
ROUND_2_BALANCE = "1,265"
ROUND_2_RESULTS = {"ante": "Win +25", "blind": "Win +25", "play": "Win +75", "trips": "Win +20"}
# 3: Qc 7c | Ad 2c Ac Ks Td | dealer 8s 4s: aces with K Q T beat aces with K T 8.
ROUND_3_ANNOUNCEMENT = "Dealer has a pair of aces: qualifies"
ROUND_3_BALANCE = "1,335"
ROUND_3_RESULTS = {"ante": "Win +25", "blind": "Push", "play": "Win +50", "trips": "Lose −5"}
# 4: 5d Kh | 3c 3s 7h Ac 9c | dealer Qs Ks: threes with A K Q beat threes with A K 9.
ROUND_4_ANNOUNCEMENT = "Dealer has a pair of threes: qualifies"
ROUND_4_BALANCE = "1,255"
ROUND_4_RESULTS = {"ante": "Lose −25", "blind": "Lose −25", "play": "Lose −25", "trips": "Lose −5"}
# 5: Jd 8s | Kh Tc Ah Th Kd | dealer 8c 8h: folded; Trips (two pair) loses.
ROUND_5_ANNOUNCEMENT = "Dealer has two pair, kings and tens: qualifies"
ROUND_5_BALANCE = "1,200"
ROUND_5_RESULTS = {"ante": "Lose −25", "blind": "Lose −25", "trips": "Lose −5"}


def test_reload_in_a_round_brings_the_decision_back(new_player: Any) -> None:
    """A reload (or a dropped connection) mid-round: the snapshot restores the cards,
    the bets and the open decision; the player then plays on.
    """
    p: Player = new_player()
    p.sign_in("Ann")
    p.join("live-1")
    p.wait_betting()
    p.bet("ante", 25)
    p.close_betting()
    p.decide("check")
    p.expect_decision("play_2x", "check")
    p.page.reload()
    p.expect(p.loc("#view-table")).to_have_attribute("data-connected", "true")
    p.expect_decision("play_2x", "check")
    p.expect(p.loc("#player-cards .card[data-card='6d']")).to_have_count(1)
    p.expect(p.loc("#board .card[data-card='Qc']")).to_have_count(1)
    p.expect_bets(ante="25", blind="25")
    p.expect_balance("950")
    p.decide("play_2x")
    p.expect(p.loc("#result .result-head")).to_have_text("You win 75")
    p.expect_balance("1,075")


def test_a_spectator_sees_the_shared_hand_but_no_decision(new_player: Any) -> None:
    """At the live table the one player hand is dealt face up for everyone (004):
    a seated player who did not bet sees it, and the board, but gets no decision.
    """
    ann: Player = new_player()
    eve: Player = new_player(360, 740)
    ann.sign_in("Ann")
    eve.sign_in("Eve")
    ann.join("live-1")
    eve.join("live-1")
    ann.wait_betting()
    ann.bet("ante", 25)
    ann.close_betting()
    ann.expect_decision("play_4x", "play_3x", "check")
    eve.expect(eve.loc("#player-cards .card[data-card='6d']")).to_have_count(1)
    eve.expect(eve.loc("#status-line")).to_have_text(
        "You are watching this round. Bet when the light turns green."
    )
    eve.expect(eve.loc("#decision")).to_be_hidden()
    # The closed light shows no count ("Betting closed 0s" before).
    eve.expect(eve.loc("#light-status")).to_have_text("Betting closed")
    eve.expect(eve.loc("#light-count")).to_have_text("")
    ann.decide("play_4x")
    eve.expect(eve.loc("#announcement")).to_have_text("Dealer has a pair of fours: qualifies")
    eve.expect(eve.loc("#result")).to_be_hidden()
    eve.expect_balance("1,000")
