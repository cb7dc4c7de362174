"""What one client can make the server hold (issue 7, item 8): frames, replies and
send queues are bounded in bytes, no reply echoes the input at length, and a
stalled connection is closed and its seat released without a stray task error.
"""

from __future__ import annotations

import asyncio
import gc
import json
import tracemalloc
from decimal import Decimal
from pathlib import Path
from typing import Any

from helpers import live_server

from uth.server.clock import ManualClock
from uth.server.config import TableConfig
from uth.server.connection import QUEUE_BYTES, WsConnection
from uth.server.ports import PlayerRecord
from uth.server.protocol import MAX_FRAME_BYTES, PlaceBet
from uth.server.reservations import Reservations
from uth.server.storage.worker import StorageWorker
from uth.server.table import LiveTable


def test_large_frames_draw_short_replies_and_do_not_grow_memory(
    store_url: str, tmp_path: Path
) -> None:
    """Issue 7's probe: 60 frames of 2 MB drawing error replies. Each reply is a
    few hundred bytes (before: the input quoted whole), and what the process
    holds afterwards does not grow with what was sent.
    """
    big_type = json.dumps({"type": "x" * 2_000_000, "id": "big"})
    near_limit = [  # under the frame limit: parsed, the bad value quoted cut short
        json.dumps({"type": "y" * 3000, "id": "n1"}),
        json.dumps({"type": "decide", "id": "n2", "action": ["z" * 10] * 300}),
        json.dumps({"type": "leave", "id": "n3", "reason": "w" * 3000}),
    ]
    with live_server(store_url, tmp_path) as srv:
        alice = srv.sign_in("alice")
        with srv.connect(alice) as a:
            a.send_raw(big_type)  # warm-up: first-use allocations are not growth
            gc.collect()
            tracemalloc.start()
            try:
                before = tracemalloc.get_traced_memory()[0]
                replies = [a.send_raw(big_type) for _ in range(60)]
                gc.collect()
                grown = tracemalloc.get_traced_memory()[0] - before
            finally:
                tracemalloc.stop()
            assert {json.dumps(r) for r in replies} == {
                json.dumps(
                    {
                        "type": "error",
                        "id": None,
                        "code": "malformed",
                        "message": f"message: too long; at most {MAX_FRAME_BYTES} bytes",
                    }
                )
            }
            assert grown < 1_000_000, grown  # 120 MB sent
            for text in near_limit:
                a.ws.send_text(text)
                reply = a.recv()
                assert reply["type"] == "error", reply
                assert len(json.dumps(reply)) < 300, reply
            assert (
                a.log[-3]["message"]
                == "type: unknown command 'yyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyy..."
            )
            # One byte over the limit is refused; at the limit it is parsed.
            pad = MAX_FRAME_BYTES - len(json.dumps({"type": "snapshot", "id": ""}))
            at_limit = json.dumps({"type": "snapshot", "id": "a" * 64, "game_number": None})
            assert len(at_limit) < MAX_FRAME_BYTES
            over = json.dumps({"type": "snapshot", "id": "x" * (pad + 1)})
            assert len(over.encode()) == MAX_FRAME_BYTES + 1
            assert a.send_raw(over)["message"].startswith("message: too long")


class _StuckSocket:
    """A WebSocket whose client stopped reading: sends never complete; closing fails."""

    def __init__(self) -> None:
        self.closed_with: list[int] = []

    async def send_text(self, text: str) -> None:
        await asyncio.Event().wait()

    async def close(self, code: int = 1000) -> None:
        self.closed_with.append(code)
        raise RuntimeError("the transport is gone")


class _NoStore:
    """The table's commands used here never touch storage."""


def test_a_stalled_connection_is_bounded_in_bytes_and_releases_its_seat() -> None:
    async def scenario() -> tuple[list[int], list[dict[str, Any]], Decimal, int, int]:
        loop = asyncio.get_running_loop()
        errors: list[dict[str, Any]] = []
        loop.set_exception_handler(lambda _loop, context: errors.append(context))
        reservations = Reservations()
        config = TableConfig(id="t1")
        table = LiveTable(
            config,
            config.rule_set(),
            _NoStore(),  # type: ignore[arg-type]
            _NoStore(),  # type: ignore[arg-type]
            reservations,
            StorageWorker(),
            ManualClock(),
        )
        assert table.phase == "betting"  # the machine opens its first window at once
        socket = _StuckSocket()
        conn = WsConnection(socket, lambda c: table.disconnect(1, c))  # type: ignore[arg-type]
        reservations.set_balance(1, Decimal(1000))
        table.join(PlayerRecord(1, "alice", Decimal(1000)), conn)
        pump = asyncio.create_task(conn.pump())
        reply = table.handle(1, PlaceBet(type="place_bet", id="b1", spot="ante", amount=10), conn)
        assert reply["state"]["balance"] == 980
        message = {"type": "table_bets", "pad": "p" * 1000}
        most = 0
        sent = 0
        while not conn.stalled:
            conn.send(dict(message))  # a new object each time: encoded each time
            sent += 1
            most = max(most, conn.queued_bytes)
        await asyncio.sleep(0)  # the seat is released on the next turn of the loop
        await asyncio.sleep(0)
        await asyncio.sleep(0.01)
        pump.cancel()
        await asyncio.gather(pump, return_exceptions=True)
        gc.collect()
        await asyncio.sleep(0)
        return socket.closed_with, errors, reservations.available(1), most, sent

    closed, errors, available, most, sent = asyncio.run(scenario())
    assert closed == [1013]
    assert errors == []  # no "Task exception was never retrieved"
    assert available == 1000  # the bets were declined: the seat is gone
    assert most <= QUEUE_BYTES == 1 << 20
    per_message = len(json.dumps({"type": "table_bets", "pad": "p" * 1000}, separators=(",", ":")))
    # The pump never ran: every message stayed queued until one no longer fit.
    fit = QUEUE_BYTES // per_message
    assert (sent, most) == (fit + 1, fit * per_message) == (1019, 1_048_540)
