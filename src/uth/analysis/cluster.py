"""Scale out: the canonical flops split over a Ray cluster.

Ray is an optional extra (``pip install 'uth[cluster]'``); nothing else imports
it. Each task runs :func:`uth.analysis.exact.run_flops` on a slice of the
canonical flops on one CPU and returns its integer sums; the sums are added in
any order, so the result is identical to a local run.
"""

from __future__ import annotations

from typing import Any

from uth.analysis.deck import AnalysisDeck, analysis_deck
from uth.analysis.exact import FlopBatch, Progress, empty_batch, run_flops
from uth.analysis.params import game_params
from uth.errors import UthError
from uth.rules import RuleSet

#: Tasks per CPU of the cluster (smaller tasks balance better, larger cost less).
TASKS_PER_CPU = 4


def _task(rules: RuleSet, cards: tuple[int, ...], flops: list[int]) -> FlopBatch:
    import numba

    numba.set_num_threads(1)
    deck = analysis_deck(cards)
    return run_flops(game_params(rules), deck, flops, batch=1)


def run_on_ray(
    rules: RuleSet,
    deck: AnalysisDeck,
    flops: list[int],
    *,
    address: str,
    progress: Progress | None = None,
) -> FlopBatch:
    """The sums of ``flops`` (canonical flop indices) computed by Ray tasks.

    Args:
        rules: the rule set.
        deck: the analysis deck.
        flops: the canonical flop indices to run.
        address: the Ray cluster (``"auto"``, ``"ray://host:10001"``, or
            ``"local"`` for a new local instance).
        progress: called with (flops done, flops in all) as tasks finish.

    Raises:
        UthError: Ray is not installed (``uth[cluster]``).

    """
    try:
        import ray
    except ImportError:
        raise UthError(
            "ray-address: Ray is not installed; pip install 'uth[cluster]'", field="ray_address"
        ) from None
    started_here = not ray.is_initialized()
    if started_here:
        ray.init(
            address=None if address == "local" else address,
            include_dashboard=False,
            log_to_driver=False,
        )
    try:
        cpus = max(1, int(ray.cluster_resources().get("CPU", 1)))  # type: ignore[no-untyped-call]
        n_tasks = min(len(flops), cpus * TASKS_PER_CPU)
        # Interleaved slices: the flops' costs vary along the list.
        slices = [flops[i::n_tasks] for i in range(n_tasks)]
        task: Any = ray.remote(num_cpus=1)(_task)
        cards = tuple(int(c) for c in deck.cards)
        pending = {task.remote(rules, cards, s): len(s) for s in slices}
        total = empty_batch(deck, game_params(rules))
        done = 0
        while pending:
            ready, _ = ray.wait(list(pending), num_returns=1)
            batch: FlopBatch = ray.get(ready[0])
            done += pending.pop(ready[0])
            total.add(batch)
            if progress is not None:
                progress(done, len(flops))
        return total
    finally:
        if started_here:
            ray.shutdown()
