"""A California card-room round end to end in three browsers (issue 13, "Done when"):
Ann sits at seat 1 and accepts the offer of the bank with the minimum, 100; Bob sits
at seat 2 and bets; Cy sits nowhere and bets behind Bob's seat (a back-line bet).
Checked on each page: the offer (the form for Ann alone), who banks and the bank, the
turn lit on Bob's seat with its timer, Bob's hole cards face up on Cy's page too (her
hand is his seat's), the bank left, the showdown's coverage and the
final balances. Bob's pair of sixes beats the dealer's pair of fours: his Ante wins
25 (bank left 75), his Play of 100 wins only the 75 left (partly covered); Cy's bets
behind him come after his seat, with the bank used up: returned, not covered. So Ann
ends at 900, Bob at 1,100, Cy at 1,000: money is conserved (3,000 in all).

The screenshots (the window, as a player sees it) go to ``$UTH_SCREENSHOTS_DIR`` when
it is set (``UTH_SCREENSHOTS_DIR=docs/screenshots`` refreshes the pictures of the
README and docs/browser-table.md), else to the test's temporary folder.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from test_browser_card_room_view import CARD_ROOM_TOML
from web_harness import LiveServer, Player, running_server

PAUSE, BETTING, OFFER = 5, 20, 15
#: Bob's hole cards and his hand at the showdown in the seed-7 round.
HOLE_BOB = ["6d", "Js"]
HAND_BOB = "Pair of sixes"


@pytest.fixture
def server(tmp_path: Path, seed: int) -> Iterator[LiveServer]:
    """The browser tests' server with a California table (seed 7: Bob's pair of sixes
    beats the dealer's pair of fours)."""
    with running_server(tmp_path, seed, CARD_ROOM_TOML) as s:
        yield s


def _shots(tmp_path: Path) -> Path:
    target = Path(os.environ.get("UTH_SCREENSHOTS_DIR") or tmp_path)
    target.mkdir(parents=True, exist_ok=True)
    return target


def _shoot(p: Player, path: Path) -> None:
    p.page.evaluate("() => document.querySelectorAll('.toast').forEach((n) => n.remove())")
    p.page.screenshot(path=str(path), full_page=False, animations="disabled")


def _seat(p: Player, n: int) -> Any:
    return p.loc(f"#seats .seat[data-seat='{n}']")


def test_california_round_in_three_browsers(
    new_player: Any, server: LiveServer, tmp_path: Path
) -> None:
    shots = _shots(tmp_path)
    ann, bob, cy = new_player(), new_player(), new_player()
    for p, name in ((ann, "Ann"), (bob, "Bob"), (cy, "Cy")):
        p.sign_in(name)
        p.join("california-1")
        p.expect(p.loc("#seats .seat")).to_have_count(7)
    # Nobody seated: no round; between rounds everyone may sit.
    server.wait_phase("california-1", "pause")
    for p, seat, name in ((ann, 1, "Ann"), (bob, 2, "Bob")):
        _seat(p, seat).locator(".btn-sit").click()
        p.expect(_seat(p, seat).locator(".seat-name")).to_have_text(name)
        p.expect(_seat(p, seat)).to_have_class(re.compile(r"\bme\b"))

    # The offer: to Ann first (seat 1), everyone sees it; the form is Ann's alone.
    server.advance(PAUSE)
    ann.expect(ann.loc("#offer-form")).to_be_visible()
    ann.expect(ann.loc("#offer-bank")).to_have_value("100")
    ann.expect(ann.loc("#offer-range")).to_have_text("from 100 to 100,000")
    for p in (bob, cy):
        p.expect(p.loc("#cr-offer-text")).to_have_text("The bank is offered to Ann (seat 1).")
        p.expect(p.loc("#offer-form")).to_be_hidden()
    for p in (ann, bob, cy):  # the light: the offer, with its countdown (not "Next round")
        p.expect(p.loc("#light-status")).to_have_text("The bank is offered")
        p.expect(p.loc("#light-count")).to_have_text(re.compile(r"^1[0-5]s$"))
    ann.page.fill("#offer-bank", "100")
    _shoot(ann, shots / "california-offer.png")
    ann.loc("#btn-accept").click()
    ann.expect(ann.loc("#cr-banker")).to_have_text("You bank 100.")
    ann.expect_balance("900")  # the bank is reserved from the balance
    for p in (bob, cy):
        p.expect(p.loc("#cr-banker")).to_have_text("Ann banks 100.")
        p.expect(p.loc("#cr-bank-left")).to_have_text("100")
        p.expect(_seat(p, 1)).to_have_class(re.compile(r"\bdealer\b"))

    # Betting: Bob at his seat, Cy behind Bob's seat (no button behind the banker's).
    game = bob.wait_betting()
    ann.expect(ann.loc("#status-line")).to_have_text(
        "You bank this round: the table plays against your bank."
    )
    ann.expect(ann.loc("#chips [data-chip]:enabled")).to_have_count(0)
    bob.bet("ante", 25)
    cy.wait_betting()
    server.advance(1)  # the table's bets go out once a second: Bob's seat is known
    cy.expect(cy.loc("#seats .btn-behind")).to_have_count(1)
    _seat(cy, 2).locator(".btn-behind").click()
    cy.expect(cy.loc("#cr-behind")).to_contain_text("behind seat 2")
    cy.bet("ante", 5, times=2)
    cy.expect_bets(ante="10", blind="10")
    server.advance(1)
    ann.expect(ann.loc("#others .others-total")).to_have_text("Players betting: 2 · total 70")
    # Cy's one hand (behind seat 2) is left out of her list once: Bob's 50 remain.
    cy.expect(cy.loc("#others .others-total")).to_have_text("Players betting: 1 · total 50")

    # Decisions in turn: Bob's seat lights up, with its timer, on every page.
    server.advance(BETTING - 2)
    for p in (ann, cy):
        p.expect(_seat(p, 2)).to_have_class(re.compile(r"\bturn\b"))
        # The seat's timer, counted down locally from the server's time.
        p.expect(_seat(p, 2).locator(".seat-count")).to_have_text(re.compile(r"^1[0-5]s$"))
        p.expect(p.loc("#cr-turn")).to_have_text("Bob decides (seat 2).")
        p.expect(p.loc("#decision")).to_be_hidden()
    bob.expect(bob.loc("#cr-turn")).to_have_text("Your turn to decide.")
    bob.expect_decision("play_4x", "play_3x", "check")
    # Cy's hand is Bob's seat's: his hole cards face up on her page too, not on Ann's.
    cards = "#player-cards .card[data-card]"
    for p in (bob, cy):
        p.expect(p.loc(cards)).to_have_count(2)
        assert [p.loc(cards).nth(i).get_attribute("data-card") for i in (0, 1)] == HOLE_BOB
    cy.expect(cy.loc("#player-label")).to_have_text("Your hand: behind seat 2")
    bob.expect(bob.loc("#player-label")).to_have_text("Your hand")
    ann.expect(ann.loc(cards)).to_have_count(0)
    for button in ("#btn-undo", "#btn-double", "#btn-repeat"):  # betting is closed
        cy.expect(cy.loc(button)).to_be_disabled()
    _shoot(cy, shots / "california-turn.png")
    cy.expect(cy.loc(cards)).to_have_count(2)  # still face up in the picture taken
    bob.decide("play_4x")

    # The showdown: the bank used up by Bob's seat; Cy's bets behind it returned.
    for p in (ann, bob, cy):
        p.expect_phase("pause")
        p.expect(p.loc("#cr-bank-left")).to_have_text("0")
        p.expect(_seat(p, 2)).not_to_have_class(re.compile(r"\bturn\b"))
    coverage = {
        bob: {"ante": "Action", "blind": "Action", "play": "Partly covered"},
        cy: {"ante": "Returned: not covered", "blind": "Action", "play": "Returned: not covered"},
    }
    for p, lines in coverage.items():
        for wager, text in lines.items():
            p.expect(p.loc(f"#result tr[data-wager='{wager}'] td.coverage")).to_have_text(text)
    bob.expect(bob.loc("#result tr[data-wager='play']")).to_contain_text("+75")
    bob.expect(bob.loc("#result .result-head")).to_have_text("You win 100")
    cy.expect(cy.loc("#result .result-head")).to_have_text("Your bets are returned")
    for p in (bob, cy):  # the seat's hand at the showdown, on both pages
        p.expect(p.loc("#player-hand-name")).to_have_text(HAND_BOB)
    ann.expect(ann.loc("#result .result-head")).to_have_text("You lose 100")
    ann.expect(ann.loc("#result .result-sub")).to_have_text(
        "Your bank against the table, as the player-dealer"
    )
    ann.expect_balance("900")
    bob.expect_balance("1,100")
    cy.expect_balance("1,000")
    _shoot(cy, shots / "california-showdown.png")
    _shoot(ann, shots / "california-showdown-dealer.png")

    # The server's balances (GET /api/me) agree with the pages: 3,000 in all.
    me = "async () => (await (await import('/static/api.js')).me()).balance"
    balances = {name: p.page.evaluate(me) for p, name in ((ann, "Ann"), (bob, "Bob"), (cy, "Cy"))}
    assert balances == {"Ann": 900, "Bob": 1100, "Cy": 1000}
    # The player-dealer's round in their History: the bank's result, in detail.
    ann.loc("#btn-history").click()
    ann.expect(ann.loc("#history-body tbody tr")).to_have_count(1)
    ann.loc(f"#history-body [data-game='{game}'] button").click()
    detail = ann.loc("#history-body .round-detail")
    ann.expect(detail.locator(".detail-balance")).to_have_text("Balance: 1,000 → 900")
    for p in (ann, bob, cy):
        assert p.console_errors == []


def test_a_seated_player_also_bets_behind_another_seat(
    new_player: Any, server: LiveServer, tmp_path: Path
) -> None:
    """Ann banks 500 at seat 1; Bob sits at seat 2 and bets; Cy sits at seat 3, bets at
    her seat and behind Bob's seat (issue 13: "seated elsewhere"). Her back-line bet
    follows Bob's decision, hers is her seat's alone; she sees both results, and the
    ledger has her back-line hand's entries under its hand id."""
    shots = _shots(tmp_path)
    ann, bob, cy = new_player(), new_player(), new_player()
    for p, name in ((ann, "Ann"), (bob, "Bob"), (cy, "Cy")):
        p.sign_in(name)
        p.join("california-1")
        p.expect(p.loc("#seats .seat")).to_have_count(7)
    server.wait_phase("california-1", "pause")
    for p, seat in ((ann, 1), (bob, 2), (cy, 3)):
        _seat(p, seat).locator(".btn-sit").click()
        p.expect(_seat(p, seat)).to_have_class(re.compile(r"\bme\b"))
    server.advance(PAUSE)
    ann.expect(ann.loc("#offer-form")).to_be_visible()
    ann.page.fill("#offer-bank", "500")
    ann.loc("#btn-accept").click()
    ann.expect(ann.loc("#cr-banker")).to_have_text("You bank 500.")

    bob.wait_betting()
    bob.bet("ante", 25)
    cy.wait_betting()
    cy.bet("ante", 25)  # at her seat
    server.advance(1)
    # Behind Bob's seat only (not her own, not the player-dealer's).
    cy.expect(cy.loc("#seats .btn-behind")).to_have_count(1)
    _seat(cy, 2).locator(".btn-behind").click()
    cy.expect(cy.loc("#cr-behind")).to_contain_text("behind seat 2")
    cy.bet("ante", 5, times=2)
    cy.expect_bets(ante="10", blind="10")
    # Her balance: 50 at her seat, 20 behind Bob, and the largest Play behind him (40).
    cy.expect_balance("890")
    _seat(cy, 2).locator(".btn-behind").click()  # back to her seat: her own bets
    cy.expect_bets(ante="25", blind="25")
    cy.expect(cy.loc("#cr-behind")).to_have_text(
        "Your bets behind seat 2: 20. Click that seat to change them."
    )
    _shoot(cy, shots / "california-behind.png")

    # Decisions in turn from the player-dealer's left: Bob's seat (his decision is
    # also Cy's back-line hand's), then Cy's own.
    server.advance(BETTING - 1)
    bob.expect_decision("play_4x", "play_3x", "check")
    cy.expect(cy.loc("#cr-turn")).to_have_text("Bob decides (seat 2).")
    bob.decide("play_4x")
    cy.expect_decision("play_4x", "play_3x", "check")
    cy.decide("play_4x")
    for p in (ann, bob, cy):
        p.expect_phase("pause")
    cy.expect(cy.loc("#result-behind")).to_have_text(re.compile(r"^Behind seat 2: "))
    cy.expect(cy.loc("#result .result-head")).to_be_visible()
    _shoot(cy, shots / "california-behind-showdown.png")

    # Money is conserved (3,000 in all), and the back-line hand is in Cy's ledger.
    me = "async () => (await (await import('/static/api.js')).me()).balance"
    total = sum(p.page.evaluate(me) for p in (ann, bob, cy))
    assert total == 3000
    ledger = """async () => {
      const api = await import('/static/api.js');
      const auth = { Authorization: `Bearer ${api.getToken()}` };
      return (await fetch('/api/ledger', { headers: auth })).json();
    }"""
    hands = [e.get("hand") for e in cy.page.evaluate(ledger) if e["kind"] == "wager"]
    assert hands.count(None) == 3 and len(set(hands) - {None}) == 1  # ante, blind, play each
    for p in (ann, bob, cy):
        assert p.console_errors == []
