"""The exact analysis: every deal, the player deciding optimally on what they see.

:func:`analyze` runs the numba kernels of :mod:`uth.analysis.kernel` over the
canonical flops (in parallel on numba threads, or over a Ray cluster with
:mod:`uth.analysis.cluster`), adds each canonical flop's per-hole sums into the
per-hole totals of every flop of its suit class, takes the pre-flop decision
for every player hole and turns the exact integer sums into the figures of
:class:`~uth.analysis.result.AnalysisResult`. Method and cost: docs/math.md.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from math import comb

import numpy as np
import numpy.typing as npt

from uth.analysis import kernel as k
from uth.analysis.deck import AnalysisDeck, analysis_deck, starting_hand
from uth.analysis.params import GameParams, fingerprint, game_params
from uth.analysis.result import AnalysisResult, PreFlopHand
from uth.evaluator import Category
from uth.rules import RuleSet

IntArray = npt.NDArray[np.int64]

#: Called after each batch of flops with (flops done, flops in all).
Progress = Callable[[int, int], None]

#: Canonical flops per kernel call (per numba thread and batch).
FLOPS_PER_THREAD = 4


@dataclass(eq=False)
class FlopBatch:
    """The sums of some canonical flops, already spread over their suit classes.

    Attributes:
        flops: indices of the canonical flops (into ``AnalysisDeck.flops``).
        play: per-hole totals, shape (holes, PLAY_COLUMNS).
        check: per-hole totals, shape (holes, CHECK_BASE + flop and river multiples).
        categories: (player hole, board) pairs per 7-card category, over every
            flop of the classes, shape (10,).
        flop_sums: per canonical flop, the sums over holes of ``kernel.FLOP_SUMS``
            for the canonical flop itself (not its class), shape (len(flops), 6).

    """

    flops: IntArray
    play: IntArray
    check: IntArray
    categories: IntArray
    flop_sums: IntArray

    def add(self, other: FlopBatch) -> None:
        """Add another batch's sums into this one."""
        self.flops = np.concatenate([self.flops, other.flops])
        self.play += other.play
        self.check += other.check
        self.categories += other.categories
        self.flop_sums = np.concatenate([self.flop_sums, other.flop_sums])


def empty_batch(deck: AnalysisDeck, params: GameParams) -> FlopBatch:
    """A batch of no flops: zero totals of the right shapes."""
    width = k.CHECK_BASE + len(params.flop) + len(params.river)
    return FlopBatch(
        flops=np.zeros(0, dtype=np.int64),
        play=np.zeros((deck.n_holes, k.PLAY_COLUMNS), dtype=np.int64),
        check=np.zeros((deck.n_holes, width), dtype=np.int64),
        categories=np.zeros(len(Category), dtype=np.int64),
        flop_sums=np.zeros((0, len(k.FLOP_SUMS)), dtype=np.int64),
    )


def flop_sums(
    params: GameParams, deck: AnalysisDeck, flops: IntArray
) -> tuple[IntArray, IntArray, IntArray]:
    """The kernel's per-hole sums of each canonical flop of ``flops`` (indices), in
    parallel on numba threads, not spread over the suit classes.

    Returns:
        (play, check, categories) of shapes (k, holes, PLAY_COLUMNS),
        (k, holes, CHECK_BASE + flop and river multiples) and (k, 10), the columns
        of :func:`uth.analysis.kernel.flop_kernel`.

    """
    width = k.CHECK_BASE + len(params.flop) + len(params.river)
    play = np.zeros((len(flops), deck.n_holes, k.PLAY_COLUMNS), dtype=np.int64)
    check = np.zeros((len(flops), deck.n_holes, width), dtype=np.int64)
    categories = np.zeros((len(flops), len(Category)), dtype=np.int64)
    k.flops_kernel(
        deck.cards, deck.flops[flops], deck.hole_id, deck.suit_perms, deck.hole_perms,
        params.blind_scale, params.blind_win, np.array(params.flop, dtype=np.int64),
        np.array(params.river, dtype=np.int64), params.qualify_value, params.trips_net,
        params.board_only, params.bad_beat, params.bad_beat_scale, params.bad_beat_win,
        play, check, categories,
    )  # fmt: skip
    return play, check, categories


def run_flops(
    params: GameParams,
    deck: AnalysisDeck,
    flops: Sequence[int],
    *,
    batch: int = 8,
    progress: Progress | None = None,
) -> FlopBatch:
    """Run the kernels on the canonical flops ``flops`` (indices), ``batch`` at a
    time in parallel, and spread each over its suit class.

    The result does not depend on ``batch``, on the order of ``flops`` or on the
    number of threads. The flops run in order of their cost (the flops with the
    fewest suit symmetries, the most turn/river classes, first), so that the flops
    of one batch cost about the same and numba's threads, which split a batch into
    equal parts, finish together.
    """
    out = empty_batch(deck, params)
    given = np.asarray(flops, dtype=np.int64)
    order = np.argsort([-len(deck.orbits[int(f)]) for f in given], kind="stable").astype(np.int64)
    todo = given[order]
    sums = []
    for start in range(0, len(todo), batch):
        chunk = todo[start : start + batch]
        play, check, categories = flop_sums(params, deck, chunk)
        for i, f in enumerate(chunk):
            orbit = deck.orbits[int(f)]
            k.scatter_flop(play[i], check[i], deck.hole_perms, orbit, out.play, out.check)
            out.categories += categories[i] * len(orbit)
        sums.append(
            np.stack(
                [
                    check[:, :, k.CHECK_EV].sum(axis=1),
                    check[:, :, k.CHECK_M].sum(axis=1),
                    check[:, :, k.CHECK_FOLD].sum(axis=1),
                    play[:, :, k.PLAY_AB].sum(axis=1),
                    play[:, :, k.PLAY_PL].sum(axis=1),
                    play[:, :, k.PLAY_M0].sum(axis=1),
                ],
                axis=1,
            )
        )
        if progress is not None:
            progress(start + len(chunk), len(todo))
    out.flops = given
    if sums:
        # the checksums in the order of ``flops``
        out.flop_sums = np.empty((len(given), len(k.FLOP_SUMS)), dtype=np.int64)
        out.flop_sums[order] = np.concatenate(sums)
    return out


def analyze(
    rules: RuleSet,
    *,
    deck: AnalysisDeck | None = None,
    threads: int | None = None,
    progress: Progress | None = None,
    ray_address: str | None = None,
) -> AnalysisResult:
    """The exact figures of ``rules`` by full enumeration (docs/math.md).

    Args:
        rules: the rule set (only the fields of :func:`uth.analysis.params.fingerprint`
            matter).
        deck: the deck to deal from; the full 52-card deck by default (a reduced
            deck is for checks against :mod:`uth.analysis.reference`).
        threads: numba threads (default: all cores).
        progress: called with (flops done, flops in all) as the work goes.
        ray_address: split the flops over a Ray cluster (``"auto"`` or an
            address; needs ``uth[cluster]``) instead of local threads.

    Returns:
        The :class:`AnalysisResult`, with ``elapsed_s`` the wall-clock time taken.

    """
    import numba

    started = time.perf_counter()
    deck = deck or analysis_deck()
    params = game_params(rules)
    indices = list(range(len(deck.flops)))
    if ray_address is not None:
        from uth.analysis.cluster import run_on_ray

        total = run_on_ray(rules, deck, indices, address=ray_address, progress=progress)
    else:
        previous = numba.get_num_threads()
        if threads is not None:
            numba.set_num_threads(threads)
        try:
            batch = FLOPS_PER_THREAD * numba.get_num_threads()
            total = run_flops(params, deck, indices, batch=batch, progress=progress)
        finally:
            numba.set_num_threads(previous)
    return finish(rules, deck, params, total, elapsed_s=time.perf_counter() - started)


def _frac(numerator: int, denominator: int) -> Fraction:
    return Fraction(int(numerator), int(denominator))


def finish(
    rules: RuleSet,
    deck: AnalysisDeck,
    params: GameParams,
    total: FlopBatch,
    *,
    elapsed_s: float,
) -> AnalysisResult:
    """The pre-flop decisions and the figures from the per-hole totals of every flop.

    Raises:
        ValueError: ``total`` does not cover every canonical flop once.

    """
    if sorted(int(f) for f in total.flops) != list(range(len(deck.flops))):
        raise ValueError("total: the batches do not cover every canonical flop exactly once")
    n = deck.n
    s = params.blind_scale
    boards_per_flop = comb(n - 5, 2)
    dealers = comb(n - 7, 2)
    per_hole = comb(n - 2, 3) * boards_per_flop * dealers  # deals that follow one hole
    deals = deck.n_holes * per_hole
    n_flop = len(params.flop)
    n_pre = len(params.pre_flop)
    ev = m2 = win = tie = loss = fold = ante = play_w = bb = bb_hits = trips_fix = 0
    trips_fix_hits = 0
    pre_counts = [0] * n_pre
    flop_counts = [0] * n_flop
    river_counts = [0] * len(params.river)
    per_hand: dict[str, list[int]] = {}
    class_size: dict[str, int] = {}
    for h in range(deck.n_holes):
        p = [int(x) for x in total.play[h]]
        c = [int(x) for x in total.check[h]]
        options = [c[k.CHECK_EV]] + [p[k.PLAY_AB] + m * p[k.PLAY_PL] for m in params.pre_flop]
        # Pre-flop decision: check, or Play at a pre-flop multiple; on an exact tie
        # the smaller wager (check first, then the smaller multiple).
        best, choice = options[0], -1
        for i in range(n_pre - 1, -1, -1):
            if options[1 + i] > best:
                best, choice = options[1 + i], i
        a, b = (int(deck.cards[x]) for x in deck.hole_cards[h])
        name = starting_hand(a, b)
        if name not in per_hand:
            per_hand[name] = options
        elif per_hand[name] != options:  # suit isomorphism: one class, one set of EVs
            raise AssertionError(f"starting hand {name}: holes of one class differ")
        class_size[name] = class_size.get(name, 0) + 1
        ev += best
        if choice < 0:
            m2 += c[k.CHECK_M]
            win += c[k.CHECK_WIN]
            tie += c[k.CHECK_TIE]
            loss += c[k.CHECK_LOSS]
            fold += c[k.CHECK_FOLD]
            ante += c[k.CHECK_ANTE]
            play_w += c[k.CHECK_PLAY]
            bb += c[k.CHECK_BAD_BEAT]
            bb_hits += c[k.CHECK_BAD_BEAT_HITS]
            trips_fix += c[k.CHECK_TRIPS]
            trips_fix_hits += c[k.CHECK_TRIPS_HITS]
            for i in range(n_flop):
                flop_counts[i] += c[k.CHECK_BASE + i]
            for i in range(len(params.river)):
                river_counts[i] += c[k.CHECK_BASE + n_flop + i]
        else:
            mult = params.pre_flop[choice]
            m2 += p[k.PLAY_M0] + mult * p[k.PLAY_M1] + mult * mult * p[k.PLAY_M2]
            win += p[k.PLAY_WIN]
            tie += p[k.PLAY_TIE]
            loss += p[k.PLAY_LOSS]
            ante += p[k.PLAY_ANTE]
            play_w += mult * p[k.PLAY_PL]
            bb += p[k.PLAY_BAD_BEAT]
            bb_hits += p[k.PLAY_BAD_BEAT_HITS]
            pre_counts[choice] += per_hole
    unit = deals * s
    ev_f = _frac(ev, unit)
    freq = {
        "pre_flop": {m: _frac(pre_counts[i], deals) for i, m in enumerate(params.pre_flop)},
        "flop": {m: _frac(flop_counts[i], deals) for i, m in enumerate(params.flop)},
        "river": {m: _frac(river_counts[i], deals) for i, m in enumerate(params.river)},
    }
    average_play = sum(
        (m * f for street in freq.values() for m, f in street.items()), start=Fraction(0)
    )
    # Trips: settled on the player's 7-card hand, except a folded hand's Trips on
    # the board alone when board_only; every (hole, board) pair has `dealers` deals.
    trips = None
    if rules.offers_trips:
        trips_net = sum(
            int(total.categories[c]) * dealers * int(params.trips_net[c]) for c in range(10)
        )
        trips_hits = sum(
            int(total.categories[c]) * dealers for c in range(10) if params.trips_net[c] > 0
        )
        trips = (
            1 + _frac(trips_net + trips_fix, deals * params.trips_scale),
            _frac(trips_hits + trips_fix_hits, deals),
        )
    bad_beat = None
    if params.bad_beat:
        bad_beat = (1 + _frac(bb, deals * params.bad_beat_scale), _frac(bb_hits, deals))
    pre_flop_table = {
        name: PreFlopHand(
            combos=class_size[name],
            check=_frac(options[0], per_hole * s),
            raise_ev={
                m: _frac(options[1 + i], per_hole * s) for i, m in enumerate(params.pre_flop)
            },
        )
        for name, options in per_hand.items()
    }
    order = np.argsort(total.flops)
    return AnalysisResult(
        rules_name=rules.name,
        fingerprint=fingerprint(rules),
        deck=deck.describe(),
        deals=deals,
        ev=ev_f,
        second_moment=_frac(m2, deals * s * s),
        average_total_bet=2 + average_play,
        frequencies=freq,
        fold=_frac(fold, deals),
        win=_frac(win, deals),
        tie=_frac(tie, deals),
        loss=_frac(loss + fold, deals),
        ante=_frac(ante, unit),
        blind=ev_f - _frac(ante, unit) - _frac(play_w, unit),
        play=_frac(play_w, unit),
        trips=trips,
        bad_beat=bad_beat,
        categories=tuple(int(x) * dealers for x in total.categories),
        pre_flop=pre_flop_table,
        flop_sums=tuple(tuple(int(x) for x in row) for row in total.flop_sums[order]),
        elapsed_s=elapsed_s,
    )
