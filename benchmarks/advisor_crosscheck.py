"""Cross-check: the flop advisor, averaged over every flop, against the exact analysis.

Usage: .venv/bin/python benchmarks/advisor_crosscheck.py "Ah Kh" [--rules casino]

Checking before the flop is worth, exactly, the average over all 19,600 flops of
the best flop action (each computed by :func:`uth.analysis.advisor.flop_advice`).
The exact analysis (``uth analyze``) computes the same figure by another method
(canonical flops, inclusion-exclusion counts) and stores it in its pre-flop
table; this script compares the two fractions. Flops that are the same up to a
permutation of the suits the hole cards do not hold are computed once and
weighted. Takes minutes (a few thousand flop answers); run by hand.
"""

from __future__ import annotations

import argparse
import itertools
import time
from collections import Counter
from fractions import Fraction

from uth.analysis import cached_result
from uth.analysis.advisor import flop_advice
from uth.analysis.deck import starting_hand
from uth.cards import ALL_CARDS, Card, parse_cards
from uth.rules import preset


def canonical_flops(hole: tuple[Card, ...]) -> list[tuple[tuple[Card, ...], int]]:
    """Every flop off ``hole`` up to permutations of the other suits, with its count."""
    held = {int(c.suit) for c in hole}
    free = [s for s in range(4) if s not in held]
    rest = [c for c in ALL_CARDS if c not in hole]
    first: dict[tuple[tuple[int, int], ...], tuple[Card, ...]] = {}
    weight: Counter[tuple[tuple[int, int], ...]] = Counter()
    for flop in itertools.combinations(rest, 3):
        keys = []
        for perm in itertools.permutations(free):
            swap = dict(zip(free, perm, strict=True))
            keys.append(tuple(sorted((c.rank, swap.get(int(c.suit), int(c.suit))) for c in flop)))
        key = min(keys)
        first.setdefault(key, flop)
        weight[key] += 1
    return [(flop, weight[key]) for key, flop in first.items()]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("hole")
    parser.add_argument("--rules", default="casino")
    args = parser.parse_args()
    rules = preset(args.rules)
    hole = parse_cards(args.hole, count=2)
    stored = cached_result(rules)
    if stored is None:
        raise SystemExit(
            f"no stored analysis for {rules.name}: run uth analyze --rules {rules.name}"
        )
    start = time.perf_counter()
    groups = canonical_flops(hole)
    total = Fraction(0)
    for flop, weight in groups:
        advice = flop_advice(rules, hole, flop)
        total += weight * advice.actions[advice.best]
    check = total / 19600
    name = starting_hand(hole[0].index, hole[1].index)
    theirs = stored.pre_flop[name].check
    print(
        f"{name} ({args.hole}), {rules.name}: {len(groups)} distinct flops in "
        f"{time.perf_counter() - start:.0f} s\n"
        f"  advisor, check = {check} ({float(check):.12f})\n"
        f"  analysis, check = {theirs} ({float(theirs):.12f})\n"
        f"  equal: {check == theirs}"
    )


if __name__ == "__main__":
    main()
