"""Clocks: the server owns time, and tests drive it.

The live table never calls ``time`` or ``asyncio.sleep`` directly: it asks a
:class:`Clock` for the time and waits on it, so tests replace the clock with a
:class:`ManualClock` and run whole rounds without sleeping.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from datetime import UTC, datetime, timedelta
from typing import Protocol


class Clock(Protocol):
    """A source of UTC time that can be waited on."""

    def now(self) -> datetime:
        """The current time, timezone-aware UTC."""
        ...

    async def wait_until(self, deadline: datetime, wake: asyncio.Event | None = None) -> None:
        """Return at ``deadline``, or earlier when ``wake`` is set."""
        ...


class SystemClock:
    """The real clock."""

    def now(self) -> datetime:
        """The current UTC time."""
        return datetime.now(UTC)

    async def wait_until(self, deadline: datetime, wake: asyncio.Event | None = None) -> None:
        """Sleep until ``deadline`` or until ``wake`` is set."""
        delay = max(0.0, (deadline - self.now()).total_seconds())
        if wake is None:
            await asyncio.sleep(delay)
            return
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(wake.wait(), timeout=delay)


class ManualClock:
    """A clock that moves only when :meth:`advance` is called (tests).

    Thread-safe: a test thread may advance it while the server's event loop waits
    on it (Starlette's ``TestClient`` runs the app in another thread).
    """

    def __init__(self, start: datetime | None = None) -> None:
        if start is not None and start.utcoffset() is None:
            raise ValueError(f"start: a timezone-aware time is required, got {start!r}")
        # Kept in UTC, as every clock gives it (game numbers are UTC times).
        self._now = (start or datetime(2026, 11, 29, 23, 30, 15, tzinfo=UTC)).astimezone(UTC)
        self._lock = threading.Lock()
        self._waiters: list[tuple[datetime, asyncio.AbstractEventLoop, asyncio.Event]] = []

    def now(self) -> datetime:
        """The clock's current time."""
        with self._lock:
            return self._now

    async def wait_until(self, deadline: datetime, wake: asyncio.Event | None = None) -> None:
        """Wait until the clock has been advanced to ``deadline`` or ``wake`` is set."""
        reached = asyncio.Event()
        with self._lock:
            if self._now >= deadline:
                return
            entry = (deadline, asyncio.get_running_loop(), reached)
            self._waiters.append(entry)
        waits = [asyncio.ensure_future(reached.wait())]
        if wake is not None:
            waits.append(asyncio.ensure_future(wake.wait()))
        try:
            await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for w in waits:
                w.cancel()
            with self._lock:
                if entry in self._waiters:
                    self._waiters.remove(entry)

    def advance(self, seconds: float) -> None:
        """Move the clock forward and wake every waiter whose deadline has come."""
        with self._lock:
            self._now += timedelta(seconds=seconds)
            due = [w for w in self._waiters if w[0] <= self._now]
        for _, loop, event in due:
            loop.call_soon_threadsafe(event.set)
