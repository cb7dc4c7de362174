"""Rounds per second of `uth simulate` (practical strategy), one and two workers, side
by side with a straightforward Python simulator on treys playing the same rounds.

    .venv/bin/pip install -e '.[bench]'
    .venv/bin/python benchmarks/simulate.py [--rounds 20000000] [--peer-rounds 20000]

The peer deals the very same cards (the kernel's dealing of the same seed), plays
the same practical card in plain Python with treys' evaluator (the river outs too)
and settles Ante, Blind and Play; its total result must equal the kernel's on
those rounds to the cent, which the script checks before it prints the ratio.
Results: docs/benchmarks.md, "Simulation".
"""

from __future__ import annotations

import argparse
import os
import platform
import time

import numba
import numpy as np
from treys import Card as TreysCard
from treys import Evaluator

from uth.analysis.sim import kernel as k
from uth.analysis.sim.run import block_uniforms, compile_game, default_table, simulate
from uth.analysis.sim.strategies import PRACTICAL_RAISES, expand_range, strategy
from uth.rules import preset

RANKS = "23456789TJQKA"
SUITS = "cdhs"
# treys rank class (1 straight flush .. 9 high card) -> uth category (0 high card ..)
CATEGORY = {1: 8, 2: 7, 3: 6, 4: 5, 5: 4, 6: 3, 7: 2, 8: 1, 9: 0}
BLIND = {9: 500.0, 8: 50.0, 7: 10.0, 6: 3.0, 5: 1.5, 4: 1.0}


def _treys(c: int) -> int:
    return int(TreysCard.new(RANKS[c >> 2] + SUITS[c & 3]))


def _hand(a: int, b: int) -> str:
    hi, lo = max(a >> 2, b >> 2), min(a >> 2, b >> 2)
    if hi == lo:
        return RANKS[hi] * 2
    return RANKS[hi] + RANKS[lo] + ("s" if (a & 3) == (b & 3) else "o")


class Peer:
    """The practical card and settlement in plain Python on treys."""

    def __init__(self) -> None:
        self.ev = Evaluator()
        self.raises = {h for item in PRACTICAL_RAISES for h in expand_range(item)}
        self.tc = [_treys(c) for c in range(52)]

    def category(self, rank: int) -> int:
        if rank == 1:
            return 9  # royal flush
        return CATEGORY[self.ev.get_rank_class(rank)]

    def play(self, cards: list[int]) -> float:
        tc = self.tc
        h0, h1, d0, d1 = cards[0], cards[1], cards[2], cards[3]
        board = cards[4:9]
        hole_t = [tc[h0], tc[h1]]
        board_t = [tc[c] for c in board]
        player = self.ev.evaluate(hole_t, board_t)  # lower is better in treys
        dealer = self.ev.evaluate([tc[d0], tc[d1]], board_t)
        if _hand(h0, h1) in self.raises:
            m = 4
        elif self._flop(h0, h1, board[:3]):
            m = 2
        elif self._river(h0, h1, board, player):
            m = 1
        else:
            return -2.0
        if player < dealer:
            ante = 1.0 if self.category(dealer) >= 1 else 0.0
            return ante + BLIND.get(self.category(player), 0.0) + m
        if player > dealer:
            ante = 1.0 if self.category(dealer) >= 1 else 0.0
            return -ante - 1.0 - m
        return 0.0

    def _flop(self, h0: int, h1: int, flop: list[int]) -> bool:
        tc = self.tc
        if self.category(self.ev.evaluate([tc[h0], tc[h1]], [tc[c] for c in flop])) >= 2:
            return True
        r0, r1 = h0 >> 2, h1 >> 2
        if (r0 == r1 and r0 > 0) or any(c >> 2 in (r0, r1) for c in flop):
            return True
        for s in range(4):
            n = sum(1 for c in (h0, h1, *flop) if c & 3 == s)
            if n >= 4 and any(c & 3 == s and c >> 2 >= 8 for c in (h0, h1)):
                return True
        return False

    def _river(self, h0: int, h1: int, board: list[int], player: int) -> bool:
        tc = self.tc
        board_t = [tc[c] for c in board]
        if self.category(player) > self.category(self.ev.evaluate(board_t[:2], board_t[2:])):
            return True
        seen = {h0, h1, *board}
        outs = sum(
            1 for c in range(52) if c not in seen and self.ev.evaluate([tc[c]], board_t) < player
        )
        return outs < 21


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=20_000_000)
    parser.add_argument("--peer-rounds", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rules = preset("casino")
    strat = strategy("practical", rules)
    simulate(rules, strat, 1 << 16, 0)  # compile / load the kernels

    print(f"machine: {platform.processor() or platform.machine()}, {os.cpu_count()} CPUs, "
          f"numba {numba.__version__}, numpy {np.__version__}, load {os.getloadavg()[0]:.1f}")  # fmt: skip
    rates = {}
    for workers in (1, 2):
        t = time.perf_counter()
        cpu = time.process_time()
        res = simulate(rules, strat, args.rounds, args.seed, workers=workers)
        wall = time.perf_counter() - t
        cpu = time.process_time() - cpu
        rates[workers] = args.rounds / wall
        print(f"uth kernel, {workers} worker(s): {args.rounds:,} rounds in {wall:.2f} s = "
              f"{rates[workers]:,.0f} rounds/s ({args.rounds / cpu:,.0f} per CPU-second); "
              f"mean {res.main.mean:+.5f}")  # fmt: skip

    # The peer plays the first peer-rounds rounds of block 0, the kernel the same.
    n = args.peer_rounds
    game = compile_game(rules, default_table(rules), strat)
    u = block_uniforms(args.seed, 0, n, 1)
    cards = np.empty((n, 9), dtype=np.int64)
    k.deal_block(u, cards)
    peer = Peer()
    t = time.perf_counter()
    cpu = time.process_time()
    total = sum(peer.play(row) for row in cards.tolist())
    peer_wall = time.perf_counter() - t
    peer_cpu = time.process_time() - cpu
    acc = np.zeros(k.ACC_INT, dtype=np.int64)
    facc = np.zeros(k.ACC_FLOAT)
    none = np.zeros((0, 0), dtype=np.int64)
    k.play_block(u, *game, none, acc, facc, np.zeros(0, dtype=np.int64))
    kernel_total = int(acc[k.A_NET] + acc[k.A_NET + 1] + acc[k.A_NET + 2]) / 100
    assert abs(total - kernel_total) < 1e-6, (total, kernel_total)
    peer_rate = n / peer_wall
    print(f"peer (Python + treys): {n:,} rounds in {peer_wall:.2f} s = {peer_rate:,.0f} "
          f"rounds/s ({n / peer_cpu:,.0f} per CPU-second); same total result as the "
          f"kernel: {total:+.2f} Antes")  # fmt: skip
    for workers, rate in rates.items():
        print(f"ratio uth ({workers} worker(s)) / peer: {rate / peer_rate:,.0f}x")


if __name__ == "__main__":
    main()
