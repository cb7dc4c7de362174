"""Table-driven settlement tests, one group per seed (RULES.md, "Settlement against
the dealer", "Who banks", "Pay tables").

Each row is one finished deal: the board, the dealer's hole cards, the hands (in
settlement order) and the exact expected result and net of every wager of every
hand, plus the banker's net. A wager is written ``"RESULT NET"`` with optional
``uncovered=X``, ``capped=X`` and ``stake=X``; a wager left out of a row is
expected to be ``no_action 0`` (nothing wagered).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal

import pytest

from uth.cards import Card, parse_cards
from uth.engine.settlement import HandEntry, Settlement, settle
from uth.engine.wagers import LAYOUT_ORDER, Wagers, validate_wagers
from uth.errors import InvalidCardError, InvalidDealError, InvalidWagerError
from uth.evaluator import Category
from uth.rules import preset

D = Decimal


# --------------------------------------------------------------------------- helpers


@dataclass(frozen=True)
class Seat:
    """One hand of a row: a seated hand (``hole``) or a back-line bet (``behind``)."""

    id: str
    hole: str | None
    play: int
    ante: str
    trips: str = "0"
    bad_beat: str = "0"
    behind: str | None = None


@dataclass(frozen=True)
class Expect:
    """The expected settlement of one hand: ``kind -> "RESULT NET [key=value...]"``."""

    outcome: str
    wagers: dict[str, str]
    category: Category | None = None


@dataclass(frozen=True)
class Row:
    name: str
    board: str
    dealer: str
    seats: tuple[Seat, ...]
    expect: dict[str, Expect]
    banker: str
    bank: str | None = None
    qualifies: bool | None = None
    order: tuple[str, ...] | None = None  # settlement order when not the input order


def hand(outcome: str, category: Category | None = None, **wagers: str) -> Expect:
    return Expect(outcome, wagers, category)


def named(rows: list[Row], prefix: str) -> Row:
    (row,) = [r for r in rows if r.name.startswith(prefix)]
    return row


def parse_expected(text: str) -> dict[str, object]:
    result, net, *extra = text.split()
    out: dict[str, object] = {
        "result": result,
        "net": D(net),
        "uncovered": D(0),
        "capped": D(0),
    }
    for item in extra:
        key, _, value = item.partition("=")
        assert key in ("uncovered", "capped", "stake"), item
        out[key] = D(value)
    return out


def entries(rules_name: str, seats: tuple[Seat, ...]) -> list[HandEntry]:
    rules = preset(rules_name)
    out = []
    for s in seats:
        w = validate_wagers(rules, ante=s.ante, trips=s.trips, bad_beat=s.bad_beat)
        hole = parse_cards(s.hole) if s.hole is not None else None
        out.append(HandEntry(s.id, w, hole, s.play, s.behind))
    return out


def run(rules_name: str, row: Row) -> Settlement:
    return settle(
        preset(rules_name),
        parse_cards(row.board),
        parse_cards(row.dealer),
        entries(rules_name, row.seats),
        bank=None if row.bank is None else D(row.bank),
    )


def check_row(rules_name: str, row: Row) -> Settlement:
    s = run(rules_name, row)
    order = row.order or tuple(seat.id for seat in row.seats)
    assert tuple(h.id for h in s.hands) == order
    assert set(row.expect) == {seat.id for seat in row.seats}, "every hand has an expectation"
    if row.qualifies is not None:
        assert s.dealer.qualifies is row.qualifies
    for hid, exp in row.expect.items():
        hr = s.hand(hid)
        assert hr.outcome == exp.outcome, hid
        if exp.category is not None:
            assert hr.hand.category is exp.category, hid
        unknown = set(exp.wagers) - set(LAYOUT_ORDER)
        assert not unknown, unknown
        assert tuple(w.kind for w in hr.wagers) == LAYOUT_ORDER
        for kind in LAYOUT_ORDER:
            want = parse_expected(exp.wagers.get(kind, "no_action 0"))
            w = hr.wager(kind)
            got = {
                "result": w.result,
                "net": w.net,
                "uncovered": w.uncovered,
                "capped": w.capped,
            }
            if "stake" in want:
                got["stake"] = w.stake
            assert got == want, f"{row.name}: {hid}.{kind}"
            if kind != "play" and w.stake == 0:
                assert w.result == "no_action"
        assert hr.net == sum((D(t.split()[1]) for t in exp.wagers.values()), D(0))
    assert s.banker_net == D(row.banker), row.name
    assert s.banker_net == -sum((h.net for h in s.hands), D(0))
    return s


BIG_BANK = "100000"

# Deals reused below. Hands are noted as the best five.
# Board 2c 7d 9h Jc 4s: no pair, no flush, no straight on the board.
B_DRY = "2c 7d 9h Jc 4s"
DEALER_AK_HIGH = "Ad Kh"  # A K J 9 7: does not qualify
DEALER_PAIR_7 = "Ad 7h"  # a pair of sevens: qualifies
STRAIGHT_J = "Ts 8s"  # J-T-9-8-7 straight
QUEEN_HIGH = "Qs 3h"  # Q J 9 7 4: below the dealer's ace-king
PAIR_J = "Js 3h"  # a pair of jacks

# Board 7c 7d 7h Kc 2s: three of a kind on the board.
B_TRIPS = "7c 7d 7h Kc 2s"
# Board 7c 7d Kh 4c 2s: only a pair on the board.
B_PAIR7 = "7c 7d Kh 4c 2s"
# Board Ts Js Qs 3d 2c: a royal flush for As Ks; the dealer's 3c 3h make trips.
B_ROYAL = "Ts Js Qs 3d 2c"


# --------------------------------------------------------------------------- 000 California
# Player-dealer banks (bank limits), folded_trips = player_hand (our choice), back-line bets.

ROWS_000 = [
    Row(
        "000_ante_pushes_blind_and_play_lose_when_non_qualifying_dealer_beats_player",
        B_DRY,
        DEALER_AK_HIGH,
        (Seat("s1", QUEEN_HIGH, 1, "10"),),
        {"s1": hand("lose", ante="push 0", blind="lose -10", play="lose -10")},
        banker="20",
        bank=BIG_BANK,
        qualifies=False,
    ),
    Row(
        "000_straight_wins_blind_and_play_when_dealer_does_not_qualify",
        B_DRY,
        DEALER_AK_HIGH,
        (Seat("s1", STRAIGHT_J, 4, "10"),),
        {"s1": hand("win", Category.STRAIGHT, ante="push 0", blind="win 10", play="win 40")},
        banker="-50",
        bank=BIG_BANK,
        qualifies=False,
    ),
    Row(
        "000_pair_beats_qualifying_dealer_ante_and_play_win_blind_pushes",
        B_DRY,
        DEALER_PAIR_7,
        (Seat("s1", PAIR_J, 2, "10"),),
        {"s1": hand("win", Category.PAIR, ante="win 10", blind="push 0", play="win 20")},
        banker="-30",
        bank=BIG_BANK,
        qualifies=True,
    ),
    Row(
        "000_folded_trips_counts_the_player_hand",
        B_PAIR7,
        "Ac Qd",
        (Seat("s1", "7h 9s", 0, "10", trips="10"),),
        {
            "s1": hand(
                "fold",
                Category.THREE_OF_A_KIND,
                ante="lose -10",
                blind="lose -10",
                play="no_action 0 stake=0",
                trips="win 30",
            )
        },
        banker="-10",
        bank=BIG_BANK,
    ),
    # Bank 100: seat A wins 120 gross, seat B loses 60. Settled A then B: A's Play is
    # paid only 60 of 80 (the bank is down 100), then B's losses are still collected.
    Row(
        "000_bank_pays_first_seat_to_the_limit_then_collects_later_losers",
        B_DRY,
        DEALER_PAIR_7,
        (Seat("A", STRAIGHT_J, 4, "20"), Seat("B", "3h 5c", 1, "20")),
        {
            "A": hand("win", ante="win 20", blind="win 20", play="win 60 uncovered=20"),
            "B": hand("lose", ante="lose -20", blind="lose -20", play="lose -20"),
        },
        banker="-40",
        bank="100",
    ),
    # The same deal with the seats the other way round: B's losses first, so A is
    # paid in full.
    Row(
        "000_bank_seat_order_matters_losers_first_then_winner_paid_in_full",
        B_DRY,
        DEALER_PAIR_7,
        (Seat("B", "3h 5c", 1, "20"), Seat("A", STRAIGHT_J, 4, "20")),
        {
            "A": hand("win", ante="win 20", blind="win 20", play="win 80"),
            "B": hand("lose", ante="lose -20", blind="lose -20", play="lose -20"),
        },
        banker="-60",
        bank="100",
    ),
    # Bank 100, exhausted inside seat A (royal flush): the Blind is partly covered,
    # A's Play and Trips and all of B's winning wagers have no action; C's losing
    # wagers are still collected.
    Row(
        "000_bank_exhausted_mid_seat_later_wins_no_action_later_losses_collected",
        B_ROYAL,
        "3c 3h",
        (
            Seat("A", "As Ks", 4, "10", trips="10"),
            Seat("B", "Ah Kd", 4, "10", trips="5"),
            Seat("C", "4d 5h", 1, "10", trips="10"),
        ),
        {
            "A": hand(
                "win",
                Category.ROYAL_FLUSH,
                ante="win 10",
                blind="win 90 uncovered=4910",
                play="no_action 0 uncovered=40 stake=40",
                trips="no_action 0 uncovered=500",
            ),
            "B": hand(
                "win",
                Category.STRAIGHT,
                ante="no_action 0 uncovered=10",
                blind="no_action 0 uncovered=10",
                play="no_action 0 uncovered=40",
                trips="no_action 0 uncovered=20",
            ),
            "C": hand(
                "lose",
                Category.HIGH_CARD,
                ante="lose -10",
                blind="lose -10",
                play="lose -10",
                trips="lose -10",
            ),
        },
        banker="-60",
        bank="100",
    ),
    # Bank 100 on the winning side: the player-dealer collects at most 100.
    Row(
        "000_bank_collects_losing_wagers_only_up_to_the_bank",
        B_DRY,
        "Ad Ah",
        (
            Seat("s1", "Ks Qd", 1, "20"),
            Seat("s2", "3h 5c", 1, "25"),
            Seat("s3", "6c 8d", 2, "10", trips="10"),
        ),
        {
            "s1": hand("lose", ante="lose -20", blind="lose -20", play="lose -20"),
            "s2": hand(
                "lose",
                ante="lose -25",
                blind="lose -15 uncovered=10",
                play="no_action 0 uncovered=25",
            ),
            "s3": hand(
                "lose",
                ante="no_action 0 uncovered=10",
                blind="no_action 0 uncovered=10",
                play="no_action 0 uncovered=20",
                trips="no_action 0 uncovered=10",
            ),
        },
        banker="100",
        bank="100",
    ),
    # A bank exactly large enough: everything covered, the bank ends at -100.
    Row(
        "000_bank_exactly_covering_the_wins_pays_in_full",
        B_DRY,
        DEALER_PAIR_7,
        (Seat("A", STRAIGHT_J, 3, "20"), Seat("B", STRAIGHT_J.replace("s", "c"), 0, "5")),
        {
            "A": hand("win", ante="win 20", blind="win 20", play="win 60"),
            "B": hand("fold", ante="lose -5", blind="lose -5", play="no_action 0"),
        },
        banker="-90",
        bank="100",
        order=("B", "A"),
    ),
    # Pushes need no cover: with the bank down to its limit a tie still pushes.
    Row(
        "000_push_needs_no_cover_when_the_bank_is_exhausted",
        B_DRY,
        DEALER_PAIR_7,
        (Seat("A", STRAIGHT_J, 4, "25"), Seat("B", "7s Ac", 1, "10")),
        {
            "A": hand("win", ante="win 25", blind="win 25", play="win 50 uncovered=50"),
            "B": hand("tie", ante="push 0", blind="push 0", play="push 0"),
        },
        banker="-100",
        bank="100",
    ),
]


@pytest.mark.parametrize("row", ROWS_000, ids=[r.name for r in ROWS_000])
def test_000_california_player_dealer(row: Row) -> None:
    check_row("california", row)


def test_000_seat_order_changes_who_the_bank_covers() -> None:
    first = check_row("california", named(ROWS_000, "000_bank_pays_first_seat"))
    second = check_row("california", named(ROWS_000, "000_bank_seat_order_matters"))
    assert first.hand("A").net == D(100)
    assert second.hand("A").net == D(120)
    assert first.banker_net != second.banker_net


def test_000_partly_covered_wager_has_action_on_the_covered_part() -> None:
    s = check_row("california", named(ROWS_000, "000_bank_exhausted_mid_seat"))
    blind = s.hand("A").wager("blind")
    assert blind.result == "win"
    assert blind.net + blind.uncovered == D(5000)  # 500:1 on 10


def test_000_bank_result_never_beyond_the_bank() -> None:
    for row in ROWS_000:
        s = run("california", row)
        bank = D(row.bank or "0")
        running = D(0)
        for h in s.hands:
            for w in h.wagers:
                running -= w.net
                assert -bank <= running <= bank, row.name
        assert s.banker_net == running


def test_000_back_line_bet_follows_its_seat_in_california() -> None:
    row = Row(
        "000_back_line",
        B_DRY,
        DEALER_PAIR_7,
        (
            Seat("s1", PAIR_J, 2, "10"),
            Seat("b1", None, 0, "5", trips="5", behind="s1"),
        ),
        {
            "s1": hand("win", ante="win 10", blind="push 0", play="win 20"),
            "b1": hand("win", ante="win 5", blind="push 0", play="win 10", trips="lose -5"),
        },
        banker="-40",
        bank=BIG_BANK,
    )
    s = check_row("california", row)
    assert s.hand("b1").behind == "s1"
    assert s.hand("b1").play_multiple == 2
    assert s.hand("b1").hand == s.hand("s1").hand


# --------------------------------------------------------------------------- 001 casino
# House-banked, folded_trips = player_hand, payout cap 50,000 on Ante + Blind + Play.

ROWS_001 = [
    Row(
        "001_ante_pushes_when_dealer_does_not_qualify_blind_and_play_lose",
        B_DRY,
        DEALER_AK_HIGH,
        (Seat("s1", QUEEN_HIGH, 1, "10", trips="10"),),
        {
            "s1": hand(
                "lose",
                Category.HIGH_CARD,
                ante="push 0",
                blind="lose -10",
                play="lose -10 stake=10",
                trips="lose -10",
            )
        },
        banker="30",
        qualifies=False,
    ),
    Row(
        "001_straight_wins_when_dealer_does_not_qualify_ante_push_blind_and_play_1_to_1",
        B_DRY,
        DEALER_AK_HIGH,
        (Seat("s1", STRAIGHT_J, 4, "10"),),
        {"s1": hand("win", ante="push 0", blind="win 10", play="win 40 stake=40")},
        banker="-50",
        qualifies=False,
    ),
    Row(
        "001_blind_pushes_when_player_wins_with_less_than_a_straight",
        B_DRY,
        DEALER_PAIR_7,
        (Seat("s1", PAIR_J, 2, "10"),),
        {"s1": hand("win", ante="win 10", blind="push 0", play="win 20")},
        banker="-30",
        qualifies=True,
    ),
    Row(
        "001_non_qualifying_dealer_beaten_by_a_pair_ante_and_blind_push_play_wins",
        B_DRY,
        DEALER_AK_HIGH,
        (Seat("s1", PAIR_J, 3, "10"),),
        {"s1": hand("win", ante="push 0", blind="push 0", play="win 30")},
        banker="-30",
        qualifies=False,
    ),
    Row(
        "001_flush_blind_pays_3_to_2_on_an_odd_amount",
        "2h 7h 9h Jc 4s",
        "Kd Kc",
        (Seat("s1", "Ah 3h", 4, "5", trips="5"),),
        {
            "s1": hand(
                "win",
                Category.FLUSH,
                ante="win 5",
                blind="win 7.50",
                play="win 20",
                trips="win 35",
            )
        },
        banker="-67.50",
    ),
    Row(
        "001_full_house_blind_pays_3_to_1_trips_8_to_1",
        "9c 9d 4h Jc 2s",
        "Ac Ad",
        (Seat("s1", "9h Js", 3, "10", trips="10"),),
        {
            "s1": hand(
                "win",
                Category.FULL_HOUSE,
                ante="win 10",
                blind="win 30",
                play="win 30",
                trips="win 80",
            )
        },
        banker="-150",
    ),
    Row(
        "001_four_of_a_kind_blind_pays_10_to_1_trips_30_to_1",
        "8c 8d Kh 4c 2s",
        "Kd Qd",
        (Seat("s1", "8h 8s", 4, "10", trips="5"),),
        {
            "s1": hand(
                "win",
                Category.FOUR_OF_A_KIND,
                ante="win 10",
                blind="win 100",
                play="win 40",
                trips="win 150",
            )
        },
        banker="-300",
    ),
    Row(
        "001_straight_flush_blind_pays_50_to_1_trips_40_to_1",
        "5h 6h 7h Kc 2d",
        "Kd Ks",
        (Seat("s1", "8h 9h", 4, "10", trips="10"),),
        {
            "s1": hand(
                "win",
                Category.STRAIGHT_FLUSH,
                ante="win 10",
                blind="win 500",
                play="win 40",
                trips="win 400",
            )
        },
        banker="-950",
    ),
    Row(
        "001_royal_flush_blind_pays_500_to_1_trips_50_to_1",
        B_ROYAL,
        "3c 3h",
        (Seat("s1", "As Ks", 4, "10", trips="10"),),
        {
            "s1": hand(
                "win",
                Category.ROYAL_FLUSH,
                ante="win 10",
                blind="win 5000",
                play="win 40",
                trips="win 500",
            )
        },
        banker="-5550",
    ),
    Row(
        "001_wheel_is_a_straight_for_the_blind",
        "2c 3d 4h Kc 9s",
        "Kd 9d",
        (Seat("s1", "Ah 5s", 4, "10"),),
        {"s1": hand("win", Category.STRAIGHT, ante="win 10", blind="win 10", play="win 40")},
        banker="-60",
    ),
    Row(
        "001_tie_with_a_pair_pushes_ante_blind_and_play_trips_still_loses",
        "Ac Kd 8h 5s 2c",
        "Qs Qc",
        (Seat("s1", "Qh Qd", 2, "10", trips="5"),),
        {
            "s1": hand(
                "tie",
                Category.PAIR,
                ante="push 0",
                blind="push 0",
                play="push 0 stake=20",
                trips="lose -5",
            )
        },
        banker="5",
        qualifies=True,
    ),
    Row(
        "001_dealer_wins_all_lose_but_trips_pays_on_the_player_hand",
        B_PAIR7,
        "Kc Ks",
        (Seat("s1", "7h 9s", 4, "10", trips="10"),),
        {
            "s1": hand(
                "lose",
                Category.THREE_OF_A_KIND,
                ante="lose -10",
                blind="lose -10",
                play="lose -40",
                trips="win 30",
            )
        },
        banker="30",
    ),
    Row(
        "001_fold_with_trips_on_board_pays_trips_on_player_full_house_8_to_1",
        B_TRIPS,
        "Ac Qd",
        (Seat("s1", "Ks 4d", 0, "10", trips="10"),),
        {
            "s1": hand(
                "fold",
                Category.FULL_HOUSE,
                ante="lose -10",
                blind="lose -10",
                play="no_action 0 stake=0",
                trips="win 80",
            )
        },
        banker="-60",
    ),
    Row(
        "001_fold_with_trips_from_hole_cards_pays_trips_3_to_1",
        B_PAIR7,
        "Ac Qd",
        (Seat("s1", "7h 9s", 0, "10", trips="10"),),
        {
            "s1": hand(
                "fold",
                ante="lose -10",
                blind="lose -10",
                play="no_action 0 stake=0",
                trips="win 30",
            )
        },
        banker="-10",
    ),
    Row(
        "001_fold_play_and_zero_trips_have_no_action",
        B_DRY,
        DEALER_PAIR_7,
        (Seat("s1", QUEEN_HIGH, 0, "10"),),
        {
            "s1": hand(
                "fold",
                ante="lose -10",
                blind="lose -10",
                play="no_action 0 stake=0",
                trips="no_action 0 stake=0",
                bad_beat="no_action 0 stake=0",
            )
        },
        banker="20",
    ),
    Row(
        "001_fold_loses_ante_even_when_dealer_does_not_qualify",
        B_DRY,
        DEALER_AK_HIGH,
        (Seat("s1", STRAIGHT_J, 0, "10", trips="10"),),
        {
            "s1": hand(
                "fold",
                Category.STRAIGHT,
                ante="lose -10",
                blind="lose -10",
                play="no_action 0",
                trips="win 40",
            )
        },
        banker="-20",
        qualifies=False,
    ),
    # 1000 Ante, royal flush, Play 4x: Ante 1,000 + Play 4,000 + Blind 500,000 is capped
    # at 50,000 (Blind paid 45,000); Trips (50,000) is not capped.
    Row(
        "001_payout_cap_limits_ante_blind_play_to_50000_trips_not_capped",
        B_ROYAL,
        "3c 3h",
        (Seat("s1", "As Ks", 4, "1000", trips="1000"),),
        {
            "s1": hand(
                "win",
                Category.ROYAL_FLUSH,
                ante="win 1000",
                blind="win 45000 capped=455000",
                play="win 4000",
                trips="win 50000",
            )
        },
        banker="-100000",
    ),
    Row(
        "001_payout_cap_on_a_straight_flush_withholds_the_excess_blind_only",
        "5h 6h 7h Kc 2d",
        "Kd Ks",
        (Seat("s1", "8h 9h", 4, "1000"),),
        {
            "s1": hand(
                "win",
                ante="win 1000",
                blind="win 45000 capped=5000",
                play="win 4000",
            )
        },
        banker="-50000",
    ),
    Row(
        "001_payout_cap_is_per_player_each_hand_capped_separately",
        B_ROYAL,
        "3c 3h",
        (Seat("s1", "As Ks", 1, "1000"), Seat("s2", "Ah Kd", 4, "1000")),
        {
            "s1": hand(
                "win",
                ante="win 1000",
                blind="win 48000 capped=452000",
                play="win 1000",
            ),
            "s2": hand("win", ante="win 1000", blind="win 1000", play="win 4000"),
        },
        banker="-56000",
        order=("s2", "s1"),
    ),
]


@pytest.mark.parametrize("row", ROWS_001, ids=[r.name for r in ROWS_001])
def test_001_casino_house_banked(row: Row) -> None:
    check_row("casino", row)


def test_001_payout_cap_is_50000_for_the_casino_preset() -> None:
    assert preset("casino").cap_amount() == D(50000)
    assert preset("live").cap_amount() is None


# --------------------------------------------------------------------------- 002 California Bad Beat
# Player-dealer, folded_trips = board_only, Bad Beat on the beaten hand, back-line bets.

ROWS_002 = [
    Row(
        "002_bad_beat_pays_50_to_1_when_player_full_house_is_beaten_by_dealer_quads",
        "9c 9d 4h 4c Js",
        "4d 4s",
        (Seat("s1", "9h Jd", 1, "10", trips="10", bad_beat="10"),),
        {
            "s1": hand(
                "lose",
                Category.FULL_HOUSE,
                ante="lose -10",
                blind="lose -10",
                play="lose -10",
                trips="win 80",
                bad_beat="win 500",
            )
        },
        banker="-550",
        bank=BIG_BANK,
    ),
    Row(
        "002_bad_beat_pays_30_to_1_when_dealer_flush_is_beaten_by_player_full_house",
        "9h 9d 4h 2h Jc",
        "Ah 7h",
        (Seat("s1", "9c Jd", 4, "10", trips="10", bad_beat="10"),),
        {
            "s1": hand(
                "win",
                Category.FULL_HOUSE,
                ante="win 10",
                blind="win 30",
                play="win 40",
                trips="win 80",
                bad_beat="win 300",
            )
        },
        banker="-460",
        bank=BIG_BANK,
    ),
    Row(
        "002_bad_beat_pays_9_to_1_on_beaten_three_of_a_kind",
        "5c 6d 7h Ks Kc",
        "8s 9d",
        (Seat("s1", "Kd 2d", 1, "10", trips="10", bad_beat="10"),),
        {
            "s1": hand(
                "lose",
                Category.THREE_OF_A_KIND,
                ante="lose -10",
                blind="lose -10",
                play="lose -10",
                trips="win 30",
                bad_beat="win 90",
            )
        },
        banker="-90",
        bank=BIG_BANK,
    ),
    Row(
        "002_bad_beat_pays_7500_to_1_on_a_beaten_straight_flush",
        "5h 6h 7h 8h Kc",
        "9h Ts",
        (Seat("s1", "4h 2c", 1, "5", trips="5", bad_beat="5"),),
        {
            "s1": hand(
                "lose",
                Category.STRAIGHT_FLUSH,
                ante="lose -5",
                blind="lose -5",
                play="lose -5",
                trips="win 200",
                bad_beat="win 37500",
            )
        },
        banker="-37685",
        bank=BIG_BANK,
    ),
    Row(
        "002_bad_beat_loses_on_a_tie",
        "5c 6d 7h 8s 9c",
        "3c 3s",
        (Seat("s1", "2h 2d", 1, "10", trips="10", bad_beat="10"),),
        {
            "s1": hand(
                "tie",
                Category.STRAIGHT,
                ante="push 0",
                blind="push 0",
                play="push 0",
                trips="win 40",
                bad_beat="lose -10",
            )
        },
        banker="-30",
        bank=BIG_BANK,
    ),
    Row(
        "002_bad_beat_loses_on_a_fold_and_folded_trips_ignores_the_hole_cards",
        "9c 9d 4h 4c Js",
        "4d 4s",
        (Seat("s1", "9h Jd", 0, "10", trips="10", bad_beat="10"),),
        {
            "s1": hand(
                "fold",
                ante="lose -10",
                blind="lose -10",
                play="no_action 0 stake=0",
                trips="lose -10",
                bad_beat="lose -10",
            )
        },
        banker="40",
        bank=BIG_BANK,
    ),
    Row(
        "002_bad_beat_loses_when_dealer_does_not_qualify",
        "7c Jd Kh 4c 2s",
        "Ad Qh",
        (Seat("s1", "7h 7s", 4, "10", trips="10", bad_beat="10"),),
        {
            "s1": hand(
                "win",
                Category.THREE_OF_A_KIND,
                ante="push 0",
                blind="push 0",
                play="win 40",
                trips="win 30",
                bad_beat="lose -10",
            )
        },
        banker="-60",
        bank=BIG_BANK,
        qualifies=False,
    ),
    Row(
        "002_bad_beat_loses_when_the_beaten_hand_is_below_three_of_a_kind",
        "5c 6d 7h Ks 2c",
        "8s 9d",
        (Seat("s1", "Kd 2d", 2, "10", trips="10", bad_beat="10"),),
        {
            "s1": hand(
                "lose",
                Category.TWO_PAIR,
                ante="lose -10",
                blind="lose -10",
                play="lose -20",
                trips="lose -10",
                bad_beat="lose -10",
            )
        },
        banker="60",
        bank=BIG_BANK,
    ),
    Row(
        "002_folded_trips_board_only_pays_the_board_three_of_a_kind_3_to_1",
        B_TRIPS,
        "Ac Qd",
        (Seat("s1", "Ks 4d", 0, "10", trips="10", bad_beat="10"),),
        {
            "s1": hand(
                "fold",
                Category.FULL_HOUSE,
                ante="lose -10",
                blind="lose -10",
                play="no_action 0",
                trips="win 30",
                bad_beat="lose -10",
            )
        },
        banker="0",
        bank=BIG_BANK,
    ),
    Row(
        "002_folded_trips_board_only_loses_when_only_the_hole_cards_make_trips",
        B_PAIR7,
        "Ac Qd",
        (Seat("s1", "7h 9s", 0, "10", trips="10"),),
        {
            "s1": hand(
                "fold",
                Category.THREE_OF_A_KIND,
                ante="lose -10",
                blind="lose -10",
                play="no_action 0",
                trips="lose -10",
            )
        },
        banker="30",
        bank=BIG_BANK,
    ),
    Row(
        "002_trips_when_not_folded_counts_the_player_hand",
        B_PAIR7,
        "Ac Qd",
        (Seat("s1", "7h 9s", 1, "10", trips="10"),),
        {
            "s1": hand(
                "win",
                Category.THREE_OF_A_KIND,
                ante="win 10",
                blind="push 0",
                play="win 10",
                trips="win 30",
            )
        },
        banker="-50",
        bank=BIG_BANK,
    ),
    # A back-line bet follows seat s1's cards and Play 4x (its own ``play`` is
    # ignored) and is settled right after s1, before s2. Bank 100: s1 takes it all,
    # so b1's wins have no action but its losing Bad Beat is collected.
    Row(
        "002_back_line_bet_follows_its_seat_and_is_settled_right_after_it",
        B_DRY,
        DEALER_PAIR_7,
        (
            Seat("s1", STRAIGHT_J, 4, "10", trips="10"),
            Seat("b1", None, 0, "10", trips="5", bad_beat="5", behind="s1"),
            Seat("s2", "3h 5c", 1, "10"),
        ),
        {
            "s1": hand(
                "win",
                Category.STRAIGHT,
                ante="win 10",
                blind="win 10",
                play="win 40",
                trips="win 40",
            ),
            "b1": hand(
                "win",
                Category.STRAIGHT,
                ante="no_action 0 uncovered=10",
                blind="no_action 0 uncovered=10",
                play="no_action 0 uncovered=40 stake=40",
                trips="no_action 0 uncovered=20",
                bad_beat="lose -5",
            ),
            "s2": hand("lose", ante="lose -10", blind="lose -10", play="lose -10"),
        },
        banker="-65",
        bank="100",
    ),
    # The same bets given with the back-line bet after another seat: it is still
    # settled right after the seat it follows (RULES.md, "Who banks").
    Row(
        "002_back_line_bet_listed_after_a_later_seat_is_still_settled_right_after_its_own",
        B_DRY,
        DEALER_PAIR_7,
        (
            Seat("s1", STRAIGHT_J, 4, "10", trips="10"),
            Seat("s2", "3h 5c", 1, "10"),
            Seat("b1", None, 0, "10", trips="5", bad_beat="5", behind="s1"),
        ),
        {
            "s1": hand(
                "win",
                ante="win 10",
                blind="win 10",
                play="win 40",
                trips="win 40",
            ),
            "b1": hand(
                "win",
                ante="no_action 0 uncovered=10",
                blind="no_action 0 uncovered=10",
                play="no_action 0 uncovered=40",
                trips="no_action 0 uncovered=20",
                bad_beat="lose -5",
            ),
            "s2": hand("lose", ante="lose -10", blind="lose -10", play="lose -10"),
        },
        banker="-65",
        bank="100",
        order=("s1", "b1", "s2"),
    ),
    Row(
        "002_back_line_bet_on_a_folded_hand_follows_the_fold",
        B_TRIPS,
        "Ac Qd",
        (
            Seat("s1", "Ks 4d", 0, "10"),
            Seat("b1", None, 4, "20", trips="20", bad_beat="5", behind="s1"),
        ),
        {
            "s1": hand("fold", ante="lose -10", blind="lose -10", play="no_action 0"),
            "b1": hand(
                "fold",
                ante="lose -20",
                blind="lose -20",
                play="no_action 0 stake=0",
                trips="win 60",
                bad_beat="lose -5",
            ),
        },
        banker="5",
        bank=BIG_BANK,
    ),
]


@pytest.mark.parametrize("row", ROWS_002, ids=[r.name for r in ROWS_002])
def test_002_california_bad_beat(row: Row) -> None:
    check_row("california-bad-beat", row)


def test_002_back_line_bet_shows_the_hand_and_decision_it_follows() -> None:
    s = check_row("california-bad-beat", named(ROWS_002, "002_back_line_bet_follows"))
    b1, s1 = s.hand("b1"), s.hand("s1")
    assert b1.behind == "s1"
    assert b1.hand == s1.hand
    assert b1.outcome == s1.outcome
    assert b1.play_multiple == s1.play_multiple == 4


# --------------------------------------------------------------------------- 003 dealer procedure
# The Russian procedure sheet (casino table, house-banked): the dealer returns every
# Ante first when not qualifying, then settles the rest; a misdeal voids the round.

ROWS_003 = [
    Row(
        "003_every_ante_returned_when_dealer_does_not_qualify_then_the_rest_settled",
        B_DRY,
        DEALER_AK_HIGH,
        (
            Seat("s1", STRAIGHT_J, 4, "10", trips="5"),
            Seat("s2", QUEEN_HIGH, 1, "10"),
            Seat("s3", "Jh 3d", 2, "10", trips="5"),
            Seat("s4", "5s 6s", 0, "10"),
        ),
        {
            "s1": hand("win", ante="push 0", blind="win 10", play="win 40", trips="win 20"),
            "s2": hand("lose", ante="push 0", blind="lose -10", play="lose -10"),
            "s3": hand("win", ante="push 0", blind="push 0", play="win 20", trips="lose -5"),
            "s4": hand("fold", ante="lose -10", blind="lose -10", play="no_action 0"),
        },
        banker="-45",
        qualifies=False,
        order=("s4", "s3", "s2", "s1"),
    ),
    Row(
        "003_tie_against_a_non_qualifying_dealer_returns_ante_blind_and_play",
        "Ac Kd 9h 7s 4c",
        "2d 3h",
        (Seat("s1", "2s 3c", 1, "10"), Seat("s2", "Qh Jh", 1, "10")),
        {
            "s1": hand("tie", Category.HIGH_CARD, ante="push 0", blind="push 0", play="push 0"),
            "s2": hand("win", Category.HIGH_CARD, ante="push 0", blind="push 0", play="win 10"),
        },
        banker="-10",
        qualifies=False,
        order=("s2", "s1"),
    ),
    Row(
        "003_tie_with_two_pair_on_the_board_returns_ante_blind_and_play",
        "Kc Kd 8h 8s 2c",
        "3s 4c",
        (Seat("s1", "3h 4d", 4, "10", trips="10"),),
        {
            "s1": hand(
                "tie",
                Category.TWO_PAIR,
                ante="push 0",
                blind="push 0",
                play="push 0 stake=40",
                trips="lose -10",
            )
        },
        banker="10",
        qualifies=True,
    ),
    Row(
        "003_player_beats_dealer_ante_and_play_win_one_to_one",
        B_DRY,
        DEALER_PAIR_7,
        (Seat("s1", "Jh Js", 3, "25"),),
        {"s1": hand("win", Category.THREE_OF_A_KIND, ante="win 25", blind="push 0", play="win 75")},
        banker="-100",
    ),
    Row(
        "003_dealer_beats_player_play_ante_and_blind_lose",
        B_DRY,
        DEALER_PAIR_7,
        (Seat("s1", "Kh 3d", 2, "25"),),
        {"s1": hand("lose", ante="lose -25", blind="lose -25", play="lose -50")},
        banker="100",
    ),
    Row(
        "003_dealer_beats_player_kicker_decides",
        "Ac 9d 9h 6s 2c",
        "Kd 3s",
        (Seat("s1", "Qd 3h", 1, "10"),),
        {"s1": hand("lose", Category.PAIR, ante="lose -10", blind="lose -10", play="lose -10")},
        banker="30",
    ),
]


@pytest.mark.parametrize("row", ROWS_003, ids=[r.name for r in ROWS_003])
def test_003_dealer_procedure(row: Row) -> None:
    check_row("casino", row)


@pytest.mark.parametrize(
    ("board", "dealer", "holes"),
    [
        ("2c 7d 9h Jc", "Ad Kh", ["Ts 8s"]),
        ("2c 7d 9h Jc 4s 5s", "Ad Kh", ["Ts 8s"]),
        (B_DRY, "Ad", ["Ts 8s"]),
        (B_DRY, "Ad Kh 3c", ["Ts 8s"]),
        (B_DRY, "Ad Kh", ["Ts"]),
        (B_DRY, "Ad Kh", ["Ts 8s", "Qs Qd 3c"]),
        (B_DRY, "Ad Kh", [""]),
    ],
    ids=[
        "board_4",
        "board_6",
        "dealer_1",
        "dealer_3",
        "hand_1",
        "second_hand_3",
        "hand_0",
    ],
)
def test_003_misdeal_wrong_card_count_is_an_invalid_deal(
    board: str, dealer: str, holes: list[str]
) -> None:
    rules = preset("casino")
    w = validate_wagers(rules, ante=10)
    hands = [HandEntry(f"s{i}", w, parse_cards(h), 1) for i, h in enumerate(holes)]
    with pytest.raises(InvalidDealError):
        settle(rules, parse_cards(board), parse_cards(dealer), hands)


def test_003_misdeal_names_the_hand_by_its_position() -> None:
    rules = preset("casino")
    w = validate_wagers(rules, ante=10)
    hands = [
        HandEntry("amy", w, parse_cards("Ts 8s"), 1),
        HandEntry("bob", w, parse_cards("Qs Qd 3c"), 1),
    ]
    with pytest.raises(InvalidDealError, match=r"^hands\[1\]\.hole: expected 2 cards, got 3$"):
        settle(rules, parse_cards(B_DRY), parse_cards("Ad Kh"), hands)


# --------------------------------------------------------------------------- 004 live online
# House-banked, Blind placed automatically, folded_trips = player_hand, no cap, any
# number of players.

ROWS_004 = [
    Row(
        "004_flush_blind_pays_1_5_to_1",
        "2h 7h 9h Jc 4s",
        "Kd Kc",
        (Seat("p1", "Ah 3h", 4, "25"),),
        {"p1": hand("win", Category.FLUSH, ante="win 25", blind="win 37.50", play="win 100")},
        banker="-162.50",
    ),
    Row(
        "004_flush_blind_on_odd_cents_is_rounded_down_to_the_cent",
        "2h 7h 9h Jc 4s",
        "Kd Kc",
        (Seat("p1", "Ah 3h", 1, "5.01"),),
        {"p1": hand("win", ante="win 5.01", blind="win 7.51", play="win 5.01")},
        banker="-17.53",
    ),
    Row(
        "004_trips_paid_whether_or_not_the_player_beats_the_dealer",
        B_PAIR7,
        "Kc Ks",
        (Seat("p1", "7h 9s", 1, "10", trips="10"),),
        {
            "p1": hand(
                "lose",
                ante="lose -10",
                blind="lose -10",
                play="lose -10",
                trips="win 30",
            )
        },
        banker="0",
    ),
    Row(
        "004_fold_trips_counts_the_player_best_hand",
        B_TRIPS,
        "Ac Qd",
        (Seat("p1", "Ks 4d", 0, "10", trips="10"),),
        {
            "p1": hand(
                "fold",
                Category.FULL_HOUSE,
                ante="lose -10",
                blind="lose -10",
                play="no_action 0 stake=0",
                trips="win 80",
            )
        },
        banker="-60",
    ),
    Row(
        "004_dealer_does_not_qualify_player_wins_with_straight",
        B_DRY,
        DEALER_AK_HIGH,
        (Seat("p1", STRAIGHT_J, 2, "10"),),
        {"p1": hand("win", ante="push 0", blind="win 10", play="win 20")},
        banker="-30",
        qualifies=False,
    ),
    Row(
        "004_dealer_does_not_qualify_and_beats_player_ante_returned_blind_play_lost",
        B_DRY,
        DEALER_AK_HIGH,
        (Seat("p1", QUEEN_HIGH, 4, "10"),),
        {"p1": hand("lose", ante="push 0", blind="lose -10", play="lose -40")},
        banker="50",
        qualifies=False,
    ),
    Row(
        "004_no_payout_cap_royal_flush_blind_paid_in_full",
        B_ROYAL,
        "3c 3h",
        (Seat("p1", "As Ks", 4, "1000", trips="1000"),),
        {
            "p1": hand(
                "win",
                ante="win 1000",
                blind="win 500000",
                play="win 4000",
                trips="win 50000",
            )
        },
        banker="-555000",
    ),
]


@pytest.mark.parametrize("row", ROWS_004, ids=[r.name for r in ROWS_004])
def test_004_live_online(row: Row) -> None:
    check_row("live", row)


def test_004_blind_is_placed_automatically_to_match_the_ante() -> None:
    w = validate_wagers(preset("live"), ante="25")
    assert w == Wagers(D("25.00"), D("25.00"), D(0), D(0))


def test_004_any_number_of_players_share_the_one_player_hand() -> None:
    rules = preset("live")
    board, dealer, hole = parse_cards(B_DRY), parse_cards(DEALER_PAIR_7), parse_cards(PAIR_J)
    hands = [
        HandEntry(f"p{i}", validate_wagers(rules, ante=5 + i), hole, (0, 1, 2, 3, 4)[i % 5])
        for i in range(20)
    ]
    s = settle(rules, board, dealer, hands)
    assert len(s.hands) == 20
    # folded hands first (settled at the fold), then right to left (003)
    folded = [f"p{i}" for i in range(0, 20, 5)]
    shown = [f"p{i}" for i in reversed(range(20)) if i % 5]
    assert [h.id for h in s.hands] == folded + shown
    for h in s.hands:
        i = int(h.id[1:])
        ante = D(5 + i)
        if i % 5 == 0:
            assert h.outcome == "fold"
            assert h.net == -2 * ante
        else:
            # A pair of jacks beats the dealer's sevens: Ante and Play win, Blind pushes.
            assert h.outcome == "win"
            assert h.wager("ante").net == ante
            assert h.wager("blind").result == "push"
            assert h.wager("play").net == ante * (i % 5)
    assert s.banker_net == -sum((h.net for h in s.hands), D(0))


def test_004_players_holding_different_hands_is_an_invalid_deal() -> None:
    rules = preset("live")
    w = validate_wagers(rules, ante=5)
    hands = [
        HandEntry("p1", w, parse_cards(PAIR_J), 1),
        HandEntry("p2", w, parse_cards("Qs 3d"), 1),
    ]
    with pytest.raises(InvalidDealError):
        settle(rules, parse_cards(B_DRY), parse_cards(DEALER_PAIR_7), hands)


# --------------------------------------------------------------------------- validation errors


def _deal(rules_name: str = "casino") -> tuple[tuple[Card, ...], tuple[Card, ...], Wagers]:
    rules = preset(rules_name)
    return parse_cards(B_DRY), parse_cards("Ad Kh"), validate_wagers(rules, ante=10)


def test_duplicate_card_between_hole_and_board_is_an_invalid_card() -> None:
    board, dealer, w = _deal()
    with pytest.raises(InvalidCardError):
        settle(preset("casino"), board, dealer, [HandEntry("s1", w, parse_cards("2c 3h"), 1)])


def test_duplicate_card_between_two_hands_is_an_invalid_card() -> None:
    board, dealer, w = _deal()
    hands = [
        HandEntry("s1", w, parse_cards("Qs 3h"), 1),
        HandEntry("s2", w, parse_cards("3h 5d"), 1),
    ]
    with pytest.raises(InvalidCardError):
        settle(preset("casino"), board, dealer, hands)


def test_duplicate_card_between_dealer_and_hand_is_an_invalid_card() -> None:
    board, dealer, w = _deal()
    with pytest.raises(InvalidCardError):
        settle(preset("casino"), board, dealer, [HandEntry("s1", w, parse_cards("Ad 3h"), 1)])


def test_duplicate_card_within_the_board_is_an_invalid_card() -> None:
    _, dealer, w = _deal()
    board = (*parse_cards("2c 7d 9h Jc"), parse_cards("2c")[0])
    with pytest.raises(InvalidCardError):
        settle(preset("casino"), board, dealer, [HandEntry("s1", w, parse_cards("Qs 3h"), 1)])


@pytest.mark.parametrize("play", [5, -1, 6, 8])
def test_play_multiple_not_allowed_is_an_invalid_wager(play: int) -> None:
    board, dealer, w = _deal()
    with pytest.raises(InvalidWagerError):
        settle(preset("casino"), board, dealer, [HandEntry("s1", w, parse_cards("Qs 3h"), play)])


@pytest.mark.parametrize("play", [0, 1, 2, 3, 4])
def test_play_multiples_allowed(play: int) -> None:
    board, dealer, w = _deal()
    s = settle(preset("casino"), board, dealer, [HandEntry("s1", w, parse_cards("Qs 3h"), play)])
    assert s.hand("s1").wager("play").stake == D(10) * play


@pytest.mark.parametrize("name", ["california", "california-bad-beat"])
def test_player_dealer_without_a_bank_is_an_invalid_wager(name: str) -> None:
    board, dealer, w = _deal(name)
    with pytest.raises(InvalidWagerError):
        settle(preset(name), board, dealer, [HandEntry("s1", w, parse_cards("Qs 3h"), 1)])


@pytest.mark.parametrize("name", ["casino", "live"])
def test_house_preset_refuses_a_bank(name: str) -> None:
    board, dealer, w = _deal(name)
    with pytest.raises(InvalidWagerError):
        settle(
            preset(name), board, dealer, [HandEntry("s1", w, parse_cards("Qs 3h"), 1)], bank=D(100)
        )


@pytest.mark.parametrize("bank", ["99.99", "100000.01", "0", "-100", "100.001"])
def test_bank_outside_its_limits_is_an_invalid_wager(bank: str) -> None:
    board, dealer, w = _deal("california")
    with pytest.raises(InvalidWagerError):
        settle(
            preset("california"),
            board,
            dealer,
            [HandEntry("s1", w, parse_cards("Qs 3h"), 1)],
            bank=D(bank),
        )


@pytest.mark.parametrize("bank", ["100", "100000", 250])
def test_bank_at_its_limits_is_accepted(bank: object) -> None:
    board, dealer, w = _deal("california")
    s = settle(
        preset("california"),
        board,
        dealer,
        [HandEntry("s1", w, parse_cards("Qs 3h"), 1)],
        bank=bank,
    )
    assert s.bank == D(str(bank))
    assert s.banker_kind == "player_dealer"


def test_back_line_bet_on_an_unknown_hand_is_an_invalid_deal() -> None:
    board, dealer, w = _deal("california")
    hands = [
        HandEntry("s1", w, parse_cards("Qs 3h"), 1),
        HandEntry("b1", w, None, 0, behind="nobody"),
    ]
    message = "hands[1].behind: 'nobody' is not the id of an earlier seated hand"
    with pytest.raises(InvalidDealError, match=re.escape(message)):
        settle(preset("california"), board, dealer, hands, bank=D(1000))


def test_back_line_bet_on_a_later_hand_is_an_invalid_deal() -> None:
    board, dealer, w = _deal("california")
    hands = [
        HandEntry("b1", w, None, 0, behind="s1"),
        HandEntry("s1", w, parse_cards("Qs 3h"), 1),
    ]
    with pytest.raises(InvalidDealError):
        settle(preset("california"), board, dealer, hands, bank=D(1000))


def test_back_line_bet_on_a_back_line_bet_is_an_invalid_deal() -> None:
    board, dealer, w = _deal("california")
    hands = [
        HandEntry("s1", w, parse_cards("Qs 3h"), 1),
        HandEntry("b1", w, None, 0, behind="s1"),
        HandEntry("b2", w, None, 0, behind="b1"),
    ]
    with pytest.raises(InvalidDealError):
        settle(preset("california"), board, dealer, hands, bank=D(1000))


@pytest.mark.parametrize("name", ["casino", "live"])
def test_back_line_bet_where_the_rules_have_none_is_an_invalid_deal(name: str) -> None:
    board, dealer, w = _deal(name)
    hands = [
        HandEntry("s1", w, parse_cards("Qs 3h"), 1),
        HandEntry("b1", w, None, 0, behind="s1"),
    ]
    with pytest.raises(InvalidDealError):
        settle(preset(name), board, dealer, hands)


def test_duplicate_hand_id_is_an_invalid_deal() -> None:
    board, dealer, w = _deal()
    hands = [
        HandEntry("s1", w, parse_cards("Qs 3h"), 1),
        HandEntry("s1", w, parse_cards("5s 6d"), 1),
    ]
    with pytest.raises(InvalidDealError):
        settle(preset("casino"), board, dealer, hands)


def _seven_holes() -> list[tuple[Card, ...]]:
    return [parse_cards(t) for t in ("Ac Ah", "Kc Kd", "Qc Qd", "Tc Td", "8c 8d", "6c 6d", "5c 5d")]


@pytest.mark.parametrize("name", ["casino", "california", "california-bad-beat"])
def test_eight_seated_hands_exceed_seven_seats(name: str) -> None:
    board, dealer, w = _deal(name)
    holes = [*_seven_holes(), parse_cards("3c 3d")]
    hands = [HandEntry(f"s{i}", w, h, 1) for i, h in enumerate(holes)]
    bank = None if preset(name).banking == "house" else D(1000)
    with pytest.raises(InvalidDealError):
        settle(preset(name), board, dealer, hands, bank=bank)
    s = settle(preset(name), board, dealer, hands[:7], bank=bank)
    assert len(s.hands) == 7


def test_back_line_bets_do_not_take_seats() -> None:
    board, dealer, w = _deal("california")
    hands = [HandEntry(f"s{i}", w, h, 1) for i, h in enumerate(_seven_holes())]
    hands.append(HandEntry("b0", w, None, 0, behind="s0"))
    s = settle(preset("california"), board, dealer, hands, bank=D(100000))
    assert len(s.hands) == 8


# --------------------------------------------------------------------------- validate_wagers


@pytest.mark.parametrize(
    ("name", "kwargs"),
    [
        ("casino", {"ante": 10, "blind": 20}),
        ("casino", {"ante": 10, "blind": 5}),
        ("casino", {"ante": "4.99"}),
        ("casino", {"ante": 1001}),
        ("casino", {"ante": "1000.01"}),
        ("casino", {"ante": 0}),
        ("casino", {"ante": 10, "trips": 4}),
        ("casino", {"ante": 10, "trips": 1001}),
        ("california-bad-beat", {"ante": 10, "trips": "10.01"}),
        ("california-bad-beat", {"ante": 10, "bad_beat": 20}),
        ("california-bad-beat", {"ante": 10, "bad_beat": 4}),
        ("casino", {"ante": 10, "bad_beat": 5}),
        ("california", {"ante": 10, "bad_beat": 5}),
        ("live", {"ante": 10, "bad_beat": 5}),
        ("casino", {"ante": "5.001"}),
        ("casino", {"ante": 10, "trips": "5.001"}),
        ("casino", {"ante": -5}),
        ("casino", {"ante": 10, "trips": -5}),
        ("casino", {"ante": "ten"}),
        ("casino", {"ante": True}),
    ],
    ids=[
        "blind_above_ante",
        "blind_below_ante",
        "ante_below_min",
        "ante_above_max",
        "ante_above_max_by_a_cent",
        "ante_zero",
        "trips_below_min",
        "trips_above_max",
        "002_trips_above_ante",
        "002_bad_beat_above_ante",
        "002_bad_beat_below_min",
        "001_bad_beat_not_offered",
        "000_bad_beat_not_offered",
        "004_bad_beat_not_offered",
        "fractional_cent_ante",
        "fractional_cent_trips",
        "negative_ante",
        "negative_trips",
        "not_a_number",
        "bool",
    ],
)
def test_validate_wagers_rejects(name: str, kwargs: dict[str, object]) -> None:
    with pytest.raises(InvalidWagerError):
        validate_wagers(preset(name), **kwargs)  # type: ignore[arg-type]


def test_validate_wagers_error_names_the_field() -> None:
    with pytest.raises(InvalidWagerError) as info:
        validate_wagers(preset("california-bad-beat"), ante=10, trips=20)
    assert info.value.field == "wagers.trips"
    assert "20" in str(info.value)


@pytest.mark.parametrize(
    ("name", "kwargs", "expected"),
    [
        ("casino", {"ante": 5}, Wagers(D(5), D(5))),
        ("casino", {"ante": "1000", "blind": 1000}, Wagers(D(1000), D(1000))),
        ("casino", {"ante": 10, "trips": 50}, Wagers(D(10), D(10), D(50))),
        ("california", {"ante": 10, "trips": 1000}, Wagers(D(10), D(10), D(1000))),
        ("california-bad-beat", {"ante": 10, "trips": 10, "bad_beat": 10}, Wagers(*[D(10)] * 4)),
        (
            "california-bad-beat",
            {"ante": 10, "trips": 0, "bad_beat": 5},
            Wagers(*map(D, ["10", "10", "0", "5"])),
        ),
        ("live", {"ante": "12.34"}, Wagers(D("12.34"), D("12.34"))),
        ("casino", {"ante": D("7.50"), "trips": 0}, Wagers(D("7.50"), D("7.50"))),
    ],
)
def test_validate_wagers_accepts(name: str, kwargs: dict[str, object], expected: Wagers) -> None:
    w = validate_wagers(preset(name), **kwargs)  # type: ignore[arg-type]
    assert w == expected
    assert all(v.as_tuple().exponent == -2 for v in (w.ante, w.blind, w.trips, w.bad_beat))
