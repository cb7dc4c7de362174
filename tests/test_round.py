"""Scripted rounds of the round state machine (uth.engine.round).

Each test stacks the deck (RULES.md, "A round": each seated hand two cards in
settlement order, then the dealer two, then the board five), plays a script and
checks the exact events and money. Tests are named after the rule they check:
the seed number (000 California, 001 casino, 002 Bad Beat, 003 procedures, 004
live) or the RULES.md section.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import UTC, datetime
from decimal import Decimal

import pytest

from uth.cards import Card, PreparedDeck, parse_cards, stacked_deck
from uth.engine import CHECK, FOLD, Action, ActionRecord, Phase, Round, Wagers, replay
from uth.engine import events as ev
from uth.engine.views import visible_events
from uth.errors import IllegalActionError, InvalidDealError, InvalidWagerError, UthError
from uth.rules import preset, rules_from_data

D = Decimal


def C(text: str) -> tuple[Card, ...]:
    return parse_cards(text)


def deck(text: str) -> tuple[Card, ...]:
    """A deck with these cards on top, in deal order."""
    return stacked_deck(parse_cards(text))


def types(events: tuple[ev.Event, ...] | list[ev.Event]) -> list[str]:
    return [e.type for e in events]


def names(actions: tuple[Action, ...]) -> list[str]:
    return [str(a) for a in actions]


def settled(
    player: str,
    wager: str,
    stake: str | int,
    result: str,
    net: str | int,
    uncovered: str | int = 0,
    capped: str | int = 0,
    uncovered_stake: str | int = 0,
    uncovered_winnings: str | int = 0,
    bank: str | int | None = None,
) -> ev.WagerSettled:
    return ev.WagerSettled(
        player,
        wager,
        D(stake),
        result,
        D(net),
        D(uncovered),
        D(capped),
        D(uncovered_stake),
        D(uncovered_winnings),
        None if bank is None else D(bank),  # the player-dealer's bank left after it
    )


def phase_of(rnd: Round) -> Phase:
    """The round's phase (a call, so that mypy does not narrow it between commands)."""
    return rnd.phase


def nets(rnd: Round) -> dict[str, Decimal]:
    out: dict[str, Decimal] = {}
    for e in rnd.events:
        if isinstance(e, ev.WagerSettled):
            out[e.player] = out.get(e.player, D(0)) + e.net
    return out


def assert_replays(rnd: Round, top: tuple[Card, ...]) -> None:
    again = replay(rnd.rules, top, rnd.events)
    assert again.events == rnd.events
    assert again.phase == rnd.phase
    assert again.settlement == rnd.settlement


# A casino round: amy (seat 1) As Ad, bob (seat 2) 8h 8d, dealer Qc Qd, board Ah Kc 9s 4h 3c.
CASINO_TOP = deck("As Ad 8h 8d Qc Qd Ah Kc 9s 4h 3c")


def test_followers_without_back_line_bets_is_empty() -> None:
    rnd = Round(preset("casino"))
    rnd.place_wagers("amy", ante=10)
    assert rnd.followers("amy") == ()
    with pytest.raises(IllegalActionError, match="no hand 'zed'"):
        rnd.followers("zed")


def casino_round() -> Round:
    rnd = Round(preset("casino"), game_id="g-1")
    rnd.place_wagers("bob", ante=10, trips=5, seat=2)
    rnd.place_wagers("amy", ante=10, trips=5, seat=1)
    return rnd


# ---------------------------------------------------------------------------
# A whole round, event by event
# ---------------------------------------------------------------------------


def test_001_scripted_round_exact_events_and_money() -> None:
    rnd = casino_round()
    assert rnd.events[0] == ev.RoundOpened("g-1", "casino", None)
    assert phase_of(rnd) is Phase.BETTING

    dealt = rnd.close_betting(CASINO_TOP)
    assert dealt == (
        ev.BettingClosed(("amy", "bob")),
        ev.HoleCardsDealt("amy", C("As Ad")),
        ev.HoleCardsDealt("bob", C("8h 8d")),
        ev.DealerCardsDealt(C("Qc Qd")),
        ev.BoardPlaced(C("Ah Kc 9s 4h 3c")),
    )
    assert phase_of(rnd) is Phase.PRE_FLOP
    assert rnd.board == ()
    assert rnd.awaiting() == ("amy", "bob")

    assert rnd.act("amy", "play_4x") == (ev.DecisionMade("amy", "pre_flop", "play_4x", 4, D(40)),)
    assert rnd.awaiting() == ("bob",)
    assert rnd.act("bob", CHECK) == (
        ev.DecisionMade("bob", "pre_flop", "check", 0, D(0)),
        ev.FlopTurned(C("Ah Kc 9s")),
    )
    assert phase_of(rnd) is Phase.FLOP
    assert rnd.board == C("Ah Kc 9s")
    assert rnd.act("bob", "check") == (
        ev.DecisionMade("bob", "flop", "check", 0, D(0)),
        ev.TurnAndRiverTurned(C("4h 3c")),
    )
    assert phase_of(rnd) is Phase.RIVER
    assert rnd.board == C("Ah Kc 9s 4h 3c")

    showdown = rnd.act("bob", "play_1x")
    # 003: a house dealer resolves the hands right to left, the reverse of the deal:
    # bob (seat 2) before amy (seat 1).
    assert showdown == (
        ev.DecisionMade("bob", "river", "play_1x", 1, D(10)),
        ev.DealerRevealed(C("Qc Qd"), "pair", C("Qd Qc Ah Kc 9s"), True),
        ev.HandShown("bob", C("8h 8d"), "pair", C("8h 8d Ah Kc 9s"), "lose"),
        settled("bob", "ante", 10, "lose", -10),
        settled("bob", "blind", 10, "lose", -10),
        settled("bob", "play", 10, "lose", -10),
        settled("bob", "trips", 5, "lose", -5),
        settled("bob", "bad_beat", 0, "no_action", 0),
        ev.HandShown("amy", C("As Ad"), "three_of_a_kind", C("As Ah Ad Kc 9s"), "win"),
        settled("amy", "ante", 10, "win", 10),
        settled("amy", "blind", 10, "push", 0),  # a win below a straight: the Blind pushes
        settled("amy", "play", 40, "win", 40),
        settled("amy", "trips", 5, "win", 15),  # three of a kind 3:1
        settled("amy", "bad_beat", 0, "no_action", 0),
        ev.RoundSettled("house", D(-30)),
    )
    revealed = showdown[1]
    assert isinstance(revealed, ev.DealerRevealed)
    assert revealed.announcement == "Dealer has a pair, qualifies"
    assert phase_of(rnd) is Phase.SETTLED
    assert rnd.settlement is not None
    assert rnd.settlement.banker_net == D(-30)
    assert nets(rnd) == {"amy": D(65), "bob": D(-35)}
    assert rnd.awaiting() == ()
    assert_replays(rnd, CASINO_TOP)


def test_round_events_serialise_with_a_type() -> None:
    rnd = casino_round()
    rnd.close_betting(CASINO_TOP)
    rnd.act("amy", "play_3x")
    assert rnd.events[-1].to_dict() == {
        "type": "decision",
        "player": "amy",
        "street": "pre_flop",
        "action": "play_3x",
        "multiple": 3,
        "play": 30,
        "auto": False,
    }
    assert rnd.events[2].to_dict()["type"] == "wagers_placed"


# ---------------------------------------------------------------------------
# The deal (RULES.md, "A round", step 2; 002)
# ---------------------------------------------------------------------------


def test_002_deal_in_stacks_of_two_in_seat_order_dealer_last_then_board_five() -> None:
    top = deck("2c 3c 4c 5c 6c 7c 8c 9c Tc Jc Qc Kc Ac")
    rnd = Round(preset("casino"))
    rnd.place_wagers("cat", ante=5, seat=5)
    rnd.place_wagers("dan", ante=5)  # no seat number: after the numbered seats
    rnd.place_wagers("amy", ante=5, seat=2)
    rnd.place_wagers("eve", ante=5, seat=7)
    assert rnd.players == ("amy", "cat", "eve", "dan")
    assert rnd.close_betting(top) == (
        ev.BettingClosed(("amy", "cat", "eve", "dan")),
        ev.HoleCardsDealt("amy", C("2c 3c")),
        ev.HoleCardsDealt("cat", C("4c 5c")),
        ev.HoleCardsDealt("eve", C("6c 7c")),
        ev.HoleCardsDealt("dan", C("8c 9c")),
        ev.DealerCardsDealt(C("Tc Jc")),
        ev.BoardPlaced(C("Qc Kc Ac 2d 2h")),  # then the rest in index order,
    )
    assert rnd.hole_cards("eve") == C("6c 7c")


def test_002_back_line_bets_follow_their_seat_and_get_no_cards() -> None:
    top = deck("As Ad 8h 8d Qc Qd Ah Kc 9s 4h 3c")
    rnd = Round(preset("california"), bank=1000)
    rnd.place_wagers("amy", ante=10, seat=1)
    rnd.place_wagers("bob", ante=10, seat=2)
    rnd.place_wagers("carl", ante=5, trips=5, behind="amy")
    assert rnd.players == ("amy", "carl", "bob")
    assert (rnd.followers("amy"), rnd.followers("bob"), rnd.followers("carl")) == (
        ("carl",),
        (),
        (),
    )
    assert rnd.close_betting(top) == (
        ev.BettingClosed(("amy", "carl", "bob")),
        ev.HoleCardsDealt("amy", C("As Ad")),
        ev.HoleCardsDealt("bob", C("8h 8d")),
        ev.DealerCardsDealt(C("Qc Qd")),
        ev.BoardPlaced(C("Ah Kc 9s 4h 3c")),
    )
    assert rnd.hole_cards("carl") == C("As Ad")  # a back-line bet rides on amy's hand
    assert rnd.awaiting() == ("amy", "bob")
    assert rnd.legal_actions("carl") == ()
    rnd.act("amy", "play_3x")
    assert rnd.play_multiple("carl") == 3
    rnd.act("bob", "play_4x")
    assert phase_of(rnd) is Phase.SETTLED
    order = [e.player for e in rnd.events if isinstance(e, ev.WagerSettled)]
    assert order == ["amy"] * 5 + ["carl"] * 5 + ["bob"] * 5
    carl = [e for e in rnd.events if isinstance(e, ev.WagerSettled) and e.player == "carl"]
    assert carl == [
        settled("carl", "ante", 5, "win", 5, bank=955),  # amy's +40 came first
        settled("carl", "blind", 5, "push", 0, bank=955),
        settled("carl", "play", 15, "win", 15, bank=940),  # follows amy's Play 3x
        settled("carl", "trips", 5, "win", 15, bank=925),
        settled("carl", "bad_beat", 0, "no_action", 0, bank=925),
    ]
    # a back-line bet is settled but never "shown": only seated hands are
    assert [e.player for e in rnd.events if isinstance(e, ev.HandShown)] == ["amy", "bob"]
    assert nets(rnd) == {"amy": D(10 + 30 + 0), "carl": D(35), "bob": D(-60)}
    assert rnd.events[-1] == ev.RoundSettled("player_dealer", D(-15))
    assert_replays(rnd, top)


# ---------------------------------------------------------------------------
# Legal actions (RULES.md, "Wagers", Play; 004 decisions)
# ---------------------------------------------------------------------------


def test_legal_actions_nothing_while_betting() -> None:
    rnd = casino_round()
    assert rnd.legal_actions("amy") == ()
    assert rnd.awaiting() == ()
    with pytest.raises(IllegalActionError, match="phase betting"):
        rnd.act("amy", "check")
    with pytest.raises(IllegalActionError):
        rnd.timeout_action("amy")


def test_legal_actions_pre_flop_4x_3x_check_flop_2x_check_river_1x_fold() -> None:
    rnd = casino_round()
    rnd.close_betting(CASINO_TOP)
    assert names(rnd.legal_actions("amy")) == ["play_4x", "play_3x", "check"]
    assert rnd.legal_actions("amy") == (Action.play(4), Action.play(3), CHECK)
    rnd.act("amy", "check")
    assert rnd.legal_actions("amy") == ()  # decided on this street
    assert names(rnd.legal_actions("bob")) == ["play_4x", "play_3x", "check"]
    rnd.act("bob", "play_4x")
    assert names(rnd.legal_actions("amy")) == ["play_2x", "check"]
    assert rnd.legal_actions("bob") == ()  # already played: nothing more to decide
    rnd.act("amy", "check")
    assert phase_of(rnd) is Phase.RIVER
    assert names(rnd.legal_actions("amy")) == ["play_1x", "fold"]
    assert rnd.legal_actions("bob") == ()
    assert rnd.legal_actions("nobody") == ()
    rnd.act("amy", "fold")
    assert phase_of(rnd) is Phase.SETTLED
    assert rnd.legal_actions("amy") == ()


def test_004_available_funds_limit_the_play_multiples() -> None:
    rnd = casino_round()
    rnd.close_betting(CASINO_TOP)
    assert names(rnd.legal_actions("amy", available=D(40))) == ["play_4x", "play_3x", "check"]
    assert names(rnd.legal_actions("amy", available=D("39.99"))) == ["play_3x", "check"]
    assert names(rnd.legal_actions("amy", available=D(30))) == ["play_3x", "check"]
    assert names(rnd.legal_actions("amy", available=D("29.99"))) == ["check"]
    with pytest.raises(IllegalActionError, match=r"legal: play_3x, check"):
        rnd.act("amy", "play_4x", available=D(35))
    rnd.act("amy", "check", available=D(0))
    rnd.act("bob", "check")
    assert names(rnd.legal_actions("amy", available=D(20))) == ["play_2x", "check"]
    assert names(rnd.legal_actions("amy", available=D("19.99"))) == ["check"]
    rnd.act("amy", "check")
    rnd.act("bob", "check")
    assert names(rnd.legal_actions("amy", available=D(10))) == ["play_1x", "fold"]


def test_004_river_with_too_little_for_1x_can_only_fold() -> None:
    rnd = casino_round()
    rnd.close_betting(CASINO_TOP)
    for street in range(2):
        for p in ("amy", "bob"):
            rnd.act(p, "check")
        assert rnd.phase is (Phase.FLOP if street == 0 else Phase.RIVER)
    assert rnd.legal_actions("amy", available=D("9.99")) == (FOLD,)
    assert rnd.legal_actions("amy", available=D(0)) == (FOLD,)
    before = rnd.events
    with pytest.raises(IllegalActionError, match="legal: fold"):
        rnd.act("amy", "play_1x", available=D("9.99"))
    assert rnd.events == before
    rnd.act("amy", "fold", available=D("9.99"))
    assert rnd.awaiting() == ("bob",)


@pytest.mark.parametrize(
    ("setup", "player", "action"),
    [
        ("pre_flop", "amy", "play_2x"),
        ("pre_flop", "amy", "play_1x"),
        ("pre_flop", "amy", "play_5x"),
        ("pre_flop", "amy", "fold"),
        ("pre_flop", "nobody", "check"),
        ("flop", "amy", "play_4x"),
        ("flop", "amy", "play_3x"),
        ("flop", "amy", "fold"),
        ("flop", "bob", "check"),  # bob already played 4x
        ("flop", "bob", "play_2x"),
        ("river", "amy", "check"),
        ("river", "amy", "play_2x"),
        ("river", "bob", "fold"),
    ],
)
def test_illegal_actions_are_rejected_and_change_nothing(
    setup: str, player: str, action: str
) -> None:
    rnd = casino_round()
    rnd.close_betting(CASINO_TOP)
    rnd.act("bob", "play_4x")
    if setup in ("flop", "river"):
        rnd.act("amy", "check")
    if setup == "river":
        rnd.act("amy", "check")
    assert rnd.phase == setup
    before, awaiting, phase = rnd.events, rnd.awaiting(), rnd.phase
    legal = rnd.legal_actions("amy")
    with pytest.raises(IllegalActionError) as info:
        rnd.act(player, action)
    assert info.value.field == "action"
    assert isinstance(info.value, ValueError)
    assert rnd.events == before
    assert rnd.awaiting() == awaiting
    assert rnd.phase == phase
    assert rnd.legal_actions("amy") == legal


@pytest.mark.parametrize("text", ["raise", "", "play_x", "play_fourx", "4x", "check please"])
def test_actions_that_are_no_action_are_rejected(text: str) -> None:
    rnd = casino_round()
    rnd.close_betting(CASINO_TOP)
    before = rnd.events
    with pytest.raises(IllegalActionError, match="is not an action"):
        rnd.act("amy", text)
    assert rnd.events == before


def test_action_text_round_trips_and_sorts_largest_play_first() -> None:
    for text in ("play_4x", "play_3x", "play_2x", "play_1x", "check", "fold"):
        assert str(Action.parse(text)) == text
    assert Action.parse(" PLAY_4X ") == Action.play(4)
    assert sorted([FOLD, CHECK, Action.play(1), Action.play(4)]) == [
        Action.play(4),
        Action.play(1),
        CHECK,
        FOLD,
    ]


# ---------------------------------------------------------------------------
# Streets skipped when nobody is left to decide
# ---------------------------------------------------------------------------


def test_a_street_where_everyone_has_played_goes_straight_to_the_showdown() -> None:
    rnd = casino_round()
    rnd.close_betting(CASINO_TOP)
    rnd.act("bob", "play_3x")
    out = rnd.act("amy", "play_4x")
    assert types(out) == [
        "decision",
        "flop_turned",
        "turn_and_river_turned",
        "dealer_revealed",
        "hand_shown",
        *["wager_settled"] * 5,
        "hand_shown",
        *["wager_settled"] * 5,
        "round_settled",
    ]
    assert out[1] == ev.FlopTurned(C("Ah Kc 9s"))
    assert out[2] == ev.TurnAndRiverTurned(C("4h 3c"))
    assert phase_of(rnd) is Phase.SETTLED
    assert nets(rnd) == {"amy": D(10 + 40 + 15), "bob": D(-10 - 10 - 30 - 5)}
    assert_replays(rnd, CASINO_TOP)


def test_a_flop_where_everyone_has_played_skips_to_the_showdown() -> None:
    rnd = casino_round()
    rnd.close_betting(CASINO_TOP)
    rnd.act("amy", "check")
    rnd.act("bob", "check")
    rnd.act("bob", "play_2x")
    out = rnd.act("amy", "play_2x")
    assert types(out)[:3] == ["decision", "turn_and_river_turned", "dealer_revealed"]
    assert phase_of(rnd) is Phase.SETTLED
    assert nets(rnd) == {"amy": D(10 + 20 + 15), "bob": D(-10 - 10 - 20 - 5)}


# ---------------------------------------------------------------------------
# Timers (004): AUTO CHECKED, AUTO FOLDED
# ---------------------------------------------------------------------------

# live: pat 4c 4d, dealer Ks Jd, board 4h Kc 9s 2h 7c
LIVE_TOP = deck("4c 4d Ks Jd 4h Kc 9s 2h 7c")


def test_004_timeout_checks_pre_flop_and_on_the_flop() -> None:
    rnd = Round(preset("live"))
    rnd.place_wagers("pat", ante=10, trips=5)
    rnd.close_betting(LIVE_TOP)
    assert rnd.timeout_action("pat") == CHECK
    assert rnd.act("pat", rnd.timeout_action("pat"), auto=True)[0] == ev.DecisionMade(
        "pat", "pre_flop", "check", 0, D(0), True
    )
    assert rnd.timeout_action("pat") == CHECK
    assert rnd.act("pat", rnd.timeout_action("pat"), auto=True) == (
        ev.DecisionMade("pat", "flop", "check", 0, D(0), True),
        ev.TurnAndRiverTurned(C("2h 7c")),
    )


def test_004_the_timer_decides_only_its_own_action() -> None:
    rnd = Round(preset("live"))
    rnd.place_wagers("pat", ante=10)
    rnd.close_betting(LIVE_TOP)
    before = rnd.events
    with pytest.raises(IllegalActionError, match="the timer decides check, not play_4x"):
        rnd.act("pat", "play_4x", auto=True)
    assert rnd.events == before
    rnd.act("pat", "check", auto=True)
    rnd.act("pat", "check", auto=True)
    with pytest.raises(IllegalActionError, match="the timer decides fold, not play_1x"):
        rnd.act("pat", "play_1x", auto=True)


def test_004_timeout_at_river_auto_folds() -> None:
    rnd = Round(preset("live"))
    rnd.place_wagers("pat", ante=10, trips=5)
    rnd.close_betting(LIVE_TOP)
    rnd.act("pat", "check", auto=True)
    rnd.act("pat", "check", auto=True)
    assert rnd.timeout_action("pat") == FOLD
    out = rnd.act("pat", rnd.timeout_action("pat"), auto=True)
    # RULES.md step 7: the folded hand is collected at the fold, before the dealer's
    # cards are shown.
    assert out == (
        ev.DecisionMade("pat", "river", "fold", 0, D(0), True),
        ev.HandFolded("pat"),
        settled("pat", "ante", 10, "lose", -10),
        settled("pat", "blind", 10, "lose", -10),
        settled("pat", "play", 0, "no_action", 0),
        # 004: the Trips bet has action on the player's best hand after a fold
        settled("pat", "trips", 5, "win", 15),
        settled("pat", "bad_beat", 0, "no_action", 0),
        ev.DealerRevealed(C("Ks Jd"), "pair", C("Ks Kc Jd 9s 7c"), True),
        ev.RoundSettled("house", D(5)),
    )
    assert out[0].to_dict()["auto"] is True
    with pytest.raises(IllegalActionError, match="no decision"):
        rnd.timeout_action("pat")
    assert_replays(rnd, LIVE_TOP)


def test_timeout_action_only_for_a_hand_still_to_decide() -> None:
    rnd = casino_round()
    rnd.close_betting(CASINO_TOP)
    rnd.act("amy", "play_4x")
    with pytest.raises(IllegalActionError):
        rnd.timeout_action("amy")
    with pytest.raises(IllegalActionError):
        rnd.timeout_action("nobody")
    assert rnd.timeout_action("bob") == CHECK


# ---------------------------------------------------------------------------
# The showdown: qualification (003), folds (002)
# ---------------------------------------------------------------------------

# amy As Ad, bob 8h 8d, dealer 2c 7d (no pair with this board), board Ah Kc 9s 4h 3c
NO_QUALIFY_TOP = deck("As Ad 8h 8d 2c 7d Ah Kc 9s 4h 3c")


def test_003_antes_returned_first_right_to_left_then_hands_right_to_left() -> None:
    # 003: when the dealer does not qualify the Antes are returned first, right to left
    # (the reverse of the deal: bob in seat 2 before amy in seat 1), then the hands are
    # resolved right to left.
    rnd = Round(preset("casino"))
    rnd.place_wagers("amy", ante=10, seat=1)
    rnd.place_wagers("bob", ante=10, seat=2)
    rnd.close_betting(NO_QUALIFY_TOP)
    rnd.act("amy", "play_4x")
    rnd.act("bob", "check")
    rnd.act("bob", "check")
    out = rnd.act("bob", "play_1x")
    assert out == (
        ev.DecisionMade("bob", "river", "play_1x", 1, D(10)),
        ev.DealerRevealed(C("2c 7d"), "high_card", C("Ah Kc 9s 7d 4h"), False),
        ev.AntesReturned(("bob", "amy")),
        ev.HandShown("bob", C("8h 8d"), "pair", C("8h 8d Ah Kc 9s"), "win"),
        settled("bob", "ante", 10, "push", 0),
        settled("bob", "blind", 10, "push", 0),
        settled("bob", "play", 10, "win", 10),
        settled("bob", "trips", 0, "no_action", 0),
        settled("bob", "bad_beat", 0, "no_action", 0),
        ev.HandShown("amy", C("As Ad"), "three_of_a_kind", C("As Ah Ad Kc 9s"), "win"),
        settled("amy", "ante", 10, "push", 0),
        settled("amy", "blind", 10, "push", 0),
        settled("amy", "play", 40, "win", 40),  # Play has action either way
        settled("amy", "trips", 0, "no_action", 0),
        settled("amy", "bad_beat", 0, "no_action", 0),
        ev.RoundSettled("house", D(-50)),
    )
    revealed = out[1]
    assert isinstance(revealed, ev.DealerRevealed)
    assert revealed.announcement == "Dealer has high card, does not qualify"
    assert_replays(rnd, NO_QUALIFY_TOP)


def test_002_card_room_resolves_seat_by_seat_clockwise() -> None:
    # california (000/002): the same hands, clockwise from the player-dealer's left:
    # amy (seat 1) before bob (seat 2), Antes returned in that order too.
    rnd = Round(preset("california"), bank=1000)
    rnd.place_wagers("bob", ante=10, seat=2)
    rnd.place_wagers("amy", ante=10, seat=1)
    rnd.close_betting(NO_QUALIFY_TOP)
    rnd.act("amy", "play_4x")
    rnd.act("bob", "check")
    rnd.act("bob", "check")
    out = rnd.act("bob", "play_1x")
    assert out[2] == ev.AntesReturned(("amy", "bob"))
    shown = [e.player for e in out if isinstance(e, ev.HandShown)]
    assert shown == ["amy", "bob"]
    assert [e.player for e in out if isinstance(e, ev.WagerSettled)] == ["amy"] * 5 + ["bob"] * 5


def test_002_a_folded_hand_is_settled_at_the_fold_and_its_ante_is_not_returned() -> None:
    rnd = Round(preset("casino"))
    rnd.place_wagers("amy", ante=10, seat=1)
    rnd.place_wagers("bob", ante=10, trips=10, seat=2)
    rnd.close_betting(NO_QUALIFY_TOP)
    rnd.act("amy", "play_4x")
    rnd.act("bob", "check")
    rnd.act("bob", "check")
    out = rnd.act("bob", "fold")
    assert types(out) == [
        "decision",
        "hand_folded",
        *["wager_settled"] * 5,
        "dealer_revealed",
        "antes_returned",
        "hand_shown",
        *["wager_settled"] * 5,
        "round_settled",
    ]
    assert out[1] == ev.HandFolded("bob")
    assert out[2:7] == (
        settled("bob", "ante", 10, "lose", -10),
        settled("bob", "blind", 10, "lose", -10),
        settled("bob", "play", 0, "no_action", 0),
        settled("bob", "trips", 10, "lose", -10),  # a pair of eights: no Trips
        settled("bob", "bad_beat", 0, "no_action", 0),
    )
    assert out[8] == ev.AntesReturned(("amy",))
    assert not any(isinstance(e, ev.HandShown) and e.player == "bob" for e in rnd.events)
    assert nets(rnd) == {"amy": D(40), "bob": D(-30)}
    assert_replays(rnd, NO_QUALIFY_TOP)


# issue 7, item 1: california-bad-beat, bank 100, board 9h 8d 2c 2s 5d, dealer Ac Ad;
# s1 Kc Qh Ante 50 Play 1x; s2 3c 4h Ante 10 folds.
ISSUE_7_TOP = deck("Kc Qh 3c 4h Ac Ad 9h 8d 2c 2s 5d")


def test_002_folded_hand_is_collected_at_the_fold_first_against_the_bank() -> None:
    rnd = Round(preset("california-bad-beat"), ISSUE_7_TOP, bank=100)
    rnd.place_wagers("s1", ante=50, seat=1)
    rnd.place_wagers("s2", ante=10, seat=2)
    rnd.close_betting(ISSUE_7_TOP)
    for street in ("pre_flop", "flop"):
        assert rnd.act("s1", "check")[0].street == street  # type: ignore[attr-defined]
        rnd.act("s2", "check")
    assert rnd.act("s1", "play_1x") == (ev.DecisionMade("s1", "river", "play_1x", 1, D(50)),)
    # s2 folds: collected at once, before the player-dealer's cards are shown
    out = rnd.act("s2", "fold")
    assert out == (
        ev.DecisionMade("s2", "river", "fold", 0, D(0)),
        ev.HandFolded("s2"),
        settled("s2", "ante", 10, "lose", -10, bank=110),
        settled("s2", "blind", 10, "lose", -10, bank=120),
        settled("s2", "play", 0, "no_action", 0, bank=120),
        settled("s2", "trips", 0, "no_action", 0, bank=120),
        settled("s2", "bad_beat", 0, "no_action", 0, bank=120),
        ev.DealerRevealed(C("Ac Ad"), "two_pair", C("Ad Ac 2s 2c 9h"), True),
        ev.HandShown("s1", C("Kc Qh"), "pair", C("2s 2c Kc Qh 9h"), "lose"),
        # the player-dealer is at +20: 80 more fit in the bank of 100
        settled("s1", "ante", 50, "lose", -50, bank=170),
        settled("s1", "blind", 50, "lose", -30, uncovered=20, uncovered_stake=20, bank=200),
        settled("s1", "play", 50, "no_action", 0, uncovered=50, uncovered_stake=50, bank=200),
        settled("s1", "trips", 0, "no_action", 0, bank=200),
        settled("s1", "bad_beat", 0, "no_action", 0, bank=200),
        ev.RoundSettled("player_dealer", D(100)),
    )
    assert nets(rnd) == {"s1": D(-80), "s2": D(-20)}
    assert rnd.settlement is not None
    assert [h.id for h in rnd.settlement.hands] == ["s2", "s1"]
    assert_replays(rnd, ISSUE_7_TOP)


def test_002_folds_are_collected_in_the_order_they_fold_with_their_back_line_bets() -> None:
    # Two folds and a back-line bet on the second: each fold is collected at once, the
    # back-line bet with its hand; the bank of 100 is then used up by s1's loss.
    top = deck("Kc Qh 3c 4h 6c 7h Ac Ad 9h 8d 2c 2s 5d")
    rnd = Round(preset("california"), bank=100)
    rnd.place_wagers("s1", ante=50, seat=1)
    rnd.place_wagers("s2", ante=10, seat=2)
    rnd.place_wagers("s3", ante=5, seat=3)
    rnd.place_wagers("rail", ante=5, behind="s3")
    rnd.close_betting(top)
    for _ in range(2):
        for p in ("s1", "s2", "s3"):
            rnd.act(p, "check")
    rnd.act("s1", "play_1x")
    s2 = rnd.act("s2", "fold")
    assert types(s2) == ["decision", "hand_folded", *["wager_settled"] * 5]
    s3 = rnd.act("s3", "fold")  # the last decision: the showdown follows
    assert types(s3)[:12] == ["decision", "hand_folded", *["wager_settled"] * 10]
    assert [e.player for e in s3[2:12] if isinstance(e, ev.WagerSettled)] == (
        ["s3"] * 5 + ["rail"] * 5
    )
    assert types(s3)[12] == "dealer_revealed"
    assert nets(rnd) == {"s2": D(-20), "s3": D(-10), "rail": D(-10), "s1": D(-60)}
    s1 = [e for e in rnd.events if isinstance(e, ev.WagerSettled) and e.player == "s1"]
    assert s1[:3] == [
        settled("s1", "ante", 50, "lose", -50, bank=190),
        settled("s1", "blind", 50, "lose", -10, uncovered=40, uncovered_stake=40, bank=200),
        settled("s1", "play", 50, "no_action", 0, uncovered=50, uncovered_stake=50, bank=200),
    ]
    assert rnd.events[-1] == ev.RoundSettled("player_dealer", D(100))
    assert_replays(rnd, top)


def test_002_folded_trips_count_the_board_only() -> None:
    # california-bad-beat: pat folds 4c 4d on a board with one 4: the hole cards are not
    # considered, so the Trips bet loses although pat's best hand is three of a kind.
    rnd = Round(preset("california-bad-beat"), bank=500)
    rnd.place_wagers("pat", ante=10, trips=5, seat=1)
    rnd.close_betting(LIVE_TOP)
    rnd.act("pat", "check")
    rnd.act("pat", "check")
    rnd.act("pat", "fold")
    assert nets(rnd) == {"pat": D(-25)}
    trips = [e for e in rnd.events if isinstance(e, ev.WagerSettled) and e.wager == "trips"]
    assert trips == [settled("pat", "trips", 5, "lose", -5, bank=525)]


def test_002_bad_beat_pays_on_the_beaten_hand_and_back_line_follows() -> None:
    # amy 7d Ac makes three sevens and loses to the dealer's flush: a bad beat at 9:1.
    top = deck("7d Ac Ah 4h 7h 7c 2h 9h Kd")
    rnd = Round(preset("california-bad-beat"), bank=100000)
    rnd.place_wagers("amy", ante=10, trips=10, bad_beat=10, seat=1)
    rnd.place_wagers("carl", ante=5, bad_beat=5, behind="amy")
    with pytest.raises(InvalidWagerError, match="may not exceed the Ante"):
        rnd.place_wagers("dora", ante=5, bad_beat=10, seat=2)
    rnd.close_betting(top)
    out = rnd.act("amy", "play_4x")
    assert out[-12:] == (
        ev.HandShown("amy", C("7d Ac"), "three_of_a_kind", C("7h 7d 7c Ac Kd"), "lose"),
        settled("amy", "ante", 10, "lose", -10, bank=100010),
        settled("amy", "blind", 10, "lose", -10, bank=100020),
        settled("amy", "play", 40, "lose", -40, bank=100060),
        settled("amy", "trips", 10, "win", 30, bank=100030),
        settled("amy", "bad_beat", 10, "win", 90, bank=99940),
        settled("carl", "ante", 5, "lose", -5, bank=99945),
        settled("carl", "blind", 5, "lose", -5, bank=99950),
        settled("carl", "play", 20, "lose", -20, bank=99970),
        settled("carl", "trips", 0, "no_action", 0, bank=99970),
        settled("carl", "bad_beat", 5, "win", 45, bank=99925),
        ev.RoundSettled("player_dealer", D(-75)),
    )
    assert [e for e in rnd.events if isinstance(e, ev.DealerRevealed)] == [
        ev.DealerRevealed(C("Ah 4h"), "flush", C("Ah 9h 7h 4h 2h"), True)
    ]
    assert nets(rnd) == {"amy": D(60), "carl": D(15)}
    assert rnd.events[-1] == ev.RoundSettled("player_dealer", D(-75))
    assert_replays(rnd, top)


def test_000_player_dealer_pays_only_to_the_extent_of_the_bank() -> None:
    # amy 5c 6d makes a straight 2-6 on the board; bob 8h 8d a pair; dealer Qc Qd a pair.
    top = deck("5c 6d 8h 8d Qc Qd 2s 3h 4d Ks 9c")
    rnd = Round(preset("california"), bank=100)
    rnd.place_wagers("amy", ante=50, seat=1)
    rnd.place_wagers("bob", ante=10, seat=2)
    rnd.close_betting(top)
    rnd.act("amy", "play_4x")
    rnd.act("bob", "play_4x")
    amy = [e for e in rnd.events if isinstance(e, ev.WagerSettled) and e.player == "amy"]
    bob = [e for e in rnd.events if isinstance(e, ev.WagerSettled) and e.player == "bob"]
    assert amy == [
        settled("amy", "ante", 50, "win", 50, bank=50),
        settled("amy", "blind", 50, "win", 50, bank=0),  # straight 1:1; the bank is used up
        settled(
            "amy",
            "play",
            200,
            "no_action",
            0,
            uncovered=200,
            uncovered_stake=200,
            uncovered_winnings=200,
            bank=0,
        ),
        settled("amy", "trips", 0, "no_action", 0, bank=0),
        settled("amy", "bad_beat", 0, "no_action", 0, bank=0),
    ]
    # a losing wager is still collected after winners used up the bank
    assert bob == [
        settled("bob", "ante", 10, "lose", -10, bank=10),
        settled("bob", "blind", 10, "lose", -10, bank=20),
        settled("bob", "play", 40, "lose", -40, bank=60),
        settled("bob", "trips", 0, "no_action", 0, bank=60),
        settled("bob", "bad_beat", 0, "no_action", 0, bank=60),
    ]
    assert rnd.events[-1] == ev.RoundSettled("player_dealer", D(-40))
    assert_replays(rnd, top)


def test_001_payout_cap_withholds_the_blind_beyond_50000() -> None:
    # amy As Ks with Qs Js Ts on the board: a royal flush; dealer 9h 9d qualifies.
    top = deck("As Ks 9h 9d Qs Js Ts 2c 3d")
    rnd = Round(preset("casino"))
    rnd.place_wagers("amy", ante=1000, trips=1000, seat=1)
    rnd.close_betting(top)
    rnd.act("amy", "play_4x")
    amy = [e for e in rnd.events if isinstance(e, ev.WagerSettled)]
    assert amy == [
        settled("amy", "ante", 1000, "win", 1000),
        settled("amy", "blind", 1000, "win", 45000, capped=455000),
        settled("amy", "play", 4000, "win", 4000),
        settled("amy", "trips", 1000, "win", 50000),  # Trips is not capped
        settled("amy", "bad_beat", 0, "no_action", 0),
    ]
    assert rnd.events[-1] == ev.RoundSettled("house", D(-100000))


def test_blind_pays_3_to_2_on_a_flush_in_cents() -> None:
    # pat Ah 2h with Kh 9h 5h on the board: a flush; dealer Qc Qd qualifies.
    top = deck("Ah 2h Qc Qd Kh 9h 5h 3c 7d")
    rnd = Round(preset("live"))
    rnd.place_wagers("pat", ante=5)
    rnd.close_betting(top)
    rnd.act("pat", "play_3x")
    assert [e for e in rnd.events if isinstance(e, ev.WagerSettled)][:3] == [
        settled("pat", "ante", 5, "win", 5),
        settled("pat", "blind", 5, "win", "7.50"),
        settled("pat", "play", 15, "win", 15),
    ]
    assert rnd.events[-1] == ev.RoundSettled("house", D("-27.50"))


# ---------------------------------------------------------------------------
# Void (003 misdeal, 004 malfunction)
# ---------------------------------------------------------------------------


# amy As Ad, bob 8h 8d, cy 5c 6d, dealer Qc Qd, board Ah Kc 9s 4h 3c
THREE_TOP = deck("As Ad 8h 8d 5c 6d Qc Qd Ah Kc 9s 4h 3c")


def _to(phase: str) -> Round:
    """amy (ante 10, trips 5), bob (ante 20), cy (ante 5) brought to a phase.

    pre_flop: amy played 4x. flop: bob checked, cy checked. river: cy played 2x on
    the flop; at the river amy has played, cy has played 2x, bob is to decide.
    """
    rnd = Round(preset("casino"))
    rnd.place_wagers("amy", ante=10, trips=5, seat=1)
    rnd.place_wagers("bob", ante=20, seat=2)
    rnd.place_wagers("cy", ante=5, seat=3)
    if phase == "betting":
        return rnd
    rnd.close_betting(THREE_TOP)
    rnd.act("amy", "play_4x")
    if phase == "pre_flop":
        return rnd
    rnd.act("bob", "check")
    rnd.act("cy", "check")
    if phase == "flop":
        rnd.act("cy", "play_2x")
        return rnd
    rnd.act("cy", "play_2x")
    rnd.act("bob", "check")
    return rnd


_RETURNED_BEFORE_DEAL = (
    ev.WagerReturned("amy", "ante", D(10)),
    ev.WagerReturned("amy", "blind", D(10)),
    ev.WagerReturned("amy", "trips", D(5)),
    ev.WagerReturned("bob", "ante", D(20)),
    ev.WagerReturned("bob", "blind", D(20)),
    ev.WagerReturned("cy", "ante", D(5)),
    ev.WagerReturned("cy", "blind", D(5)),
)
_VOIDS = {
    "betting": _RETURNED_BEFORE_DEAL,
    "pre_flop": (
        *_RETURNED_BEFORE_DEAL[:3],
        ev.WagerReturned("amy", "play", D(40)),
        *_RETURNED_BEFORE_DEAL[3:],
    ),
    "flop": (
        *_RETURNED_BEFORE_DEAL[:3],
        ev.WagerReturned("amy", "play", D(40)),
        *_RETURNED_BEFORE_DEAL[3:],
        ev.WagerReturned("cy", "play", D(10)),
    ),
    "river": (
        *_RETURNED_BEFORE_DEAL[:3],
        ev.WagerReturned("amy", "play", D(40)),
        *_RETURNED_BEFORE_DEAL[3:],
        ev.WagerReturned("cy", "play", D(10)),
    ),
}


@pytest.mark.parametrize("phase", ["betting", "pre_flop", "flop", "river"])
def test_003_void_at_every_phase_returns_every_wager_play_included(phase: str) -> None:
    rnd = _to(phase)
    assert rnd.phase == phase
    out = rnd.void("misdeal")
    assert out == (*_VOIDS[phase], ev.RoundVoided("misdeal"))
    assert phase_of(rnd) is Phase.VOIDED
    assert rnd.settlement is None
    assert rnd.awaiting() == ()
    assert rnd.legal_actions("bob") == ()
    assert not any(isinstance(e, ev.WagerSettled | ev.DealerRevealed) for e in rnd.events)
    # the cards not yet turned stay face down
    assert rnd.board == {"betting": (), "pre_flop": (), "flop": C("Ah Kc 9s")}.get(
        phase, C("Ah Kc 9s 4h 3c")
    )
    assert_replays(rnd, THREE_TOP)


@pytest.mark.parametrize("phase", ["betting", "pre_flop", "flop", "river", "settled"])
def test_003_after_void_or_settlement_every_command_raises(phase: str) -> None:
    if phase == "settled":
        rnd = _to("river")
        rnd.act("bob", "fold")
        assert phase_of(rnd) is Phase.SETTLED
    else:
        rnd = _to(phase)
        rnd.void("malfunction")
    before = rnd.events
    commands: list[Callable[[], object]] = [
        lambda: rnd.place_wagers("dan", ante=10),
        lambda: rnd.place_wagers("amy", ante=10),
        lambda: rnd.withdraw("amy"),
        lambda: rnd.close_betting(THREE_TOP),
        lambda: rnd.act("bob", "check"),
        lambda: rnd.act("bob", "fold"),
        lambda: rnd.act("bob", "play_1x"),
        lambda: rnd.timeout_action("bob"),
        lambda: rnd.void("again"),
    ]
    for command in commands:
        with pytest.raises(IllegalActionError):
            command()
    assert rnd.events == before


def test_004_void_after_a_fold_returns_the_folded_hand_too() -> None:
    rnd = Round(preset("casino"))
    rnd.place_wagers("amy", ante=10, seat=1)
    rnd.place_wagers("bob", ante=20, seat=2)
    rnd.close_betting(CASINO_TOP)
    for p in ("amy", "bob", "amy", "bob"):
        rnd.act(p, "check")
    rnd.act("amy", "fold")
    assert rnd.void("malfunction") == (
        ev.WagerReturned("amy", "ante", D(10)),
        ev.WagerReturned("amy", "blind", D(10)),
        ev.WagerReturned("bob", "ante", D(20)),
        ev.WagerReturned("bob", "blind", D(20)),
        ev.RoundVoided("malfunction"),
    )


def test_002_void_returns_a_back_line_bets_play_too() -> None:
    rnd = Round(preset("california"), bank=1000)
    rnd.place_wagers("amy", ante=10, seat=1)
    rnd.place_wagers("carl", ante=5, trips=5, behind="amy")
    rnd.place_wagers("bob", ante=10, seat=2)
    rnd.close_betting(CASINO_TOP)
    rnd.act("amy", "play_3x")
    assert rnd.void("misdeal") == (
        ev.WagerReturned("amy", "ante", D(10)),
        ev.WagerReturned("amy", "blind", D(10)),
        ev.WagerReturned("amy", "play", D(30)),
        ev.WagerReturned("carl", "ante", D(5)),
        ev.WagerReturned("carl", "blind", D(5)),
        ev.WagerReturned("carl", "trips", D(5)),
        ev.WagerReturned("carl", "play", D(15)),
        ev.WagerReturned("bob", "ante", D(10)),
        ev.WagerReturned("bob", "blind", D(10)),
        ev.RoundVoided("misdeal"),
    )


# ---------------------------------------------------------------------------
# Betting: nobody bet, seats, back-line bets, withdrawal, the bank
# ---------------------------------------------------------------------------


def test_no_round_is_dealt_when_nobody_has_bet() -> None:
    rnd = Round(preset("live"))
    with pytest.raises(IllegalActionError, match="nobody has bet"):
        rnd.close_betting(CASINO_TOP)
    rnd.place_wagers("amy", ante=10)
    rnd.withdraw("amy")
    before = rnd.events
    with pytest.raises(IllegalActionError, match="nobody has bet"):
        rnd.close_betting(CASINO_TOP)
    assert rnd.events == before
    assert phase_of(rnd) is Phase.BETTING
    assert types(rnd.events) == ["round_opened", "wagers_placed", "wagers_withdrawn"]
    assert rnd.void("nobody came") == (ev.RoundVoided("nobody came"),)


def test_001_seven_seats_an_eighth_hand_is_rejected() -> None:
    rnd = Round(preset("casino"))
    for i in range(7):
        rnd.place_wagers(f"p{i}", ante=5)
    before = rnd.events
    with pytest.raises(IllegalActionError, match="7 seats are taken"):
        rnd.place_wagers("p7", ante=5)
    assert rnd.events == before
    rnd.place_wagers("p3", ante=50)  # a seated hand may still change its wagers
    assert rnd.wagers("p3").ante == D(50)
    assert rnd.players == tuple(f"p{i}" for i in range(7))
    rnd.withdraw("p0")
    rnd.place_wagers("p7", ante=5)  # a seat came free
    assert len(rnd.players) == 7


@pytest.mark.parametrize("seat", [0, 8, -1])
def test_001_seat_numbers_are_1_to_7(seat: int) -> None:
    rnd = Round(preset("casino"))
    with pytest.raises(IllegalActionError, match=r"seat: must be 1\.\.7"):
        rnd.place_wagers("amy", ante=5, seat=seat)


def test_seat_taken_is_rejected() -> None:
    rnd = Round(preset("casino"))
    rnd.place_wagers("amy", ante=5, seat=3)
    with pytest.raises(IllegalActionError, match="seat 3 is taken"):
        rnd.place_wagers("bob", ante=5, seat=3)
    rnd.place_wagers("amy", ante=10, seat=3)  # amy keeps her own seat
    rnd.place_wagers("amy", ante=10, seat=4)  # or moves
    rnd.place_wagers("bob", ante=5, seat=3)
    assert rnd.players == ("bob", "amy")


def test_004_live_table_is_unlimited_200_players_share_one_face_up_hand() -> None:
    # live (004): any number of players; one player hand dealt face up is common to
    # every player (shared_hand), each player deciding alone.
    rnd = Round(preset("live"))
    for i in range(200):
        rnd.place_wagers(f"p{i}", ante=5 + i % 3, seat=1000 - i if i % 2 else None)
    assert len(rnd.players) == 200
    with pytest.raises(IllegalActionError, match="1 or more"):
        rnd.place_wagers("p0", ante=5, seat=0)
    out = rnd.close_betting(CASINO_TOP)
    assert types(out) == [
        "betting_closed",
        "player_hand_dealt",
        "dealer_cards_dealt",
        "board_placed",
    ]
    assert out[1] == ev.PlayerHandDealt(C("As Ad"))
    assert out[2] == ev.DealerCardsDealt(C("8h 8d"))
    assert out[3] == ev.BoardPlaced(C("Qc Qd Ah Kc 9s"))
    assert out[1] in visible_events(out, None)  # face up: everyone sees it
    assert all(rnd.hole_cards(p) == C("As Ad") for p in rnd.players)
    for i, p in enumerate(rnd.awaiting()):
        rnd.act(p, "play_4x" if i % 2 else "check")
    assert phase_of(rnd) is Phase.FLOP
    while rnd.awaiting():
        rnd.act(rnd.awaiting()[0], rnd.timeout_action(rnd.awaiting()[0]), auto=True)
    assert phase_of(rnd) is Phase.SETTLED
    shown = [e.player for e in rnd.events if isinstance(e, ev.HandShown | ev.HandFolded)]
    assert len(shown) == 200
    total = sum((e.net for e in rnd.events if isinstance(e, ev.WagerSettled)), D(0))
    final = rnd.events[-1]
    assert isinstance(final, ev.RoundSettled)
    assert total == -final.banker_net
    assert_replays(rnd, CASINO_TOP)


def test_one_deck_deals_22_separate_hands() -> None:
    # Without a shared hand, 22 hands, the dealer's two cards and the board use 51
    # cards; the rule set allows no more seats than that.
    rules = rules_from_data({"extends": "live", "shared_hand": False, "seats": 22})
    rnd = Round(rules)
    for i in range(22):
        rnd.place_wagers(f"p{i}", ante=5)
    with pytest.raises(IllegalActionError, match="the table's 22 seats are taken"):
        rnd.place_wagers("p22", ante=5)
    rnd.place_wagers("p21", ante=10)  # a hand already in may still change its wagers
    out = rnd.close_betting(CASINO_TOP)
    holes = [e.cards for e in out if isinstance(e, ev.HoleCardsDealt)]
    assert len(holes) == 22
    assert all(len(h) == 2 for h in holes)
    board = next(e for e in out if isinstance(e, ev.BoardPlaced))
    assert len(board.cards) == 5
    dealt = [c for h in holes for c in h] + list(board.cards)
    assert len(set(dealt)) == 49
    for p in rnd.players:
        rnd.act(p, "play_4x")
    assert phase_of(rnd) is Phase.SETTLED


def test_002_back_line_bets_only_on_california_tables() -> None:
    for name in ("casino", "live"):
        rnd = Round(preset(name))
        rnd.place_wagers("amy", ante=5, seat=1)
        with pytest.raises(IllegalActionError, match="no back-line bets"):
            rnd.place_wagers("carl", ante=5, behind="amy")
    for name in ("california", "california-bad-beat"):
        rnd = Round(preset(name), bank=1000)
        rnd.place_wagers("amy", ante=5, seat=1)
        rnd.place_wagers("carl", ante=5, behind="amy")
        assert rnd.events[-1] == ev.WagersPlaced("carl", D(5), D(5), D(0), D(0), None, "amy")


def test_002_back_line_bet_only_behind_a_seated_hand() -> None:
    rnd = Round(preset("california"), bank=1000)
    with pytest.raises(IllegalActionError, match="not a seated hand"):
        rnd.place_wagers("carl", ante=5, behind="amy")
    rnd.place_wagers("amy", ante=5, seat=1)
    rnd.place_wagers("carl", ante=5, behind="amy")
    with pytest.raises(IllegalActionError, match="not a seated hand"):
        rnd.place_wagers("dora", ante=5, behind="carl")  # not behind a back-line bet
    with pytest.raises(IllegalActionError, match="not a seated hand"):
        rnd.place_wagers("amy", ante=5, behind="amy")
    rnd.place_wagers("bob", ante=5, seat=2)
    with pytest.raises(IllegalActionError, match="already has a seated hand"):
        rnd.place_wagers("bob", ante=5, behind="amy")
    with pytest.raises(IllegalActionError, match="already has a back-line bet"):
        rnd.place_wagers("carl", ante=5, seat=3)
    # back-line bets take no seat: seven seated hands and more bettors behind them
    for i in range(3, 8):
        rnd.place_wagers(f"s{i}", ante=5, seat=i)
    rnd.place_wagers("extra", ante=5, behind="s7")
    assert len(rnd.players) == 9


def test_004_withdraw_removes_the_back_line_bets_riding_on_that_hand() -> None:
    rnd = Round(preset("california"), bank=1000)
    rnd.place_wagers("amy", ante=5, seat=1)
    rnd.place_wagers("carl", ante=5, behind="amy")
    rnd.place_wagers("bob", ante=5, seat=2)
    rnd.place_wagers("dora", ante=5, behind="amy")
    rnd.place_wagers("ed", ante=5, behind="bob")
    assert rnd.withdraw("amy") == (
        ev.WagersWithdrawn("amy"),
        ev.WagersWithdrawn("carl"),
        ev.WagersWithdrawn("dora"),
    )
    assert rnd.players == ("bob", "ed")
    assert rnd.withdraw("ed") == (ev.WagersWithdrawn("ed"),)
    assert list(rnd.players) == ["bob"]
    with pytest.raises(IllegalActionError, match="no hand 'amy'"):
        rnd.withdraw("amy")
    top_events = rnd.events
    again = replay(rnd.rules, CASINO_TOP, top_events)
    assert again.events == top_events


@pytest.mark.parametrize("name", ["california", "california-bad-beat"])
def test_000_player_dealer_bank_is_required_and_within_limits(name: str) -> None:
    rules = preset(name)
    with pytest.raises(InvalidWagerError, match="needs the player-dealer's bank"):
        Round(rules)
    with pytest.raises(InvalidWagerError, match=r"between 100\.00 and 100000\.00"):
        Round(rules, bank=99)
    with pytest.raises(InvalidWagerError, match=r"between 100\.00 and 100000\.00"):
        Round(rules, bank="100000.01")
    with pytest.raises(InvalidWagerError):
        Round(rules, bank="1.001")
    assert Round(rules, bank=100).events[0] == ev.RoundOpened("", name, D(100))
    assert Round(rules, bank=100000).events[0].to_dict()["bank"] == 100000


@pytest.mark.parametrize("name", ["casino", "live"])
def test_001_house_tables_take_no_bank(name: str) -> None:
    with pytest.raises(InvalidWagerError, match="house-banked"):
        Round(preset(name), bank=1000)


def test_close_betting_needs_a_deck_of_52_distinct_cards_and_changes_nothing() -> None:
    rnd = casino_round()
    before = (rnd.events, rnd.actions)
    with pytest.raises(InvalidDealError, match=r"^deck: expected 52 cards, got 51$"):
        rnd.close_betting(CASINO_TOP[:51])
    with pytest.raises(UthError, match=r"^deck: duplicate card As$"):
        rnd.close_betting((*CASINO_TOP[:51], CASINO_TOP[0]))
    assert not rnd.can_close_betting(CASINO_TOP[:51])
    assert (rnd.events, rnd.actions, rnd.deck_order) == (*before, ())
    assert phase_of(rnd) is Phase.BETTING
    assert rnd.can_close_betting(CASINO_TOP)


def test_wagers_are_checked_against_the_rule_set_and_change_nothing() -> None:
    rnd = Round(preset("casino"))
    before = rnd.events
    with pytest.raises(InvalidWagerError, match="Ante must be between"):
        rnd.place_wagers("amy", ante=4)
    with pytest.raises(InvalidWagerError, match="Blind must equal the Ante"):
        rnd.place_wagers("amy", ante=10, blind=5)
    with pytest.raises(InvalidWagerError, match="not offered"):
        rnd.place_wagers("amy", ante=10, bad_beat=5)
    with pytest.raises(IllegalActionError, match="non-empty id"):
        rnd.place_wagers("", ante=10)
    assert rnd.events == before
    assert rnd.place_wagers("amy", ante="12.50", blind="12.5") == ev.WagersPlaced(
        "amy", D("12.50"), D("12.50"), D(0), D(0)
    )


# ---------------------------------------------------------------------------
# Replay (STYLE.md point 4)
# ---------------------------------------------------------------------------


def _voided_after_withdrawals() -> Round:
    rnd = Round(preset("california-bad-beat"), game_id="r-9", bank=5000)
    rnd.place_wagers("amy", ante=10, bad_beat=5, seat=1)
    rnd.place_wagers("carl", ante=5, behind="amy")
    rnd.place_wagers("bob", ante=10, seat=2)
    rnd.place_wagers("bob", ante=20, trips=5, seat=3)
    rnd.withdraw("amy")
    rnd.place_wagers("amy", ante=15, seat=1)
    rnd.close_betting(CASINO_TOP)
    rnd.act("amy", "play_3x")  # in turn: seat 1 first (002)
    rnd.act("bob", "check", auto=True)
    rnd.void("shuffler malfunction")
    return rnd


def _timeouts() -> Round:
    rnd = Round(preset("live"), game_id="L-1")
    rnd.place_wagers("pat", ante=10, trips=5)
    rnd.close_betting(LIVE_TOP)
    for _ in range(3):
        rnd.act("pat", rnd.timeout_action("pat"), auto=True)
    return rnd


@pytest.mark.parametrize(
    ("build", "top"),
    [
        (_voided_after_withdrawals, CASINO_TOP),
        (_timeouts, LIVE_TOP),
        (lambda: _to("betting"), THREE_TOP),
        (lambda: _to("river"), THREE_TOP),
    ],
)
def test_replay_reproduces_the_same_events(
    build: Callable[[], Round], top: tuple[Card, ...]
) -> None:
    rnd = build()
    again = replay(rnd.rules, top, rnd.events)
    assert again.events == rnd.events
    assert again.phase == rnd.phase
    assert again.board == rnd.board
    assert [e.to_dict() for e in again.events] == [e.to_dict() for e in rnd.events]


def test_replay_refuses_a_record_that_does_not_fit_the_rules() -> None:
    rnd = casino_round()
    rnd.close_betting(CASINO_TOP)
    rnd.act("amy", "play_4x")
    with pytest.raises(UthError):
        replay(preset("california"), CASINO_TOP, rnd.events)  # needs a bank
    bogus = (*rnd.events, ev.DecisionMade("amy", "pre_flop", "play_4x", 4, D(40)))
    with pytest.raises(IllegalActionError):
        replay(rnd.rules, CASINO_TOP, bogus)


# ---------------------------------------------------------------------------
# The betting phase: verify / can / do, the deck at the close, the action log
# ---------------------------------------------------------------------------

AT = datetime(2026, 11, 30, 17, 0, tzinfo=UTC)


def test_verify_place_wagers_raises_what_place_wagers_raises_and_changes_nothing() -> None:
    rnd = Round(preset("california-bad-beat"), bank=1000)
    rnd.place_wagers("amy", ante=10, seat=1)
    before = (rnd.events, rnd.actions, rnd.players)
    bad: list[tuple[dict[str, object], type[Exception], str]] = [
        (
            {"ante": 0},
            InvalidWagerError,
            "wagers.ante: the Ante must be between 5.00 and 1000.00, got 0.00",
        ),
        (
            {"ante": 10, "trips": 20},
            InvalidWagerError,
            "wagers.trips: Trips may not exceed the Ante (10.00), got 20.00",
        ),
        ({"ante": 10, "seat": 1}, IllegalActionError, "seat: seat 1 is taken"),
        (
            {"ante": 10, "behind": "nobody"},
            IllegalActionError,
            "behind: 'nobody' is not a seated hand",
        ),
        (
            {"ante": 10, "at": datetime(2026, 11, 30)},
            IllegalActionError,
            "at: expected a timezone-aware",
        ),
    ]
    for kwargs, error, message in bad:
        for call in (rnd.verify_place_wagers, rnd.place_wagers):
            with pytest.raises(error, match="^" + re.escape(message)):
                call("bob", **kwargs)  # type: ignore[arg-type]
        assert not rnd.can_place_wagers("bob", **kwargs)  # type: ignore[arg-type]
    assert (rnd.events, rnd.actions, rnd.players) == before
    assert rnd.verify_place_wagers("bob", ante="10.50", trips=5, seat=2) == Wagers(
        D("10.50"), D("10.50"), D(5), D(0)
    )
    assert rnd.can_place_wagers("bob", ante=10, behind="amy")
    assert (rnd.events, rnd.actions, rnd.players) == before


def test_verify_act_checks_the_funds_for_a_play_and_the_timer() -> None:
    rnd = casino_round()
    rnd.close_betting(CASINO_TOP)
    assert rnd.verify_act("amy", "play_4x", available=D(40)) == Action.play(4)
    assert not rnd.can_act("amy", "play_4x", available=D("39.99"))
    assert rnd.can_act("amy", "play_3x", available=D("39.99"))
    assert not rnd.can_act("amy", "play_4x", auto=True)  # the timer checks pre-flop
    assert rnd.can_act("amy", "check", auto=True)
    assert not rnd.can_act("nobody", "check")
    with pytest.raises(IllegalActionError, match=r"^action: play_4x is not legal for 'amy'"):
        rnd.verify_act("amy", "play_4x", available=D(35))
    assert rnd.actions[-1].kind == "close_betting"  # nothing was recorded
    assert rnd.can_withdraw("amy") is False  # betting is closed
    assert rnd.can_void()
    rnd.void("malfunction")
    assert not rnd.can_void()


def test_every_accepted_command_is_in_the_action_log_with_its_time() -> None:
    rnd = Round(preset("california"), game_id="g-7", bank=1000)
    rnd.place_wagers("amy", ante=10, trips=5, seat=1, at=AT)
    rnd.place_wagers("bob", ante=20, seat=2)
    rnd.place_wagers("cat", ante=5, behind="amy", at=AT)
    with pytest.raises(InvalidWagerError):
        rnd.place_wagers("dan", ante=1)  # refused: not in the log
    rnd.place_wagers("eve", ante=5, seat=3)
    rnd.withdraw("bob", at=AT)
    rnd.close_betting(CASINO_TOP, at=AT)
    rnd.act("amy", "play_4x", available=D(40), at=AT)
    rnd.void("malfunction", at=AT)
    log = rnd.actions
    assert [(a.kind, a.player, dict(a.payload), a.at) for a in log] == [
        (
            "place_wagers",
            "amy",
            {
                "ante": D(10),
                "blind": D(10),
                "trips": D(5),
                "bad_beat": D(0),
                "seat": 1,
                "behind": None,
            },
            AT,
        ),
        (
            "place_wagers",
            "bob",
            {
                "ante": D(20),
                "blind": D(20),
                "trips": D(0),
                "bad_beat": D(0),
                "seat": 2,
                "behind": None,
            },
            None,
        ),
        (
            "place_wagers",
            "cat",
            {
                "ante": D(5),
                "blind": D(5),
                "trips": D(0),
                "bad_beat": D(0),
                "seat": None,
                "behind": "amy",
            },
            AT,
        ),
        (
            "place_wagers",
            "eve",
            {
                "ante": D(5),
                "blind": D(5),
                "trips": D(0),
                "bad_beat": D(0),
                "seat": 3,
                "behind": None,
            },
            None,
        ),
        ("withdraw", "bob", {}, AT),
        ("close_betting", None, {}, AT),
        ("act", "amy", {"action": "play_4x", "auto": False}, AT),
        ("void", None, {"reason": "malfunction"}, AT),
    ]
    with pytest.raises(TypeError):
        log[0].payload["ante"] = D(1)  # type: ignore[index]
    assert log[0] == ActionRecord(
        "place_wagers",
        "amy",
        {"ante": D(10), "blind": D(10), "trips": D(5), "bad_beat": D(0), "seat": 1, "behind": None},
        AT,
    )


def test_the_deck_comes_at_the_close_of_betting_with_its_colour() -> None:
    rnd = casino_round()
    assert rnd.deck_order == () and rnd.dealer_hole == ()
    out = rnd.close_betting(PreparedDeck(CASINO_TOP, "blue"))
    assert out[0] == ev.BettingClosed(("amy", "bob"), "blue")
    assert rnd.deck_order == CASINO_TOP
