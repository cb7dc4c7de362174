"""Plant faults one at a time and report which tests catch each (issue 14).

Each mutation replaces one exact piece of source text (it must occur exactly once
in its file), runs the tests that should notice, and restores the file, whatever
happens (Ctrl-C included). A fault no test catches is SURVIVED; a mutation whose
text is no longer in the code is NOT APPLIED (update it here after a refactor).

Usage, from the repository root with the project's virtual environment::

    .venv/bin/python tools/mutate.py              # every mutation, after a clean run
    .venv/bin/python tools/mutate.py --list       # the mutations and their tests
    .venv/bin/python tools/mutate.py --only bank_order --only pay_table_off_by_one
    .venv/bin/python tools/mutate.py --no-baseline

Exit status: 0 when every applied mutation was caught, 1 otherwise (a mutation
survived, could not be applied, or the unmutated tests fail).

We use a script rather than mutmut: the faults that matter here are specific
(issue 14 lists them) and some live in data (a pay table in a preset file), and a
targeted run of the relevant tests takes minutes rather than hours on 2 cores.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

SETTLEMENT_TESTS = (
    "tests/test_settlement.py",
    "tests/test_settlement_properties.py",
    "tests/test_round.py",
    "tests/test_round_properties.py",
    "tests/test_cli_settle.py",
    "tests/test_cli_play.py",
    "tests/test_rules.py",
    "tests/test_cli_eval_rules.py",
)
MONEY_TESTS = ("tests/test_money.py", "tests/test_cli_settle.py", "tests/test_cli_play.py",
               "tests/test_rules.py", "tests/server/test_live_commands.py")  # fmt: skip
SERVER_TESTS = ("tests/server",)


@dataclass(frozen=True)
class Mutation:
    """One planted fault: replace ``old`` by ``new`` in ``path``; run ``tests``."""

    name: str
    what: str
    path: str
    old: str
    new: str
    tests: tuple[str, ...]


MUTATIONS = (
    Mutation(
        "folds_in_seat_order",
        "folded hands settled in seat order with the rest, not first at the fold",
        "src/uth/engine/settlement.py",
        "    folded = [g for g in groups if g[0].play == 0]\n"
        "    shown = [g for g in groups if g[0].play != 0]\n",
        "    folded: list[list[_Ready]] = []\n    shown = list(groups)\n",
        SETTLEMENT_TESTS,
    ),
    Mutation(
        "pay_table_off_by_one",
        "casino Trips pays a full house 9:1 instead of 8:1",
        "src/uth/rules/presets/casino.toml",
        'full_house = "8:1"',
        'full_house = "9:1"',
        SETTLEMENT_TESTS,
    ),
    Mutation(
        "ante_push_rule",
        "the Ante has action when the dealer does not qualify",
        "src/uth/engine/settlement.py",
        '    if not dealer.qualifies or cmp == 0:\n        add("ante", a, "push")',
        '    if cmp == 0:\n        add("ante", a, "push")',
        SETTLEMENT_TESTS,
    ),
    Mutation(
        "payout_cap_off_by_a_cent",
        "the payout cap is one cent too high",
        "src/uth/rules/model.py",
        "        return max(cap.amount, most)",
        '        return max(cap.amount, most) + Decimal("0.01")',
        SETTLEMENT_TESTS,
    ),
    Mutation(
        "bank_order",
        "hands resolved in the wrong direction (card room right to left, house left to right)",
        "src/uth/engine/settlement.py",
        '    if rules.settlement_order == "right_to_left":\n        shown.reverse()',
        '    if rules.settlement_order != "right_to_left":\n        shown.reverse()',
        SETTLEMENT_TESTS,
    ),
    Mutation(
        "bank_limit_sign",
        "the bank's headroom for a win and for a loss swapped",
        "src/uth/engine/settlement.py",
        'room = bank + running if g.result == "win" else bank - running',
        'room = bank - running if g.result == "win" else bank + running',
        SETTLEMENT_TESTS,
    ),
    Mutation(
        "folded_trips_board_only_ignored",
        "a folded hand's Trips always on the player's hand (board_only ignored)",
        "src/uth/engine/settlement.py",
        '        trips(board_value if rules.folded_trips == "board_only" else player)',
        "        trips(player)",
        SETTLEMENT_TESTS,
    ),
    Mutation(
        "antes_returned_left_to_right",
        "the Antes returned in seat order whatever the resolution order",
        "src/uth/engine/round.py",
        "        returned = tuple(h.id for h in showdown)",
        "        returned = tuple(h.player for h in self._ordered() if h.player in "
        "{r.id for r in showdown})",
        SETTLEMENT_TESTS,
    ),
    Mutation(
        "uncovered_stake_rounding",
        "the uncovered stake of a partly covered win rounded down instead of to nearest",
        "src/uth/engine/settlement.py",
        "(g.stake * uncovered / (uncovered + amount)).quantize(CENT)",
        "cents(g.stake * uncovered / (uncovered + amount))",
        SETTLEMENT_TESTS,
    ),
    Mutation(
        "amount_exponent_accepted",
        "the amount parser accepts an exponent (1e2)",
        "src/uth/money.py",
        '_PLAIN = re.compile(r"-?[0-9]+(?:\\.[0-9]{1,2})?")',
        '_PLAIN = re.compile(r"-?[0-9]+(?:\\.[0-9]{1,2})?(?:[eE][+]?[0-9]+)?")',
        MONEY_TESTS,
    ),
    Mutation(
        "request_id_window_of_1",
        "the live table remembers only the last request id",
        "src/uth/server/table.py",
        "_REPLY_CACHE = 32",
        "_REPLY_CACHE = 1",
        SERVER_TESTS,
    ),
    Mutation(
        "seeded_live_shuffle",
        "the live table shuffles with a seeded generator (every deck predictable)",
        "src/uth/server/table.py",
        "shuffler or SecureShuffler()",
        'shuffler or __import__("uth.cards", fromlist=["x"]).SeededShuffler(0)',
        SERVER_TESTS,
    ),
    Mutation(
        "storage_balance_before",
        "a round's stored balance before is computed with the wrong sign",
        "src/uth/server/storage/store.py",
        "(first.balance_after - first.amount).quantize(CENT)",
        "(first.balance_after + first.amount).quantize(CENT)",
        SERVER_TESTS,
    ),
    Mutation(
        "storage_funds_off_by_a_cent",
        "storage lets a debit overdraw by a cent",
        "src/uth/server/storage/store.py",
        "    if player.balance < amount:",
        '    if player.balance < amount - Decimal("0.01"):',
        SERVER_TESTS,
    ),
)

_FAILED = re.compile(r"^(?:FAILED|ERROR) (.+?)(?: - .*)?$", re.MULTILINE)


def run_tests(tests: tuple[str, ...], timeout: int) -> tuple[int | None, list[str], float]:
    """Run pytest on ``tests``; the exit status (None on time-out), failing ids, seconds."""
    cmd = [sys.executable, "-m", "pytest", "-q", "-rfE", "-p", "no:cacheprovider",
           "--maxfail=25", *tests]  # fmt: skip
    env = {**os.environ, "HYPOTHESIS_STORAGE_DIRECTORY": "/tmp/uth-mutate-hypothesis"}
    start = time.monotonic()
    try:
        proc = subprocess.run(
            cmd, cwd=ROOT, capture_output=True, text=True, timeout=timeout, env=env, check=False
        )
    except subprocess.TimeoutExpired:
        return None, [], time.monotonic() - start
    ids = sorted(set(_FAILED.findall(proc.stdout)))
    return proc.returncode, ids, time.monotonic() - start


def apply(m: Mutation) -> str | None:
    """Plant the fault; return the original text, or None when it cannot be applied."""
    path = ROOT / m.path
    text = path.read_text("utf-8")
    if text.count(m.old) != 1:
        return None
    path.write_text(text.replace(m.old, m.new), "utf-8")
    return text


def main() -> int:
    """Run the mutations and print a report; see the module docstring."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--list", action="store_true", help="list the mutations and exit")
    parser.add_argument("--only", action="append", default=[], help="run only this mutation")
    parser.add_argument("--no-baseline", action="store_true", help="skip the unmutated run")
    parser.add_argument("--timeout", type=int, default=900, help="seconds per test run")
    args = parser.parse_args()
    chosen = [m for m in MUTATIONS if not args.only or m.name in args.only]
    unknown = set(args.only) - {m.name for m in MUTATIONS}
    if unknown:
        parser.error(f"unknown mutation(s): {', '.join(sorted(unknown))}")
    if args.list:
        for m in chosen:
            print(f"{m.name}: {m.what}\n    {m.path}; tests: {' '.join(m.tests)}")
        return 0
    ok = True
    if not args.no_baseline:
        suites = tuple(dict.fromkeys(t for m in chosen for t in m.tests))
        code, ids, secs = run_tests(suites, args.timeout)
        print(f"baseline (no mutation): exit {code}, {secs:.0f} s", flush=True)
        if code != 0:
            print("  the unmutated tests fail; results below mean nothing:", *ids, sep="\n    ")
            ok = False
    caught = 0
    for m in chosen:
        original = apply(m)
        if original is None:
            print(f"NOT APPLIED {m.name}: its text is not (exactly once) in {m.path}")
            ok = False
            continue
        try:
            code, ids, secs = run_tests(m.tests, args.timeout)
        finally:
            (ROOT / m.path).write_text(original, "utf-8")
        if code is None:
            verdict = "TIMED OUT"
            ok = False
        elif code == 0:
            verdict = "SURVIVED"
            ok = False
        else:
            verdict = "CAUGHT"
            caught += 1
        print(f"{verdict} {m.name} ({m.what}; {secs:.0f} s): {len(ids)} failing", flush=True)
        for test_id in ids:
            print(f"    {test_id}")
    print(f"{caught} of {len(chosen)} planted faults caught")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
