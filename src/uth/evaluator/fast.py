"""numba kernels of the fast evaluator: call them from your own ``@numba.njit`` code.

Every function here is a plain ``@numba.njit(cache=True)`` function (the parallel ones
``parallel=True``); call them from another numba kernel inside its own loops, or from
Python (each Python call costs about a microsecond of dispatch, so from Python use the
checked batch API in :mod:`uth.evaluator.batch` instead). They do **no checks**: card
indices must be 0..51 (``Card.index``: ``(rank - 2) * 4 + suit``, suits c, d, h, s =
0..3) and distinct within a hand; anything else gives a wrong value or reads outside
a table. Every value is exactly the integer :func:`uth.evaluator.hand_value` returns
(category from bit 20, then five 4-bit ranks), looked up in tables built from it (see
:mod:`uth.evaluator.tables`). These names are stable:

Scalar, one hand:
    ``eval5(a, b, c, d, e)``, ``eval6(a, ..., f)``, ``eval7(a, ..., g)`` -> int32 value
    of the best five of those card indices.

Incremental (add cards one by one, e.g. in nested loops over a deck): a hand is a pair
of int64 sums, ``key = SIZE_KEY[n] + sum(CARD_KEY[c])`` and
``bits = sum(CARD_BIT[c])`` over its ``n`` (5, 6 or 7) cards, and
``value_from_keys(key, bits)`` is its value (``value7_from_keys``: the same for seven
cards, a little faster). Sums of partial hands can be kept and extended; add
``SIZE_KEY[n]`` once for the final size. ``bits`` is also the set of
the hand's cards (bit ``16 * suit + rank - 2``).

Batches (rows of a C-contiguous uint8 array of shape (n, 5..7), values into an int32
array of shape (n,)):
    ``evaluate_rows(cards, out)``, one thread; ``evaluate_rows_parallel(cards, out)``,
    all numba threads (``numba.set_num_threads`` limits them);
    ``evaluate_rows_checked(cards, out) -> int`` and
    ``evaluate_rows_checked_parallel``: the same with the check fused in (each card's
    bit summed and OR-ed: they differ when a card comes twice); they return the
    first row with an index above 51 or a card twice, or -1 (rows are valued up to
    it); ``first_bad_row(cards) -> int``, that check alone.

One board, every hole (the exact analysis):
    ``rank_holes(board, holes, values, order)``: ``board`` 5 distinct indices (any
    integer array); fills ``holes`` (1081, 2) uint8 with every two-card hole of the
    other 47 cards (lower index first, rows in lexicographic order), ``values``
    (1081,) int32 with the value of hole + board, and ``order`` (1081,) int64 with the
    row numbers sorted by value, lowest first, ties in row order (a stable sort).
    With it, "how many dealer holes does this player hole beat" is a count of
    ``values`` below a value.

Enumeration:
    ``count_seven_card_slots(counts, stripes)``: every one of the 133,784,560
    seven-card hands, counted per table slot into ``counts`` (int64, shape
    (N_SLOTS,), zeroed first), in parallel over ``stripes`` tasks;
    :func:`uth.evaluator.batch.seven_card_value_counts` turns it into counts per
    value.

numba's on-disk cache (``cache=True``) of *your* kernel is keyed on your source file
only: after an upgrade of this module, clear it (delete the ``*.nbi``/``*.nbc`` files
in your ``__pycache__`` or ``NUMBA_CACHE_DIR``), or your kernel keeps the old inlined
code. The kernels here inline the scalar functions (``inline="always"``): a call costs
nothing beyond the work.
"""

from __future__ import annotations

import numba
import numpy as np
import numpy.typing as npt

from uth.evaluator import tables

#: sha256 of tables.npz's arrays (:func:`uth.evaluator.tables.digest`). The compiled,
#: cached kernels hold the tables as constants, so a new table file must come with a
#: new digest here: that edit invalidates numba's cache of this module.
TABLES_SHA256 = "42b0d4ff3fbe3f770d1640773c1133aa686ee2d6f727a7791625e4a5870eabb9"

_TABLES = tables.load()
if tables.digest(_TABLES) != TABLES_SHA256:  # pragma: no cover - guards a stale file
    raise RuntimeError(
        f"{tables.PATH} does not match fast.TABLES_SHA256; regenerate it with "
        "`python -m uth.evaluator.tables` and update the digest"
    )

#: Non-flush values by perfect-hash slot (-1 in unused slots), int32.
RANKS: npt.NDArray[np.int32] = _TABLES["ranks"]  # type: ignore[assignment]
#: Displacements of the perfect hash, uint8.
DISPLACE: npt.NDArray[np.uint8] = _TABLES["displace"]  # type: ignore[assignment]
#: Flush values by 13-bit rank mask (-1 below five ranks), int32, shape (8192,).
FLUSH: npt.NDArray[np.int32] = _TABLES["flush"]  # type: ignore[assignment]
_N_RANKS7 = 1 << tables.SLOT_BITS[7]
#: Slots counted by ``count_seven_card_slots``: the seven-card RANKS slots, then FLUSH.
N_SLOTS = _N_RANKS7 + int(FLUSH.shape[0])

#: The key of each card index, int64, shape (52,).
CARD_KEY = tables.card_keys()
#: The bit of each card index, ``1 << (16 * suit + rank - 2)``, int64, shape (52,).
CARD_BIT = np.array([1 << (16 * (i & 3) + (i >> 2)) for i in range(52)], dtype=np.int64)
# Keys and bits for all 256 uint8 values: an index above 51 adds -2**59 to the key
# (seven of them cannot wrap around), so a hand holding one has a negative key.
_CHECK_KEY = np.full(256, -(1 << 59), dtype=np.int64)
_CHECK_KEY[:52] = CARD_KEY
_CHECK_BIT = np.zeros(256, dtype=np.int64)
_CHECK_BIT[:52] = CARD_BIT
#: The key added once for a hand of n cards, indexed by n (entries 5, 6, 7 used).
SIZE_KEY = np.array(
    [0] * 5 + [(n - 5) << (tables.SIZE_SHIFT + tables.SUIT_BITS) for n in (5, 6, 7)],
    dtype=np.int64,
)

_SUIT_BITS = tables.SUIT_BITS
_FLUSH_ADD = tables.FLUSH_ADD
_FLUSH_TEST = tables.FLUSH_TEST
_SIZE5 = int(SIZE_KEY[5])
_SIZE6 = int(SIZE_KEY[6])
_SIZE7 = int(SIZE_KEY[7])
# The multiplier as a signed 64-bit integer: numba's int64 product wraps like mod 2**64.
_MULT = tables.MULTIPLIER - (1 << 64) if tables.MULTIPLIER >= 1 << 63 else tables.MULTIPLIER
# Per size n = 5, 6, 7 (row n - 5): (ranks base, displacement base, 64 - bucket bits,
# bucket mask, slot mask).
_HASH = np.array(
    [
        [
            tables.RANKS_BASE[n],
            tables.DISPLACE_BASE[n],
            64 - tables.BUCKET_BITS[n],
            (1 << tables.BUCKET_BITS[n]) - 1,
            (1 << tables.SLOT_BITS[n]) - 1,
        ]
        for n in (5, 6, 7)
    ],
    dtype=np.int64,
)
_R7, _D7, _B7, _BM7, _SM7 = (int(x) for x in _HASH[2])
_R6, _D6, _B6, _BM6, _SM6 = (int(x) for x in _HASH[1])
_R5, _D5, _B5, _BM5, _SM5 = (int(x) for x in _HASH[0])


@numba.njit(cache=True, inline="always")
def _lookup(key: int, rbase: int, dbase: int, bshift: int, bmask: int, smask: int) -> int:
    """The non-flush value of a hand key, by the perfect hash of its size."""
    h = (key >> _SUIT_BITS) * _MULT
    slot = ((h >> 32) & smask) ^ DISPLACE[dbase + ((h >> bshift) & bmask)]
    return RANKS[rbase + slot]  # type: ignore[no-any-return]


@numba.njit(cache=True, inline="always")
def _nonflush7(key: int) -> int:
    return _lookup(key, _R7, _D7, _B7, _BM7, _SM7)


@numba.njit(cache=True, inline="always")
def _nonflush6(key: int) -> int:
    return _lookup(key, _R6, _D6, _B6, _BM6, _SM6)


@numba.njit(cache=True, inline="always")
def _nonflush5(key: int) -> int:
    return _lookup(key, _R5, _D5, _B5, _BM5, _SM5)


@numba.njit(cache=True, inline="always")
def _flush_suit(flag: int) -> int:
    """The suit whose counter reached five, from ``(key + FLUSH_ADD) & FLUSH_TEST``."""
    if flag & 0x8:
        return 0
    if flag & 0x80:
        return 1
    if flag & 0x800:
        return 2
    return 3


@numba.njit(cache=True, inline="always")
def value_from_keys(key: int, bits: int) -> int:
    """The value of a hand from its sums ``key`` (with SIZE_KEY) and ``bits``."""
    flag = (key + _FLUSH_ADD) & _FLUSH_TEST
    if flag == 0:
        n = key >> (_SUIT_BITS + tables.SIZE_SHIFT)  # the hand size - 5
        return _lookup(key, _HASH[n, 0], _HASH[n, 1], _HASH[n, 2], _HASH[n, 3], _HASH[n, 4])
    suit = _flush_suit(flag)
    return FLUSH[(bits >> (16 * suit)) & 0x1FFF]  # type: ignore[no-any-return]


@numba.njit(cache=True, inline="always")
def value7_from_keys(key: int, bits: int) -> int:
    """:func:`value_from_keys` for a seven-card hand (its size known when compiled)."""
    flag = (key + _FLUSH_ADD) & _FLUSH_TEST
    if flag == 0:
        return _nonflush7(key)
    suit = _flush_suit(flag)
    return FLUSH[(bits >> (16 * suit)) & 0x1FFF]  # type: ignore[no-any-return]


@numba.njit(cache=True, inline="always")
def _suited_mask(c: int, suit: int) -> int:
    return (1 << (c >> 2)) if (c & 3) == suit else 0


@numba.njit(cache=True, inline="always")
def eval5(a: int, b: int, c: int, d: int, e: int) -> int:
    """The value of five cards given as indices 0..51."""
    key = _SIZE5 + CARD_KEY[a] + CARD_KEY[b] + CARD_KEY[c] + CARD_KEY[d] + CARD_KEY[e]
    flag = (key + _FLUSH_ADD) & _FLUSH_TEST
    if flag == 0:
        return _nonflush5(key)
    mask = (1 << (a >> 2)) | (1 << (b >> 2)) | (1 << (c >> 2)) | (1 << (d >> 2)) | (1 << (e >> 2))
    return FLUSH[mask]  # type: ignore[no-any-return]


@numba.njit(cache=True, inline="always")
def eval6(a: int, b: int, c: int, d: int, e: int, f: int) -> int:
    """The value of the best five of six cards given as indices 0..51."""
    key = _SIZE6 + CARD_KEY[a] + CARD_KEY[b] + CARD_KEY[c] + CARD_KEY[d] + CARD_KEY[e] + CARD_KEY[f]
    flag = (key + _FLUSH_ADD) & _FLUSH_TEST
    if flag == 0:
        return _nonflush6(key)
    s = _flush_suit(flag)
    mask = (
        _suited_mask(a, s)
        | _suited_mask(b, s)
        | _suited_mask(c, s)
        | _suited_mask(d, s)
        | _suited_mask(e, s)
        | _suited_mask(f, s)
    )
    return FLUSH[mask]  # type: ignore[no-any-return]


@numba.njit(cache=True, inline="always")
def eval7(a: int, b: int, c: int, d: int, e: int, f: int, g: int) -> int:
    """The value of the best five of seven cards given as indices 0..51."""
    key = (
        _SIZE7
        + CARD_KEY[a]
        + CARD_KEY[b]
        + CARD_KEY[c]
        + CARD_KEY[d]
        + CARD_KEY[e]
        + CARD_KEY[f]
        + CARD_KEY[g]
    )
    flag = (key + _FLUSH_ADD) & _FLUSH_TEST
    if flag == 0:
        return _nonflush7(key)
    s = _flush_suit(flag)
    mask = (
        _suited_mask(a, s)
        | _suited_mask(b, s)
        | _suited_mask(c, s)
        | _suited_mask(d, s)
        | _suited_mask(e, s)
        | _suited_mask(f, s)
        | _suited_mask(g, s)
    )
    return FLUSH[mask]  # type: ignore[no-any-return]


@numba.njit(cache=True, inline="always")
def _row_value(cards: npt.NDArray[np.uint8], i: int, n: int) -> int:
    if n == 7:
        return eval7(
            cards[i, 0],
            cards[i, 1],
            cards[i, 2],
            cards[i, 3],
            cards[i, 4],
            cards[i, 5],
            cards[i, 6],
        )
    if n == 6:
        return eval6(cards[i, 0], cards[i, 1], cards[i, 2], cards[i, 3], cards[i, 4], cards[i, 5])
    return eval5(cards[i, 0], cards[i, 1], cards[i, 2], cards[i, 3], cards[i, 4])


@numba.njit(cache=True)
def evaluate_rows(cards: npt.NDArray[np.uint8], out: npt.NDArray[np.int32]) -> None:
    """Values of the rows of ``cards`` (n, 5..7) into ``out`` (n,), one thread."""
    n = cards.shape[1]
    for i in range(cards.shape[0]):
        out[i] = _row_value(cards, i, n)


@numba.njit(cache=True, parallel=True)
def evaluate_rows_parallel(cards: npt.NDArray[np.uint8], out: npt.NDArray[np.int32]) -> None:
    """Values of the rows of ``cards`` (n, 5..7) into ``out`` (n,), all numba threads."""
    n = cards.shape[1]
    rows = cards.shape[0]
    chunk = 4096
    for k in numba.prange((rows + chunk - 1) // chunk):
        for i in range(k * chunk, min(rows, (k + 1) * chunk)):
            out[i] = _row_value(cards, i, n)


@numba.njit(cache=True, inline="always")
def _checked_row(cards: npt.NDArray[np.uint8], i: int, n: int, out: npt.NDArray[np.int32]) -> bool:
    """Value row ``i`` into ``out[i]``; False (nothing written) for an index above 51 or
    a card twice. A duplicate makes the sum of the cards' bits differ from their OR.
    """
    key = SIZE_KEY[n]
    total = 0
    union = 0
    for j in range(n):
        c = cards[i, j]
        key += _CHECK_KEY[c]
        bit = _CHECK_BIT[c]
        total += bit
        union |= bit
    if key < 0 or total != union:
        return False
    if n == 7:
        out[i] = value7_from_keys(key, total)
    else:
        out[i] = value_from_keys(key, total)
    return True


@numba.njit(cache=True)
def evaluate_rows_checked(cards: npt.NDArray[np.uint8], out: npt.NDArray[np.int32]) -> int:
    """:func:`evaluate_rows` with the check: the first bad row (rows before it valued), or -1."""
    n = cards.shape[1]
    for i in range(cards.shape[0]):
        if not _checked_row(cards, i, n, out):
            return i
    return -1


@numba.njit(cache=True, parallel=True)
def evaluate_rows_checked_parallel(cards: npt.NDArray[np.uint8], out: npt.NDArray[np.int32]) -> int:
    """:func:`evaluate_rows_checked` on all numba threads: the first bad row, or -1."""
    n = cards.shape[1]
    rows = cards.shape[0]
    chunk = 4096
    chunks = (rows + chunk - 1) // chunk
    first = np.full(chunks, -1, dtype=np.int64)
    for k in numba.prange(chunks):
        for i in range(k * chunk, min(rows, (k + 1) * chunk)):
            if not _checked_row(cards, i, n, out):
                first[k] = i
                break
    for k in range(chunks):
        if first[k] >= 0:
            return first[k]  # type: ignore[no-any-return]
    return -1


@numba.njit(cache=True)
def first_bad_row(cards: npt.NDArray[np.uint8]) -> int:
    """The first row with an index above 51 or a card twice, or -1."""
    for i in range(cards.shape[0]):
        seen = 0
        for j in range(cards.shape[1]):
            c = cards[i, j]
            if c > 51:
                return i
            bit = 1 << c
            if seen & bit:
                return i
            seen |= bit
    return -1


@numba.njit(cache=True)
def rank_holes(
    board: npt.NDArray[np.integer],
    holes: npt.NDArray[np.uint8],
    values: npt.NDArray[np.int32],
    order: npt.NDArray[np.int64],
) -> None:
    """Every hole of the 47 cards off ``board``, its value on the board, and their order."""
    key = _SIZE7
    bits = 0
    for j in range(5):
        key += CARD_KEY[board[j]]
        bits += CARD_BIT[board[j]]
    rest = np.empty(47, dtype=np.int64)
    m = 0
    for c in range(52):
        if not (bits >> (16 * (c & 3) + (c >> 2))) & 1:
            rest[m] = c
            m += 1
    row = 0
    for x in range(47):
        a = rest[x]
        key_a = key + CARD_KEY[a]
        bits_a = bits + CARD_BIT[a]
        for y in range(x + 1, 47):
            b = rest[y]
            holes[row, 0] = a
            holes[row, 1] = b
            values[row] = value7_from_keys(key_a + CARD_KEY[b], bits_a + CARD_BIT[b])
            row += 1
    _sort_rows(values, order)


@numba.njit(cache=True, inline="always")
def _sort_rows(values: npt.NDArray[np.int32], order: npt.NDArray[np.int64]) -> None:
    """``order`` = the rows of ``values`` (0 .. 2**24) by value, stable.

    An LSD radix sort (three 8-bit digits) of ``value << 11 | row`` (rows < 2048).
    """
    n = values.shape[0]
    a = np.empty(n, dtype=np.int64)
    b = np.empty(n, dtype=np.int64)
    for i in range(n):
        a[i] = (np.int64(values[i]) << 11) | i
    count = np.empty(256, dtype=np.int64)
    for shift in (11, 19, 27):
        count[:] = 0
        for i in range(n):
            count[(a[i] >> shift) & 0xFF] += 1
        total = 0
        for d in range(256):
            c = count[d]
            count[d] = total
            total += c
        for i in range(n):
            d = (a[i] >> shift) & 0xFF
            b[count[d]] = a[i]
            count[d] += 1
        a, b = b, a
    for i in range(n):
        order[i] = a[i] & 0x7FF


@numba.njit(cache=True)
def _count_from(first: int, second: int, counts: npt.NDArray[np.int32], n_ranks: int) -> None:
    """Count every seven-card hand whose two lowest cards are ``first`` < ``second``."""
    k2 = _SIZE7 + CARD_KEY[first] + CARD_KEY[second]
    b2 = CARD_BIT[first] + CARD_BIT[second]
    for c3 in range(second + 1, 48):
        k3 = k2 + CARD_KEY[c3]
        b3 = b2 + CARD_BIT[c3]
        for c4 in range(c3 + 1, 49):
            k4 = k3 + CARD_KEY[c4]
            b4 = b3 + CARD_BIT[c4]
            for c5 in range(c4 + 1, 50):
                k5 = k4 + CARD_KEY[c5]
                b5 = b4 + CARD_BIT[c5]
                for c6 in range(c5 + 1, 51):
                    k6 = k5 + CARD_KEY[c6]
                    b6 = b5 + CARD_BIT[c6]
                    for c7 in range(c6 + 1, 52):
                        key = k6 + CARD_KEY[c7]
                        flag = (key + _FLUSH_ADD) & _FLUSH_TEST
                        if flag == 0:
                            h = (key >> _SUIT_BITS) * _MULT
                            slot = ((h >> 32) & _SM7) ^ DISPLACE[(h >> _B7) & _BM7]
                            counts[slot] += 1
                        else:
                            bits = b6 + CARD_BIT[c7]
                            s = _flush_suit(flag)
                            counts[n_ranks + ((bits >> (16 * s)) & 0x1FFF)] += 1


@numba.njit(cache=True, parallel=True)
def count_seven_card_slots(counts: npt.NDArray[np.int64], stripes: int) -> None:
    """Count all 133,784,560 seven-card hands per slot (RANKS slots, then FLUSH masks).

    ``stripes`` (a few per thread, e.g. ``4 * numba.get_num_threads()``) is the number
    of parallel tasks; each keeps its own counts (4 bytes per slot: a slot of one
    stripe counts at most 16,384 hands, the suit assignments of one rank pattern).
    """
    n_slots = counts.shape[0]
    pairs = np.empty((1326, 2), dtype=np.int64)
    p = 0
    for a in range(52):
        for b in range(a + 1, 52):
            pairs[p, 0] = a
            pairs[p, 1] = b
            p += 1
    # Stripes take every n-th pair, so each holds a fair share of the heavy low pairs.
    partial = np.zeros((stripes, n_slots), dtype=np.int32)
    for t in numba.prange(stripes):
        for q in range(t, 1326, stripes):
            if pairs[q, 1] <= 46:
                _count_from(pairs[q, 0], pairs[q, 1], partial[t], _N_RANKS7)
    for t in range(stripes):
        counts += partial[t]
