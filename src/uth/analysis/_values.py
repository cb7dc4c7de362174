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
def radix_order(
    values: np.ndarray, order: np.ndarray, tmp: np.ndarray, count: np.ndarray
) -> np.ndarray:
    """Indices that sort ``values`` (24-bit hand values) ascending, ties in index
    order: an LSD radix sort in three 8-bit passes; ``order``, ``tmp`` (same length)
    and ``count`` (257) are work space. Returns whichever of ``order`` and ``tmp``
    holds the result.
    """
    n = values.shape[0]
    for i in range(n):
        order[i] = i
    src = order
    dst = tmp
    for shift in (0, 8, 16):
        count[:] = 0
        for i in range(n):
            count[((values[src[i]] >> shift) & 255) + 1] += 1
        for b in range(256):
            count[b + 1] += count[b]
        for i in range(n):
            k = src[i]
            b = (values[k] >> shift) & 255
            dst[count[b]] = k
            count[b] += 1
        src, dst = dst, src
    return src


@njit(cache=True, nogil=True, inline="always")
def _flush_hole(ca: int, cb: int, flush_suit: int, need: int) -> bool:
    """Whether hole cards ``ca``, ``cb`` hold ``need`` cards of the board's flush suit."""
    return flush_suit >= 0 and ((ca & 3) == flush_suit) + ((cb & 3) == flush_suit) >= need


@njit(cache=True, nogil=True)
def sorted_hole_values(
    cards: np.ndarray,
    board: np.ndarray,
    rest: np.ndarray,
    hole_a: np.ndarray,
    hole_b: np.ndarray,
    values: np.ndarray,
    work: np.ndarray,
) -> None:
    """Every hole of ``rest`` with the 5-card ``board``, in ascending order of value.

    ``board`` and ``rest`` are positions into ``cards`` (card indices). Out, for
    the j-th hole in ascending order of value (equal values in any order):
    ``hole_a[j] < hole_b[j]``, its cards as indices into ``rest``, and ``values[j]``
    its value; C(len(rest), 2) holes. ``work``: int64 work space of shape
    (6, C(len(rest), 2) + 400).

    A hole that does not make a flush has the value of its two ranks on this board:
    the holes are grouped into one class per pair of ranks (at most 91, each valued
    once) and one class per hole that makes a flush (with three or more cards of a
    suit on the board); the classes are sorted and their holes listed in that order,
    so no sort of the 1,081 holes is needed.
    """
    m = rest.shape[0]
    key = SIZE_KEY[7]
    bits = 0
    for i in range(5):
        key += CARD_KEY[cards[board[i]]]
        bits += CARD_BIT[cards[board[i]]]
    flush_suit = -1
    need = 0
    for s in range(4):
        on_board = 0
        for i in range(5):
            on_board += (cards[board[i]] & 3) == s
        if on_board >= 3:
            flush_suit = s
            need = 5 - on_board
    cls_val = work[0]
    cls_a = work[1]
    cls_b = work[2]
    cls_order = work[3]
    cls_tmp = work[4]
    scratch = work[5]
    # scratch: the cards of each rank (4 slots per rank), their number, the 257
    # radix counters.
    n_rank = scratch[52:65]
    count = scratch[65 : 65 + 257]
    n_rank[:] = 0
    for x in range(m):
        r = cards[rest[x]] >> 2
        scratch[4 * r + n_rank[r]] = x
        n_rank[r] += 1
    n_cls = 0
    # One class per pair of ranks (r1 <= r2) with a hole that makes no flush.
    for r1 in range(13):
        for r2 in range(r1, 13):
            found = False
            for i in range(n_rank[r1]):
                x = scratch[4 * r1 + i]
                for j in range(i + 1 if r1 == r2 else 0, n_rank[r2]):
                    y = scratch[4 * r2 + j]
                    ca = cards[rest[x]]
                    cb = cards[rest[y]]
                    if not _flush_hole(ca, cb, flush_suit, need):
                        cls_val[n_cls] = value7_from_keys(
                            key + CARD_KEY[ca] + CARD_KEY[cb], bits + CARD_BIT[ca] + CARD_BIT[cb]
                        )
                        cls_a[n_cls] = -1 - r1
                        cls_b[n_cls] = r2
                        n_cls += 1
                        found = True
                        break
                if found:
                    break
    # One class per hole that makes a flush: every hole on a board of five suited
    # cards; otherwise the holes with a card of the suit (the lower or the upper).
    if flush_suit >= 0:
        for x in range(m):
            ca = cards[rest[x]]
            if need > 0 and (ca & 3) != flush_suit:
                continue
            for y in range(x + 1, m):
                cb = cards[rest[y]]
                if _flush_hole(ca, cb, flush_suit, need):
                    cls_val[n_cls] = value7_from_keys(
                        key + CARD_KEY[ca] + CARD_KEY[cb], bits + CARD_BIT[ca] + CARD_BIT[cb]
                    )
                    cls_a[n_cls] = x
                    cls_b[n_cls] = y
                    n_cls += 1
            if need == 1:
                for y in range(x):
                    cb = cards[rest[y]]
                    if (cb & 3) != flush_suit:
                        cls_val[n_cls] = value7_from_keys(
                            key + CARD_KEY[ca] + CARD_KEY[cb], bits + CARD_BIT[ca] + CARD_BIT[cb]
                        )
                        cls_a[n_cls] = y
                        cls_b[n_cls] = x
                        n_cls += 1
    order = radix_order(cls_val[:n_cls], cls_order[:n_cls], cls_tmp[:n_cls], count)
    j = 0
    for ci in order:
        v = cls_val[ci]
        a = cls_a[ci]
        if a >= 0:
            hole_a[j] = a
            hole_b[j] = cls_b[ci]
            values[j] = v
            j += 1
            continue
        r1 = -1 - a
        r2 = cls_b[ci]
        for i in range(n_rank[r1]):
            x = scratch[4 * r1 + i]
            for jj in range(i + 1 if r1 == r2 else 0, n_rank[r2]):
                y = scratch[4 * r2 + jj]
                if not _flush_hole(cards[rest[x]], cards[rest[y]], flush_suit, need):
                    hole_a[j] = x
                    hole_b[j] = y
                    values[j] = v
                    j += 1
    if j != values.shape[0]:
        raise AssertionError("sorted_hole_values: the classes do not cover every hole")


@njit(cache=True, nogil=True)
def board_value(c0: int, c1: int, c2: int, c3: int, c4: int) -> int:
    """The value of the five community cards alone (card indices)."""
    return eval5(c0, c1, c2, c3, c4)
