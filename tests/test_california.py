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
from uth.errors import IllegalActionError, InvalidWagerError
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
    rnd = Round(preset(name), bank=bank)
    rnd.place_wagers("amy", ante=10, seat=1)
    rnd.place_wagers("bob", ante=10, seat=2)
    rnd.place_wagers("cy", ante=10, seat=3)
    rnd.close_betting(THREE)
    return rnd


@pytest.mark.parametrize("name", ["california", "california-bad-beat"])
def test_002_decisions_are_taken_in_turn_clockwise_and_refused_out_of_turn(name: str) -> None:
    rnd = three_seats(name)
    assert rnd.to_act == "amy"
    assert rnd.legal_actions("bob") == ()
    assert not rnd.can_act("bob", "check") and rnd.can_act("amy", "check")
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
    rnd = Round(preset("casino"))
    rnd.place_wagers("amy", ante=10, seat=1)
    rnd.place_wagers("bob", ante=10, seat=2)
    rnd.close_betting(THREE)
    assert rnd.to_act is None
    rnd.act("bob", "check")  # any order
    rnd.act("amy", "check")
    assert phase_of(rnd) is Phase.FLOP


def test_002_a_back_line_bettor_never_decides_the_seat_decides_for_it() -> None:
    rnd = Round(preset("california"), bank=1000)
    rnd.place_wagers("amy", ante=10, seat=1)
    rnd.place_wagers("zed", ante=20, trips=5, behind="amy")
    rnd.close_betting(THREE)
    assert rnd.awaiting() == ("amy",)
    assert rnd.legal_actions("zed") == ()
    with pytest.raises(IllegalActionError, match="not legal for 'zed'"):
        rnd.act("zed", "play_4x")
    rnd.act("amy", "play_3x")
    assert rnd.play_multiple("zed") == 3


def wagers_of(rnd: Round, player: str) -> list[tuple[str, str, Decimal, Decimal, Decimal | None]]:
    """(wager, result, net, uncovered stake, bank left) of each of a hand's wagers."""
    return [
        (e.wager, e.result, e.net, e.uncovered_stake, e.bank_left)
        for e in rnd.events
        if isinstance(e, ev.WagerSettled) and e.player == player
    ]


def settled_order(rnd: Round) -> list[str]:
    """The hands in the order their wagers were settled (one entry per hand)."""
    out: list[str] = []
    for e in rnd.events:
        if isinstance(e, ev.WagerSettled) and (not out or out[-1] != e.player):
            out.append(e.player)
    return out


# amy As Ks (a royal flush), bob 4c 5d (queen high); dealer 9h 9d (a pair, qualifies);
# board Qs Js Ts 2c 3d.
ROYAL = deck("As Ks 4c 5d 9h 9d Qs Js Ts 2c 3d")


def test_000_blind_at_500_to_1_partly_covered_exhausts_the_bank_mid_seat() -> None:
    # bank 1,000: amy's Ante is paid (+10), her Blind of 10 wins 5,000 at 500:1 but
    # only 990 is left: 4,010 of the winnings are not paid, so 8.02 of the Blind
    # (10 x 4,010 / 5,000) has no action and is returned. Her Play is not covered at
    # all, nor is zed's back-line bet right after her; bob's losses are still
    # collected (RULES.md, "Who banks").
    rnd = Round(preset("california"), bank=1000)
    rnd.place_wagers("amy", ante=10, seat=1)
    rnd.place_wagers("bob", ante=10, seat=2)
    rnd.place_wagers("zed", ante=5, behind="amy")
    rnd.close_betting(ROYAL)
    rnd.act("amy", "play_4x")
    for action in ("check", "check", "play_1x"):
        rnd.act("bob", action)
    assert settled_order(rnd) == ["amy", "zed", "bob"]
    assert wagers_of(rnd, "amy") == [
        ("ante", "win", D(10), D(0), D(990)),
        ("blind", "win", D(990), D("8.02"), D(0)),
        ("play", "no_action", D(0), D(40), D(0)),
        ("trips", "no_action", D(0), D(0), D(0)),
        ("bad_beat", "no_action", D(0), D(0), D(0)),
    ]
    blind = next(
        e
        for e in rnd.events
        if isinstance(e, ev.WagerSettled) and e.player == "amy" and e.wager == "blind"
    )
    assert (blind.uncovered, blind.uncovered_winnings) == (D(4010), D(4010))
    assert wagers_of(rnd, "zed") == [
        ("ante", "no_action", D(0), D(5), D(0)),
        ("blind", "no_action", D(0), D(5), D(0)),
        ("play", "no_action", D(0), D(20), D(0)),  # follows amy's Play 4x
        ("trips", "no_action", D(0), D(0), D(0)),
        ("bad_beat", "no_action", D(0), D(0), D(0)),
    ]
    assert wagers_of(rnd, "bob") == [
        ("ante", "lose", D(-10), D(0), D(10)),
        ("blind", "lose", D(-10), D(0), D(20)),
        ("play", "lose", D(-10), D(0), D(30)),
        ("trips", "no_action", D(0), D(0), D(30)),
        ("bad_beat", "no_action", D(0), D(0), D(30)),
    ]
    assert rnd.events[-1] == ev.RoundSettled("player_dealer", D(-970))


def test_000_win_limit_reached_by_losers_mid_seat() -> None:
    # bank 100; dealer Ac Ad, board 9h 8d 2c 2s 5d: aces up. s1 Kc Qh (a pair of
    # twos) loses Ante 30, Blind 30, Play 90: the player-dealer may win only 100, so
    # 40 of the Play is collected and 50 returned; rail's back-line bet right after
    # s1 has no action; s2 9c 9d (nines full) then wins and is paid.
    top = deck("Kc Qh 9c 9d Ac Ad 9h 8d 2c 2s 5d")
    rnd = Round(preset("california"), bank=100)
    rnd.place_wagers("s1", ante=30, seat=1)
    rnd.place_wagers("s2", ante=10, seat=2)
    rnd.place_wagers("rail", ante=5, trips=5, behind="s1")
    rnd.close_betting(top)
    rnd.act("s1", "play_3x")
    rnd.act("s2", "play_4x")
    assert settled_order(rnd) == ["s1", "rail", "s2"]
    assert wagers_of(rnd, "s1") == [
        ("ante", "lose", D(-30), D(0), D(130)),
        ("blind", "lose", D(-30), D(0), D(160)),
        ("play", "lose", D(-40), D(50), D(200)),
        ("trips", "no_action", D(0), D(0), D(200)),
        ("bad_beat", "no_action", D(0), D(0), D(200)),
    ]
    assert wagers_of(rnd, "rail") == [
        ("ante", "no_action", D(0), D(5), D(200)),
        ("blind", "no_action", D(0), D(5), D(200)),
        ("play", "no_action", D(0), D(15), D(200)),
        ("trips", "no_action", D(0), D(5), D(200)),  # a pair: would lose
        ("bad_beat", "no_action", D(0), D(0), D(200)),
    ]
    assert wagers_of(rnd, "s2") == [
        ("ante", "win", D(10), D(0), D(190)),
        ("blind", "win", D(30), D(0), D(160)),  # a full house at 3:1
        ("play", "win", D(40), D(0), D(120)),
        ("trips", "no_action", D(0), D(0), D(120)),
        ("bad_beat", "no_action", D(0), D(0), D(120)),
    ]
    assert rnd.events[-1] == ev.RoundSettled("player_dealer", D(20))


def _fold_then_royal(bob_folds: bool) -> Round:
    rnd = Round(preset("california"), bank=100)
    rnd.place_wagers("amy", ante=10, seat=1)
    rnd.place_wagers("bob", ante=10, seat=2)
    rnd.place_wagers("rail", ante=5, trips=5, behind="bob")
    rnd.close_betting(ROYAL)
    rnd.act("amy", "play_4x")
    rnd.act("bob", "check")
    rnd.act("bob", "check")
    rnd.act("bob", "fold" if bob_folds else "play_1x")
    return rnd


def test_002_a_fold_is_collected_before_the_winners_and_covers_more_of_them() -> None:
    # bank 100. bob folds at the river: his Ante and Blind, and rail's back-line bet
    # that follows his fold (Trips on queen high loses), are collected at once, before
    # the player-dealer's cards are shown: the bank grows to 135, and amy's royal
    # flush is paid 135 (Ante 10, Blind 125 of 5,000; 9.75 of the Blind returned).
    rnd = _fold_then_royal(bob_folds=True)
    kinds = [e.type for e in rnd.events]
    fold = kinds.index("hand_folded")
    assert kinds[fold : fold + 12] == ["hand_folded", *["wager_settled"] * 10, "dealer_revealed"]
    assert settled_order(rnd) == ["bob", "rail", "amy"]
    assert wagers_of(rnd, "bob") == [
        ("ante", "lose", D(-10), D(0), D(110)),
        ("blind", "lose", D(-10), D(0), D(120)),
        ("play", "no_action", D(0), D(0), D(120)),
        ("trips", "no_action", D(0), D(0), D(120)),
        ("bad_beat", "no_action", D(0), D(0), D(120)),
    ]
    assert wagers_of(rnd, "rail") == [
        ("ante", "lose", D(-5), D(0), D(125)),
        ("blind", "lose", D(-5), D(0), D(130)),
        ("play", "no_action", D(0), D(0), D(130)),
        ("trips", "lose", D(-5), D(0), D(135)),
        ("bad_beat", "no_action", D(0), D(0), D(135)),
    ]
    assert wagers_of(rnd, "amy") == [
        ("ante", "win", D(10), D(0), D(125)),
        ("blind", "win", D(125), D("9.75"), D(0)),
        ("play", "no_action", D(0), D(40), D(0)),
        ("trips", "no_action", D(0), D(0), D(0)),
        ("bad_beat", "no_action", D(0), D(0), D(0)),
    ]
    assert rnd.events[-1] == ev.RoundSettled("player_dealer", D(-100))


def test_002_without_the_fold_the_winner_is_settled_first_and_gets_less() -> None:
    # The same round with bob playing 1x: amy (seat 1) is settled before bob (seat 2),
    # so only the bank of 100 covers her; bob's and rail's losses come after.
    rnd = _fold_then_royal(bob_folds=False)
    assert settled_order(rnd) == ["amy", "bob", "rail"]
    assert wagers_of(rnd, "amy")[:2] == [
        ("ante", "win", D(10), D(0), D(90)),
        ("blind", "win", D(90), D("9.82"), D(0)),
    ]
    assert [w[4] for w in wagers_of(rnd, "rail")] == [D(35), D(40), D(45), D(50), D(50)]
    assert rnd.events[-1] == ev.RoundSettled("player_dealer", D(-50))


@pytest.mark.parametrize(
    ("name", "trips", "bad_beat"),
    [
        # california (000 is silent; our choice player_hand): 2c 2d with the board's
        # three sevens is a full house, Trips 8:1.
        ("california", ("win", D(40)), None),
        # california-bad-beat (002, board_only): the hole cards are not considered;
        # the board's three of a kind pays 3:1, and the Bad Beat loses at the fold.
        ("california-bad-beat", ("win", D(15)), ("lose", D(-5))),
    ],
)
def test_fold_with_three_of_a_kind_on_the_board(
    name: str, trips: tuple[str, Decimal], bad_beat: tuple[str, Decimal] | None
) -> None:
    top = deck("2c 2d Ac Ad 7h 7c 7s Kd 9c")
    rnd = Round(preset(name), bank=100)
    rnd.place_wagers("pat", ante=10, trips=5, bad_beat=5 if bad_beat else 0, seat=1)
    rnd.close_betting(top)
    rnd.act("pat", "check")
    rnd.act("pat", "check")
    rnd.act("pat", "fold")
    got = {w[0]: (w[1], w[2]) for w in wagers_of(rnd, "pat")}
    assert got["ante"] == ("lose", D(-10))
    assert got["blind"] == ("lose", D(-10))
    assert got["trips"] == trips
    assert got["bad_beat"] == (bad_beat or ("no_action", D(0)))
    banker = 20 - trips[1] - (bad_beat[1] if bad_beat else 0)
    assert rnd.events[-1] == ev.RoundSettled("player_dealer", banker)


def test_002_back_line_bets_keep_the_rule_sets_limits() -> None:
    rnd = Round(preset("california-bad-beat"), bank=1000)
    rnd.place_wagers("amy", ante=10, seat=1)
    with pytest.raises(InvalidWagerError, match=r"wagers.bad_beat: the Bad Beat Bonus may not"):
        rnd.place_wagers("zed", ante=5, bad_beat=10, behind="amy")
    with pytest.raises(InvalidWagerError, match=r"wagers.trips: Trips may not exceed the Ante"):
        rnd.place_wagers("zed", ante=5, trips=6, behind="amy")
    # Trips and Bad Beat need an Ante (and the Blind, equal to it)
    with pytest.raises(InvalidWagerError, match=r"wagers.ante: the Ante must be between 5.00"):
        rnd.place_wagers("zed", ante=0, trips=5, behind="amy")
    with pytest.raises(InvalidWagerError, match=r"wagers.blind: the Blind must equal the Ante"):
        rnd.place_wagers("zed", ante=5, blind=0, trips=5, behind="amy")
    rnd.place_wagers("zed", ante=5, trips=5, bad_beat=5, behind="amy")
    assert rnd.players == ("amy", "zed")
    # california (000) has no such cap on the side bets
    rnd = Round(preset("california"), bank=1000)
    rnd.place_wagers("amy", ante=10, seat=1)
    rnd.place_wagers("zed", ante=5, trips=50, behind="amy")
