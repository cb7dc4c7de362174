"""Benchmark of the exact analysis (uth analyze): the full 52-card deck, one core
and both, and the fast method against the brute-force reference on a reduced deck.

Usage (from the repository root)::

    .venv/bin/python benchmarks/analyze.py                 # casino, 1 and all threads
    .venv/bin/python benchmarks/analyze.py --rules california-bad-beat --threads 2

Each run recomputes (no cache). The numba kernels are compiled (or loaded from
numba's cache) by a warm-up on a reduced deck before any timing. Printed: wall
and CPU seconds per run, the speed-up, the load average of the machine during
the run (a shared machine depresses the figures), and the house edge to show
that the runs agree. The results go into docs/benchmarks.md by hand.
"""

from __future__ import annotations

import argparse
import os
import platform
import time

import numba

from uth.analysis import analyze, reduced_deck
from uth.analysis.reference import reference
from uth.rules import preset


def _timed(label: str, run: object) -> float:
    load = os.getloadavg()[0]
    wall, cpu = time.perf_counter(), time.process_time()
    value = run()  # type: ignore[operator]
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    print(f"{label:<40} wall {wall:8.2f} s  cpu {cpu:8.2f} s  load {load:5.2f}  -> {value}")
    return wall


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", default="casino")
    parser.add_argument("--threads", type=int, nargs="*", default=None)
    parser.add_argument("--skip-reference", action="store_true")
    args = parser.parse_args()
    rules = preset(args.rules)
    cores = numba.config.NUMBA_NUM_THREADS
    threads = args.threads or sorted({1, cores})
    print(f"{platform.node()} {platform.processor() or platform.machine()}, {os.cpu_count()} CPUs")
    small = reduced_deck("TJQKA", "cdh")
    analyze(rules, deck=small, threads=1)  # warm-up: compile or load the kernels
    if not args.skip_reference:
        fast = _timed(
            "reduced deck (15 cards), fast, 1 thread",
            lambda: float(analyze(rules, deck=small, threads=1).ev),
        )
        brute = _timed(
            "reduced deck (15 cards), brute force", lambda: reference(rules, small)["ev"]
        )
        print(f"brute force / fast: {brute / fast:.0f}x")
    walls = {}
    for n in threads:
        walls[n] = _timed(
            f"52 cards, {args.rules}, {n} thread(s)",
            lambda n=n: f"house edge {float(analyze(rules, threads=n).house_edge):.6%}",
        )
    if len(walls) > 1:
        one, most = walls[min(walls)], walls[max(walls)]
        print(f"speed-up {min(walls)} -> {max(walls)} threads: {one / most:.2f}x")


if __name__ == "__main__":
    main()
