"""Run the simulation: tables, blocks of rounds, workers, Ray, and the figures.

Rounds are played in blocks of ``BLOCK_ROUNDS``; block ``b`` draws its cards from
its own NumPy stream, ``PCG64(SeedSequence(seed, spawn_key=(b,)))`` (the stream
``SeedSequence(seed).spawn(...)`` gives its ``b``-th child), and the figures are
sums over blocks in block order. So the same seed gives the same numbers
whatever the number of workers, threads or Ray tasks that play the blocks.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

import numpy as np
import numpy.typing as npt

from uth.analysis.sim import kernel as k
from uth.analysis.sim.strategies import CallableStrategy, Strategy
from uth.engine.settlement import check_bank
from uth.engine.wagers import Wagers, validate_wagers
from uth.errors import InvalidDealError
from uth.rules import RuleSet

#: Rounds per block (one random stream each).
BLOCK_ROUNDS = 1 << 15
#: 1.96: the normal quantile of a two-sided 95% confidence interval.
Z95 = 1.959963984540054

I64 = npt.NDArray[np.int64]


def _cents(amount: Decimal) -> int:
    return int(amount * 100)


@dataclass(frozen=True)
class Bettor:
    """One hand at the table: a seated player's hand or a back-line bet.

    Attributes:
        seat: the seat (0 = the first to the dealer's left) whose cards and
            decisions the hand follows.
        wagers: the initial wagers (validated by :func:`uth.engine.validate_wagers`).
        behind: a back-line bet on the seat's hand (RULES.md, "Who banks").

    """

    seat: int
    wagers: Wagers
    behind: bool = False


@dataclass(frozen=True)
class Table:
    """The hands at the table and the player-dealer's bank.

    Attributes:
        bettors: the seated hands (one per seat, seats 0..n-1) and back-line bets.
        bank: the player-dealer's bank (currency units), ``None`` for the house.

    """

    bettors: tuple[Bettor, ...]
    bank: Decimal | None = None

    @property
    def seats(self) -> int:
        """The number of seated hands."""
        return sum(1 for b in self.bettors if not b.behind)


def table(
    rules: RuleSet,
    *,
    seats: int = 1,
    ante: object = 1,
    trips: object = 0,
    bad_beat: object = 0,
    behind: int = 0,
    bank: object | None = None,
) -> Table:
    """A table of ``seats`` equal hands and ``behind`` equal back-line bets on each.

    Args:
        rules: the rule set (limits, back-line bets, bank limits).
        seats: seated hands, 1 .. the rule set's seats.
        ante, trips, bad_beat: each hand's wagers (currency units; the Blind
            equals the Ante). The default Ante of 1 is below the presets' table
            minimum; it is accepted here since results are per Ante.
        behind: back-line bets on each seat (needs ``back_line_bets``).
        bank: the player-dealer's bank, required by a player-dealer rule set.

    Raises:
        InvalidWagerError: wagers outside the rule set's rules (other than the Ante
            minimum), a bank missing or outside its limits.
        InvalidDealError: too many seats, back-line bets the rules do not allow.

    """
    if seats < 1 or (rules.seats is not None and seats > rules.seats):
        raise InvalidDealError(
            f"seats: rule set {rules.name!r} has {rules.seats} seats, got {seats}", field="seats"
        )
    if behind and not rules.back_line_bets:
        raise InvalidDealError(
            f"behind: rule set {rules.name!r} has no back-line bets", field="behind"
        )
    low = rules.model_copy(update={"ante": rules.ante.model_copy(update={"min": Decimal("0.01")})})
    wagers = validate_wagers(low, ante=ante, trips=trips, bad_beat=bad_beat)
    bettors = []
    for s in range(seats):
        bettors.append(Bettor(s, wagers))
        bettors += [Bettor(s, wagers, behind=True) for _ in range(behind)]
    return Table(tuple(bettors), check_bank(rules, bank))


_NO_FLOPS = (
    np.zeros((1, 1), dtype=np.int64),
    np.zeros((1, 1, 1), dtype=np.int64),
    np.zeros((1, 1), dtype=np.int64),
    np.zeros((1, 1), dtype=np.int64),
)


class Compiled(k.Layout):
    """The kernel's arrays for a rule set, a table and a strategy (:class:`kernel.Layout`:
    pass them as ``*game``), with the table's seats and the hands dealt.
    """

    __slots__ = ()

    @property
    def seats(self) -> int:
        """The seated hands."""
        return int(self.opts[k.OPT_SEATS])

    @property
    def dealt(self) -> int:
        """The hands dealt: 1 with a shared hand, else one per seat."""
        return 1 if self.opts[k.OPT_SHARED] else self.seats


def compile_game(rules: RuleSet, tbl: Table, strat: Strategy | CallableStrategy) -> Compiled:
    """The kernel's arrays (:mod:`uth.analysis.sim.kernel`) for this game.

    Raises:
        StrategyError: a strategy that uses a multiple the rule set does not offer.

    """
    pays = np.zeros((6, 10), dtype=np.int64)
    for row, table_ in enumerate((rules.blind_pays, rules.trips_pays, rules.bad_beat_pays)):
        for cat, odds in table_.items():
            pays[2 * row, int(cat)] = odds.win
            pays[2 * row + 1, int(cat)] = odds.per
    cap = rules.cap_amount()
    opts = np.zeros(k.OPT_COUNT, dtype=np.int64)
    opts[k.OPT_QUALIFIER] = int(rules.dealer_qualifier)
    opts[k.OPT_BOARD_ONLY] = rules.folded_trips == "board_only"
    opts[k.OPT_CAP] = -1 if cap is None else _cents(cap)
    opts[k.OPT_BANK] = -1 if tbl.bank is None else _cents(tbl.bank)
    opts[k.OPT_REVERSE] = rules.settlement_order == "right_to_left"
    opts[k.OPT_SHARED] = rules.shared_hand
    opts[k.OPT_SEATS] = tbl.seats
    mults = np.zeros((3, k.MAX_MULT + 1), dtype=np.int64)
    for street, offered in enumerate(
        (rules.play_multiples.pre_flop, rules.play_multiples.flop, rules.play_multiples.river)
    ):
        for m in offered:
            mults[street, m] = 1
    order = sorted(tbl.bettors, key=lambda b: (b.seat, b.behind))
    flops = _NO_FLOPS
    if isinstance(strat, Strategy):
        pre, rule = strat.arrays(rules)
        if strat.flop == "table":
            from uth.analysis.sim.flop_table import lookup

            found = lookup(rules)
            flops = (found.table, found.canon, found.inverse, found.hole_id)
    else:
        pre, rule = np.zeros((13, 13), dtype=np.int64), np.zeros(k.RULE_COUNT, dtype=np.int64)
    return Compiled(
        pays,
        opts,
        mults,
        np.array([b.seat for b in order], dtype=np.int64),
        np.array([_cents(b.wagers.ante) for b in order], dtype=np.int64),
        np.array([_cents(b.wagers.trips) for b in order], dtype=np.int64),
        np.array([_cents(b.wagers.bad_beat) for b in order], dtype=np.int64),
        pre,
        rule,
        flops,
    )


def block_uniforms(seed: int, block: int, rounds: int, dealt: int) -> npt.NDArray[np.float64]:
    """The uniform doubles of one block: ``(rounds, 2 * dealt + 7)`` from its own stream."""
    rng = np.random.Generator(np.random.PCG64(np.random.SeedSequence(seed, spawn_key=(block,))))
    return rng.random((rounds, 2 * dealt + 7))


_NO_GIVEN = np.zeros((0, 0), dtype=np.int64)
_NO_NET = np.zeros(0, dtype=np.int64)


def play_one_block(
    game: Compiled,
    strat: Strategy | CallableStrategy,
    rules: RuleSet,
    seed: int,
    block: int,
    rounds: int,
    round_net: bool = False,
) -> tuple[I64, npt.NDArray[np.float64], I64]:
    """Play one block; returns its (int accumulators, float accumulators, per-round
    net of hand 0 in cents or an empty array).
    """
    u = block_uniforms(seed, block, rounds, game.dealt)
    given = _NO_GIVEN
    if isinstance(strat, CallableStrategy):
        cards = np.empty((rounds, 2 * game.dealt + 7), dtype=np.int64)
        k.deal_block(u, cards)
        given = strat.decisions(cards, game.seats, rules)
    acc = np.zeros(k.ACC_INT, dtype=np.int64)
    facc = np.zeros(k.ACC_FLOAT, dtype=np.float64)
    nets = np.zeros(rounds, dtype=np.int64) if round_net else _NO_NET
    k.play_block(u, *game, given, acc, facc, nets)
    return acc, facc, nets


def blocks(rounds: int, block_rounds: int = BLOCK_ROUNDS) -> list[int]:
    """The sizes of the blocks that make ``rounds`` rounds."""
    full, rest = divmod(rounds, block_rounds)
    return [block_rounds] * full + ([rest] if rest else [])


@dataclass(frozen=True)
class Estimate:
    """A mean with its standard deviation and 95% confidence interval."""

    mean: float
    std_dev: float
    ci95: tuple[float, float]


def _estimate(total: float, sq: float, n: int) -> Estimate:
    mean = total / n
    var = max(sq / n - mean * mean, 0.0) * n / max(n - 1, 1)
    sd = math.sqrt(var)
    half = Z95 * sd / math.sqrt(n)
    return Estimate(mean, sd, (mean - half, mean + half))


@dataclass(frozen=True)
class SimulationResult:
    """What a simulation measured. Money figures are per Ante (fractions).

    Attributes:
        rules_name, strategy: what was played.
        rounds: rounds played; ``seats`` and ``hands`` at the table.
        main: the players' result on Ante, Blind and Play per round, per Ante
            wagered in the round (mean, standard deviation, 95% interval).
        wagers: each main wager's mean result per Ante (``ante``, ``blind``, ``play``).
        trips_rtp, bad_beat_rtp: return to player of the side bet (1 + net / staked),
            ``None`` when not wagered.
        frequencies: the share of seated decisions: ``raise_4x`` ... ``fold``.
        outcomes: the share of seated hands that won, tied or lost at showdown
            (a fold is not counted in any).
        banker: the banker's (house or player-dealer) result per round on every
            wager (side bets included), per Ante wagered at the table in a round.
        covered_rounds: share of rounds in which the bank covered every wager (1.0
            for the house).
        returned_share: the share of action (amounts won or lost) the bank could
            not cover, returned to the players.
        elapsed_s: wall-clock seconds of the play (the kernels' loading or
            compilation excluded); rounds_per_second.
        block_rounds, workers: how the work was split (no effect on the figures).

    """

    rules_name: str
    strategy: str
    rounds: int
    seats: int
    hands: int
    main: Estimate
    wagers: dict[str, float]
    trips_rtp: float | None
    bad_beat_rtp: float | None
    frequencies: dict[str, float]
    outcomes: dict[str, float]
    banker: Estimate
    covered_rounds: float
    returned_share: float
    elapsed_s: float
    workers: int
    block_rounds: int
    acc: tuple[int, ...] = field(repr=False, default=())

    @property
    def rounds_per_second(self) -> float:
        """Rounds played per wall-clock second."""
        return self.rounds / self.elapsed_s if self.elapsed_s > 0 else math.inf

    def to_json(self) -> dict[str, Any]:
        """The ``--json`` object (issue 12): fractions per Ante."""
        return {
            "rules": self.rules_name,
            "strategy": self.strategy,
            "rounds": self.rounds,
            "mean": self.main.mean,
            "ci95": list(self.main.ci95),
            "std_dev": self.main.std_dev,
            "rounds_per_second": self.rounds_per_second,
            "frequencies": self.frequencies,
            "wagers": self.wagers,
            "trips": {"rtp": self.trips_rtp},
            "bad_beat": None if self.bad_beat_rtp is None else {"rtp": self.bad_beat_rtp},
            "banker": {
                "mean": self.banker.mean,
                "ci95": list(self.banker.ci95),
                "covered_rounds": self.covered_rounds,
                "returned_share": self.returned_share,
            },
            "elapsed_s": self.elapsed_s,
        }


def _frequency_keys(rules: RuleSet) -> list[tuple[str, int, int]]:
    out = []
    for street, offered in enumerate(
        (rules.play_multiples.pre_flop, rules.play_multiples.flop, rules.play_multiples.river)
    ):
        out += [(f"raise_{m}x", street, m) for m in offered]
    return out


def summarize(
    rules: RuleSet,
    strategy_name: str,
    game: Compiled,
    acc: I64,
    facc: npt.NDArray[np.float64],
    elapsed: float,
    workers: int,
    block_rounds: int,
) -> SimulationResult:
    """The :class:`SimulationResult` of summed accumulators."""
    n = int(acc[k.A_ROUNDS])
    antes = int(acc[k.A_ANTE_STAKE])
    per_round_ante = antes / n
    main_sum = float(acc[k.A_NET] + acc[k.A_NET + 1] + acc[k.A_NET + 2]) / per_round_ante
    main = _estimate(main_sum, float(facc[k.F_SQ]), n)
    banker_sum = -float(acc[k.A_NET : k.A_NET + 5].sum()) / per_round_ante
    banker = _estimate(banker_sum, float(facc[k.F_BANKER_SQ]), n)
    seated = int(acc[k.A_SEATED])
    freq: dict[str, float] = {}
    for key, street, m in _frequency_keys(rules):
        count = int(acc[k.A_DECISIONS + street * (k.MAX_MULT + 1) + m])
        freq[key] = freq.get(key, 0.0) + count / seated
    freq["fold"] = int(acc[k.A_FOLD]) / seated
    trips_stake = int(acc[k.A_TRIPS_STAKE])
    bb_stake = int(acc[k.A_BB_STAKE])
    action = int(acc[k.A_ACTION])
    return SimulationResult(
        rules_name=rules.name,
        strategy=strategy_name,
        rounds=n,
        seats=game.seats,
        hands=int(game.seat_of.shape[0]),
        main=main,
        wagers={
            name: int(acc[k.A_NET + i]) / antes for i, name in enumerate(("ante", "blind", "play"))
        },
        trips_rtp=1 + int(acc[k.A_NET + 3]) / trips_stake if trips_stake else None,
        bad_beat_rtp=1 + int(acc[k.A_NET + 4]) / bb_stake if bb_stake else None,
        frequencies=freq,
        outcomes={
            "win": int(acc[k.A_WIN]) / seated,
            "tie": int(acc[k.A_TIE]) / seated,
            "loss": int(acc[k.A_LOSS]) / seated,
        },
        banker=banker,
        covered_rounds=int(acc[k.A_COVERED_ROUNDS]) / n,
        returned_share=int(acc[k.A_UNCOVERED]) / action if action else 0.0,
        elapsed_s=elapsed,
        workers=workers,
        block_rounds=block_rounds,
        acc=tuple(int(x) for x in acc),
    )


Progress = Callable[[int], None]


def simulate(
    rules: RuleSet,
    strat: Strategy | CallableStrategy,
    rounds: int,
    seed: int,
    *,
    tbl: Table | None = None,
    workers: int = 1,
    block_rounds: int = BLOCK_ROUNDS,
    ray_address: str | None = None,
    progress: Progress | None = None,
) -> SimulationResult:
    """Play ``rounds`` rounds and measure them.

    Args:
        rules: the rule set.
        strat: a kernel :class:`Strategy` or a :class:`CallableStrategy`.
        rounds: rounds to play (at least 2).
        seed: the seed (any non-negative integer); same seed, same figures.
        tbl: the table (default: one hand, Ante 1, no side bets; a bank of the
            rule set's minimum on a player-dealer rule set).
        workers: threads playing blocks at once (the kernel releases the GIL).
        block_rounds: rounds per block (changes the random streams, so the figures).
        ray_address: run the blocks as Ray tasks on that cluster (``auto`` or an
            address); needs ``uth[cluster]``.
        progress: called with the number of rounds of each finished block.

    Raises:
        ValueError: fewer than 2 rounds, a negative seed, fewer than 1 worker.

    """
    if rounds < 2:
        raise ValueError(f"rounds: at least 2, got {rounds}")
    if seed < 0:
        raise ValueError(f"seed: must not be negative, got {seed}")
    if workers < 1:
        raise ValueError(f"workers: at least 1, got {workers}")
    if tbl is None:
        tbl = default_table(rules)
    game = compile_game(rules, tbl, strat)
    sizes = blocks(rounds, block_rounds)
    if ray_address is None and isinstance(strat, Strategy):
        # Load (or compile) the kernels first so that the time measures the play.
        play_one_block(game, strat, rules, seed, 0, 1)
    started = time.perf_counter()
    if ray_address is not None:
        from uth.analysis.sim.cluster import run_blocks_on_ray

        parts = run_blocks_on_ray(ray_address, game, strat, rules, seed, sizes, progress)
    else:
        parts = _run_local(game, strat, rules, seed, sizes, workers, progress)
    elapsed = time.perf_counter() - started
    acc = np.sum([p[0] for p in parts], axis=0)
    facc = np.zeros(k.ACC_FLOAT, dtype=np.float64)
    for p in parts:  # in block order: the float sums do not depend on the workers
        facc += p[1]
    return summarize(rules, strat.name, game, acc, facc, elapsed, workers, block_rounds)


def default_table(rules: RuleSet) -> Table:
    """One hand, Ante 1, no side bets; a player-dealer rule set gets its minimum bank."""
    bank = rules.bank.min if rules.bank is not None else None
    return table(rules, bank=bank)


def _run_local(
    game: Compiled,
    strat: Strategy | CallableStrategy,
    rules: RuleSet,
    seed: int,
    sizes: Sequence[int],
    workers: int,
    progress: Progress | None,
) -> list[tuple[I64, npt.NDArray[np.float64], I64]]:
    def run(b: int) -> tuple[I64, npt.NDArray[np.float64], I64]:
        out = play_one_block(game, strat, rules, seed, b, sizes[b])
        if progress is not None:
            progress(sizes[b])
        return out

    if workers == 1:
        return [run(b) for b in range(len(sizes))]
    with ThreadPoolExecutor(workers) as pool:
        return list(pool.map(run, range(len(sizes))))
