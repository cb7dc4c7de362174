"""Brute-force reference: every deal of a reduced deck, decisions by backward induction.

An independent check of :mod:`uth.analysis.exact`. It shares nothing with the
fast method but the rule set: hand values come from the plain-Python reference
evaluator (:func:`uth.evaluator.hand_value`, tabulated once for every board and
hole of the deck), and a plain loop visits every deal (player hole, flop, turn
and river, dealer hole) and settles it by the wagers' rules (RULES.md,
"Settlement against the dealer") in float64, with no counting tricks, no suit
isomorphism and no integer scaling. Decisions are taken backwards: at the river
the best of fold and each Play multiple over the dealer's holes; at the flop the
best of each Play multiple and checking (then the best river decisions); before
the flop the same. Ties go to the smaller wager, as in the fast method.

The decks of the tests (three ranks in four suits, five ranks in two suits,
seven ranks in two suits) have up to 15 million deals and run in seconds; a
full deck is out of reach (2.8 x 10^13 deals).
"""

from __future__ import annotations

from itertools import combinations
from math import comb
from typing import Any

import numpy as np
from numba import njit

from uth.analysis.deck import AnalysisDeck
from uth.evaluator import CATEGORY_SHIFT, hand_value
from uth.rules import RuleSet

# Columns of a statistics vector: sums over deals.
_EV, _EV2, _WIN, _TIE, _LOSS, _FOLD, _ANTE, _BLIND, _PLAY = 0, 1, 2, 3, 4, 5, 6, 7, 8
_BB, _BB_HITS, _TRIPS, _TRIPS_HITS, _MULT = 9, 10, 11, 12, 13
_PRE = 14  # then the deals raised at each pre-flop, flop and river multiple


def _pays(table: Any) -> np.ndarray:
    out = np.zeros(10, dtype=np.float64)
    for category, odds in table.items():
        out[int(category)] = odds.win / odds.per
    return out


@njit(cache=True)
def _board_rank(board: np.ndarray, binom: np.ndarray) -> int:
    # colex rank of a sorted 5-subset of positions
    r = 0
    for i in range(5):
        r += binom[board[i], i + 1]
    return r


@njit(cache=True)
def _settle(
    vp: int,
    vd: int,
    mult: int,
    board_value: int,
    blind: np.ndarray,
    trips: np.ndarray,
    board_only: bool,
    bad_beat: np.ndarray,
    qualify: int,
    out: np.ndarray,
) -> None:
    """Settle one deal; mult = 0 is a fold. Adds to ``out`` (statistics columns)."""
    cat_p = vp >> 20
    cat_d = vd >> 20
    # Trips: the player's hand, or the board alone for a folded hand when board_only.
    tcat = cat_p
    if mult == 0 and board_only:
        tcat = board_value >> 20
    if trips[tcat] > 0:
        out[_TRIPS] += trips[tcat]
        out[_TRIPS_HITS] += 1
    else:
        out[_TRIPS] -= 1
    if mult == 0:
        out[_EV] -= 2
        out[_EV2] += 4
        out[_FOLD] += 1
        out[_ANTE] -= 1
        out[_BLIND] -= 1
        out[_BB] -= 1
        return
    qualifies = vd >= qualify
    ante = 0.0
    blind_r = 0.0
    play = 0.0
    bb = -1.0
    if vp > vd:
        out[_WIN] += 1
        ante = 1.0 if qualifies else 0.0
        blind_r = blind[cat_p]
        play = mult
        if qualifies and bad_beat[cat_d] > 0:
            bb = bad_beat[cat_d]
    elif vp < vd:
        out[_LOSS] += 1
        ante = -1.0 if qualifies else 0.0
        blind_r = -1.0
        play = -mult
        if qualifies and bad_beat[cat_p] > 0:
            bb = bad_beat[cat_p]
    else:
        out[_TIE] += 1
    total = ante + blind_r + play
    out[_EV] += total
    out[_EV2] += total * total
    out[_ANTE] += ante
    out[_BLIND] += blind_r
    out[_PLAY] += play
    out[_BB] += bb
    if bb > 0:
        out[_BB_HITS] += 1
    out[_MULT] += mult


@njit(cache=True)
def _enumerate(
    n: int,
    values: np.ndarray,
    board_values: np.ndarray,
    binom: np.ndarray,
    pre_flop: np.ndarray,
    flop: np.ndarray,
    river: np.ndarray,
    blind: np.ndarray,
    trips: np.ndarray,
    board_only: bool,
    bad_beat: np.ndarray,
    qualify: int,
) -> np.ndarray:
    width = _PRE + pre_flop.shape[0] + flop.shape[0] + river.shape[0]
    grand = np.zeros(width, dtype=np.float64)
    used = np.zeros(n, dtype=np.bool_)
    board = np.empty(5, dtype=np.int64)
    hole = 0
    for p1 in range(n):
        for p2 in range(p1 + 1, n):
            used[p1] = True
            used[p2] = True
            # per pre-flop option: 0 = check, 1.. = pre-flop multiples
            pre = np.zeros((1 + pre_flop.shape[0], width), dtype=np.float64)
            for f1 in range(n):
                for f2 in range(f1 + 1, n):
                    for f3 in range(f2 + 1, n):
                        if used[f1] or used[f2] or used[f3]:
                            continue
                        used[f1] = True
                        used[f2] = True
                        used[f3] = True
                        # per flop option of a hand that checked: 0 = check, 1.. = flop multiples
                        fl = np.zeros((1 + flop.shape[0], width), dtype=np.float64)
                        for t in range(n):
                            for r in range(t + 1, n):
                                if used[t] or used[r]:
                                    continue
                                used[t] = True
                                used[r] = True
                                cards5 = np.sort(np.array([f1, f2, f3, t, r]))
                                for i in range(5):
                                    board[i] = cards5[i]
                                b = _board_rank(board, binom)
                                vp = values[b, p1, p2]
                                bv = board_values[b]
                                # river options: 0 = fold, 1.. = river multiples
                                rv = np.zeros((1 + river.shape[0], width), dtype=np.float64)
                                # the hand that plays at each pre-flop and flop multiple
                                pm = np.zeros((pre_flop.shape[0], width), dtype=np.float64)
                                fm = np.zeros((flop.shape[0], width), dtype=np.float64)
                                for d1 in range(n):
                                    for d2 in range(d1 + 1, n):
                                        if used[d1] or used[d2]:
                                            continue
                                        vd = values[b, d1, d2]
                                        _settle(
                                            vp,
                                            vd,
                                            0,
                                            bv,
                                            blind,
                                            trips,
                                            board_only,
                                            bad_beat,
                                            qualify,
                                            rv[0],
                                        )
                                        for i in range(river.shape[0]):
                                            _settle(
                                                vp,
                                                vd,
                                                river[i],
                                                bv,
                                                blind,
                                                trips,
                                                board_only,
                                                bad_beat,
                                                qualify,
                                                rv[1 + i],
                                            )
                                        for i in range(pre_flop.shape[0]):
                                            _settle(
                                                vp,
                                                vd,
                                                pre_flop[i],
                                                bv,
                                                blind,
                                                trips,
                                                board_only,
                                                bad_beat,
                                                qualify,
                                                pm[i],
                                            )
                                        for i in range(flop.shape[0]):
                                            _settle(
                                                vp,
                                                vd,
                                                flop[i],
                                                bv,
                                                blind,
                                                trips,
                                                board_only,
                                                bad_beat,
                                                qualify,
                                                fm[i],
                                            )
                                # river decision, ties to the smaller wager
                                best = 0
                                for i in range(river.shape[0] - 1, -1, -1):
                                    if rv[1 + i, _EV] > rv[best, _EV]:
                                        best = 1 + i
                                if best > 0:
                                    deals = rv[best, _WIN] + rv[best, _TIE] + rv[best, _LOSS]
                                    rv[
                                        best, _PRE + pre_flop.shape[0] + flop.shape[0] + best - 1
                                    ] += deals
                                fl[0] += rv[best]
                                for i in range(flop.shape[0]):
                                    fl[1 + i] += fm[i]
                                for i in range(pre_flop.shape[0]):
                                    pre[1 + i] += pm[i]
                                used[t] = False
                                used[r] = False
                        best = 0
                        for i in range(flop.shape[0] - 1, -1, -1):
                            if fl[1 + i, _EV] > fl[best, _EV]:
                                best = 1 + i
                        if best > 0:
                            deals = fl[best, _WIN] + fl[best, _TIE] + fl[best, _LOSS]
                            fl[best, _PRE + pre_flop.shape[0] + best - 1] += deals
                        pre[0] += fl[best]
                        used[f1] = False
                        used[f2] = False
                        used[f3] = False
            best = 0
            for i in range(pre_flop.shape[0] - 1, -1, -1):
                if pre[1 + i, _EV] > pre[best, _EV]:
                    best = 1 + i
            if best > 0:
                deals = pre[best, _WIN] + pre[best, _TIE] + pre[best, _LOSS]
                pre[best, _PRE + best - 1] += deals
            grand += pre[best]
            used[p1] = False
            used[p2] = False
            hole += 1
    return grand


def reference(rules: RuleSet, deck: AnalysisDeck) -> dict[str, Any]:
    """The figures of ``rules`` on ``deck`` by brute force (floats, per Ante).

    Returns:
        A mapping with the keys ``ev``, ``second_moment``, ``average_total_bet``,
        ``frequencies`` (``{"pre_flop": {m: p}, "flop": ..., "river": ...}``),
        ``fold``, ``win``, ``tie``, ``loss``, ``ante``, ``blind``, ``play``,
        ``trips`` and ``bad_beat`` ((return, hit frequency) or None) and ``deals``,
        with the meanings of :class:`uth.analysis.result.AnalysisResult`.

    Raises:
        ValueError: the deck has more than 20 cards (too many deals).

    """
    n = deck.n
    if n > 20:
        raise ValueError(f"deck: the brute-force reference takes at most 20 cards, got {n}")
    cards = [int(c) for c in deck.cards]
    binom = np.zeros((n + 1, 6), dtype=np.int64)
    for i in range(n + 1):
        for j in range(6):
            binom[i, j] = comb(i, j)
    values = np.full((comb(n, 5), n, n), -1, dtype=np.int64)
    board_values = np.zeros(comb(n, 5), dtype=np.int64)
    for board in combinations(range(n), 5):
        b = sum(comb(board[i], i + 1) for i in range(5))
        board_cards = [cards[i] for i in board]
        board_values[b] = hand_value(board_cards)
        rest = [i for i in range(n) if i not in board]
        for x, y in combinations(rest, 2):
            v = hand_value([*board_cards, cards[x], cards[y]])
            values[b, x, y] = values[b, y, x] = v
    pre_flop = np.array(rules.play_multiples.pre_flop, dtype=np.int64)
    flop = np.array(rules.play_multiples.flop, dtype=np.int64)
    river = np.array(rules.play_multiples.river, dtype=np.int64)
    grand = _enumerate(
        n,
        values,
        board_values,
        binom,
        pre_flop,
        flop,
        river,
        _pays(rules.blind_pays),
        _pays(rules.trips_pays),
        rules.folded_trips == "board_only",
        _pays(rules.bad_beat_pays),
        int(rules.dealer_qualifier) << CATEGORY_SHIFT,
    )
    deals = comb(n, 2) * comb(n - 2, 3) * comb(n - 5, 2) * comb(n - 7, 2)
    g = [float(x) / deals for x in grand]
    k_pre, k_flop = len(pre_flop), len(flop)
    frequencies = {
        "pre_flop": {int(m): g[_PRE + i] for i, m in enumerate(pre_flop)},
        "flop": {int(m): g[_PRE + k_pre + i] for i, m in enumerate(flop)},
        "river": {int(m): g[_PRE + k_pre + k_flop + i] for i, m in enumerate(river)},
    }
    return {
        "deals": deals,
        "ev": g[_EV],
        "second_moment": g[_EV2],
        "average_total_bet": 2 + g[_MULT],
        "frequencies": frequencies,
        "fold": g[_FOLD],
        "win": g[_WIN],
        "tie": g[_TIE],
        "loss": g[_LOSS] + g[_FOLD],
        "ante": g[_ANTE],
        "blind": g[_BLIND],
        "play": g[_PLAY],
        "trips": (1 + g[_TRIPS], g[_TRIPS_HITS]) if rules.offers_trips else None,
        "bad_beat": (1 + g[_BB], g[_BB_HITS]) if rules.bad_beat_pays else None,
    }
