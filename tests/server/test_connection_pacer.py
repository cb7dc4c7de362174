"""The connections' writers take turns (server/connection.py, ``Pacer``): each
connection's messages arrive complete and in order, at most ``per_turn``
connections send in one turn of the event loop, and a command's reply skips the
line.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

from uth.server.connection import Pacer, WsConnection


class _Socket:
    """A WebSocket that records what is sent, with the connection's name."""

    def __init__(self, name: str, log: list[tuple[str, Any]]) -> None:
        self.name = name
        self.log = log

    async def send_text(self, text: str) -> None:
        self.log.append((self.name, json.loads(text)))


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


def _run(scenario: Any) -> list[tuple[str, Any]]:
    log: list[tuple[str, Any]] = []

    async def main() -> None:
        stop = asyncio.Event()
        turns = asyncio.create_task(_turns(log, stop))
        await scenario(log)
        stop.set()
        await turns

    asyncio.run(main())
    return log


def _connections(
    names: str, log: list[tuple[str, Any]], pacer: Pacer | None
) -> dict[str, WsConnection]:
    return {n: WsConnection(_Socket(n, log), pacer=pacer) for n in names}  # type: ignore[arg-type]


async def _drain(conns: dict[str, WsConnection]) -> None:
    pumps = [asyncio.create_task(c.pump()) for c in conns.values()]
    for _ in range(100):
        await asyncio.sleep(0)
    for p in pumps:
        p.cancel()
    await asyncio.gather(*pumps, return_exceptions=True)


def test_a_broadcast_is_sent_a_few_connections_per_turn_each_in_order() -> None:
    async def scenario(log: list[tuple[str, Any]]) -> None:
        conns = _connections("abcdef", log, Pacer(per_turn=2))
        shared = [{"type": "table_bets", "n": i} for i in range(3)]
        for message in shared:  # one dict for everyone, as a broadcast
            for c in conns.values():
                c.send(message)
        conns["c"].send({"type": "state", "n": 3})  # one connection's own message
        await _drain(conns)

    log = _run(scenario)
    sent = [(who, m["n"]) for who, m in log if who != "turn"]
    # Every connection got its messages, complete and in order.
    for name in "abcdef":
        expected = [0, 1, 2, 3] if name == "c" else [0, 1, 2]
        assert [n for who, n in sent if who == name] == expected, name
    # At most two connections send between two turns of the loop: the loop runs
    # its other callbacks (reading the sockets) in between.
    per_turn: list[set[str]] = [set()]
    for who, _ in log:
        if who == "turn":
            per_turn.append(set())
        else:
            per_turn[-1].add(who)
    assert max(len(s) for s in per_turn) == 2
    # Each connection sends everything it has queued at its turn: one turn each.
    assert sum(1 for s in per_turn if s) == 3
    assert [sorted(s) for s in per_turn if s] == [["a", "b"], ["c", "d"], ["e", "f"]]


def test_a_reply_is_sent_before_the_connections_waiting_in_line() -> None:
    async def scenario(log: list[tuple[str, Any]]) -> None:
        conns = _connections("abcdef", log, Pacer(per_turn=2))
        broadcast = {"type": "table_bets", "n": 0}
        for c in conns.values():
            c.send(broadcast)
        pumps = [asyncio.create_task(c.pump()) for c in conns.values()]
        await asyncio.sleep(0)  # a and b send; c..f wait in line
        await asyncio.sleep(0)  # the next turn lets c and d go; e and f still wait
        conns["f"].send({"type": "accepted", "n": 1})
        conns["f"].hurry()  # the reply to f's command
        for _ in range(50):
            await asyncio.sleep(0)
        for p in pumps:
            p.cancel()
        await asyncio.gather(*pumps, return_exceptions=True)

    log = _run(scenario)
    sent = [(who, m["type"]) for who, m in log if who != "turn"]
    # f was last in line: with its reply it goes before e, its broadcast still
    # before its reply.
    assert sent == [
        ("a", "table_bets"),
        ("b", "table_bets"),
        ("c", "table_bets"),
        ("d", "table_bets"),
        ("f", "table_bets"),
        ("f", "accepted"),
        ("e", "table_bets"),
    ]


def test_a_reply_to_an_idle_connection_does_not_wait_in_line() -> None:
    async def scenario(log: list[tuple[str, Any]]) -> None:
        conns = _connections("abcdef", log, Pacer(per_turn=2))
        broadcast = {"type": "table_bets", "n": 0}
        for name in "abcde":  # f has nothing queued: its writer waits for a message
            conns[name].send(broadcast)
        pumps = [asyncio.create_task(c.pump()) for c in conns.values()]
        await asyncio.sleep(0)  # a and b send; c, d, e wait in line
        conns["f"].send({"type": "accepted", "n": 1})
        conns["f"].hurry()
        for _ in range(50):
            await asyncio.sleep(0)
        for p in pumps:
            p.cancel()
        await asyncio.gather(*pumps, return_exceptions=True)

    log = _run(scenario)
    sent = [who for who, _ in log if who != "turn"]
    assert sent == ["a", "b", "f", "c", "d", "e"]


def test_without_a_pacer_every_connection_sends_in_the_same_turn() -> None:
    async def scenario(log: list[tuple[str, Any]]) -> None:
        conns = _connections("abcdef", log, None)
        for c in conns.values():
            c.send({"type": "table_bets", "n": 0})
        await _drain(conns)

    log = _run(scenario)
    busy = [i for i, (who, _) in enumerate(log) if who != "turn"]
    assert len(busy) == 6
    assert busy == list(range(busy[0], busy[0] + 6))  # no turn in between
