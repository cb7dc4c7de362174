"""Fixtures shared by the whole suite.

``ray_local``: one local Ray instance (2 CPUs) for every Ray test of the session,
started once (starting Ray costs tens of seconds of CPU). The Ray tests carry
``@pytest.mark.xdist_group("ray")`` so that ``make test`` (pytest-xdist with
``--dist loadgroup``) runs them in one worker, where the instance is shared.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from types import ModuleType

import pytest


@pytest.fixture(scope="session")
def ray_local() -> Iterator[ModuleType]:
    """The ``ray`` module with a local instance of 2 CPUs running; shut down at the end.

    Skips when Ray is not installed (``pip install 'uth[cluster]'``), and fails
    when the ``CI`` environment variable is set.
    """
    try:
        import ray
    except ImportError:
        if os.environ.get("CI"):
            raise
        pytest.skip("Ray is not installed (pip install 'uth[cluster]')")
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        yield ray
    finally:
        ray.shutdown()
