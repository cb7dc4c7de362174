"""The optimal strategy against the exact analysis (issue 10): its flop table agrees
with exact counting, and its simulated mean and decision frequencies agree with
the exact figures within their confidence intervals.
"""

from __future__ import annotations

import math

import numpy as np

from uth.analysis.cache import result_for
from uth.analysis.sim import kernel as k
from uth.analysis.sim.run import Z95, compile_game, default_table, simulate
from uth.analysis.sim.strategies import optimal_pre_flop, strategy
from uth.rules import preset

CASINO = preset("casino")
#: Rounds of the agreement test: the 95% interval is about +-0.0066 Ante wide.
ROUNDS = 2_000_000


def test_optimal_pre_flop_is_the_practical_chart_for_the_default_pay_tables() -> None:
    # The practical card's pre-flop list is the optimal one (69 of the 169 hands).
    table = optimal_pre_flop(CASINO)
    assert table == dict(strategy("practical", CASINO).pre_flop)
    assert len(table) == 69


def test_flop_table_agrees_with_exact_counting() -> None:
    opt = strategy("optimal", CASINO, optimal_pre_flop(CASINO))
    game = compile_game(CASINO, default_table(CASINO), opt)
    table, canon, inverse, hole_id = game.flops
    rng = np.random.default_rng(17)
    raised = 0
    for _ in range(12):
        cards = [int(c) for c in rng.permutation(52)[:5]]
        h0, h1, flop = cards[0], cards[1], np.array(cards[2:], dtype=np.int64)
        code = canon[flop[0], flop[1], flop[2]]
        g = code & 31
        from_table = table[code >> 5, hole_id[inverse[g, h0], inverse[g, h1]]]
        exact = k._flop_exact(h0, h1, flop, game.pays, 1 << 20, game.mults)
        assert from_table == exact, cards
        raised += exact > 0
    assert 0 < raised < 12


def test_optimal_mean_agrees_with_the_exact_house_edge() -> None:
    exact = result_for(CASINO)
    opt = strategy("optimal", CASINO, optimal_pre_flop(CASINO))
    res = simulate(CASINO, opt, ROUNDS, 12, workers=2)
    low, high = res.main.ci95
    assert low < float(exact.ev) < high, (res.main, float(exact.ev))
    # decision frequencies within their own 95% intervals (binomial)
    for simulated, p in (
        (res.frequencies["raise_4x"], float(exact.frequencies["pre_flop"][4])),
        (res.frequencies["raise_2x"], float(exact.frequencies["flop"][2])),
        (res.frequencies["raise_1x"], float(exact.frequencies["river"][1])),
        (res.frequencies["fold"], float(exact.fold)),
    ):
        half = Z95 * math.sqrt(p * (1 - p) / ROUNDS)
        assert abs(simulated - p) < 2 * half, (simulated, p)
