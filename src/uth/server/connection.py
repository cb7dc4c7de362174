"""A player's WebSocket connection with an outgoing queue bounded in bytes."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections import OrderedDict
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


class Pacer:
    """Shares the event loop's turns among the connections' writers.

    A message for a thousand players puts one text on a thousand queues; their
    writers would all send in one turn of the loop (tens of milliseconds) while
    the players' commands wait unread. With a pacer, at most ``per_turn``
    connections send in a turn; the others wait in line, in the order they asked,
    and the loop reads the sockets between turns. A connection that has just
    been answered (:meth:`WsConnection.hurry`) does not wait in line. Each connection
    still sends its own messages in order: only the order between connections
    changes.

    One pacer per server (:class:`~uth.server.runtime.Runtime`), used by one
    event loop.
    """

    def __init__(self, per_turn: int = 50) -> None:
        self.per_turn = per_turn
        self._left = per_turn
        self._line: OrderedDict[object, asyncio.Future[None]] = OrderedDict()
        self._refill_due = False

    async def turn(self, who: object) -> None:
        """Return when ``who`` may send (at once when the turn has room)."""
        loop = asyncio.get_running_loop()
        self._due(loop)
        if self._left > 0 and not self._line:
            self._left -= 1
            return
        waiter = loop.create_future()
        self._line[who] = waiter
        try:
            await waiter
        finally:
            if self._line.get(who) is waiter:
                del self._line[who]

    def hurry(self, who: object) -> None:
        """Move ``who`` to the front of the line, if it waits (a command's reply)."""
        if who in self._line:
            self._line.move_to_end(who, last=False)

    def _due(self, loop: asyncio.AbstractEventLoop) -> None:
        if not self._refill_due:
            self._refill_due = True
            loop.call_soon(self._refill, loop)

    def _refill(self, loop: asyncio.AbstractEventLoop) -> None:
        """A new turn: room for ``per_turn`` connections, the first in line first."""
        self._refill_due = False
        self._left = self.per_turn
        while self._left > 0 and self._line:
            _, waiter = self._line.popitem(last=False)
            if not waiter.done():
                waiter.set_result(None)
                self._left -= 1
        if self._line:
            self._due(loop)


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
        pacer: Pacer | None = None,
    ) -> None:
        self.websocket = websocket
        self.pacer = pacer
        self._urgent = False
        self.queue: asyncio.Queue[str] = asyncio.Queue()
        self.queued_bytes = 0
        self.stalled = False
        self._on_stall = on_stall
        self._closing: asyncio.Task[None] | None = None

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
            self.queue = asyncio.Queue()  # the queued texts are dropped
            self.queued_bytes = 0
            loop = asyncio.get_running_loop()
            if self._on_stall is not None:
                # Not now: the table may be iterating over its seats.
                loop.call_soon(self._on_stall, self)
            self._closing = loop.create_task(self._close())
            return
        self.queued_bytes += len(text)
        self.queue.put_nowait(text)

    async def _close(self) -> None:
        # A client that does not read may never complete the closing handshake:
        # whatever happens, nothing is left for "Task exception was never retrieved".
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self.websocket.close(code=1013), timeout=5)

    def hurry(self) -> None:
        """Send what is queued (the reply to a command) before other connections'
        waiting messages: at once, or first in the pacer's line (:class:`Pacer`).
        """
        self._urgent = True
        if self.pacer is not None:
            self.pacer.hurry(self)

    async def pump(self) -> None:
        """Send the queued texts in order until the connection stalls or fails; with
        a pacer, everything queued is sent at this connection's turn.
        """
        while not self.stalled:
            queue = self.queue
            text = await queue.get()
            if self.pacer is not None and not self._urgent:
                await self.pacer.turn(self)
            self._urgent = False
            while not self.stalled:
                self.queued_bytes -= len(text)
                try:
                    await self.websocket.send_text(text)
                except Exception:
                    return
                if queue.empty():
                    break
                text = queue.get_nowait()
