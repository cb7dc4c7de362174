"""Lookup tables for the fast evaluator, derived from the plain-Python definition.

The fast kernels in :mod:`uth.evaluator.fast` never decide what a hand is worth:
they look the value up in tables filled by calling :func:`uth.evaluator.hand_value`
(the one definition) on one representative hand of every rank pattern. The tables
are generated once by ``python -m uth.evaluator.tables`` into ``tables.npz`` next to
this file (200 kB compressed, 0.48 MB in memory, of which 0.28 MB serve seven-card
hands) and checked entry by entry against ``hand_value`` in
``tests/test_evaluator_batch.py``.

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
* Otherwise the value depends only on the ranks, and ``r = key >> 16`` (the rank
  key with its size) finds it by a perfect hash, one per hand size n (CHD-style
  "hash and displace"): ``h = r * MULTIPLIER`` (mod 2**64), bucket
  ``h >> (64 - BUCKET_BITS[n])``, slot ``((h >> 32) & (2**SLOT_BITS[n] - 1)) ^
  DISPLACE[DISPLACE_BASE[n] + bucket]``, value ``RANKS[RANKS_BASE[n] + slot]``. The
  seven-card part is 65,536 int32 values (256 kB) and 16,384 one-byte
  displacements, small enough to stay in a core's L2 cache.
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
#: Multiplier of the perfect hash (2**64 / golden ratio, odd).
MULTIPLIER = 0x9E3779B97F4A7C15
#: Per hand size n = 5, 6, 7: log2 of the number of buckets and of slots.
BUCKET_BITS = {5: 11, 6: 13, 7: 14}
SLOT_BITS = {5: 13, 6: 15, 7: 16}
#: Where each size's slots and displacements start in RANKS and DISPLACE (7 first).
RANKS_BASE = {7: 0, 6: 1 << 16, 5: (1 << 16) + (1 << 15)}
DISPLACE_BASE = {7: 0, 6: 1 << 14, 5: (1 << 14) + (1 << 13)}
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


def _hash(r: int) -> int:
    return (r * MULTIPLIER) % (1 << 64)


def build() -> dict[str, npt.NDArray[np.int32] | npt.NDArray[np.uint8]]:
    """Compute the tables from :func:`hand_value` (seconds to a minute).

    Returns:
        ``ranks`` (int32, -1 in unused slots), ``displace`` (uint8) and ``flush``
        (int32, shape (8192,), -1 for masks of fewer than five ranks), as described
        in the module docstring.

    Raises:
        AssertionError: two rank patterns of one size share a key or a hash slot
            base within a bucket (pick another MULTIPLIER).

    """
    ranks = np.full(RANKS_BASE[5] + (1 << SLOT_BITS[5]), -1, dtype=np.int32)
    displace = np.zeros(DISPLACE_BASE[5] + (1 << BUCKET_BITS[5]), dtype=np.uint8)
    for n in (7, 6, 5):
        patterns = list(rank_patterns(n))
        keys = [pattern_key(counts) for counts in patterns]
        assert len(set(keys)) == len(keys), "rank keys collide"
        slots = 1 << SLOT_BITS[n]
        buckets: list[list[int]] = [[] for _ in range(1 << BUCKET_BITS[n])]
        for i, key in enumerate(keys):
            buckets[_hash(key) >> (64 - BUCKET_BITS[n])].append(i)
        used = np.zeros(slots, dtype=bool)
        every = np.arange(slots)
        # The fullest buckets first, each at the lowest displacement whose slots are free.
        for b in sorted(range(len(buckets)), key=lambda b: -len(buckets[b])):
            if not buckets[b]:
                continue
            bases = [(_hash(keys[i]) >> 32) & (slots - 1) for i in buckets[b]]
            assert len(set(bases)) == len(bases), "two keys of a bucket share a slot"
            free = np.ones(256, dtype=bool)
            for base in bases:
                free &= ~used[every[:256] ^ base]
            assert free.any(), "no displacement below 256 fits a bucket"
            d = int(np.flatnonzero(free)[0])
            displace[DISPLACE_BASE[n] + b] = d
            for i, base in zip(buckets[b], bases, strict=True):
                used[base ^ d] = True
                ranks[RANKS_BASE[n] + (base ^ d)] = hand_value(representative(patterns[i]))

    flush = np.full(1 << 13, -1, dtype=np.int32)
    for mask in range(1 << 13):
        bits = [r for r in range(13) if mask >> r & 1]
        if len(bits) >= 5:
            flush[mask] = hand_value([r * 4 for r in bits])
    return {"ranks": ranks, "displace": displace, "flush": flush}


def digest(tables: dict[str, npt.NDArray[np.int32] | npt.NDArray[np.uint8]]) -> str:
    """sha256 over the tables' names, dtypes, shapes and bytes (little-endian)."""
    h = hashlib.sha256()
    for name in sorted(tables):
        array = np.ascontiguousarray(tables[name])
        array = array.astype(array.dtype.newbyteorder("<"), copy=False)
        h.update(f"{name}{array.dtype.str}{array.shape}".encode())
        h.update(array.tobytes())
    return h.hexdigest()


def load() -> dict[str, npt.NDArray[np.int32] | npt.NDArray[np.uint8]]:
    """The tables as shipped in ``tables.npz``."""
    with np.load(PATH) as data:
        return {name: np.ascontiguousarray(data[name]) for name in data.files}


def main() -> None:
    """Write ``tables.npz`` and print its digest (paste it into ``fast.TABLES_SHA256``)."""
    tables = build()
    np.savez_compressed(PATH, **tables)  # type: ignore[arg-type]
    print(PATH, {k: v.shape for k, v in tables.items()}, digest(tables))


if __name__ == "__main__":
    main()
