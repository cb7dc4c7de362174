"""A connection's writer (server/connection.py, ``WsConnection.pump``): one
wake-up sends everything queued, each connection's messages arrive complete and
in order, and a broadcast encodes its text once.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

from uth.server.connection import WsConnection


class _Socket:
    """A WebSocket that records what is sent, with the connection's name."""

    def __init__(self, name: str, log: list[tuple[str, Any]]) -> None:
        self.name = name
        self.log = log

    async def send_text(self, text: str) -> None:
        self.log.append((self.name, json.loads(text)))


class _SlowSocket(_Socket):
    """Each send waits for the next turn of the loop (a transport paused by flow control)."""

    async def send_text(self, text: str) -> None:
        await asyncio.sleep(0)
        await super().send_text(text)


async def _turns(log: list[tuple[str, Any]], stop: asyncio.Event) -> None:
    """Mark each turn of the loop in ``log`` (a callback that schedules itself)."""
    loop = asyncio.get_running_loop()
    done = loop.create_future()

    def mark() -> None:
        log.append(("turn", None))
        if stop.is_set():
            done.set_result(None)
        else:
            loop.call_soon(mark)

    loop.call_soon(mark)
    await done


def _run(names: str, socket: type[_Socket], scenario: Any) -> list[tuple[str, Any]]:
    log: list[tuple[str, Any]] = []

    async def main() -> None:
        stop = asyncio.Event()
        turns = asyncio.create_task(_turns(log, stop))
        conns = {n: WsConnection(socket(n, log)) for n in names}  # type: ignore[arg-type]
        pumps = [asyncio.create_task(c.pump()) for c in conns.values()]
        await scenario(conns)
        for _ in range(20):
            await asyncio.sleep(0)
        for p in pumps:
            p.cancel()
        await asyncio.gather(*pumps, return_exceptions=True)
        stop.set()
        await turns
        assert all(c.queued_bytes == 0 and not c.texts for c in conns.values())

    asyncio.run(main())
    return log


def test_each_connection_gets_its_messages_in_order_in_one_wake_up() -> None:
    async def scenario(conns: dict[str, WsConnection]) -> None:
        await asyncio.sleep(0)  # the writers wait for texts
        shared = [{"type": "table_bets", "n": i} for i in range(3)]
        for message in shared:  # one dict for everyone, as a broadcast
            for c in conns.values():
                c.send(message)
        conns["b"].send({"type": "accepted", "n": 3})  # one connection's own message

    log = _run("abc", _Socket, scenario)
    sent = [(who, m["n"]) for who, m in log if who != "turn"]
    for name in "abc":
        expected = [0, 1, 2, 3] if name == "b" else [0, 1, 2]
        assert [n for who, n in sent if who == name] == expected, name
    # Everything queued went out in one turn of the loop: no turn in between.
    busy = [i for i, (who, _) in enumerate(log) if who != "turn"]
    assert busy == list(range(busy[0], busy[0] + 10))


def test_texts_queued_while_a_send_waits_follow_in_order() -> None:
    async def scenario(conns: dict[str, WsConnection]) -> None:
        conn = conns["a"]
        conn.send({"type": "light", "n": 0})
        await asyncio.sleep(0)  # the writer is in its first send
        conn.send({"type": "table_bets", "n": 1})
        await asyncio.sleep(0)
        conn.send({"type": "accepted", "n": 2})

    log = _run("a", _SlowSocket, scenario)
    assert [m["n"] for who, m in log if who == "a"] == [0, 1, 2]
