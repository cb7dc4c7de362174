"""The storage worker: runs the server's storage calls off the event loop, in order.

Every storage call of the server (the :class:`~uth.server.ports.Ledger` and the
:class:`~uth.server.ports.RoundLog`) goes through :meth:`StorageWorker.call`: one
worker thread runs them one at a time, in the order they were made, and hands the
results back in that order. A balance read back after a write is therefore never
overwritten by an older one from another table.
"""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

_T = TypeVar("_T")


class StorageWorker:
    """One thread that runs storage calls in order (one per server process)."""

    def __init__(self) -> None:
        self._thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="uth-store")

    async def call(self, fn: Callable[..., _T], *args: Any) -> _T:
        """Run ``fn(*args)`` in the worker thread and return its result (or raise its error).

        Calls run one at a time in the order made; their results come back in
        that order.
        """
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._thread, functools.partial(fn, *args))

    def close(self) -> None:
        """Stop the worker thread (calls already queued still run)."""
        self._thread.shutdown(wait=False)
