"""Batched hand evaluation on NumPy arrays (numba kernels behind a checked API).

Every value is exactly the integer :func:`uth.evaluator.hand_value` returns for the
same cards (category in bits 20 and up, then five 4-bit ranks), so the batch and the
plain path never disagree; the kernels look values up in tables built from
``hand_value`` (:mod:`uth.evaluator.tables`). Cards are indices 0..51 as
:attr:`uth.cards.Card.index` defines them: ``(rank - 2) * 4 + suit``, suits c, d, h, s
= 0..3.

The check (every index at most 51, no card twice in a row) is fused into the
evaluation (two more operations per card); it costs about 30% of the unchecked
throughput (see docs/benchmarks.md). ``check=False`` skips it for hot loops whose
cards are valid by construction (a dealt deck); an invalid row then gives a wrong
value or reads outside a table. On an error, ``out`` (when given) may hold the
values of the rows before the bad one.
``parallel=True`` splits the rows over numba's threads (``numba.set_num_threads``, or
the ``NUMBA_NUM_THREADS`` environment variable).

For calls from inside your own numba kernels use :mod:`uth.evaluator.fast`.
"""

from __future__ import annotations

from collections.abc import Sequence

import numba
import numpy as np
import numpy.typing as npt

from uth.cards.card import Card
from uth.errors import InvalidCardError
from uth.evaluator import fast
from uth.evaluator.core import CATEGORY_SHIFT, Category

Cards = npt.NDArray[np.uint8]
Values = npt.NDArray[np.int32]

#: Number of two-card holes from the 47 cards off a five-card board: C(47, 2).
HOLES_PER_BOARD = 1081


def _prepare(cards: object, n: int, *, out: Values | None) -> tuple[Cards, Values]:
    """Check the type and shape of a batch of ``n``-card rows; allocate or check ``out``."""
    if not isinstance(cards, np.ndarray):
        raise InvalidCardError(
            f"cards: expected a NumPy array of dtype uint8 and shape (rows, {n}), "
            f"got {type(cards).__name__}",
            field="cards",
        )
    if cards.dtype != np.uint8:
        raise InvalidCardError(
            f"cards: expected dtype uint8 (card indices 0..51), got {cards.dtype}", field="cards"
        )
    if cards.ndim != 2 or cards.shape[1] != n:
        raise InvalidCardError(
            f"cards: expected shape (rows, {n}), got {cards.shape}", field="cards"
        )
    rows = np.ascontiguousarray(cards)
    if out is None:
        out = np.empty(rows.shape[0], dtype=np.int32)
    elif (
        not isinstance(out, np.ndarray)
        or out.dtype != np.int32
        or out.shape != (rows.shape[0],)
        or not out.flags.c_contiguous
    ):
        raise InvalidCardError(
            f"out: expected a contiguous int32 array of shape ({rows.shape[0]},)", field="out"
        )
    return rows, out


def _describe_bad_row(row: Cards, i: int) -> str:
    seen: set[int] = set()
    for j, c in enumerate(row.tolist()):
        if c > 51:
            return f"cards[{i}]: card index must be 0..51, got {c} at column {j}"
        if c in seen:
            return f"cards[{i}]: duplicate card {Card.from_index(c)} (index {c})"
        seen.add(c)
    raise AssertionError(f"row {i} was flagged but is valid")  # pragma: no cover


def _evaluate(cards: object, n: int, *, parallel: bool, check: bool, out: Values | None) -> Values:
    rows, values = _prepare(cards, n, out=out)
    if check:
        kernel = fast.evaluate_rows_checked_parallel if parallel else fast.evaluate_rows_checked
        bad = kernel(rows, values)
        if bad >= 0:
            raise InvalidCardError(_describe_bad_row(rows[bad], bad), field=f"cards[{bad}]")
    elif parallel:
        fast.evaluate_rows_parallel(rows, values)
    else:
        fast.evaluate_rows(rows, values)
    return values


def evaluate7_batch(
    cards: Cards, *, parallel: bool = False, check: bool = True, out: Values | None = None
) -> Values:
    """Values of many seven-card hands.

    Args:
        cards: uint8 array of shape (rows, 7), card indices 0..51, distinct in a row.
            A non-contiguous array is copied first.
        parallel: split the rows over all numba threads.
        check: verify every index and that no row holds a card twice (fused into the
            evaluation; ``False`` for hot loops whose cards are valid by construction).
        out: optional int32 array of shape (rows,) to write the values into.

    Returns:
        int32 array of shape (rows,): ``hand_value`` of each row's best five.

    Raises:
        InvalidCardError: not a uint8 array of shape (rows, 7), a bad ``out``, or
            (with ``check``) an index above 51 or a card twice in a row; the message
            names the first bad row.

    """
    return _evaluate(cards, 7, parallel=parallel, check=check, out=out)


def evaluate6_batch(
    cards: Cards, *, parallel: bool = False, check: bool = True, out: Values | None = None
) -> Values:
    """Values of many six-card hands (shape (rows, 6)); see :func:`evaluate7_batch`."""
    return _evaluate(cards, 6, parallel=parallel, check=check, out=out)


def evaluate5_batch(
    cards: Cards, *, parallel: bool = False, check: bool = True, out: Values | None = None
) -> Values:
    """Values of many five-card hands (shape (rows, 5)); see :func:`evaluate7_batch`."""
    return _evaluate(cards, 5, parallel=parallel, check=check, out=out)


_TOP_VALUE = (int(Category.ROYAL_FLUSH) + 1) << CATEGORY_SHIFT


def category_batch(values: npt.NDArray[np.integer]) -> npt.NDArray[np.uint8]:
    """The :class:`Category` index (0 high card .. 9 royal flush) of each hand value.

    Args:
        values: an integer array of hand values (any shape).

    Returns:
        uint8 array of the same shape: ``values >> CATEGORY_SHIFT``.

    Raises:
        InvalidCardError: not an integer array, or a value outside 0 .. 10 << 20.

    """
    if not isinstance(values, np.ndarray) or values.dtype.kind not in "iu":
        raise InvalidCardError(
            f"values: expected an integer NumPy array, got {getattr(values, 'dtype', type(values).__name__)}",
            field="values",
        )
    if values.size and (int(values.min()) < 0 or int(values.max()) >= _TOP_VALUE):
        bad = values[(values < 0) | (values >= _TOP_VALUE)].flat[0]
        raise InvalidCardError(f"values: {bad} is not a hand value", field="values")
    return (values >> CATEGORY_SHIFT).astype(np.uint8)


def rank_holes_on_board(
    board: Sequence[int] | npt.NDArray[np.integer],
) -> tuple[Cards, Values, npt.NDArray[np.int64]]:
    """Every two-card hole of the 47 cards off one board, with its value and order.

    Args:
        board: five distinct card indices 0..51 (the flop, turn and river).

    Returns:
        ``(holes, values, order)``: ``holes`` uint8 (1081, 2), each hole's two indices
        (lower first, rows in lexicographic order); ``values`` int32 (1081,), the
        ``hand_value`` of hole + board; ``order`` int64 (1081,), the rows sorted by
        value, lowest first, ties in row order. ``values[order]`` is ascending, so a
        player hole beats ``np.searchsorted(values[order], v)`` dealer holes.

    Raises:
        InvalidCardError: not five indices, an index outside 0..51, or a card twice.

    """
    indices = np.asarray(board)
    if indices.shape != (5,) or indices.dtype.kind not in "iu":
        raise InvalidCardError(
            f"board: expected five card indices, got {indices.tolist()!r}", field="board"
        )
    listed = [int(c) for c in indices.tolist()]
    for j, c in enumerate(listed):
        if not 0 <= c <= 51:
            raise InvalidCardError(
                f"board[{j}]: card index must be 0..51, got {c}", field=f"board[{j}]"
            )
    if len(set(listed)) != 5:
        dup = next(c for c in listed if listed.count(c) > 1)
        raise InvalidCardError(f"board: duplicate card {Card.from_index(dup)}", field="board")
    holes = np.empty((HOLES_PER_BOARD, 2), dtype=np.uint8)
    values = np.empty(HOLES_PER_BOARD, dtype=np.int32)
    order = np.empty(HOLES_PER_BOARD, dtype=np.int64)
    fast.rank_holes(np.array(listed, dtype=np.int64), holes, values, order)
    return holes, values, order


def seven_card_value_counts() -> tuple[Values, npt.NDArray[np.int64]]:
    """Enumerate all 133,784,560 seven-card hands (all numba threads) and count values.

    Returns:
        ``(values, counts)``: the distinct hand values (int32, ascending; 4,824 of
        them) and how many seven-card hands have each (int64).

    """
    slots = np.zeros(fast.N_SLOTS, dtype=np.int64)
    fast.count_seven_card_slots(slots, 4 * numba.get_num_threads())
    slot_values = np.concatenate([fast.RANKS[: fast.N_SLOTS - fast.FLUSH.shape[0]], fast.FLUSH])
    hit = slots > 0
    values, inverse = np.unique(slot_values[hit], return_inverse=True)
    counts = np.zeros(values.shape[0], dtype=np.int64)
    np.add.at(counts, inverse, slots[hit])
    return values.astype(np.int32), counts
