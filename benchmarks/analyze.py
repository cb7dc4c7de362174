"""Benchmark of the exact analysis (uth analyze): the full 52-card deck, one core
and both, and the fast method against the brute-force reference on a reduced deck.

Usage (from the repository root)::

    .venv/bin/python benchmarks/analyze.py                 # casino, 1 and all threads
    .venv/bin/python benchmarks/analyze.py --rules california-bad-beat --threads 2
    # old against new in one run: a checkout of the old code's src/ beside this one
    mkdir -p /tmp/uth-old && git archive <old commit> src | tar -x -C /tmp/uth-old
    .venv/bin/python benchmarks/analyze.py --skip-reference --baseline-src /tmp/uth-old/src
    # a quick comparison on a fixed sample of canonical flops (one thread)
    .venv/bin/python benchmarks/analyze.py --skip-reference --flops 48 --baseline-src /tmp/uth-old/src

Each run recomputes (no cache). The numba kernels are compiled (or loaded from
numba's cache) by a warm-up on a reduced deck before any timing. Printed: wall
and CPU seconds per run, the speed-up, the load average of the machine during
the run (a shared machine depresses the figures), and the house edge to show
that the runs agree. With ``--baseline-src`` every measurement runs in a fresh
interpreter, the old code's (``PYTHONPATH`` = that directory) and this checkout's
in turn, so both see the same load. The results go into docs/benchmarks.md by hand.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import numba
import numpy as np

from uth.analysis import analysis_deck, analyze, reduced_deck
from uth.analysis.exact import run_flops
from uth.analysis.params import game_params
from uth.analysis.reference import reference
from uth.rules import preset

SRC = Path(__file__).resolve().parents[1] / "src"


def _timed(label: str, run: object) -> dict[str, Any]:
    load = os.getloadavg()[0]
    wall, cpu = time.perf_counter(), time.process_time()
    value = run()  # type: ignore[operator]
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    print(f"{label:<44} wall {wall:8.2f} s  cpu {cpu:8.2f} s  load {load:5.2f}  -> {value}")
    return {"label": label, "wall": wall, "cpu": cpu, "load": load, "value": value}


def _measure(rules_name: str, threads: int, flops: int) -> dict[str, Any]:
    """One measurement in this interpreter: the whole analysis, or ``flops`` evenly
    spaced canonical flops on one thread (their checksum as the value).
    """
    rules = preset(rules_name)
    analyze(rules, deck=reduced_deck("TJQKA", "cdh"), threads=1)  # compile or load the kernels
    if flops:
        deck = analysis_deck()
        params = game_params(rules)
        picks = [int(x) for x in np.linspace(0, len(deck.flops) - 1, flops).round()]
        numba.set_num_threads(1)
        return _timed(
            f"52 cards, {rules_name}, {flops} flops, 1 thread",
            lambda: int(run_flops(params, deck, picks, batch=1).flop_sums.sum()),
        )
    return _timed(
        f"52 cards, {rules_name}, {threads} thread(s)",
        lambda: f"house edge {float(analyze(rules, threads=threads).house_edge):.6%}",
    )


def _child(src: Path, rules_name: str, threads: int, flops: int) -> dict[str, Any]:
    env = {**os.environ, "PYTHONPATH": str(src)}
    cmd = [sys.executable, __file__, "--child", "--rules", rules_name, "--threads", str(threads)]
    cmd += ["--flops", str(flops)]
    out = subprocess.run(cmd, env=env, check=True, capture_output=True, text=True).stdout
    result: dict[str, Any] = json.loads(out.strip().splitlines()[-1])
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", default="casino")
    parser.add_argument("--threads", type=int, nargs="*", default=None)
    parser.add_argument("--skip-reference", action="store_true")
    parser.add_argument("--flops", type=int, default=0, help="time this many flops only")
    parser.add_argument("--baseline-src", type=Path, help="the old code's src/ to compare")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    cores = numba.config.NUMBA_NUM_THREADS
    threads = args.threads or sorted({1, cores})
    if args.child:
        result = _measure(args.rules, threads[0], args.flops)
        print(json.dumps(result, default=str))
        return
    print(f"{platform.node()} {platform.processor() or platform.machine()}, {os.cpu_count()} CPUs")
    print(time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime()))
    rules = preset(args.rules)
    if not args.skip_reference:
        small = reduced_deck("TJQKA", "cdh")
        analyze(rules, deck=small, threads=1)  # warm-up: compile or load the kernels
        fast = _timed(
            "reduced deck (15 cards), fast, 1 thread",
            lambda: float(analyze(rules, deck=small, threads=1).ev),
        )
        brute = _timed(
            "reduced deck (15 cards), brute force", lambda: reference(rules, small)["ev"]
        )
        print(f"brute force / fast: {brute['wall'] / fast['wall']:.0f}x")
    for n in [1] if args.flops else threads:
        runs = [("new", SRC)]
        if args.baseline_src is not None:
            runs.insert(0, ("old", args.baseline_src))
        got = {tag: _child(src, args.rules, n, args.flops) for tag, src in runs}
        for tag, r in got.items():
            print(
                f"{tag} {r['label']:<44} wall {r['wall']:8.2f} s  cpu {r['cpu']:8.2f} s  "
                f"load {r['load']:5.2f}  -> {r['value']}"
            )
        if "old" in got:
            old, new = got["old"], got["new"]
            print(
                f"    old / new: CPU {old['cpu'] / new['cpu']:.2f}x, "
                f"wall {old['wall'] / new['wall']:.2f}x"
            )


if __name__ == "__main__":
    main()
