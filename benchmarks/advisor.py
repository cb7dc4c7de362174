"""Time of one answer of the decision advisor (issue 11), per street.

Usage: .venv/bin/python benchmarks/advisor.py [--spots 30] [--rules casino] [--json FILE]

For each street it draws ``--spots`` random spots (seeded), calls the advisor once
to warm up (numba's cache load), then times one call per spot with
``time.perf_counter`` and prints min, median, p95 and max in milliseconds. Beside
it, side by side in the same run, the "peer": the brute-force enumeration the tests
use (every deal built as a NumPy array and evaluated by ``evaluate7_batch``), on a
few of the same spots, and the ratio of the medians. Pre-flop answers need the
exact analysis' table; when it is not known for the rule set that street is
reported as unavailable.
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import statistics
import time
from collections.abc import Callable
from datetime import UTC, datetime
from functools import partial
from itertools import combinations
from typing import Any

import numpy as np

from uth.analysis.advisor import DEALER_HOLES, AdviceUnavailableError, advise
from uth.cards import ALL_CARDS, Card
from uth.evaluator import evaluate7_batch
from uth.rules import preset


def _spots(n: int, board: int, seed: int) -> list[tuple[tuple[Card, ...], tuple[Card, ...]]]:
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        cards = rng.sample(ALL_CARDS, 2 + board)
        out.append((tuple(cards[:2]), tuple(cards[2:])))
    return out


def _time(fn: Callable[[], object]) -> float:
    start = time.perf_counter()
    fn()
    return (time.perf_counter() - start) * 1000


def _stats(ms: list[float]) -> dict[str, float]:
    ordered = sorted(ms)
    return {
        "n": len(ordered),
        "min_ms": ordered[0],
        "median_ms": statistics.median(ordered),
        "p95_ms": ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))],
        "max_ms": ordered[-1],
    }


def _brute_river(hole: tuple[Card, ...], board: tuple[Card, ...]) -> None:
    """The peer: every dealer hole as a row, evaluated in one batch (values only)."""
    seen = {c.index for c in (*hole, *board)}
    rest = [c for c in range(52) if c not in seen]
    b = [c.index for c in board]
    rows = np.array([[*b, x, y] for x, y in combinations(rest, 2)], dtype=np.uint8)
    assert rows.shape[0] == DEALER_HOLES
    evaluate7_batch(rows)
    evaluate7_batch(np.array([[*(c.index for c in hole), *b]], dtype=np.uint8))


def _brute_flop(hole: tuple[Card, ...], flop: tuple[Card, ...]) -> None:
    """The peer: all 1,070,190 deals as rows, evaluated in one batch (values only)."""
    seen = {c.index for c in (*hole, *flop)}
    rest = np.array([c for c in range(52) if c not in seen], dtype=np.uint8)
    boards = list(combinations(range(len(rest)), 2))
    n = len(boards)
    turn_river = rest[np.array(boards)]
    others = np.array([[k for k in range(len(rest)) if k not in tr] for tr in boards])
    holes = rest[others[:, np.array(list(combinations(range(45), 2)))]]
    flop_cols = np.broadcast_to(np.array([c.index for c in flop], dtype=np.uint8), (n, 3))
    boards5 = np.concatenate([flop_cols, turn_river], axis=1)
    dealer = np.concatenate(
        [np.broadcast_to(boards5[:, None, :], (n, DEALER_HOLES, 5)), holes], axis=2
    )
    evaluate7_batch(dealer.reshape(-1, 7), check=False)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--spots", type=int, default=30)
    parser.add_argument("--peer-spots", type=int, default=5)
    parser.add_argument("--rules", default="casino")
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--json", default=None)
    args = parser.parse_args()
    rules = preset(args.rules)
    result: dict[str, Any] = {
        "date": datetime.now(UTC).isoformat(timespec="seconds"),
        "machine": platform.machine(),
        "python": platform.python_version(),
        "rules": rules.name,
    }
    peers = {"river": _brute_river, "flop": _brute_flop}
    for street, size in (("pre_flop", 0), ("flop", 3), ("river", 5)):
        spots = _spots(args.spots, size, args.seed)
        try:
            advise(rules, *spots[0])  # warm up: load the compiled kernels / the table
        except AdviceUnavailableError as exc:
            result[street] = {"unavailable": str(exc)}
            print(f"{street:9s} unavailable: {exc}")
            continue
        times = [_time(partial(advise, rules, *s)) for s in spots]
        result[street] = {"advisor": _stats(times)}
        line = f"{street:9s} advisor  " + "  ".join(
            f"{k} {v:.3f}" for k, v in result[street]["advisor"].items() if k != "n"
        )
        print(line)
        peer = peers.get(street)
        if peer is not None:
            peer(*spots[0])
            peer_times = [_time(partial(peer, *s)) for s in spots[: args.peer_spots]]
            result[street]["peer"] = _stats(peer_times)
            ratio = statistics.median(peer_times) / statistics.median(times)
            result[street]["peer_over_advisor"] = ratio
            print(
                f"{street:9s} peer     median {statistics.median(peer_times):.3f} ms "
                f"(brute-force batch evaluation, {len(peer_times)} spots): {ratio:.1f}x the advisor"
            )
    if args.json:
        with open(args.json, "w", encoding="utf-8") as fh:
            json.dump(result, fh, indent=1)


if __name__ == "__main__":
    main()
