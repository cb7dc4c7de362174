"""Hand values for the analysis kernels: a thin layer on the evaluator's numba kernels.

The values are exactly those of :func:`uth.evaluator.hand_value` (one definition of
a hand's value), from :mod:`uth.evaluator.fast`'s incremental keys: the board's
key is summed once and each hole adds its two cards.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from uth.evaluator.fast import CARD_BIT, CARD_KEY, SIZE_KEY, eval5, value7_from_keys


@njit(cache=True, nogil=True)
def hole_values(cards: np.ndarray, board: np.ndarray, rest: np.ndarray, out: np.ndarray) -> None:
    """The value of every hole of ``rest`` with the 5-card ``board``.

    ``board`` and ``rest`` are positions into ``cards`` (card indices); hole k is
    the k-th pair ``rest[x], rest[y]`` with x < y in lexicographic order.
    """
    key = SIZE_KEY[7]
    bits = 0
    for i in range(5):
        key += CARD_KEY[cards[board[i]]]
        bits += CARD_BIT[cards[board[i]]]
    m = rest.shape[0]
    k = 0
    for x in range(m):
        ca = cards[rest[x]]
        key_a = key + CARD_KEY[ca]
        bits_a = bits + CARD_BIT[ca]
        for y in range(x + 1, m):
            cb = cards[rest[y]]
            out[k] = value7_from_keys(key_a + CARD_KEY[cb], bits_a + CARD_BIT[cb])
            k += 1


@njit(cache=True, nogil=True)
def board_value(c0: int, c1: int, c2: int, c3: int, c4: int) -> int:
    """The value of the five community cards alone (card indices)."""
    return eval5(c0, c1, c2, c3, c4)
