"""Exact showdown counts on a known board: the one definition of the river's dealer
counting, used by the advisor (:mod:`uth.analysis.advisor`, issue 11) and by the
simulation's exact strategies (:mod:`uth.analysis.sim.kernel`, issue 12).

:func:`showdowns` compares the player's seven cards with every dealer hole of the
unseen cards (won, tied, lost, each with and without a qualifying dealer);
:func:`river_counts` does it for a hole and a whole board, :func:`flop_counts`
for every turn and river after a flop, with the best river decision;
:func:`showdown_ev` turns counts into the summed result of a Play (Ante, Blind and
Play; RULES.md, "Settlement against the dealer") in units of 1/``scale`` Ante.
Every count is exact.
"""

from __future__ import annotations

import numba
import numpy as np
import numpy.typing as npt

from uth.evaluator import CATEGORY_SHIFT
from uth.evaluator.fast import CARD_BIT, CARD_KEY, SIZE_KEY, value_from_keys

_SIZE7 = int(SIZE_KEY[7])


@numba.njit(cache=True)
def unseen(seen_bits: int) -> npt.NDArray[np.int64]:
    """The card indices not in ``seen_bits`` (bit i = card index i), ascending."""
    n = 0
    for c in range(52):
        if not (seen_bits >> c) & 1:
            n += 1
    out = np.empty(n, dtype=np.int64)
    k = 0
    for c in range(52):
        if not (seen_bits >> c) & 1:
            out[k] = c
            k += 1
    return out


@numba.njit(cache=True)
def showdowns(
    player_key: int,
    player_bits: int,
    board_key: int,
    board_bits: int,
    rest: npt.NDArray[np.int64],
    skip_a: int,
    skip_b: int,
    qualify: int,
    out: npt.NDArray[np.int64],
) -> None:
    """Compare the player's seven cards with every dealer hole of ``rest``.

    ``player_key``/``player_bits`` and ``board_key``/``board_bits`` are sums of
    :data:`CARD_KEY`/:data:`CARD_BIT` (the board's without the size key); positions
    ``skip_a`` and ``skip_b`` of ``rest`` are left out. Writes ``out`` = [player
    value, wins with the dealer qualifying, wins without, ties, losses with,
    losses without].
    """
    pv = value_from_keys(player_key, player_bits)
    wq = wn = tie = lq = ln = 0
    n = rest.shape[0]
    base = _SIZE7 + board_key
    for i in range(n):
        if i == skip_a or i == skip_b:  # noqa: SIM109 (plain compares in the numba loop)
            continue
        a = rest[i]
        key_a = base + CARD_KEY[a]
        bits_a = board_bits + CARD_BIT[a]
        for j in range(i + 1, n):
            if j == skip_a or j == skip_b:  # noqa: SIM109
                continue
            b = rest[j]
            dv = value_from_keys(key_a + CARD_KEY[b], bits_a + CARD_BIT[b])
            if pv > dv:
                if dv >= qualify:
                    wq += 1
                else:
                    wn += 1
            elif pv < dv:
                if dv >= qualify:
                    lq += 1
                else:
                    ln += 1
            else:
                tie += 1
    out[0] = pv
    out[1] = wq
    out[2] = wn
    out[3] = tie
    out[4] = lq
    out[5] = ln


@numba.njit(cache=True)
def showdown_ev(
    counts: npt.NDArray[np.int64], multiple: int, scale: int, blind_win: npt.NDArray[np.int64]
) -> int:
    """The sum over the dealer holes counted of the hand's result with a Play of
    ``multiple`` Antes, in units of 1/``scale`` Ante (Ante, Blind and Play).
    """
    wins = counts[1] + counts[2]
    losses = counts[4] + counts[5]
    ante = scale * (counts[1] - counts[4])
    blind = blind_win[counts[0] >> CATEGORY_SHIFT] * wins - scale * losses
    return ante + blind + scale * multiple * (wins - losses)  # type: ignore[no-any-return]


@numba.njit(cache=True, nogil=True, inline="always")
def _known(cards: npt.NDArray[np.int64], n: int) -> tuple[int, int, int, int, int]:
    """The first ``n`` of ``cards`` (two hole cards, then board cards): their bits
    (bit i = card index i), then the :data:`CARD_KEY` and :data:`CARD_BIT` sums of
    the hole cards and of the board cards.
    """
    seen = 0
    board_key = 0
    board_bits = 0
    for k in range(n):
        seen |= 1 << cards[k]
        if k >= 2:
            board_key += CARD_KEY[cards[k]]
            board_bits += CARD_BIT[cards[k]]
    hole_key = CARD_KEY[cards[0]] + CARD_KEY[cards[1]]
    hole_bits = CARD_BIT[cards[0]] + CARD_BIT[cards[1]]
    return seen, hole_key, hole_bits, board_key, board_bits


@numba.njit(cache=True, nogil=True)
def river_counts(cards: npt.NDArray[np.int64], qualify: int, counts: npt.NDArray[np.int64]) -> None:
    """``cards`` = two hole cards then the five board cards: fill ``counts`` (see
    :func:`showdowns`) over every dealer hole of the other 45 cards.
    """
    seen, hole_key, hole_bits, board_key, board_bits = _known(cards, 7)
    player_key = _SIZE7 + board_key + hole_key
    player_bits = board_bits + hole_bits
    showdowns(player_key, player_bits, board_key, board_bits, unseen(seen), -1, -1, qualify, counts)


@numba.njit(cache=True, nogil=True)
def flop_counts(
    cards: npt.NDArray[np.int64],
    qualify: int,
    scale: int,
    blind_win: npt.NDArray[np.int64],
    flop_multiples: npt.NDArray[np.int64],
    river_multiples: npt.NDArray[np.int64],
    raise_sums: npt.NDArray[np.int64],
) -> int:
    """``cards`` = two hole cards then the three flop cards.

    Over every turn and river of the 47 unseen cards and every dealer hole of the
    other 45: adds to ``raise_sums[k]`` the result of a Play of
    ``flop_multiples[k]`` on the flop, and returns the sum of the best river
    decision after a check (each river multiple, or a fold at -2 Antes); units
    1/``scale`` Ante.
    """
    seen, hole_key, hole_bits, flop_key, flop_bits = _known(cards, 5)
    rest = unseen(seen)
    n = rest.shape[0]
    counts = np.zeros(6, dtype=np.int64)
    fold = -2 * scale * (n - 2) * (n - 3) // 2
    check_sum = 0
    for t in range(n):
        for r in range(t + 1, n):
            board_key = flop_key + CARD_KEY[rest[t]] + CARD_KEY[rest[r]]
            board_bits = flop_bits + CARD_BIT[rest[t]] + CARD_BIT[rest[r]]
            showdowns(
                _SIZE7 + board_key + hole_key,
                board_bits + hole_bits,
                board_key,
                board_bits,
                rest,
                t,
                r,
                qualify,
                counts,
            )
            for k in range(flop_multiples.shape[0]):
                raise_sums[k] += showdown_ev(counts, flop_multiples[k], scale, blind_win)
            best = fold
            for k in range(river_multiples.shape[0]):
                best = max(best, showdown_ev(counts, river_multiples[k], scale, blind_win))
            check_sum += best
    return check_sum
