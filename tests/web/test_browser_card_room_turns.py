"""California card-room rounds end to end in three browsers, against the real server
(issue 13): the paths ``test_browser_card_room.py`` does not take.

1. The offer declined and taken by the next seat: Ann (seat 1) clicks Decline, the
   offer moves on to Bob (seat 2), everyone reads that Ann declined; Bob banks 500,
   and Ann and Cy (seat 3) play against his bank. Their decisions are taken in turn
   (seat 1 first: the player-dealer position is to the right of seat 1, docs/
   california.md): the turn light (the ``turn`` class, the seat's timer, the
   ``#cr-turn`` line) moves from one seat to the next on every page, and only the
   player whose turn it is has the decision panel. Cy's flop timer runs out (auto
   check, her seat's own timer); at the river Ann plays 1x and Cy folds: her Ante and
   Blind are "Collected at the fold", each −10.
2. Nobody takes the bank: Ann and Bob decline, no round is dealt, and every page
   (Cy's without a seat too) says so and names both, in English and in Russian; the
   next offer, after the pause, times out at both seats: the same again.

Seed 7 (the ``seed`` fixture): Ann holds 6♦ J♠, Cy 9♠ 4♥, the board is 2♣ 6♠ 5♥ A♥
6♣, the dealer has a pair of sixes (6 6 A Q 5) and qualifies. Ann's three sixes win
her Ante (25) and Play (25), the Blind pushes (+50); Cy's fold loses her Ante and
Blind (−20) to the bank first. Bob's bank: 500 − 50 + 20 = 470 left, −30. Balances:
Ann 1,050, Bob 970, Cy 980; 3,000 in all, as before the round.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from test_browser_card_room_view import CARD_ROOM_TOML
from web_harness import LATIN, LiveServer, Player, running_server, visible_texts

PAUSE, BETTING, OFFER, DECISION = 5, 20, 15, 15
TURN = re.compile(r"\bturn\b")
COUNT = re.compile(r"^[1-9]\d*s$")  # a seat's timer running: "15s", "14s", ...
ME = "async () => (await (await import('/static/api.js')).me()).balance"


@pytest.fixture
def server(tmp_path: Path, seed: int) -> Iterator[LiveServer]:
    """The browser tests' server with a California table (seed 7: the cards above)."""
    with running_server(tmp_path, seed, CARD_ROOM_TOML) as s:
        yield s


def _seat(p: Player, n: int) -> Any:
    return p.loc(f"#seats .seat[data-seat='{n}']")


def _join(new_player: Any, server: LiveServer, seats: dict[str, int]) -> list[Player]:
    """Ann, Bob and Cy at the California table; those in ``seats`` sit there."""
    players = [new_player() for _ in range(3)]
    for p, name in zip(players, ("Ann", "Bob", "Cy"), strict=True):
        p.sign_in(name)
        p.join("california-1")
        p.expect(p.loc("#seats .seat")).to_have_count(7)
    server.wait_phase("california-1", "pause")
    for p, name in zip(players, ("Ann", "Bob", "Cy"), strict=True):
        if name in seats:
            _seat(p, seats[name]).locator(".btn-sit").click()
            p.expect(_seat(p, seats[name])).to_have_class(re.compile(r"\bme\b"))
    return players


def _cards(p: Player, selector: str) -> list[str | None]:
    nodes = p.loc(f"{selector} .card[data-card]")
    return [nodes.nth(i).get_attribute("data-card") for i in range(nodes.count())]


def _expect_turn(
    players: dict[str, Player], name: str, seat: int, actions: tuple[str, ...]
) -> None:
    """``name``'s turn, on every page: their seat alone lit, the one seat with a timer
    running; the decision panel (with ``actions``) on their page alone.

    (The count itself goes down with the browser's clock from the server's ``now``
    last read, while the test's server clock stands still: its figure depends on the
    test's speed, so only its form is checked.)"""
    counts = ["" if n != seat else COUNT for n in range(1, 8)]
    for who, p in players.items():
        p.expect(p.loc("#seats .seat.turn")).to_have_count(1)
        p.expect(_seat(p, seat)).to_have_class(TURN)
        p.expect(p.loc("#seats .seat-count")).to_have_text(counts)
        if who == name:
            p.expect(p.loc("#cr-turn")).to_have_text("Your turn to decide.")
            p.expect_decision(*actions)
        else:
            p.expect(p.loc("#cr-turn")).to_have_text(f"{name} decides (seat {seat}).")
            p.expect(p.loc("#decision")).to_be_hidden()


def _expect_row(p: Player, wager: str, cells: list[str]) -> None:
    p.expect(p.loc(f"#result tr[data-wager='{wager}']").locator("th, td")).to_have_text(cells)


def test_declined_offer_decisions_in_turn_and_a_fold_collected(
    new_player: Any, server: LiveServer
) -> None:
    ann, bob, cy = _join(new_player, server, {"Ann": 1, "Bob": 2, "Cy": 3})
    everyone = {"Ann": ann, "Bob": bob, "Cy": cy}

    # The offer: Ann first; she declines, and it moves on to Bob (seat 2).
    server.advance(PAUSE)
    ann.expect(ann.loc("#offer-form")).to_be_visible()
    for p in (bob, cy):
        p.expect(p.loc("#cr-offer-text")).to_have_text("The bank is offered to Ann (seat 1).")
        p.expect(p.loc("#offer-form")).to_be_hidden()
        p.expect(p.loc("#cr-declined")).to_be_hidden()
    ann.loc("#btn-decline").click()
    bob.expect(bob.loc("#offer-form")).to_be_visible()
    bob.expect(bob.loc("#cr-offer-text")).to_have_text(
        "You are offered the bank: be the player-dealer this round?"
    )
    for p in (ann, cy):
        p.expect(p.loc("#cr-offer-text")).to_have_text("The bank is offered to Bob (seat 2).")
        p.expect(p.loc("#offer-form")).to_be_hidden()
    for p in everyone.values():
        p.expect(p.loc("#cr-declined")).to_have_text("Declined or passed over: Ann")
    bob.page.fill("#offer-bank", "500")
    bob.loc("#btn-accept").click()
    bob.expect(bob.loc("#cr-banker")).to_have_text("You bank 500.")
    bob.expect_balance("500")  # the bank is reserved
    for p in everyone.values():
        if p is not bob:
            p.expect(p.loc("#cr-banker")).to_have_text("Bob banks 500.")
        p.expect(p.loc("#cr-declined")).to_have_text("Declined or passed over: Ann")
        p.expect(_seat(p, 2)).to_have_class(re.compile(r"\bdealer\b"))
        p.expect(p.loc("#cr-bank-left")).to_have_text("500")

    # Betting: Ann 25 and Cy 10 at their seats; Bob banks and does not bet.
    ann.wait_betting()
    ann.bet("ante", 25)
    ann.expect_bets(ante="25", blind="25")
    cy.wait_betting()
    cy.bet("ante", 5, times=2)
    cy.expect_bets(ante="10", blind="10")
    bob.expect(bob.loc("#chips [data-chip]:enabled")).to_have_count(0)
    server.advance(BETTING)

    # Decisions in turn: seat 1, then seat 3, on each street.
    _expect_turn(everyone, "Ann", 1, ("play_4x", "play_3x", "check"))
    assert _cards(ann, "#player-cards") == ["6d", "Js"]
    assert _cards(cy, "#player-cards") == ["9s", "4h"]
    bob.expect(bob.loc("#player-cards .card[data-card]")).to_have_count(0)
    ann.decide("check")
    _expect_turn(everyone, "Cy", 3, ("play_4x", "play_3x", "check"))
    cy.decide("check")
    _expect_turn(everyone, "Ann", 1, ("play_2x", "check"))
    assert _cards(bob, "#board") == ["2c", "6s", "5h", "", ""]
    ann.decide("check")
    _expect_turn(everyone, "Cy", 3, ("play_2x", "check"))
    server.advance(DECISION)  # Cy's own timer runs out: checked for her
    cy.expect(cy.loc("#view-table")).to_have_attribute("data-decisions", "check auto:check")
    _expect_turn(everyone, "Ann", 1, ("play_1x", "fold"))
    assert _cards(bob, "#board") == ["2c", "6s", "5h", "Ah", "6c"]
    ann.decide("play_1x")
    _expect_turn(everyone, "Cy", 3, ("play_1x", "fold"))
    cy.decide("fold")

    # The showdown: Cy's fold collected first, then Ann's win paid from the bank.
    for p in everyone.values():
        p.expect_phase("pause")
        p.expect(p.loc("#seats .seat.turn")).to_have_count(0)
        p.expect(p.loc("#cr-turn")).to_be_hidden()
        p.expect(p.loc("#cr-bank-left")).to_have_text("470")
    cy.expect(cy.loc("#result .result-head")).to_have_text("You lose 20")
    cy.expect(cy.loc("#result .result-sub")).to_have_text("Folded")
    cy.expect(cy.loc("#result tbody tr")).to_have_count(2)
    for wager, label in (("ante", "Ante"), ("blind", "Blind")):
        _expect_row(cy, wager, [label, "10", "Lose", "−10", "Collected at the fold"])
    ann.expect(ann.loc("#result .result-head")).to_have_text("You win 50")
    ann.expect(ann.loc("#player-hand-name")).to_have_text("Three sixes")
    _expect_row(ann, "ante", ["Ante", "25", "Win", "+25", "Action"])
    _expect_row(ann, "blind", ["Blind", "25", "Push", "0", "Action"])
    _expect_row(ann, "play", ["Play", "25", "Win", "+25", "Action"])
    bob.expect(bob.loc("#result .result-head")).to_have_text("You lose 30")
    _expect_row(bob, "bank", ["Bank", "500", "Lose", "−30", "Action"])
    for p, balance in ((ann, "1,050"), (bob, "970"), (cy, "980")):
        p.expect_balance(balance)

    # The server's balances (GET /api/me): 3,000 in all, as before the round.
    balances = {name: p.page.evaluate(ME) for name, p in everyone.items()}
    assert balances == {"Ann": 1050, "Bob": 970, "Cy": 980}
    assert sum(balances.values()) == 3000
    for p in everyone.values():
        assert p.console_errors == []


def _expect_no_banker(players: dict[str, Player], text: str, declined: str) -> None:
    for p in players.values():
        p.expect(p.loc("#cr-banker")).to_have_text(text)
        p.expect(p.loc("#cr-declined")).to_have_text(declined)
        p.expect(p.loc("#cr-offer")).to_be_hidden()
        p.expect(p.loc("#offer-form")).to_be_hidden()
        p.expect(p.loc("#cr-bank")).to_be_hidden()
        p.expect_phase("pause")


def test_nobody_takes_the_bank_in_english_and_russian(new_player: Any, server: LiveServer) -> None:
    ann, bob, cy = _join(new_player, server, {"Ann": 1, "Bob": 2})
    everyone = {"Ann": ann, "Bob": bob, "Cy": cy}

    # Ann and Bob decline: no round is dealt; every page says so and names both.
    server.advance(PAUSE)
    ann.loc("#btn-decline").click()
    bob.expect(bob.loc("#offer-form")).to_be_visible()
    bob.loc("#btn-decline").click()
    _expect_no_banker(
        everyone, "Nobody took the bank: no round is dealt.", "Declined or passed over: Ann, Bob"
    )
    for p in everyone.values():
        p.expect(p.loc("#player-cards .card[data-card]")).to_have_count(0)
        p.expect_balance("1,000")
    # A reload says the same (the snapshot's no_banker and declined).
    cy.page.reload()
    cy.expect(cy.loc("#view-table")).to_have_attribute("data-connected", "true")
    _expect_no_banker(
        {"Cy": cy}, "Nobody took the bank: no round is dealt.", "Declined or passed over: Ann, Bob"
    )

    # In Russian: the same, and no English word left on the page (names are data).
    for p in everyone.values():
        p.loc(".lang-btn[data-lang='ru']").click()
    ru_text = "Никто не взял банк: раунд не сдаётся."
    _expect_no_banker(everyone, ru_text, "Отказались или пропущены: Ann, Bob")
    for p in everyone.values():
        texts = [re.sub(r"\b(Ann|Bob|Cy)\b", "", t) for t in visible_texts(p.page)]
        assert [t for t in texts if LATIN.search(t)] == []

    # The next offer starts at Ann again, after the pause; nobody answers in time.
    server.advance(PAUSE)
    ann.expect(ann.loc("#offer-form")).to_be_visible()
    for p in (bob, cy):
        p.expect(p.loc("#cr-offer-text")).to_have_text("Банк предложен игроку Ann (место 1).")
    for p in everyone.values():
        p.expect(p.loc("#cr-banker")).to_have_text("")
        p.expect(p.loc("#cr-declined")).to_be_hidden()
    server.advance(OFFER)
    bob.expect(bob.loc("#offer-form")).to_be_visible()
    ann.expect(ann.loc("#offer-form")).to_be_hidden()
    for p in everyone.values():
        p.expect(p.loc("#cr-declined")).to_have_text("Отказались или пропущены: Ann")
    server.advance(OFFER)
    _expect_no_banker(everyone, ru_text, "Отказались или пропущены: Ann, Bob")

    # No round, no money moved.
    balances = {name: p.page.evaluate(ME) for name, p in everyone.items()}
    assert balances == {"Ann": 1000, "Bob": 1000, "Cy": 1000}
    for p in everyone.values():
        assert p.console_errors == []
