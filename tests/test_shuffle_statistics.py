"""Statistical checks of the live shuffle, as a test lab runs them (issue 14, item 1).

The real :class:`~uth.cards.SecureShuffler` shuffles a fixed number of decks
(4,000); two chi-square tests against the uniform distribution:

- **positions**: how often each card lands in each position (52 x 52 cells,
  expected 4000/52 = 76.9 each, (52-1)^2 = 2601 degrees of freedom: a permutation
  table with both margins fixed);
- **adjacent pairs**: how often card a is directly followed by card b, over the
  51 adjacent positions of every deck (52 x 51 ordered pairs, expected
  4000 x 51 / 2652 = 76.9 each, 2651 degrees of freedom).

Each fails only below p = 1e-9, so a false alarm is practically impossible (one
run in a billion); the p-value is the Wilson-Hilferty normal approximation of the
chi-square tail, accurate at these degrees of freedom. The same tests applied to
three faulty shufflers (a seeded one with a fixed seed, the naive swap-with-any
shuffle whose bias is textbook, a random cut that keeps the deck's order) show
they have the power to catch them.
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Callable, Sequence

from uth.cards import Card, SecureShuffler, full_deck

SHUFFLES = 4000
ALPHA = 1e-9


def _upper_tail(x: float, df: int) -> float:
    """P(chi-square with ``df`` degrees of freedom >= x), Wilson-Hilferty (1931)."""
    z = ((x / df) ** (1 / 3) - (1 - 2 / (9 * df))) / math.sqrt(2 / (9 * df))
    return 0.5 * math.erfc(z / math.sqrt(2))


def _p_values(shuffle: Callable[[Sequence[Card]], Sequence[Card]]) -> tuple[float, float]:
    """(positions p-value, adjacent pairs p-value) over :data:`SHUFFLES` decks."""
    deck = full_deck()
    positions = [[0] * 52 for _ in range(52)]
    pairs = [[0] * 52 for _ in range(52)]
    for _ in range(SHUFFLES):
        order = [c.index for c in shuffle(deck)]
        assert sorted(order) == list(range(52))
        for position, card in enumerate(order):
            positions[card][position] += 1
        for a, b in itertools.pairwise(order):
            pairs[a][b] += 1
    expected = SHUFFLES / 52
    x_positions = sum((n - expected) ** 2 / expected for row in positions for n in row)
    expected_pair = SHUFFLES * 51 / (52 * 51)
    x_pairs = sum(
        (pairs[a][b] - expected_pair) ** 2 / expected_pair
        for a in range(52)
        for b in range(52)
        if a != b
    )
    return _upper_tail(x_positions, 51 * 51), _upper_tail(x_pairs, 52 * 51 - 1)


def test_the_upper_tail_matches_known_chi_square_quantiles() -> None:
    # The 0.5 quantile of chi-square(2601) is about df - 2/3; the 1e-9 upper
    # quantile about 3057 (normal z = 6.0 through the cube-root transform).
    assert abs(_upper_tail(2600.333, 2601) - 0.5) < 0.001
    assert 0.5e-9 < _upper_tail(3057.0, 2601) < 2e-9


def test_the_secure_shuffler_passes_positions_and_adjacent_pairs() -> None:
    p_positions, p_pairs = _p_values(SecureShuffler().shuffle)
    assert p_positions > ALPHA, p_positions
    assert p_pairs > ALPHA, p_pairs


def test_the_checks_catch_faulty_shufflers() -> None:
    def fixed_seed(cards: Sequence[Card]) -> list[Card]:
        out = list(cards)
        random.Random(7).shuffle(out)  # every deck the same
        return out

    rng = random.Random(2026)

    def naive_swap(cards: Sequence[Card]) -> list[Card]:
        out = list(cards)
        for i in range(len(out)):
            j = rng.randrange(len(out))  # any position, not i..n-1: biased
            out[i], out[j] = out[j], out[i]
        return out

    def random_cut(cards: Sequence[Card]) -> list[Card]:
        k = rng.randrange(len(cards))  # uniform positions, neighbours never change
        return [*cards[k:], *cards[:k]]

    assert _p_values(fixed_seed) == (0.0, 0.0)
    p_positions, _ = _p_values(naive_swap)
    assert p_positions < 1e-100
    p_positions, p_pairs = _p_values(random_cut)
    assert (p_positions > ALPHA, p_pairs) == (True, 0.0)
