"""Plain-Python hand evaluator (the reference implementation)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import IntEnum
from typing import Literal, cast, get_args

from uth.cards.card import Card, check_distinct
from uth.errors import InvalidCardError

#: The category sits above five 4-bit rank fields in a hand value.
CATEGORY_SHIFT = 20

#: A category's key as JSON and TOML write it (:attr:`Category.key`), high to low;
#: the one list for message and output models (a test checks it against
#: :class:`Category`).
CategoryKey = Literal[
    "royal_flush",
    "straight_flush",
    "four_of_a_kind",
    "full_house",
    "flush",
    "straight",
    "three_of_a_kind",
    "two_pair",
    "pair",
    "high_card",
]

#: The keys of :data:`CategoryKey` as a tuple, high to low.
CATEGORY_KEYS: tuple[CategoryKey, ...] = get_args(CategoryKey)


class Category(IntEnum):
    """Hand categories, low to high (RULES.md, "Cards and hands").

    ``ROYAL_FLUSH`` is the ace-high straight flush; it is a category of its own so
    that pay tables can name it, and it orders above every other straight flush.
    """

    HIGH_CARD = 0
    PAIR = 1
    TWO_PAIR = 2
    THREE_OF_A_KIND = 3
    STRAIGHT = 4
    FLUSH = 5
    FULL_HOUSE = 6
    FOUR_OF_A_KIND = 7
    STRAIGHT_FLUSH = 8
    ROYAL_FLUSH = 9

    @property
    def key(self) -> CategoryKey:
        """The snake_case name used in JSON and TOML: ``"full_house"``."""
        return cast(CategoryKey, self.name.lower())

    @property
    def label(self) -> str:
        """The name in words: ``"full house"``."""
        return self.name.lower().replace("_", " ")

    @classmethod
    def from_key(cls, key: str) -> Category:
        """The category named by its snake_case key.

        Raises:
            KeyError: no category has that key.

        """
        return cls[key.upper()]


@dataclass(frozen=True, slots=True)
class HandValue:
    """The value of a poker hand.

    Attributes:
        value: an integer, higher is better, equal means a tie. Layout: category in
            bits 20 and up, then five 4-bit ranks (rank - 2, most significant first)
            that break ties within the category.
        best_five: the five cards that make the hand, the most significant first
            (the set or pair before kickers; the straight from its top card; the
            wheel as 5-4-3-2-A).

    """

    value: int
    best_five: tuple[Card, ...]

    @property
    def category(self) -> Category:
        """The hand's category."""
        return Category(self.value >> CATEGORY_SHIFT)

    def __lt__(self, other: HandValue) -> bool:
        return self.value < other.value

    def __le__(self, other: HandValue) -> bool:
        return self.value <= other.value

    def __gt__(self, other: HandValue) -> bool:
        return self.value > other.value

    def __ge__(self, other: HandValue) -> bool:
        return self.value >= other.value


def category_of(value: int) -> Category:
    """The category of an integer hand value from :func:`hand_value`."""
    return Category(value >> CATEGORY_SHIFT)


_WHEEL = (1 << 12) | 0b1111  # A,5,4,3,2 as rank-index bits
# Straight masks, highest first: (mask, top rank index)
_STRAIGHTS = (*tuple((31 << top - 4, top) for top in range(12, 3, -1)), (_WHEEL, 3))


def _pack(category: int, ranks: Sequence[int]) -> int:
    value = category
    for i in range(5):
        value = (value << 4) | (ranks[i] if i < len(ranks) else 0)
    return value


def _straight_top(mask: int) -> int:
    """The top rank index of the best straight in a rank bit mask, or -1."""
    for straight, top in _STRAIGHTS:
        if mask & straight == straight:
            return top
    return -1


def _straight_ranks(top: int) -> list[int]:
    if top == 3:
        return [3, 2, 1, 0, 12]
    return [top, top - 1, top - 2, top - 3, top - 4]


def _solve(indices: Sequence[int]) -> tuple[int, list[int], int]:
    """Core of the evaluator on card indices.

    Returns (value, the ranks of the best five in order, flush suit or -1).
    """
    counts = [0] * 13
    suit_masks = [0, 0, 0, 0]
    suit_counts = [0, 0, 0, 0]
    for idx in indices:
        r = idx >> 2
        s = idx & 3
        counts[r] += 1
        suit_masks[s] |= 1 << r
        suit_counts[s] += 1
    for s in range(4):
        if suit_counts[s] >= 5:
            mask = suit_masks[s]
            top = _straight_top(mask)
            if top >= 0:
                cat = Category.ROYAL_FLUSH if top == 12 else Category.STRAIGHT_FLUSH
                ranks = _straight_ranks(top)
                return _pack(cat, [top]), ranks, s
            # Five cards of one suit among at most seven leave too few cards for
            # quads or a full house, so a flush here is the best hand.
            flush_ranks = [r for r in range(12, -1, -1) if mask >> r & 1][:5]
            return _pack(Category.FLUSH, flush_ranks), flush_ranks, s
    grouped = _groups(counts, minimum=Category.FULL_HOUSE)
    if grouped is not None:
        return grouped[0], grouped[1], -1
    rank_mask = 0
    for r in range(13):
        if counts[r]:
            rank_mask |= 1 << r
    top = _straight_top(rank_mask)
    if top >= 0:
        return _pack(Category.STRAIGHT, [top]), _straight_ranks(top), -1
    grouped = _groups(counts, minimum=Category.HIGH_CARD)
    assert grouped is not None
    return grouped[0], grouped[1], -1


def _groups(counts: list[int], minimum: Category) -> tuple[int, list[int]] | None:
    """Evaluate the rank-group categories (quads, full house, trips, pairs, high card).

    Returns None when the best group category is below ``minimum``.
    """
    quads = [r for r in range(12, -1, -1) if counts[r] == 4]
    trips = [r for r in range(12, -1, -1) if counts[r] == 3]
    pairs = [r for r in range(12, -1, -1) if counts[r] == 2]
    singles = [r for r in range(12, -1, -1) if counts[r] == 1]
    if quads:
        q = quads[0]
        kicker = max(r for r in range(13) if counts[r] and r != q)
        return _pack(Category.FOUR_OF_A_KIND, [q, kicker]), [q, q, q, q, kicker]
    if trips and (len(trips) > 1 or pairs):
        t = trips[0]
        p = max(trips[1:] + pairs)
        return _pack(Category.FULL_HOUSE, [t, p]), [t, t, t, p, p]
    if minimum > Category.THREE_OF_A_KIND:
        return None
    if trips:
        t = trips[0]
        kick = singles[:2]
        return _pack(Category.THREE_OF_A_KIND, [t, *kick]), [t, t, t, *kick]
    if len(pairs) >= 2:
        hi, lo = pairs[0], pairs[1]
        kicker = max([*pairs[2:], *singles])
        return _pack(Category.TWO_PAIR, [hi, lo, kicker]), [hi, hi, lo, lo, kicker]
    if pairs:
        p = pairs[0]
        kick = singles[:3]
        return _pack(Category.PAIR, [p, *kick]), [p, p, *kick]
    return _pack(Category.HIGH_CARD, singles[:5]), singles[:5]


def hand_value(indices: Sequence[int]) -> int:
    """The value of the best five of 5 to 7 cards given as indices 0..51.

    No checks: the caller passes 5..7 distinct valid indices. Equal values tie.
    """
    return _solve(indices)[0]


def evaluate(cards: Sequence[Card]) -> HandValue:
    """Evaluate the best five-card hand of five, six or seven cards.

    Args:
        cards: 5 to 7 distinct cards (for a player: two hole cards and the board).

    Returns:
        The :class:`HandValue`: value, category and the five cards that make it.

    Raises:
        InvalidCardError: fewer than five or more than seven cards, or a duplicate.

    """
    if not 5 <= len(cards) <= 7:
        raise InvalidCardError(f"cards: a hand needs 5 to 7 cards, got {len(cards)}", field="cards")
    check_distinct(cards)
    value, ranks, flush_suit = _solve([card.index for card in cards])
    return HandValue(value, _pick(cards, ranks, flush_suit))


def _pick(cards: Sequence[Card], ranks: list[int], flush_suit: int) -> tuple[Card, ...]:
    """Choose the actual cards for the ranks of the best five (highest suit first)."""
    pool = sorted(
        (c for c in cards if flush_suit < 0 or c.suit == flush_suit),
        key=lambda c: -c.index,
    )
    chosen: list[Card] = []
    for r in ranks:
        for card in pool:
            if card.rank - 2 == r and card not in chosen:
                chosen.append(card)
                break
    assert len(chosen) == 5
    return tuple(chosen)
