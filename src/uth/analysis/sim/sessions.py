"""Sessions against a bankroll: the spread of session results and the risk of ruin.

A session is ``session_hands`` consecutive rounds of the table's first hand,
starting from ``bankroll``. Before each round the player needs the most the round
can cost: Ante and Blind, the largest Play multiple times the Ante, and the side
bets (our definition of being able to play a round, as the live table asks a
player to cover the Play, RULES.md "Online table"). A session whose balance falls
below that is ruined and stops there. The rounds come from the same block streams
as :func:`uth.analysis.sim.run.simulate` (session ``s`` plays rounds
``s * session_hands`` onward), so the same seed gives the same sessions whatever
the number of workers.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from uth.analysis.sim.run import (
    BLOCK_ROUNDS,
    Z95,
    Progress,
    Table,
    blocks,
    compile_game,
    default_table,
    play_one_block,
)
from uth.analysis.sim.strategies import CallableStrategy, Strategy
from uth.rules import RuleSet

#: The most rounds (sessions x hands) one run keeps in memory (8 bytes each).
MAX_SESSION_ROUNDS = 50_000_000
#: Sample trajectories drawn in the figure.
TRAJECTORIES = 25


@dataclass(frozen=True)
class SessionResult:
    """The sessions' outcome. Money in currency units.

    Attributes:
        sessions, session_hands, bankroll: what was played.
        need: what a round needs at most (see the module docstring).
        ruin_probability: the share of sessions ruined, with its 95% interval
            (Wilson score interval).
        final: each session's result (final balance minus bankroll), float64.
        mean, std_dev, ci95: of the session results.
        percentiles: the 5th, 25th, 50th, 75th and 95th percentile of the results.
        trajectories: the balance after each round of the first sessions
            (shape (TRAJECTORIES or fewer, session_hands + 1)).

    """

    sessions: int
    session_hands: int
    bankroll: float
    need: float
    ruin_probability: float
    ruin_ci95: tuple[float, float]
    final: npt.NDArray[np.float64]
    mean: float
    std_dev: float
    ci95: tuple[float, float]
    percentiles: dict[str, float]
    trajectories: npt.NDArray[np.float64]

    def to_json(self) -> dict[str, Any]:
        """The sessions' figures as a JSON-ready dict."""
        return {
            "sessions": self.sessions,
            "session_hands": self.session_hands,
            "bankroll": self.bankroll,
            "round_needs": self.need,
            "ruin_probability": self.ruin_probability,
            "ruin_ci95": list(self.ruin_ci95),
            "mean": self.mean,
            "std_dev": self.std_dev,
            "ci95": list(self.ci95),
            "percentiles": self.percentiles,
        }


def _wilson(hits: int, n: int) -> tuple[float, float]:
    p = hits / n
    z2 = Z95 * Z95
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = Z95 * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def play_sessions(
    rounds_net: npt.NDArray[np.int64], bankroll_cents: int, need_cents: int
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.bool_], npt.NDArray[np.int64]]:
    """Balances of sessions from per-round nets (sessions, hands) in cents.

    Returns ``(balances, ruined, final)``: the balance before each round and after
    the last (sessions, hands + 1), frozen from the round the session could not
    cover; whether it was ruined; the final balance.
    """
    sessions, hands = rounds_net.shape
    balance = np.empty((sessions, hands + 1), dtype=np.int64)
    balance[:, 0] = bankroll_cents
    np.cumsum(rounds_net, axis=1, out=balance[:, 1:])
    balance[:, 1:] += bankroll_cents
    short = balance[:, :hands] < need_cents
    ruined = short.any(axis=1)
    first = np.where(ruined, short.argmax(axis=1), hands)
    cols = np.arange(hands + 1)
    frozen = cols[None, :] > first[:, None]
    at_ruin = balance[np.arange(sessions), first]
    balance = np.where(frozen, at_ruin[:, None], balance).astype(np.int64)
    return balance, np.asarray(ruined, dtype=np.bool_), balance[:, hands]


def simulate_sessions(
    rules: RuleSet,
    strat: Strategy | CallableStrategy,
    seed: int,
    *,
    bankroll: Decimal,
    session_hands: int,
    sessions: int,
    tbl: Table | None = None,
    workers: int = 1,
    block_rounds: int = BLOCK_ROUNDS,
    progress: Progress | None = None,
) -> SessionResult:
    """Play ``sessions`` sessions of ``session_hands`` rounds from ``bankroll``.

    Raises:
        ValueError: a bankroll not positive, fewer than 1 hand or 2 sessions, or
            more than :data:`MAX_SESSION_ROUNDS` rounds in all.

    """
    if bankroll <= 0:
        raise ValueError(f"bankroll: must be positive, got {bankroll}")
    if session_hands < 1 or sessions < 2:
        raise ValueError(
            f"sessions: at least 2 sessions of 1 hand, got {sessions} of {session_hands}"
        )
    total = sessions * session_hands
    if total > MAX_SESSION_ROUNDS:
        raise ValueError(f"sessions: at most {MAX_SESSION_ROUNDS:,} rounds in all, got {total:,}")
    if tbl is None:
        tbl = default_table(rules)
    game = compile_game(rules, tbl, strat)
    first = tbl.bettors[0].wagers
    most = first.ante * (2 + rules.play_multiples.largest) + first.trips + first.bad_beat
    sizes = blocks(total, block_rounds)

    def run(b: int) -> npt.NDArray[np.int64]:
        nets = play_one_block(game, strat, rules, seed, b, sizes[b], round_net=True)[2]
        if progress is not None:
            progress(sizes[b])
        return nets

    parts: Sequence[npt.NDArray[np.int64]]
    if workers == 1:
        parts = [run(b) for b in range(len(sizes))]
    else:
        with ThreadPoolExecutor(workers) as pool:
            parts = list(pool.map(run, range(len(sizes))))
    nets = np.concatenate(parts).reshape(sessions, session_hands)
    balances, ruined, final = play_sessions(nets, int(bankroll * 100), int(most * 100))
    results = (final - int(bankroll * 100)) / 100.0
    mean = float(results.mean())
    sd = float(results.std(ddof=1))
    half = Z95 * sd / math.sqrt(sessions)
    hits = int(ruined.sum())
    qs = np.percentile(results, [5, 25, 50, 75, 95])
    return SessionResult(
        sessions=sessions,
        session_hands=session_hands,
        bankroll=float(bankroll),
        need=float(most),
        ruin_probability=hits / sessions,
        ruin_ci95=_wilson(hits, sessions),
        final=results,
        mean=mean,
        std_dev=sd,
        ci95=(mean - half, mean + half),
        percentiles={f"p{p}": float(q) for p, q in zip((5, 25, 50, 75, 95), qs, strict=True)},
        trajectories=balances[:TRAJECTORIES] / 100.0,
    )


def plot_sessions(result: SessionResult, path: Path, title: str) -> None:
    """Draw sample trajectories and the histogram of session results into ``path``
    (PNG) with matplotlib.
    """
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (left, right) = plt.subplots(1, 2, figsize=(12, 4.5))
    for row in result.trajectories:
        left.plot(row, linewidth=0.8, alpha=0.7)
    left.axhline(result.need, color="red", linestyle="--", linewidth=1, label="ruin")
    left.axhline(result.bankroll, color="grey", linewidth=0.8, label="bankroll")
    left.set_xlabel("round")
    left.set_ylabel("balance")
    left.set_title(f"{len(result.trajectories)} sample sessions")
    left.legend(loc="best")
    right.hist(result.final, bins=60, color="tab:blue")
    right.axvline(result.mean, color="black", linewidth=1, label=f"mean {result.mean:.2f}")
    right.set_xlabel("session result")
    right.set_ylabel("sessions")
    right.set_title(
        f"{result.sessions:,} sessions of {result.session_hands} hands, "
        f"ruin {result.ruin_probability:.2%}"
    )
    right.legend(loc="best")
    fig.suptitle(title)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
