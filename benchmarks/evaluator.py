"""Seven-card hand evaluation speed: uth's numba batch kernels beside Python's evaluators.

Every evaluator ranks the same random seven-card hands (one seeded million by
default) in one run; the slow ones (uth's plain scalar ``hand_value``, treys,
pokerkit) take a prefix of them. Each timing is the median of ``--repeat`` runs.
Before timing, each numeric peer's values are checked to order the first 20,000
hands exactly as uth does. Then: the exhaustive enumeration of all 133,784,560
seven-card hands, one board against all 1,081 holes, and a fresh process to its
first batch result (numba's cache warm).

    .venv/bin/pip install -e '.[bench]'
    .venv/bin/python benchmarks/evaluator.py                # print the table
    .venv/bin/python benchmarks/evaluator.py --write-docs   # also into docs/benchmarks.md

Peers are called through their public Python API, one call per hand, with their
card objects built beforehand (not timed): eval7 ``evaluate(cards)``, phevaluator
``evaluate_cards(*ids)``, treys ``Evaluator().evaluate(hand, board)``, pokerkit
``StandardHighHand.from_game(hole, board)``.
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import platform
import resource
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple

import numba
import numpy as np
import numpy.typing as npt

from uth.cards import Card
from uth.evaluator import (
    evaluate7_batch,
    fast,
    hand_value,
    rank_holes_on_board,
    seven_card_value_counts,
)

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs" / "benchmarks.md"
BEGIN = "<!-- evaluator:begin -->"
END = "<!-- evaluator:end -->"

Rows = npt.NDArray[np.uint8]


def random_hands(n: int, seed: int) -> Rows:
    rng = np.random.default_rng(seed)
    out = np.empty((n, 7), dtype=np.uint8)
    for start in range(0, n, 100_000):
        stop = min(n, start + 100_000)
        out[start:stop] = np.argsort(rng.random((stop - start, 52)), axis=1)[:, :7]
    return out


class Timing(NamedTuple):
    """Median wall seconds and median CPU seconds (all threads of this process)."""

    wall: float
    cpu: float


def median_time(fn: Callable[[], object], repeat: int) -> Timing:
    walls, cpus = [], []
    for _ in range(repeat):
        c0, t0 = time.process_time(), time.perf_counter()
        fn()
        walls.append(time.perf_counter() - t0)
        cpus.append(time.process_time() - c0)
    return Timing(statistics.median(walls), statistics.median(cpus))


Row = tuple[str, int, Timing, str]


def agrees(ours: npt.NDArray[np.int32], theirs: npt.NDArray[np.int64], higher_wins: bool) -> bool:
    """Whether ``theirs`` orders the hands exactly as ``ours`` (ties included)."""
    order = np.argsort(ours, kind="stable")
    a, b = np.diff(ours[order]), np.diff(theirs[order])
    if not higher_wins:
        b = -b
    return bool(np.array_equal(a > 0, b > 0) and np.array_equal(a == 0, b == 0))


def peers(hands: Rows, n_fast: int, n_slow: int, repeat: int, check: Rows) -> list[Row]:
    """(name, hands, seconds, note) for every peer that is installed."""
    rows: list[Row] = []
    text = [str(Card.from_index(i)) for i in range(52)]
    ours = evaluate7_batch(check)
    try:
        import eval7

        deck7 = [eval7.Card(t) for t in text]
        lists = [[deck7[c] for c in row] for row in hands[:n_fast].tolist()]
        ok = agrees(
            ours, np.array([eval7.evaluate([deck7[c] for c in r]) for r in check.tolist()]), True
        )
        seconds = median_time(lambda: [eval7.evaluate(h) for h in lists], repeat)
        rows.append(("eval7 (Cython)", n_fast, seconds, f"order agrees: {ok}"))
    except ImportError:
        print("eval7 not installed: pip install -e '.[bench]'", file=sys.stderr)
    try:
        from phevaluator import evaluate_cards

        ids = hands[:n_fast].tolist()
        ok = agrees(ours, np.array([evaluate_cards(*r) for r in check.tolist()]), False)
        seconds = median_time(lambda: [evaluate_cards(*h) for h in ids], repeat)
        rows.append(("phevaluator (C)", n_fast, seconds, f"order agrees: {ok}"))
    except ImportError:
        print("phevaluator not installed", file=sys.stderr)
    try:
        import treys

        tc = [treys.Card.new(t) for t in text]
        evaluator = treys.Evaluator()
        split = [([tc[r[0]], tc[r[1]]], [tc[c] for c in r[2:]]) for r in hands[:n_slow].tolist()]
        ok = agrees(
            ours,
            np.array(
                [
                    evaluator.evaluate([tc[r[0]], tc[r[1]]], [tc[c] for c in r[2:]])
                    for r in check.tolist()
                ]
            ),
            False,
        )
        seconds = median_time(lambda: [evaluator.evaluate(h, b) for h, b in split], 1)
        rows.append(("treys (Python)", n_slow, seconds, f"order agrees: {ok}"))
    except ImportError:
        print("treys not installed", file=sys.stderr)
    try:
        from pokerkit import Card as PokerkitCard
        from pokerkit import StandardHighHand

        pc = [next(iter(PokerkitCard.parse(t))) for t in text]
        n_pk = max(1, n_slow // 10)
        games = [([pc[r[0]], pc[r[1]]], [pc[c] for c in r[2:]]) for r in hands[:n_pk].tolist()]
        seconds = median_time(lambda: [StandardHighHand.from_game(h, b) for h, b in games], 1)
        rows.append(("pokerkit (Python)", n_pk, seconds, "hand objects, order not checked"))
    except ImportError:
        print("pokerkit not installed", file=sys.stderr)
    return rows


def first_result_seconds(repeat: int) -> Timing:
    """A fresh interpreter: import, one 7-card batch, print (numba cache warm).

    Returns the best wall time and the CPU time (user + system) of that child.
    """
    code = (
        "import numpy as np; from uth.evaluator import evaluate7_batch; "
        "print(evaluate7_batch(np.array([[0, 4, 8, 12, 16, 20, 24]], dtype=np.uint8))[0])"
    )
    best = Timing(float("inf"), float("inf"))
    for i in range(repeat + 1):  # the first run warms the cache
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        t0 = time.perf_counter()
        subprocess.run([sys.executable, "-c", code], check=True, capture_output=True)
        wall = time.perf_counter() - t0
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
        if i and wall < best.wall:
            best = Timing(wall, cpu)
    return best


def machine() -> str:
    model = "unknown CPU"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    return (
        f"{model}, {os.cpu_count()} cores; load average {load:.1f} at the start; "
        f"Python {platform.python_version()}, numba {numba.__version__}, NumPy {np.__version__}"
    )


def commit() -> str:
    try:
        out = subprocess.run(
            ["git", "log", "-1", "--format=%h %s"],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=True,
        )
        return out.stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--hands", type=int, default=1_000_000, help="random 7-card hands (default 1,000,000)"
    )
    parser.add_argument(
        "--slow-hands",
        type=int,
        default=100_000,
        help="prefix for the scalar, treys (pokerkit: a tenth)",
    )
    parser.add_argument(
        "--repeat", type=int, default=3, help="timings per figure; the median counts"
    )
    parser.add_argument("--seed", type=int, default=20261130)
    parser.add_argument(
        "--write-docs", action="store_true", help="write the table into docs/benchmarks.md"
    )
    args = parser.parse_args()

    started = dt.datetime.now(dt.UTC)
    env = machine()
    threads = numba.get_num_threads()
    hands = random_hands(args.hands, args.seed)
    n, slow, rep = args.hands, min(args.slow_hands, args.hands), args.repeat
    out = np.empty(n, dtype=np.int32)
    check = hands[:20_000].copy()

    # Warm up (compile or load from numba's cache) before timing.
    evaluate7_batch(hands[:10], parallel=True)
    evaluate7_batch(hands[:10], check=False)
    results: list[Row] = []
    numba.set_num_threads(1)
    results.append(
        (
            "uth batch, 1 thread, unchecked",
            n,
            median_time(lambda: evaluate7_batch(hands, check=False, out=out), rep),
            "check=False",
        )
    )
    results.append(
        (
            "uth batch, 1 thread, checked",
            n,
            median_time(lambda: evaluate7_batch(hands, out=out), rep),
            "default",
        )
    )
    numba.set_num_threads(threads)
    results.append(
        (
            f"uth batch, {threads} threads, unchecked",
            n,
            median_time(lambda: evaluate7_batch(hands, parallel=True, check=False, out=out), rep),
            "parallel=True, check=False",
        )
    )
    results.append(
        (
            f"uth batch, {threads} threads, checked",
            n,
            median_time(lambda: evaluate7_batch(hands, parallel=True, out=out), rep),
            "parallel=True",
        )
    )
    plain_rows = hands[:slow].tolist()
    results.append(
        (
            "uth scalar hand_value (plain Python)",
            slow,
            median_time(lambda: [hand_value(r) for r in plain_rows], 1),
            "the reference definition",
        )
    )
    results += peers(hands, n, slow, rep, check)

    eval7_rate = next((k / t.wall for name, k, t, _ in results if name.startswith("eval7")), None)

    counts = np.zeros(fast.N_SLOTS, dtype=np.int64)
    stripes = 4 * threads
    fast.count_seven_card_slots(counts, stripes)  # warm

    def kernel_only() -> None:
        counts[:] = 0
        fast.count_seven_card_slots(counts, stripes)

    enum_kernel = median_time(kernel_only, rep)
    enum_api = median_time(seven_card_value_counts, rep)
    rank_holes_on_board([48, 45, 22, 21, 0])  # warm
    boards = np.argsort(np.random.default_rng(1).random((2000, 52)), axis=1)[:, :5]
    holes = median_time(lambda: [rank_holes_on_board(b) for b in boards], rep)
    first = first_result_seconds(rep)
    finished = dt.datetime.now(dt.UTC)
    load_end = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")

    lines = [
        f"Measured {started:%Y-%m-%d %H:%M}–{finished:%H:%M} UTC at commit `{commit()}` on {env}; "
        f"load average {load_end:.1f} at the end.",
        "",
        "| evaluator (7-card hands) | hands | seconds | million hands/s | vs eval7 | million hands per CPU-second | note |",
        "| --- | ---: | ---: | ---: | ---: | ---: | --- |",
    ]
    for name, k, t, note in results:
        rate = k / t.wall
        ratio = f"{rate / eval7_rate:.1f}x" if eval7_rate else "n/a"
        per_cpu = k / t.cpu / 1e6 if t.cpu > 0 else float("nan")
        lines.append(
            f"| {name} | {k:,} | {t.wall:.4f} | {rate / 1e6:.3f} | {ratio} | {per_cpu:.3f} | {note} |"
        )
    lines += [
        "",
        "| other figures | value |",
        "| --- | --- |",
        f"| all 133,784,560 seven-card hands, kernel ({threads} threads) | {enum_kernel.wall:.3f} s wall, {enum_kernel.cpu:.3f} CPU-s |",
        f"| the same through `seven_card_value_counts()` (values and counts) | {enum_api.wall:.3f} s wall, {enum_api.cpu:.3f} CPU-s |",
        f"| `rank_holes_on_board`: one board, 1,081 holes valued and sorted (Python call included) | {holes.wall / len(boards) * 1e6:.0f} µs per board wall, {holes.cpu / len(boards) * 1e6:.0f} µs CPU |",
        f"| fresh process to the first `evaluate7_batch` result, numba cache warm | {first.wall:.2f} s wall, {first.cpu:.2f} CPU-s |",
    ]
    table = "\n".join(lines)
    print(table)
    if args.write_docs:
        text = DOCS.read_text("utf-8")
        if BEGIN in text and END in text:
            head, rest = text.split(BEGIN, 1)
            tail = rest.split(END, 1)[1]
            DOCS.write_text(f"{head}{BEGIN}\n{table}\n{END}{tail}", "utf-8")
        else:
            DOCS.write_text(f"{text.rstrip()}\n\n{BEGIN}\n{table}\n{END}\n", "utf-8")
        print(f"written to {DOCS}")


if __name__ == "__main__":
    main()
