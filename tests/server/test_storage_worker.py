"""The storage worker: storage calls run one at a time, answered in order."""

from __future__ import annotations

import asyncio
import time

from uth.server.storage.worker import StorageWorker


def test_storage_calls_run_one_at_a_time_and_answer_in_order() -> None:
    w = StorageWorker()
    log: list[str] = []

    def slow(name: str, seconds: float) -> str:
        log.append(f"start {name}")
        time.sleep(seconds)
        log.append(f"end {name}")
        return name

    async def main() -> list[str]:
        done: list[str] = []

        async def run(name: str, seconds: float) -> None:
            done.append(await w.call(slow, name, seconds))

        await asyncio.gather(run("first", 0.05), run("second", 0.0))
        return done

    assert asyncio.run(main()) == ["first", "second"]
    assert log == ["start first", "end first", "start second", "end second"]
    w.close()
