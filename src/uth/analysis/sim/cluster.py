"""Run the simulation's blocks as Ray tasks (``uth simulate --ray-address``).

Ray is the optional extra ``uth[cluster]``. Each task plays one block with the
block's own random stream (:func:`uth.analysis.sim.run.block_uniforms`), so the
figures are the same as a local run with the same seed; the driver sums the
blocks in block order.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from uth.analysis.sim.strategies import CallableStrategy, Strategy
from uth.errors import UthError
from uth.rules import RuleSet

I64 = npt.NDArray[np.int64]
Part = tuple[I64, npt.NDArray[np.float64], I64]


class ClusterError(UthError):
    """Ray is not installed or the cluster cannot be reached."""


def _ray() -> Any:
    try:
        import ray
    except ImportError:
        raise ClusterError(
            "--ray-address: Ray is not installed; pip install 'uth[cluster]'",
            field="ray_address",
        ) from None
    return ray


def _play(
    game: Any, strat: Strategy | CallableStrategy, rules: RuleSet, seed: int, block: int, n: int
) -> Part:
    from uth.analysis.sim.run import play_one_block

    return play_one_block(game, strat, rules, seed, block, n)


def run_blocks_on_ray(
    address: str,
    game: Any,
    strat: Strategy | CallableStrategy,
    rules: RuleSet,
    seed: int,
    sizes: Sequence[int],
    progress: Callable[[int], None] | None = None,
) -> list[Part]:
    """Play every block as a Ray task on the cluster at ``address`` (``auto``, an
    address such as ``ray://host:10001``, or ``local`` to start a local instance);
    the results in block order.

    Raises:
        ClusterError: Ray missing, or the cluster cannot be reached.

    """
    ray = _ray()
    if not ray.is_initialized():
        try:
            ray.init(address=None if address == "local" else address, log_to_driver=False)
        except (ConnectionError, RuntimeError, ValueError) as exc:
            raise ClusterError(
                f"--ray-address: cannot reach a Ray cluster at {address!r}: {exc}",
                field="ray_address",
            ) from None
    task = ray.remote(_play)
    refs = [task.remote(game, strat, rules, seed, b, n) for b, n in enumerate(sizes)]
    index = {ref: b for b, ref in enumerate(refs)}
    parts: list[Part | None] = [None] * len(refs)
    pending = list(refs)
    while pending:
        done, pending = ray.wait(pending, num_returns=1)
        b = index[done[0]]
        parts[b] = ray.get(done[0])
        if progress is not None:
            progress(sizes[b])
    return [p for p in parts if p is not None]
