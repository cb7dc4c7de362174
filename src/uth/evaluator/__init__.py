"""Poker hand evaluation: the best five of five, six or seven cards.

:func:`evaluate` returns a :class:`HandValue`: the category, a totally ordered
integer value (higher wins, equal ties; suits never break a tie) and the five
cards that make the hand. :func:`hand_value` returns the integer alone from card
indices, for hot loops; a batched fast path can sit behind it.

Rules: RULES.md, "Cards and hands"; the ace plays low only in the wheel
(5-4-3-2-A), and the royal flush is its own category (for pay tables).
"""

from uth.evaluator.core import (
    CATEGORY_SHIFT,
    Category,
    HandValue,
    category_of,
    evaluate,
    hand_value,
)

__all__ = ["CATEGORY_SHIFT", "Category", "HandValue", "category_of", "evaluate", "hand_value"]
