"""Poker hand evaluation: the best five of five, six or seven cards.

:func:`evaluate` returns a :class:`HandValue`: the category, a totally ordered
integer value (higher wins, equal ties; suits never break a tie) and the five
cards that make the hand. :func:`hand_value` returns the integer alone from card
indices; it is the one definition of a hand's value (plain Python, in ``core``).

The batch API ranks NumPy arrays of hands with numba kernels that look values up in
tables built from :func:`hand_value`, so both paths give the same integers:
:func:`evaluate7_batch`, :func:`evaluate6_batch`, :func:`evaluate5_batch`,
:func:`category_batch`, :func:`rank_holes_on_board` and
:func:`seven_card_value_counts` (from :mod:`uth.evaluator.batch`, imported on first
use so that importing this package does not load numba). Kernels to call from your
own numba code are in :mod:`uth.evaluator.fast`.

Rules: RULES.md, "Cards and hands"; the ace plays low only in the wheel
(5-4-3-2-A), and the royal flush is its own category (for pay tables).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from uth.evaluator.core import (
    CATEGORY_KEYS,
    CATEGORY_SHIFT,
    Category,
    CategoryKey,
    HandValue,
    category_of,
    evaluate,
    hand_value,
)

if TYPE_CHECKING:
    from uth.evaluator.batch import (
        category_batch,
        evaluate5_batch,
        evaluate6_batch,
        evaluate7_batch,
        rank_holes_on_board,
        seven_card_value_counts,
    )

_BATCH = frozenset(
    {
        "category_batch",
        "evaluate5_batch",
        "evaluate6_batch",
        "evaluate7_batch",
        "rank_holes_on_board",
        "seven_card_value_counts",
    }
)

__all__ = [
    "CATEGORY_KEYS",
    "CATEGORY_SHIFT",
    "Category",
    "CategoryKey",
    "HandValue",
    "category_batch",
    "category_of",
    "evaluate",
    "evaluate5_batch",
    "evaluate6_batch",
    "evaluate7_batch",
    "hand_value",
    "rank_holes_on_board",
    "seven_card_value_counts",
]


def __getattr__(name: str) -> Any:
    """Import the batch API (and numba) on first use."""
    if name in _BATCH:
        from uth.evaluator import batch

        return getattr(batch, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
