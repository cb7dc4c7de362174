"""Tests for uth.evaluator: categories, tie-breaks, best five, and exhaustive counts.

The exhaustive test enumerates all 2,598,960 five-card hands (about 20 s in plain
Python). An independent textbook evaluator (``ref_key`` below) is the reference for
the sampled and seven-card checks; the golden digest in the exhaustive test was
computed with it as well, and matched ``hand_value``.
"""

from __future__ import annotations

import hashlib
import itertools
import random
import sys
from array import array
from collections import Counter
from collections.abc import Sequence

import pytest

from uth.cards import ALL_CARDS, Card, format_cards, parse_card, parse_cards
from uth.errors import InvalidCardError
from uth.evaluator import (
    CATEGORY_KEYS,
    CATEGORY_SHIFT,
    Category,
    HandValue,
    category_of,
    evaluate,
    hand_value,
)

C = Category


def ev(text: str) -> HandValue:
    return evaluate(parse_cards(text))


def best(text: str) -> str:
    return format_cards(ev(text).best_five)


def packed(category: Category, *ranks: int) -> int:
    """The documented value layout: category, then five 4-bit fields (rank - 2)."""
    value = int(category)
    for i in range(5):
        value = (value << 4) | (ranks[i] - 2 if i < len(ranks) else 0)
    return value


def ref_key(indices: Sequence[int]) -> tuple[int, tuple[int, ...]]:
    """Independent textbook evaluator of exactly five cards: (category, tie-break ranks)."""
    ranks = sorted((c >> 2 for c in indices), reverse=True)
    flush = len({c & 3 for c in indices}) == 1
    counts = Counter(ranks)
    groups = sorted(counts.items(), key=lambda rc: (rc[1], rc[0]), reverse=True)
    shape = tuple(n for _, n in groups)
    ordered = tuple(r for r, _ in groups)
    top = None
    if len(counts) == 5:
        if ranks[0] - ranks[4] == 4:
            top = ranks[0]
        elif ranks == [12, 3, 2, 1, 0]:
            top = 3
    if top is not None and flush:
        return (9 if top == 12 else 8, (top,))
    if shape == (4, 1):
        return (7, ordered)
    if shape == (3, 2):
        return (6, ordered)
    if flush:
        return (5, tuple(ranks))
    if top is not None:
        return (4, (top,))
    if shape == (3, 1, 1):
        return (3, ordered)
    if shape == (2, 2, 1):
        return (2, ordered)
    if shape == (2, 1, 1, 1):
        return (1, ordered)
    return (0, tuple(ranks))


def ref_best(indices: Sequence[int]) -> tuple[int, tuple[int, ...]]:
    return max(ref_key(five) for five in itertools.combinations(indices, 5))


# --------------------------------------------------------------------------- categories


@pytest.mark.parametrize(
    ("text", "category", "best_five"),
    [
        ("Ts Js Qs Ks As", C.ROYAL_FLUSH, "As Ks Qs Js Ts"),
        ("9h Kh Qh Jh Th", C.STRAIGHT_FLUSH, "Kh Qh Jh Th 9h"),
        ("Ac 2c 3c 4c 5c", C.STRAIGHT_FLUSH, "5c 4c 3c 2c Ac"),
        ("7d 7c 7s 7h Kc", C.FOUR_OF_A_KIND, "7s 7h 7d 7c Kc"),
        ("4c 9d 4h 9s 4s", C.FULL_HOUSE, "4s 4h 4c 9s 9d"),
        ("2d 9d Jd 5d Kd", C.FLUSH, "Kd Jd 9d 5d 2d"),
        ("6c 8d 7h 5s 9c", C.STRAIGHT, "9c 8d 7h 6c 5s"),
        ("3d Ah 5c 2s 4h", C.STRAIGHT, "5c 4h 3d 2s Ah"),
        ("Qd Qs 3c Qh 8c", C.THREE_OF_A_KIND, "Qs Qh Qd 8c 3c"),
        ("5c Jd 5h 2s Jc", C.TWO_PAIR, "Jd Jc 5h 5c 2s"),
        ("8h 3c Td 8c Ks", C.PAIR, "8h 8c Ks Td 3c"),
        ("8h 3c Td 2c Ks", C.HIGH_CARD, "Ks Td 8h 3c 2c"),
        # No wrap-around straight: K-A-2-3-4 is ace high.
        ("Kc Ad 2h 3s 4c", C.HIGH_CARD, "Ad Kc 4c 3s 2h"),
        ("Qc Kd Ah 2s 3c", C.HIGH_CARD, "Ah Kd Qc 3c 2s"),
        # Four to a straight flush plus an off-suit card: a straight.
        ("Ah Kh Qh Jh Td", C.STRAIGHT, "Ah Kh Qh Jh Td"),
    ],
)
def test_five_card_categories(text: str, category: Category, best_five: str) -> None:
    hand = ev(text)
    assert hand.category is category
    assert format_cards(hand.best_five) == best_five
    assert category_of(hand.value) is category
    assert hand_value([c.index for c in parse_cards(text)]) == hand.value


def test_exact_values_follow_the_documented_layout() -> None:
    assert CATEGORY_SHIFT == 20
    assert ev("Ts Js Qs Ks As").value == packed(C.ROYAL_FLUSH, 14) == 0x9C0000
    assert ev("Ac 2c 3c 4c 5c").value == packed(C.STRAIGHT_FLUSH, 5) == 0x830000
    assert ev("7d 7c 7s 7h Kc").value == packed(C.FOUR_OF_A_KIND, 7, 13) == 0x75B000
    assert ev("4c 9d 4h 9s 4s").value == packed(C.FULL_HOUSE, 4, 9) == 0x627000
    assert ev("2d 9d Jd 5d Kd").value == packed(C.FLUSH, 13, 11, 9, 5, 2) == 0x5B9730
    assert ev("3d Ah 5c 2s 4h").value == packed(C.STRAIGHT, 5) == 0x430000
    assert ev("Qd Qs 3c Qh 8c").value == packed(C.THREE_OF_A_KIND, 12, 8, 3) == 0x3A6100
    assert ev("5c Jd 5h 2s Jc").value == packed(C.TWO_PAIR, 11, 5, 2) == 0x293000
    assert ev("8h 3c Td 8c Ks").value == packed(C.PAIR, 8, 13, 10, 3) == 0x16B810
    assert ev("8h 3c Td 2c Ks").value == packed(C.HIGH_CARD, 13, 10, 8, 3, 2) == 0x0B8610
    # The weakest and strongest hands of all.
    assert ev("7c 5d 4h 3s 2c").value == packed(C.HIGH_CARD, 7, 5, 4, 3, 2) == 0x053210


def test_category_boundaries_strictly_increase() -> None:
    ladder = [
        ("7c 5d 4h 3s 2c", C.HIGH_CARD),  # the lowest hand
        ("Ac Kd Qh Js 9c", C.HIGH_CARD),  # the highest high card
        ("2c 2d 3h 4s 5c", C.PAIR),  # the lowest pair
        ("Ac Ad Kh Qs Jc", C.PAIR),
        ("2c 2d 3h 3s 4c", C.TWO_PAIR),
        ("Ac Ad Kh Ks Qc", C.TWO_PAIR),
        ("2c 2d 2h 3s 4c", C.THREE_OF_A_KIND),
        ("Ac Ad Ah Ks Qc", C.THREE_OF_A_KIND),
        ("Ac 2d 3h 4s 5c", C.STRAIGHT),  # wheel: the lowest straight
        ("2c 3d 4h 5s 6c", C.STRAIGHT),  # six high
        ("Tc Jd Qh Ks Ac", C.STRAIGHT),  # broadway
        ("2c 3c 4c 5c 7c", C.FLUSH),  # the lowest flush
        ("Ac Kc Qc Jc 9c", C.FLUSH),
        ("2c 2d 2h 3s 3c", C.FULL_HOUSE),
        ("Ac Ad Ah Ks Kc", C.FULL_HOUSE),
        ("2c 2d 2h 2s 3c", C.FOUR_OF_A_KIND),
        ("Ac Ad Ah As Kc", C.FOUR_OF_A_KIND),
        ("Ac 2c 3c 4c 5c", C.STRAIGHT_FLUSH),  # steel wheel: the lowest straight flush
        ("2c 3c 4c 5c 6c", C.STRAIGHT_FLUSH),
        ("9c Tc Jc Qc Kc", C.STRAIGHT_FLUSH),
        ("Tc Jc Qc Kc Ac", C.ROYAL_FLUSH),
    ]
    hands = [(ev(text), category) for text, category in ladder]
    for hand, category in hands:
        assert hand.category is category
    values = [hand.value for hand, _ in hands]
    assert values == sorted(values)
    assert len(set(values)) == len(values)
    for (low, _), (high, _) in itertools.pairwise(hands):
        assert low < high
        assert high > low
        assert low <= high
        assert high >= low
        assert not high < low


def test_category_enum() -> None:
    assert [int(c) for c in Category] == list(range(10))
    assert Category.HIGH_CARD < Category.PAIR < Category.STRAIGHT_FLUSH < Category.ROYAL_FLUSH
    assert Category.FULL_HOUSE.key == "full_house"
    assert Category.FULL_HOUSE.label == "full house"
    assert Category.ROYAL_FLUSH.label == "royal flush"
    assert Category.from_key("three_of_a_kind") is Category.THREE_OF_A_KIND
    assert Category.from_key("Flush") is Category.FLUSH
    for c in Category:
        assert Category.from_key(c.key) is c
    with pytest.raises(KeyError):
        Category.from_key("royal")
    # CategoryKey (the models' one list of keys) is the categories' keys, high to low.
    assert tuple(c.key for c in sorted(Category, reverse=True)) == CATEGORY_KEYS
    assert CATEGORY_KEYS[0] == "royal_flush" and CATEGORY_KEYS[-1] == "high_card"
    assert category_of(0) is Category.HIGH_CARD
    assert category_of(9 << 20) is Category.ROYAL_FLUSH


# --------------------------------------------------------------------------- straights


def test_wheel_below_six_high_and_above_trips() -> None:
    wheel = ev("Ad 2c 3h 4s 5d")
    six = ev("2d 3c 4h 5s 6d")
    trips = ev("Ad Ac Ah Ks Qd")
    assert wheel.category is C.STRAIGHT
    assert trips < wheel < six
    assert format_cards(wheel.best_five) == "5d 4s 3h 2c Ad"


def test_ace_to_six_plays_six_high() -> None:
    hand = ev("Ad 2c 3h 4s 5d 6c Kh")
    assert hand.category is C.STRAIGHT
    assert hand.value == packed(C.STRAIGHT, 6)
    assert format_cards(hand.best_five) == "6c 5d 4s 3h 2c"


def test_wheel_on_seven_cards() -> None:
    hand = ev("Ad 2c 3h 4s 5d Kc Qc")
    assert hand.value == packed(C.STRAIGHT, 5)
    assert format_cards(hand.best_five) == "5d 4s 3h 2c Ad"


def test_longest_run_plays_its_top() -> None:
    hand = ev("4c 5d 6h 7s 8d 9c Tc")
    assert hand.value == packed(C.STRAIGHT, 10)
    assert format_cards(hand.best_five) == "Tc 9c 8d 7s 6h"


def test_straight_picks_highest_suit_of_a_doubled_rank() -> None:
    assert best("5c 6d 7h 8s 9c 9d") == "9d 8s 7h 6d 5c"


def test_straights_compare_by_top_card_only() -> None:
    assert ev("9c Td Jh Qs Kc") < ev("Tc Jd Qh Ks Ad")
    assert ev("9c Td Jh Qs Kc").value == ev("9d Th Js Qc Kd").value
    # Six cards, two straights: the higher counts.
    assert ev("8c 9d Th Js Qc Kd").value == packed(C.STRAIGHT, 13)


def test_steel_wheel_is_lowest_straight_flush() -> None:
    steel = ev("As 2s 3s 4s 5s")
    assert steel.category is C.STRAIGHT_FLUSH
    assert steel.value == packed(C.STRAIGHT_FLUSH, 5)
    assert format_cards(steel.best_five) == "5s 4s 3s 2s As"
    assert ev("Ac Ad Ah As Kc") < steel < ev("2s 3s 4s 5s 6s")
    # With a six of another suit: still the straight flush, not the six-high straight.
    hand = ev("As 2s 3s 4s 5s 6d 9c")
    assert hand.value == packed(C.STRAIGHT_FLUSH, 5)
    assert format_cards(hand.best_five) == "5s 4s 3s 2s As"
    # Six suited cards A-6: the six-high straight flush.
    six = ev("As 2s 3s 4s 5s 6s Kd")
    assert six.value == packed(C.STRAIGHT_FLUSH, 6)
    assert format_cards(six.best_five) == "6s 5s 4s 3s 2s"


def test_royal_flush_is_its_own_category_above_king_high() -> None:
    royal = ev("Ah Kh Qh Jh Th 9h 8h")  # seven hearts: royal over the K- and Q-high SFs
    assert royal.category is C.ROYAL_FLUSH
    assert format_cards(royal.best_five) == "Ah Kh Qh Jh Th"
    king = ev("Kh Qh Jh Th 9h")
    assert king.category is C.STRAIGHT_FLUSH
    assert king < royal
    assert ev("As Ks Qs Js Ts").value == ev("Ad Kd Qd Jd Td").value == packed(C.ROYAL_FLUSH, 14)


# --------------------------------------------------------------------------- flushes


def test_flush_beats_straight_on_seven() -> None:
    hand = ev("5h 6h 7d 8h 9c Th 2h")  # straights 5-9 and 6-T, hearts T 8 6 5 2
    assert hand.category is C.FLUSH
    assert hand.value == packed(C.FLUSH, 10, 8, 6, 5, 2)
    assert format_cards(hand.best_five) == "Th 8h 6h 5h 2h"


def test_six_card_flush_takes_top_five() -> None:
    hand = ev("Ah Kh 9h 7h 4h 2h Qc")
    assert hand.category is C.FLUSH
    assert hand.value == packed(C.FLUSH, 14, 13, 9, 7, 4)
    assert format_cards(hand.best_five) == "Ah Kh 9h 7h 4h"
    seven = ev("Ah Kh 9h 7h 4h 3h 2h")
    assert seven.value == packed(C.FLUSH, 14, 13, 9, 7, 4)
    assert format_cards(seven.best_five) == "Ah Kh 9h 7h 4h"


def test_flush_over_pairs_and_trips_on_seven() -> None:
    hand = ev("Ks 9s 6s 4s 2s Kd Kc")  # trip kings, but a flush
    assert hand.category is C.FLUSH
    assert format_cards(hand.best_five) == "Ks 9s 6s 4s 2s"


def test_six_suited_with_straight_flush_inside() -> None:
    # Spades 4-8 plus the ace of spades; a 9-high off-suit straight too.
    hand = ev("4s 5s 6s 7s 8s As 9h")
    assert hand.category is C.STRAIGHT_FLUSH
    assert hand.value == packed(C.STRAIGHT_FLUSH, 8)
    assert format_cards(hand.best_five) == "8s 7s 6s 5s 4s"
    # Seven spades: the straight flush 9-5, not the top-five flush K Q 9 8 7.
    hand = ev("Ks Qs 9s 8s 7s 6s 5s")
    assert hand.value == packed(C.STRAIGHT_FLUSH, 9)
    assert format_cards(hand.best_five) == "9s 8s 7s 6s 5s"
    # A straight flush beats a higher off-suit straight.
    hand = ev("5s 6s 7s 8s 9s Td Jc")
    assert hand.value == packed(C.STRAIGHT_FLUSH, 9)


def test_flushes_compare_card_by_card() -> None:
    assert ev("Ah Kh Qh Jh 9h") > ev("As Ks Qs Js 8s")
    assert ev("Ah Jh 9h 6h 4h") > ev("Ad Jd 9d 6d 3d")
    assert ev("Ah Jh 9h 6h 4h") < ev("Ad Qd 3d 4d 2d")
    assert ev("Ah Jh 9h 6h 4h").value == ev("Ac Jc 9c 6c 4c").value


# --------------------------------------------------------------------------- rank groups


def test_quads_kicker_is_highest_remaining() -> None:
    board = "9c 9d 9h 9s 2c"
    with_king = ev(f"{board} Kd 3c")
    assert with_king.value == packed(C.FOUR_OF_A_KIND, 9, 13)
    assert format_cards(with_king.best_five) == "9s 9h 9d 9c Kd"
    with_queen = ev(f"{board} Qd Jc")
    assert with_queen.value == packed(C.FOUR_OF_A_KIND, 9, 12)
    assert with_queen < with_king
    # The board's kicker plays: both tie.
    low = ev(f"{board} 2d 2h")
    assert low.value == packed(C.FOUR_OF_A_KIND, 9, 2)
    assert ev("9c 9d 9h 9s Ac 3d 4h").value == ev("9c 9d 9h 9s Ac 5d 6h").value
    # Quads with trips or a pair on seven: the kicker is the highest other rank.
    assert ev("Ac Ad Ah As Kc Kd Kh").value == packed(C.FOUR_OF_A_KIND, 14, 13)
    assert ev("7c 7d 7h 7s 8c 8d Qh").value == packed(C.FOUR_OF_A_KIND, 7, 12)
    assert best("7c 7d 7h 7s 8c 8d Qh") == "7s 7h 7d 7c Qh"
    # Quads rank first.
    assert ev("3c 3d 3h 3s 2c") > ev("2c 2d 2h 2s Ac")


def test_full_house_compares_trips_first() -> None:
    assert ev("3c 3d 3h Ac Ad") < ev("4c 4d 4h 2c 2d")
    board = "Kc Kd Kh 7s 2c"
    assert ev(f"{board} 7d 3c").value == packed(C.FULL_HOUSE, 13, 7)
    assert ev(f"{board} 2d 3c").value == packed(C.FULL_HOUSE, 13, 2)
    assert ev(f"{board} 7d 3c") > ev(f"{board} 2d 3c")


def test_two_sets_make_full_house_with_higher_set() -> None:
    hand = ev("Kc Kd Kh Ac Ad Ah 2c")
    assert hand.value == packed(C.FULL_HOUSE, 14, 13)
    assert format_cards(hand.best_five) == "Ah Ad Ac Kh Kd"
    hand = ev("9c 9d 9h 4c 4d 4h Kc")
    assert hand.value == packed(C.FULL_HOUSE, 9, 4)
    assert format_cards(hand.best_five) == "9h 9d 9c 4h 4d"
    assert hand < ev("9c 9d 9h Kc Kd 2c 3c")
    # Six cards, two sets.
    hand = ev("9c 9d 9h 4c 4d 4h")
    assert hand.value == packed(C.FULL_HOUSE, 9, 4)


def test_set_and_two_pairs_uses_highest_pair() -> None:
    hand = ev("5c 5d 5h Qc Qd 8h 8s")
    assert hand.value == packed(C.FULL_HOUSE, 5, 12)
    assert format_cards(hand.best_five) == "5h 5d 5c Qd Qc"


def test_three_of_a_kind_kickers() -> None:
    hand = ev("8c 8d 8h Ac Kd 3c 2s")
    assert hand.value == packed(C.THREE_OF_A_KIND, 8, 14, 13)
    assert format_cards(hand.best_five) == "8h 8d 8c Ac Kd"
    assert ev("8c 8d 8h Ac Qd") < ev("8c 8d 8h Ac Kd")
    assert ev("8c 8d 8h Ac Kd 3c").value == ev("8s 8d 8h Ah Kh 4c").value
    assert ev("8c 8d 8h Ac 3d") < ev("9c 9d 9h 3c 2d")


def test_three_pairs_on_seven_cards() -> None:
    # The kicker is the best of the third pair and the single.
    hand = ev("Ac Ad Kc Kd 7h 7s 2c")
    assert hand.value == packed(C.TWO_PAIR, 14, 13, 7)
    assert format_cards(hand.best_five) == "Ad Ac Kd Kc 7s"
    hand = ev("Ac Ad Kc Kd 7h 7s Qc")
    assert hand.value == packed(C.TWO_PAIR, 14, 13, 12)
    assert format_cards(hand.best_five) == "Ad Ac Kd Kc Qc"
    hand = ev("Ac Ad 7c 7d 5h 5s 2c")
    assert hand.value == packed(C.TWO_PAIR, 14, 7, 5)
    assert format_cards(hand.best_five) == "Ad Ac 7d 7c 5s"
    # Six cards, three pairs.
    assert ev("4c 4d 3c 3d 2h 2s").value == packed(C.TWO_PAIR, 4, 3, 2)


def test_two_pair_order_and_kicker() -> None:
    assert ev("Ac Ad Kc Kd Qh") > ev("As Ah Ks Kh Jc")
    assert ev("Ac Ad 2c 2d 3h") > ev("Kc Kd Qc Qd Jh")  # high pair first
    assert ev("Ac Ad Qc Qd 2h") > ev("As Ah Jc Jd Kh")  # then the low pair
    assert ev("Ac Ad Qc Qd 2h").value == ev("As Ah Qs Qh 2d").value
    assert best("5c Jd 5h 2s Jc Th") == "Jd Jc 5h 5c Th"


def test_pair_kickers() -> None:
    assert ev("Ac Ad Kh 9s 3c") > ev("As Ah Kd 9c 2d")
    assert ev("Ac Ad Kh 9s 3c") > ev("As Ah Qd Jc Td")
    assert ev("Ac Ad Kh 9s 3c") < ev("As Ah Kd Tc 2d")
    assert ev("3c 3d Ah Ks Qc") < ev("4c 4d 5h 3s 2c")  # pair rank first
    hand = ev("Jc Jd 2h 5s 9c Kd 3h")
    assert hand.value == packed(C.PAIR, 11, 13, 9, 5)
    assert format_cards(hand.best_five) == "Jd Jc Kd 9c 5s"


def test_high_card_card_by_card() -> None:
    assert ev("Ac Kd Qh Js 9c") > ev("As Kh Qd Js 8c")
    assert ev("Ah Kd Qh 9s 7c") > ev("Ac Kh Qd 9c 6d")
    assert ev("Ah Kd Qh 9s 7c") < ev("Ac Kh Qd Tc 2d")
    assert ev("Ah Kd Qh 9s 7c").value == ev("Ac Kh Qd 9c 7d").value
    hand = ev("Ah Kd 2h 9s 7c 4d 3h")
    assert hand.value == packed(C.HIGH_CARD, 14, 13, 9, 7, 4)
    assert format_cards(hand.best_five) == "Ah Kd 9s 7c 4d"


def test_suits_never_break_a_tie() -> None:
    pairs = [
        ("As Ks Qd Jd 9c", "Ah Kh Qc Jc 9d"),
        ("Ac Ad Kh Qs Jc", "Ah As Kd Qc Jd"),
        ("Ts Js Qs Ks As", "Tc Jc Qc Kc Ac"),
        ("2h 3h 4h 5h 7h", "2d 3d 4d 5d 7d"),
        ("Ac Ad Ah Ks Kc", "As Ad Ah Kh Kd"),
    ]
    for a, b in pairs:
        assert ev(a).value == ev(b).value
        assert ev(a) <= ev(b)
        assert ev(a) >= ev(b)
        assert not ev(a) < ev(b)
        assert not ev(a) > ev(b)


def test_playing_the_board() -> None:
    board = "Ac Kc Qd Jh Ts"
    p1 = ev(f"2c 3d {board}")
    p2 = ev(f"4h 5s {board}")
    assert p1.value == p2.value == packed(C.STRAIGHT, 14)
    assert format_cards(p1.best_five) == format_cards(p2.best_five) == "Ac Kc Qd Jh Ts"
    # A full house on the board plays for both; a lower pair in hand does not help.
    board = "9c 9d 9h 5s 5c"
    assert ev(f"2c 3d {board}").value == ev(f"4h 8s {board}").value == packed(C.FULL_HOUSE, 9, 5)
    assert ev(f"2c 2d {board}").value == packed(C.FULL_HOUSE, 9, 5)
    assert ev(f"Ac Ad {board}").value == packed(C.FULL_HOUSE, 9, 14)
    # Two pair on the board with its kicker: a lower card in hand does not play.
    board = "Ah Ad Kh Kd Qs"
    assert ev(f"2c 3c {board}").value == ev(f"Jc Jd {board}").value
    assert ev(f"Qc 2d {board}").value == ev(f"2c 3c {board}").value
    assert ev(f"Qc 2d {board}").value == packed(C.TWO_PAIR, 14, 13, 12)
    assert ev(f"Kc 2d {board}").value == packed(C.FULL_HOUSE, 13, 14)


# --------------------------------------------------------------------------- card counts


def test_six_card_evaluation() -> None:
    hand = ev("2c 2d 7h 9s Jc Kd")
    assert hand.value == packed(C.PAIR, 2, 13, 11, 9)
    assert format_cards(hand.best_five) == "2d 2c Kd Jc 9s"
    assert ev("2c 3c 4c 5c 6c 7c").value == packed(C.STRAIGHT_FLUSH, 7)
    assert ev("Ac Ad Ah As 2c 3d").value == packed(C.FOUR_OF_A_KIND, 14, 3)


def test_best_five_is_a_subset_and_re_evaluates_the_same() -> None:
    for text in ["Ah Kh 9h 7h 4h 2h Qc", "Kc Kd Kh Ac Ad Ah 2c", "Ad 2c 3h 4s 5d Kc Qc"]:
        cards = parse_cards(text)
        hand = evaluate(cards)
        assert len(hand.best_five) == 5
        assert len(set(hand.best_five)) == 5
        assert set(hand.best_five) <= set(cards)
        assert evaluate(hand.best_five).value == hand.value


def test_evaluate_accepts_any_sequence() -> None:
    cards = parse_cards("Ah Kh Qh Jh Th")
    assert evaluate(list(cards)).value == evaluate(cards).value
    assert isinstance(evaluate(list(cards)).best_five, tuple)


@pytest.mark.parametrize("n", [0, 1, 4, 8, 9])
def test_wrong_number_of_cards(n: int) -> None:
    with pytest.raises(InvalidCardError) as info:
        evaluate(ALL_CARDS[:n])
    assert info.value.field == "cards"
    assert str(info.value) == f"cards: a hand needs 5 to 7 cards, got {n}"


@pytest.mark.parametrize("text", ["As Kd Qh Jc As", "As Kd Qh Jc Tc 9c Kd"])
def test_duplicate_cards(text: str) -> None:
    items = [parse_card(t) for t in text.split()]
    with pytest.raises(InvalidCardError) as info:
        evaluate(items)
    assert info.value.field == "cards"
    assert str(info.value).startswith("cards: duplicate card ")


def test_hand_value_is_frozen() -> None:
    hand = ev("Ah Kh Qh Jh Th")
    with pytest.raises(AttributeError):
        hand.value = 0  # type: ignore[misc]


# --------------------------------------------------------------------------- references


def test_random_five_card_hands_order_like_the_reference() -> None:
    rng = random.Random(20240501)
    hands = [tuple(rng.sample(range(52), 5)) for _ in range(20_000)]
    scored = sorted((hand_value(h), ref_key(h)) for h in hands)
    for (v1, k1), (v2, k2) in itertools.pairwise(scored):
        assert (v1 < v2) == (k1 < k2), (v1, k1, v2, k2)
        assert (v1 == v2) == (k1 == k2), (v1, k1, v2, k2)
    for v, k in scored:
        assert v >> CATEGORY_SHIFT == k[0]


def _seven_card_samples() -> list[tuple[int, ...]]:
    rng = random.Random(777)
    samples: list[tuple[int, ...]] = []
    # Plain random seven-card hands.
    samples += [tuple(rng.sample(range(52), 7)) for _ in range(2000)]
    # Flush-heavy: 5 to 7 cards of one suit.
    for _ in range(1500):
        suit = rng.randrange(4)
        k = rng.choice([5, 6, 7])
        suited = [r * 4 + suit for r in rng.sample(range(13), k)]
        others = [c for c in range(52) if c not in suited]
        samples.append(tuple(suited + rng.sample(others, 7 - k)))
    # Straight-heavy: ranks from a narrow window (wheel windows included).
    for _ in range(1500):
        low = rng.randrange(-1, 9)
        window = [(r % 13) for r in range(low, low + 6)]  # -1 -> the ace
        pool = [r * 4 + s for r in window for s in range(4)]
        samples.append(tuple(rng.sample(pool, 7)))
    # Group-heavy: few ranks (quads, full houses, two sets, three pairs).
    for _ in range(1500):
        ranks = rng.sample(range(13), 3)
        pool = [r * 4 + s for r in ranks for s in range(4)]
        extra = rng.sample([c for c in range(52) if c not in pool], 2)
        samples.append(tuple(rng.sample(pool + extra, 7)))
    return samples


def test_seven_cards_equal_best_of_21_subsets() -> None:
    samples = _seven_card_samples()
    assert len(samples) == 6500
    categories: Counter[Category] = Counter()
    for indices in samples:
        assert len(set(indices)) == 7
        cards = [Card.from_index(i) for i in indices]
        hand = evaluate(cards)
        brute = max(hand_value(five) for five in itertools.combinations(indices, 5))
        assert hand.value == brute, format_cards(cards)
        assert hand_value(indices) == brute
        assert set(hand.best_five) <= set(cards)
        assert len(set(hand.best_five)) == 5
        assert evaluate(hand.best_five).value == hand.value
        # Independent reference: the best five-card key and the chosen five's key.
        best_key = ref_best(indices)
        assert ref_key([c.index for c in hand.best_five]) == best_key, format_cards(cards)
        assert int(hand.category) == best_key[0]
        categories[hand.category] += 1
    # The samples reach every category.
    assert set(categories) == set(Category)


def test_six_cards_equal_best_of_6_subsets() -> None:
    rng = random.Random(66)
    for _ in range(2000):
        indices = tuple(rng.sample(range(52), 6))
        hand = evaluate([Card.from_index(i) for i in indices])
        assert hand.value == max(hand_value(f) for f in itertools.combinations(indices, 5))
        assert ref_key([c.index for c in hand.best_five]) == ref_best(indices)


# --------------------------------------------------------------------------- exhaustive

EXPECTED_COUNTS = {
    C.ROYAL_FLUSH: 4,
    C.STRAIGHT_FLUSH: 36,
    C.FOUR_OF_A_KIND: 624,
    C.FULL_HOUSE: 3_744,
    C.FLUSH: 5_108,
    C.STRAIGHT: 10_200,
    C.THREE_OF_A_KIND: 54_912,
    C.TWO_PAIR: 123_552,
    C.PAIR: 1_098_240,
    C.HIGH_CARD: 1_302_540,
}
EXPECTED_DISTINCT = {
    C.ROYAL_FLUSH: 1,
    C.STRAIGHT_FLUSH: 9,
    C.FOUR_OF_A_KIND: 156,
    C.FULL_HOUSE: 156,
    C.FLUSH: 1_277,
    C.STRAIGHT: 10,
    C.THREE_OF_A_KIND: 858,
    C.TWO_PAIR: 858,
    C.PAIR: 2_860,
    C.HIGH_CARD: 1_277,
}
#: sha256 of the rank position (0..7461, uint16 little-endian) of every five-card hand
#: in itertools.combinations(range(52), 5) order. Computed with ``ref_key`` (an
#: independent evaluator) and with ``hand_value``: both gave this digest. It pins the
#: complete order of all 2,598,960 hands, whatever the integer encoding.
GOLDEN_RANK_DIGEST = "915368d8101d00b07f992aa5df74de3677e75b25e89d7e8d087e24e1fad77ef2"


def test_all_five_card_hands() -> None:
    values = array("q", map(hand_value, itertools.combinations(range(52), 5)))
    assert len(values) == 2_598_960

    per_value = Counter(values)
    counts: Counter[Category] = Counter()
    distinct: Counter[Category] = Counter()
    for value, n in per_value.items():
        counts[category_of(value)] += n
        distinct[category_of(value)] += 1
    assert dict(counts) == EXPECTED_COUNTS
    assert dict(distinct) == EXPECTED_DISTINCT
    assert sum(counts.values()) == 2_598_960
    assert len(per_value) == 7_462

    # Each category's values form one block, below every value of the next category.
    ordered = sorted(per_value)
    cats = [category_of(v) for v in ordered]
    assert cats == sorted(cats)
    for low, high in itertools.pairwise(Category):
        assert max(v for v in ordered if category_of(v) is low) < min(
            v for v in ordered if category_of(v) is high
        )

    # Every hand's rank position, as a digest.
    position = {v: i for i, v in enumerate(ordered)}
    ranks = array("H", (position[v] for v in values))
    if sys.byteorder != "little":
        ranks.byteswap()
    assert hashlib.sha256(ranks.tobytes()).hexdigest() == GOLDEN_RANK_DIGEST

    # Spot checks of known rank positions: the lowest, the wheel, the royal flush.
    assert position[hand_value([c.index for c in parse_cards("7c 5d 4h 3s 2c")])] == 0
    assert position[hand_value([c.index for c in parse_cards("Ac 2d 3h 4s 5c")])] == (
        sum(EXPECTED_DISTINCT[c] for c in Category if c < C.STRAIGHT)
    )
    assert position[hand_value([c.index for c in parse_cards("Ts Js Qs Ks As")])] == 7_461
