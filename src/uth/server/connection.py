"""A player's WebSocket connection with an outgoing queue bounded in bytes."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections import OrderedDict, deque
from collections.abc import Callable
from typing import Any

from fastapi import WebSocket

log = logging.getLogger("uth.server")

#: Bytes of text queued for one connection before it counts as stalled and is
#: closed (issue 7: queues were bounded in messages, not bytes).
QUEUE_BYTES = 1 << 20


class _Encoder:
    """JSON text of outgoing messages, encoded once per message object.

    A broadcast puts the same dict on every player's queue; this keeps its text so
    that a table of a thousand players encodes it once, not a thousand times.
    """

    def __init__(self, size: int = 256) -> None:
        self._size = size
        self._texts: OrderedDict[int, tuple[dict[str, Any], str]] = OrderedDict()

    def __call__(self, message: dict[str, Any]) -> str:
        hit = self._texts.get(id(message))
        if hit is not None and hit[0] is message:
            return hit[1]
        text = json.dumps(message, separators=(",", ":"))
        self._texts[id(message)] = (message, text)  # the reference keeps the id unique
        if len(self._texts) > self._size:
            self._texts.popitem(last=False)
        return text


_encode = _Encoder()


class WsConnection:
    """A WebSocket with an outgoing queue bounded in bytes: ``send`` never blocks
    the table.

    A client that stops reading fills its queue; it is then closed and counts as
    disconnected at once (``on_stall`` releases its seat), rather than holding the
    server's memory.
    """

    def __init__(
        self,
        websocket: WebSocket,
        on_stall: Callable[[WsConnection], None] | None = None,
    ) -> None:
        self.websocket = websocket
        self.texts: deque[str] = deque()
        self.queued_bytes = 0
        self.stalled = False
        self._on_stall = on_stall
        self._closing: asyncio.Task[None] | None = None
        # The writer waits on this future for texts; None while it sends.
        self._waiter: asyncio.Future[None] | None = None

    def send(self, message: dict[str, Any]) -> None:
        """Queue ``message`` (never blocks); a queue over :data:`QUEUE_BYTES` closes
        the connection instead.
        """
        if self.stalled:
            return
        text = _encode(message)
        if self.queued_bytes + len(text) > QUEUE_BYTES:
            self.stalled = True
            log.warning("closing a connection that stopped reading")
            self.texts.clear()  # the queued texts are dropped
            self.queued_bytes = 0
            loop = asyncio.get_running_loop()
            if self._on_stall is not None:
                # Not now: the table may be iterating over its seats.
                loop.call_soon(self._on_stall, self)
            self._closing = loop.create_task(self._close())
            return
        self.queued_bytes += len(text)
        self.texts.append(text)
        self._wake()

    def _wake(self) -> None:
        """Let the writer send what is queued, if it waits (one wake-up for all the
        texts queued until it runs: a broadcast and a reply go out together).
        """
        waiter, self._waiter = self._waiter, None
        if waiter is not None and not waiter.done():
            waiter.set_result(None)

    async def _close(self) -> None:
        # A client that does not read may never complete the closing handshake:
        # whatever happens, nothing is left for "Task exception was never retrieved".
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self.websocket.close(code=1013), timeout=5)

    async def pump(self) -> None:
        """Send the queued texts in order until the connection stalls or fails."""
        loop = asyncio.get_running_loop()
        texts = self.texts
        while not self.stalled:
            if not texts:
                waiter = self._waiter = loop.create_future()
                await waiter
            while texts and not self.stalled:
                text = texts.popleft()
                self.queued_bytes -= len(text)
                try:
                    await self.websocket.send_text(text)
                except Exception:
                    return
