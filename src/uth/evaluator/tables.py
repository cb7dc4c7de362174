"""Lookup tables for the fast evaluator, derived from the plain-Python definition.

The fast kernels in :mod:`uth.evaluator.fast` never decide what a hand is worth:
they look the value up in tables filled by calling :func:`uth.evaluator.hand_value`
(the one definition) on one representative hand of every rank pattern. The tables
are generated once by ``python -m uth.evaluator.tables`` into ``tables.npz`` next to
this file (about 100 kB compressed, 0.6 MB in memory) and checked entry by entry
against ``hand_value`` in ``tests/test_evaluator_tables.py``.

How a hand finds its value (the layout the kernels rely on):

* Every card has a 64-bit key, :data:`CARD_KEY`: its suit adds 1 to a 4-bit suit
  counter in bits ``4 * suit`` (bits 0..15), its rank adds ``RANK_KEY[rank - 2]``
  from bit 16 up. A hand's key is the sum of its cards' keys.
* The rank keys are the seven-card keys of Kenneth Shackleton's SKPokerEval
  (Apache 2.0, github.com/kennethshackleton/SKPokerEval): the sums over any multiset
  of at most seven ranks, each at most four times, are distinct for each hand size.
  The hand size adds ``(n - 5) << SIZE_SHIFT`` so five-, six- and seven-card rank
  patterns share one table without colliding.
* A suit counter of five or more means a flush: ``(key + 0x3333) & 0x8888`` is not
  zero. Then the value is ``FLUSH[mask]``, ``mask`` being the 13-bit set of the
  flush suit's ranks (bit ``rank - 2``). With at most seven cards a flush, straight
  flush or royal flush is then the best hand (see :mod:`uth.evaluator.core`).
* Otherwise the value depends only on the ranks: with ``r = key >> 16``,
  ``RANKS[(r & BUCKET_MASK) + OFFSETS[r >> BUCKET_SHIFT]]``, a perfect hash by row
  displacement (each bucket of keys shifted to free slots).
"""

from __future__ import annotations

import hashlib
import itertools
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import numpy.typing as npt

from uth.evaluator.core import hand_value

#: Rank keys, deuce to ace (SKPokerEval's seven-card keys).
RANK_KEY = (0, 1, 5, 22, 98, 453, 2031, 8698, 22854, 83661, 262349, 636345, 1479181)
#: The hand size (5, 6 or 7) enters a rank key as ``(n - 5) << SIZE_SHIFT``.
SIZE_SHIFT = 23
#: A rank key's bucket is ``key >> BUCKET_SHIFT``; its place in the bucket the low bits.
BUCKET_SHIFT = 9
BUCKET_MASK = (1 << BUCKET_SHIFT) - 1
#: Bits below the rank key: four 4-bit suit counters.
SUIT_BITS = 16
#: Adding this to a hand key sets bit 3 of a suit counter that has reached five.
FLUSH_ADD = 0x3333
FLUSH_TEST = 0x8888

PATH = Path(__file__).with_name("tables.npz")

Int32Array = npt.NDArray[np.int32]
Int64Array = npt.NDArray[np.int64]


def card_keys() -> Int64Array:
    """The key of every card index 0..51 (see the module docstring), shape (52,)."""
    keys = [RANK_KEY[i >> 2] << SUIT_BITS | 1 << 4 * (i & 3) for i in range(52)]
    return np.array(keys, dtype=np.int64)


def rank_patterns(n: int) -> Iterator[tuple[int, ...]]:
    """Every multiset of ``n`` ranks (0..12, each at most four times), as 13 counts."""
    for combo in itertools.combinations_with_replacement(range(13), n):
        counts = [0] * 13
        for r in combo:
            counts[r] += 1
        if max(counts) <= 4:
            yield tuple(counts)


def representative(counts: tuple[int, ...]) -> list[int]:
    """Card indices with these rank counts and no five cards of one suit.

    Suits are dealt in turn over the whole hand, so at most two of seven cards share
    a suit, and the copies of one rank (at most four, dealt in a row) differ in suit.
    """
    cards: list[int] = []
    for r, k in enumerate(counts):
        for _ in range(k):
            cards.append(r * 4 + len(cards) % 4)
    return cards


def pattern_key(counts: tuple[int, ...]) -> int:
    """The rank key of a multiset of ranks, with its size."""
    n = sum(counts)
    return sum(c * k for c, k in zip(counts, RANK_KEY, strict=True)) + ((n - 5) << SIZE_SHIFT)


def build() -> dict[str, npt.NDArray[np.int32]]:
    """Compute the tables from :func:`hand_value` (about a second).

    Returns:
        ``ranks`` (int32), ``offsets`` (int32) and ``flush`` (int32, shape (8192,)),
        as described in the module docstring. ``ranks`` holds -1 in unused slots,
        ``flush`` holds -1 for masks with fewer than five ranks.

    Raises:
        AssertionError: two rank patterns share a key (the keys are not unique).

    """
    keys: list[int] = []
    values: list[int] = []
    for n in (5, 6, 7):
        for counts in rank_patterns(n):
            keys.append(pattern_key(counts))
            values.append(hand_value(representative(counts)))
    assert len(set(keys)) == len(keys), "rank keys collide"

    n_buckets = (max(keys) >> BUCKET_SHIFT) + 1
    buckets: list[list[int]] = [[] for _ in range(n_buckets)]
    for i, key in enumerate(keys):
        buckets[key >> BUCKET_SHIFT].append(i)
    offsets = np.zeros(n_buckets, dtype=np.int32)
    size = 2 * len(keys) + BUCKET_MASK + 1
    used = np.zeros(size + 2 * BUCKET_MASK + 1026, dtype=bool)
    ranks = np.full(size, -1, dtype=np.int32)
    first_free = 0
    # Row displacement, the fullest buckets first: shift each bucket to the lowest
    # offset at which all its slots are free.
    for b in sorted(range(n_buckets), key=lambda b: -len(buckets[b])):
        members = buckets[b]
        if not members:
            continue
        lows = np.array([keys[i] & BUCKET_MASK for i in members])
        while used[first_free]:
            first_free += 1
        d = _first_fit(used, lows, max(first_free - int(lows.min()), 0))
        used[lows + d] = True
        offsets[b] = d
        ranks[lows + d] = [values[i] for i in members]
    top = int(np.flatnonzero(used).max()) + 1
    ranks = ranks[:top]

    flush = np.full(1 << 13, -1, dtype=np.int32)
    for mask in range(1 << 13):
        bits = [r for r in range(13) if mask >> r & 1]
        if len(bits) >= 5:
            flush[mask] = hand_value([r * 4 for r in bits])
    return {"ranks": ranks, "offsets": offsets, "flush": flush}


def _first_fit(used: npt.NDArray[np.bool_], lows: npt.NDArray[np.int64], start: int) -> int:
    """The lowest offset from ``start`` at which every slot ``lows + offset`` is free."""
    window = 1024
    while True:
        fits = np.ones(window, dtype=bool)
        for low in lows:
            fits &= ~used[start + low : start + low + window]
        hits = np.flatnonzero(fits)
        if hits.size:
            return start + int(hits[0])
        start += window


def digest(tables: dict[str, npt.NDArray[np.int32]]) -> str:
    """sha256 over the tables' names, shapes and bytes (little-endian int32)."""
    h = hashlib.sha256()
    for name in sorted(tables):
        array = np.ascontiguousarray(tables[name], dtype="<i4")
        h.update(f"{name}{array.shape}".encode())
        h.update(array.tobytes())
    return h.hexdigest()


def load() -> dict[str, npt.NDArray[np.int32]]:
    """The tables as shipped in ``tables.npz`` (int32 arrays)."""
    with np.load(PATH) as data:
        return {name: np.ascontiguousarray(data[name], dtype=np.int32) for name in data.files}


def main() -> None:
    """Write ``tables.npz`` and print its digest (paste it into ``fast.TABLES_SHA256``)."""
    tables = build()
    np.savez_compressed(PATH, **tables)  # type: ignore[arg-type]
    print(PATH, {k: v.shape for k, v in tables.items()}, digest(tables))


if __name__ == "__main__":
    main()
