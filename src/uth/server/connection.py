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


class Pacer:
    """Shares the event loop's turns among the connections' writers.

    A message for a thousand players puts one text on a thousand queues; their
    writers would all send in one turn of the loop (tens of milliseconds) while
    the players' commands wait unread. With a pacer, at most ``per_turn``
    connections are woken to send in a turn; the others wait in line, in the order
    their first message came, and the loop reads the sockets between turns. A
    connection that has just been answered (:meth:`WsConnection.hurry`) does not
    wait in line. Each connection still sends its own messages in order: only the
    order between connections changes.

    One pacer per server (:class:`~uth.server.runtime.Runtime`), used by one
    event loop.
    """

    def __init__(self, per_turn: int = 50) -> None:
        self.per_turn = per_turn
        self._left = per_turn
        self._line: OrderedDict[WsConnection, None] = OrderedDict()
        self._turn_due = False

    def enter(self, conn: WsConnection) -> None:
        """``conn`` has messages: wake its writer now if this turn has room, else
        put it in line.
        """
        self._next_turn()
        if self._left > 0 and not self._line:
            self._left -= 1
            conn.wake()
        else:
            self._line[conn] = None

    def hurry(self, conn: WsConnection) -> None:
        """Wake ``conn``'s writer now if it waits in line (a command's reply)."""
        if conn in self._line:
            del self._line[conn]
            conn.wake()

    def _next_turn(self) -> None:
        if not self._turn_due:
            self._turn_due = True
            asyncio.get_running_loop().call_soon(self._turn)

    def _turn(self) -> None:
        """A new turn of the loop: room for ``per_turn`` writers, the first in line first."""
        self._turn_due = False
        self._left = self.per_turn
        line = self._line
        while self._left > 0 and line:
            conn, _ = line.popitem(last=False)
            if conn.wake():
                self._left -= 1
        if line:
            self._next_turn()


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
        self.texts: deque[str] = deque()
        self.queued_bytes = 0
        self.stalled = False
        self._on_stall = on_stall
        self._closing: asyncio.Task[None] | None = None
        # The writer waits on this future for texts (and its turn); None while it sends.
        self._waiter: asyncio.Future[None] | None = None
        self._in_line = False
        self._urgent = False

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
        if self._waiter is not None and not self._in_line:
            self._ask()

    def _ask(self) -> None:
        """The writer waits and texts are queued: wake it, through the pacer's line
        unless the texts hold a command's reply.
        """
        if self.pacer is None or self._urgent:
            self.wake()
        else:
            self._in_line = True
            self.pacer.enter(self)

    def wake(self) -> bool:
        """Let the writer send what is queued; False when it was not waiting."""
        waiter, self._waiter = self._waiter, None
        self._in_line = False
        if waiter is None or waiter.done():
            return False
        waiter.set_result(None)
        return True

    async def _close(self) -> None:
        # A client that does not read may never complete the closing handshake:
        # whatever happens, nothing is left for "Task exception was never retrieved".
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self.websocket.close(code=1013), timeout=5)

    def hurry(self) -> None:
        """Send what is queued (the reply to a command) before other connections'
        waiting messages: at once, not in the pacer's line (:class:`Pacer`).
        """
        self._urgent = True
        if self._in_line and self.pacer is not None:
            self.pacer.hurry(self)

    async def pump(self) -> None:
        """Send the queued texts in order until the connection stalls or fails; with
        a pacer, everything queued is sent at this connection's turn.
        """
        loop = asyncio.get_running_loop()
        texts = self.texts
        while not self.stalled:
            waiter = self._waiter = loop.create_future()
            if texts:
                self._ask()
            await waiter
            self._urgent = False
            while texts and not self.stalled:
                text = texts.popleft()
                self.queued_bytes -= len(text)
                try:
                    await self.websocket.send_text(text)
                except Exception:
                    return
