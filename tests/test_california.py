"""California card-room rounds (seeds 000 and 002): decisions in turn, settlement in
the card room's order within the bank, back-line bets, exact money.

Decks are stacked (RULES.md, "A round": two hole cards to each seated hand in seat
order, then two to the player-dealer, then the five community cards).
"""

from __future__ import annotations

from decimal import Decimal

import pytest

from uth.cards import Card, parse_cards, stacked_deck
from uth.engine import CHECK, FOLD, Phase, Round
from uth.engine import events as ev
from uth.errors import IllegalActionError
from uth.rules import preset

D = Decimal


def deck(text: str) -> tuple[Card, ...]:
    return stacked_deck(parse_cards(text))


def phase_of(rnd: Round) -> Phase:
    return rnd.phase


# amy (seat 1) Kh Qh, bob (seat 2) 7c 2d, cy (seat 3) 9s 9d; player-dealer Ac Ad;
# board Jh Th 3c 8s 4d.
THREE = deck("Kh Qh 7c 2d 9s 9d Ac Ad Jh Th 3c 8s 4d")


def three_seats(name: str = "california", bank: int = 1000) -> Round:
    rnd = Round(preset(name), THREE, bank=bank)
    rnd.place_wagers("amy", ante=10, seat=1)
    rnd.place_wagers("bob", ante=10, seat=2)
    rnd.place_wagers("cy", ante=10, seat=3)
    rnd.close_betting()
    return rnd


@pytest.mark.parametrize("name", ["california", "california-bad-beat"])
def test_002_decisions_are_taken_in_turn_clockwise_and_refused_out_of_turn(name: str) -> None:
    rnd = three_seats(name)
    assert rnd.to_act == "amy"
    assert rnd.legal_actions("bob") == ()
    with pytest.raises(
        IllegalActionError,
        match=r"^player: not 'bob''s turn: 'amy' decides first \(decisions are taken in turn, "
        r"clockwise from the player-dealer's left\)$",
    ):
        rnd.act("bob", "check")
    with pytest.raises(IllegalActionError, match="has no decision to make"):
        rnd.timeout_action("cy")
    count = rnd.event_count
    with pytest.raises(IllegalActionError, match="not 'cy''s turn: 'amy'"):
        rnd.act("cy", "play_4x")
    assert rnd.event_count == count  # a refused decision changes nothing
    rnd.act("amy", "check")
    assert rnd.to_act == "bob"
    rnd.act("bob", "check")
    assert rnd.to_act == "cy"
    assert rnd.timeout_action("cy") == CHECK
    rnd.act("cy", "play_4x")
    # the flop: amy and bob still to decide, amy first again; cy has played
    assert phase_of(rnd) is Phase.FLOP
    assert rnd.awaiting() == ("amy", "bob")
    assert rnd.to_act == "amy"
    rnd.act("amy", "check")
    rnd.act("bob", "check")
    assert phase_of(rnd) is Phase.RIVER
    assert rnd.to_act == "amy"
    with pytest.raises(IllegalActionError, match="not 'bob''s turn"):
        rnd.act("bob", FOLD)
    rnd.act("amy", "play_1x")
    assert rnd.timeout_action("bob") == FOLD
    rnd.act("bob", FOLD, auto=True)
    assert phase_of(rnd) is Phase.SETTLED
    assert rnd.to_act is None
    decisions = [
        (e.player, e.street, e.action) for e in rnd.events if isinstance(e, ev.DecisionMade)
    ]
    assert decisions == [
        ("amy", "pre_flop", "check"),
        ("bob", "pre_flop", "check"),
        ("cy", "pre_flop", "play_4x"),
        ("amy", "flop", "check"),
        ("bob", "flop", "check"),
        ("amy", "river", "play_1x"),
        ("bob", "river", "fold"),
    ]


def test_004_house_tables_still_decide_at_once() -> None:
    rnd = Round(preset("casino"), THREE)
    rnd.place_wagers("amy", ante=10, seat=1)
    rnd.place_wagers("bob", ante=10, seat=2)
    rnd.close_betting()
    assert rnd.to_act is None
    rnd.act("bob", "check")  # any order
    rnd.act("amy", "check")
    assert phase_of(rnd) is Phase.FLOP


def test_002_a_back_line_bettor_never_decides_the_seat_decides_for_it() -> None:
    rnd = Round(preset("california"), THREE, bank=1000)
    rnd.place_wagers("amy", ante=10, seat=1)
    rnd.place_wagers("zed", ante=20, trips=5, behind="amy")
    rnd.close_betting()
    assert rnd.awaiting() == ("amy",)
    assert rnd.legal_actions("zed") == ()
    with pytest.raises(IllegalActionError, match="not legal for 'zed'"):
        rnd.act("zed", "play_4x")
    rnd.act("amy", "play_3x")
    assert rnd.play_multiple("zed") == 3
