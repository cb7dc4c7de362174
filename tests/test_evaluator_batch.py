"""The batched numba evaluator gives exactly the plain evaluator's integers.

Checks: every entry of the shipped tables against ``hand_value``; a million random
seven-card hands (plus six- and five-card ones) batch == plain; every hand written in
test_evaluator.py and its 6,500 special seven-card samples; the complete order of all
2,598,960 five-card hands (the golden digest of test_evaluator.py); the order of the
million random hands against eval7 (an independent evaluator); every seven-card hand
(133,784,560, counts per category from the issue and the published tables); the
board kernel; the scalar and incremental kernels called from numba code; bad input.
"""

from __future__ import annotations

import ast
import hashlib
import itertools
from collections import Counter
from pathlib import Path

import eval7
import numba
import numpy as np
import numpy.typing as npt
import pytest

from test_evaluator import EXPECTED_COUNTS, GOLDEN_RANK_DIGEST, _seven_card_samples
from uth.cards import Card, parse_cards
from uth.errors import InvalidCardError
from uth.evaluator import (
    Category,
    category_batch,
    category_of,
    evaluate5_batch,
    evaluate6_batch,
    evaluate7_batch,
    fast,
    hand_value,
    rank_holes_on_board,
    seven_card_value_counts,
    tables,
)

C = Category
Rows = npt.NDArray[np.uint8]


def random_hands(rng: np.random.Generator, rows: int, n: int) -> Rows:
    """``rows`` random hands of ``n`` distinct cards (uint8, shape (rows, n))."""
    out = np.empty((rows, n), dtype=np.uint8)
    for start in range(0, rows, 100_000):
        stop = min(rows, start + 100_000)
        out[start:stop] = np.argsort(rng.random((stop - start, 52)), axis=1)[:, :n]
    return out


def plain(rows: Rows) -> npt.NDArray[np.int32]:
    return np.array([hand_value(row) for row in rows.tolist()], dtype=np.int32)


def all_variants(rows: Rows) -> list[npt.NDArray[np.int32]]:
    """The batch call of the rows' width: serial/parallel, checked/unchecked, with out=."""
    batch = {5: evaluate5_batch, 6: evaluate6_batch, 7: evaluate7_batch}[rows.shape[1]]
    out = np.empty(rows.shape[0], dtype=np.int32)
    results = [
        batch(rows),
        batch(rows, parallel=True),
        batch(rows, check=False),
        batch(rows, parallel=True, check=False, out=out),
    ]
    assert results[-1] is out
    return results


@pytest.fixture(scope="module")
def million() -> Rows:
    return random_hands(np.random.default_rng(20261130), 1_000_000, 7)


# --------------------------------------------------------------------------- tables


def test_every_table_entry_is_hand_value() -> None:
    """Every rank pattern of 5, 6 and 7 cards and every flush mask, against hand_value."""
    for n in (5, 6, 7):
        hands = [tables.representative(c) for c in tables.rank_patterns(n)]
        assert len(hands) == {5: 6_175, 6: 18_395, 7: 49_205}[n]
        rows = np.array(hands, dtype=np.uint8)
        expected = plain(rows)
        for got in all_variants(rows):
            np.testing.assert_array_equal(got, expected)
    # Flushes: 5 to 7 cards of one suit (each suit), filled up with off-suit cards.
    rng = np.random.default_rng(5)
    for mask in range(1 << 13):
        ranks = [r for r in range(13) if mask >> r & 1]
        if not 5 <= len(ranks) <= 7:
            continue
        suit = mask % 4
        hand = [r * 4 + suit for r in ranks]
        others = [c for c in range(52) if c & 3 != suit]
        for n in range(len(ranks), 8):
            cards = hand + rng.choice(others, n - len(ranks), replace=False).tolist()
            row = np.array([cards], dtype=np.uint8)
            got = {5: evaluate5_batch, 6: evaluate6_batch, 7: evaluate7_batch}[n](row)
            assert int(got[0]) == hand_value(cards) == int(fast.FLUSH[mask]), cards


def test_tables_file_matches_its_digest() -> None:
    assert tables.digest(tables.load()) == fast.TABLES_SHA256
    # Table memory, as documented in the README.
    assert fast.RANKS.nbytes + fast.DISPLACE.nbytes + fast.FLUSH.nbytes == 485_376
    assert tables.PATH.stat().st_size < 250_000


# --------------------------------------------------------------------------- batch == plain


def test_a_million_random_hands_equal_plain(million: Rows) -> None:
    expected = plain(million)
    for got in all_variants(million):
        np.testing.assert_array_equal(got, expected)
    # Every category appears, in the proportions of the published seven-card table
    # (Wikipedia, "Poker probability": pair 43.8%, two pair 23.5%, ...).
    share = np.bincount(category_batch(expected), minlength=10) / len(expected)
    assert abs(share[C.PAIR] - 0.438) < 0.003
    assert abs(share[C.TWO_PAIR] - 0.235) < 0.003


@pytest.mark.parametrize("n", [5, 6])
def test_random_short_hands_equal_plain(n: int) -> None:
    rows = random_hands(np.random.default_rng(n), 50_000, n)
    expected = plain(rows)
    for got in all_variants(rows):
        np.testing.assert_array_equal(got, expected)


def _hands_written_in_test_evaluator() -> list[list[int]]:
    """Every string literal of test_evaluator.py that reads as 5 to 7 distinct cards."""
    source = (Path(__file__).parent / "test_evaluator.py").read_text("utf-8")
    hands: list[list[int]] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            try:
                cards = parse_cards(node.value)
            except (InvalidCardError, ValueError):
                continue
            if 5 <= len(cards) <= 7 and len(set(cards)) == len(cards):
                hands.append([c.index for c in cards])
    return hands


def test_boundary_hands_of_the_evaluator_tests() -> None:
    hands = _hands_written_in_test_evaluator()
    assert len(hands) > 150
    hands += [list(h) for h in _seven_card_samples()]
    for n in (5, 6, 7):
        group = [h for h in hands if len(h) == n]
        assert group
        rows = np.array(group, dtype=np.uint8)
        for got in all_variants(rows):
            np.testing.assert_array_equal(got, plain(rows))


def test_all_five_card_hands_in_the_golden_order() -> None:
    combos = np.fromiter(
        itertools.chain.from_iterable(itertools.combinations(range(52), 5)), dtype=np.uint8
    ).reshape(-1, 5)
    assert combos.shape == (2_598_960, 5)
    values = evaluate5_batch(combos, parallel=True)
    distinct, position = np.unique(values, return_inverse=True)
    assert len(distinct) == 7_462
    ranks = position.astype("<u2")
    assert hashlib.sha256(ranks.tobytes()).hexdigest() == GOLDEN_RANK_DIGEST
    categories, counts = np.unique(category_batch(values), return_counts=True)
    assert {Category(int(c)): int(n) for c, n in zip(categories, counts, strict=True)} == (
        EXPECTED_COUNTS
    )


# --------------------------------------------------------------------------- reference order


def test_order_of_a_million_hands_matches_eval7(million: Rows) -> None:
    """Sorted by our value, eval7's value never goes down and ties exactly where ours do."""
    deck = [eval7.Card(str(Card.from_index(i))) for i in range(52)]
    theirs = np.array([eval7.evaluate([deck[c] for c in row]) for row in million.tolist()])
    ours = evaluate7_batch(million)
    order = np.argsort(ours, kind="stable")
    a, b = ours[order], theirs[order]
    assert np.array_equal(np.diff(a) > 0, np.diff(b) > 0)
    assert np.array_equal(np.diff(a) == 0, np.diff(b) == 0)


# --------------------------------------------------------------------------- exhaustive


SEVEN_CARD_COUNTS = {
    C.ROYAL_FLUSH: 4_324,
    C.STRAIGHT_FLUSH: 37_260,
    C.FOUR_OF_A_KIND: 224_848,
    C.FULL_HOUSE: 3_473_184,
    C.FLUSH: 4_047_644,
    C.STRAIGHT: 6_180_020,
    C.THREE_OF_A_KIND: 6_461_620,
    C.TWO_PAIR: 31_433_400,
    C.PAIR: 58_627_800,
    C.HIGH_CARD: 23_294_460,
}


def test_every_seven_card_hand() -> None:
    values, counts = seven_card_value_counts()
    assert int(counts.sum()) == 133_784_560
    assert len(values) == 4_824
    per_category = Counter[Category]()
    for value, n in zip(values.tolist(), counts.tolist(), strict=True):
        per_category[category_of(value)] += n
    assert dict(per_category) == SEVEN_CARD_COUNTS
    assert np.all(np.diff(values) > 0)
    # The best and worst seven-card hands.
    assert int(values[0]) == hand_value([c.index for c in parse_cards("2c 3d 4h 5s 7c 8d 9h")])
    assert int(values[-1]) == hand_value([c.index for c in parse_cards("As Ks Qs Js Ts 9s 8s")])


# --------------------------------------------------------------------------- one board, all holes


@pytest.mark.parametrize(
    "board", ["Ac Kd 7h 7s 2c", "2s 3s 4s 5s 9h", "Ah Kh Qh Jh Th", "6c 6d 6h 9s 9c"]
)
def test_rank_holes_on_board(board: str) -> None:
    indices = [c.index for c in parse_cards(board)]
    holes, values, order = rank_holes_on_board(indices)
    assert holes.shape == (1081, 2) and holes.dtype == np.uint8
    assert values.shape == (1081,) and values.dtype == np.int32
    assert order.shape == (1081,) and order.dtype == np.int64
    rest = [c for c in range(52) if c not in indices]
    assert holes.tolist() == [list(h) for h in itertools.combinations(rest, 2)]
    rows = np.hstack([holes, np.tile(np.array(indices, dtype=np.uint8), (1081, 1))])
    np.testing.assert_array_equal(values, plain(rows))
    np.testing.assert_array_equal(order, np.argsort(values, kind="stable"))


def test_rank_holes_on_a_board_with_a_royal_flush_ties_every_hole() -> None:
    _, values, order = rank_holes_on_board(np.array([48, 44, 40, 36, 32], dtype=np.uint8))
    assert set(values.tolist()) == {C.ROYAL_FLUSH << 20 | 12 << 16}
    assert order.tolist() == list(range(1081))


@pytest.mark.parametrize(
    ("board", "message"),
    [
        ([1, 2, 3, 4], "board: expected five card indices, got [1, 2, 3, 4]"),
        ([1, 2, 3, 4, 52], "board[4]: card index must be 0..51, got 52"),
        ([1, 2, 3, -1, 5], "board[3]: card index must be 0..51, got -1"),
        ([1, 2, 3, 4, 1], "board: duplicate card 2d"),
        (["As", "Kd", "Qh", "Jc", "Tc"], "board: expected five card indices"),
    ],
)
def test_rank_holes_bad_board(board: list[object], message: str) -> None:
    with pytest.raises(InvalidCardError) as info:
        rank_holes_on_board(board)  # type: ignore[arg-type]
    assert str(info.value).startswith(message)


# --------------------------------------------------------------------------- kernels in numba code


# Not cached: numba's cache of a caller does not notice a change in the kernels it inlines.
@numba.njit
def _scalar_and_incremental(rows: Rows) -> npt.NDArray[np.int64]:
    """Each 7-card row by eval7, by its 5/6-card prefix kernels, and incrementally."""
    out = np.empty((rows.shape[0], 5), dtype=np.int64)
    for i in range(rows.shape[0]):
        a, b, c, d, e, f, g = rows[i]
        out[i, 0] = fast.eval7(a, b, c, d, e, f, g)
        out[i, 1] = fast.eval6(a, b, c, d, e, f)
        out[i, 2] = fast.eval5(a, b, c, d, e)
        key = fast.SIZE_KEY[7]
        bits = 0
        for j in range(7):
            key += fast.CARD_KEY[rows[i, j]]
            bits += fast.CARD_BIT[rows[i, j]]
        out[i, 3] = fast.value_from_keys(key, bits)
        out[i, 4] = fast.value7_from_keys(key, bits)
    return out


def test_kernels_callable_from_numba_code() -> None:
    rows = np.vstack(
        [
            random_hands(np.random.default_rng(9), 20_000, 7),
            np.array(_seven_card_samples(), dtype=np.uint8),
        ]
    )
    got = _scalar_and_incremental(rows)
    np.testing.assert_array_equal(got[:, 0], plain(rows))
    np.testing.assert_array_equal(got[:, 1], plain(np.ascontiguousarray(rows[:, :6])))
    np.testing.assert_array_equal(got[:, 2], plain(np.ascontiguousarray(rows[:, :5])))
    np.testing.assert_array_equal(got[:, 3], got[:, 0])
    np.testing.assert_array_equal(got[:, 4], got[:, 0])
    # Called from Python too (one dispatch per call).
    royal = [c.index for c in parse_cards("As Ks Qs Js Ts 2c 3d")]
    assert fast.eval7(*royal) == hand_value(royal) == C.ROYAL_FLUSH << 20 | 12 << 16


# --------------------------------------------------------------------------- categories


def test_category_batch() -> None:
    values = plain(np.array(_seven_card_samples(), dtype=np.uint8))
    cats = category_batch(values)
    assert cats.dtype == np.uint8
    assert cats.tolist() == [int(category_of(v)) for v in values.tolist()]
    assert set(cats.tolist()) == set(range(10))
    grid = category_batch(values[:6].reshape(2, 3).astype(np.int64))
    assert grid.shape == (2, 3)
    assert category_batch(np.array([], dtype=np.int32)).shape == (0,)


@pytest.mark.parametrize(
    ("values", "message"),
    [
        (np.array([1.5]), "values: expected an integer NumPy array, got float64"),
        ([1, 2], "values: expected an integer NumPy array, got list"),
        (np.array([0, 10 << 20]), f"values: {10 << 20} is not a hand value"),
        (np.array([5, -3], dtype=np.int32), "values: -3 is not a hand value"),
    ],
)
def test_category_batch_bad_values(values: object, message: str) -> None:
    with pytest.raises(InvalidCardError) as info:
        category_batch(values)  # type: ignore[arg-type]
    assert str(info.value) == message
    assert info.value.field == "values"


# --------------------------------------------------------------------------- bad input


def _rows(*hands: list[int]) -> Rows:
    return np.array(hands, dtype=np.uint8)


GOOD = [0, 5, 10, 15, 20, 25, 30]


@pytest.mark.parametrize(
    ("cards", "field", "message"),
    [
        (
            [GOOD],
            "cards",
            "cards: expected a NumPy array of dtype uint8 and shape (rows, 7), got list",
        ),
        (
            np.array([GOOD], dtype=np.int64),
            "cards",
            "cards: expected dtype uint8 (card indices 0..51), got int64",
        ),
        (
            np.array([GOOD], dtype=np.int8),
            "cards",
            "cards: expected dtype uint8 (card indices 0..51), got int8",
        ),
        (_rows(GOOD[:6]), "cards", "cards: expected shape (rows, 7), got (1, 6)"),
        (np.array(GOOD, dtype=np.uint8), "cards", "cards: expected shape (rows, 7), got (7,)"),
        (
            np.zeros((2, 7, 1), dtype=np.uint8),
            "cards",
            "cards: expected shape (rows, 7), got (2, 7, 1)",
        ),
        (
            _rows(GOOD, [*GOOD[:6], 52]),
            "cards[1]",
            "cards[1]: card index must be 0..51, got 52 at column 6",
        ),
        (
            _rows(GOOD, GOOD, [255, *GOOD[1:]]),
            "cards[2]",
            "cards[2]: card index must be 0..51, got 255 at column 0",
        ),
        (_rows(GOOD, [*GOOD[:6], 10]), "cards[1]", "cards[1]: duplicate card 4h (index 10)"),
        (_rows([51, 0, 1, 2, 3, 4, 51]), "cards[0]", "cards[0]: duplicate card As (index 51)"),
    ],
)
def test_bad_cards(cards: object, field: str, message: str) -> None:
    for parallel in (False, True):
        with pytest.raises(InvalidCardError) as info:
            evaluate7_batch(cards, parallel=parallel)  # type: ignore[arg-type]
        assert str(info.value) == message
        assert info.value.field == field
    if field != "cards":  # a bad row: the plain check kernel finds the same one
        assert fast.first_bad_row(cards) == int(field[len("cards[") : -1])  # type: ignore[arg-type]


def test_the_first_bad_row_of_a_large_batch_is_named() -> None:
    rows = random_hands(np.random.default_rng(4), 100_000, 7)
    rows[77_777, 3] = rows[77_777, 5]
    rows[88_888, 0] = 60
    for parallel in (False, True):
        with pytest.raises(InvalidCardError) as info:
            evaluate7_batch(rows, parallel=parallel)
        assert info.value.field == "cards[77777]"
    assert fast.first_bad_row(rows) == 77_777


def test_unchecked_skips_only_the_card_check() -> None:
    dup = _rows([*GOOD[:6], 10])
    with pytest.raises(InvalidCardError):
        evaluate7_batch(dup)
    assert evaluate7_batch(dup, check=False).shape == (1,)  # a value, not a meaningful one
    with pytest.raises(InvalidCardError, match=r"expected shape \(rows, 7\)"):
        evaluate7_batch(_rows(GOOD[:6]), check=False)


def test_bad_out_and_other_widths() -> None:
    rows = _rows(GOOD, GOOD[::-1])
    for out in (np.empty(3, np.int32), np.empty(2, np.int64), np.empty((2, 1), np.int32), [0, 0]):
        with pytest.raises(InvalidCardError) as info:
            evaluate7_batch(rows, out=out)  # type: ignore[arg-type]
        assert str(info.value) == "out: expected a contiguous int32 array of shape (2,)"
    with pytest.raises(InvalidCardError, match=r"cards: expected shape \(rows, 5\), got \(2, 7\)"):
        evaluate5_batch(rows)
    with pytest.raises(InvalidCardError, match=r"cards: expected shape \(rows, 6\), got \(2, 7\)"):
        evaluate6_batch(rows)
    with pytest.raises(InvalidCardError, match=r"cards\[0\]: duplicate card 2c"):
        evaluate5_batch(_rows([0, 1, 2, 3, 0]))


def test_views_and_empty_batches() -> None:
    wide = random_hands(np.random.default_rng(3), 1000, 9)
    view = wide[:, 1:8]  # not contiguous: copied first
    assert not view.flags.c_contiguous
    np.testing.assert_array_equal(evaluate7_batch(view), plain(np.ascontiguousarray(view)))
    assert evaluate7_batch(np.empty((0, 7), dtype=np.uint8)).shape == (0,)
    assert evaluate7_batch(np.empty((0, 7), dtype=np.uint8), parallel=True).shape == (0,)
