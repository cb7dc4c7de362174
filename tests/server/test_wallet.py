"""The server's wallet: reservations against the ledger balance, storage calls in order."""

from __future__ import annotations

import asyncio
import time
from decimal import Decimal

import pytest

from uth.server.ports import InsufficientFundsError
from uth.server.wallet import Wallet


def test_reservations_limit_what_may_be_bet() -> None:
    w = Wallet()
    w.set_balance(1, Decimal(100))
    w.reserve(1, Decimal(60))
    assert (w.balance(1), w.reserved(1), w.available(1)) == (100, 60, 40)
    with pytest.raises(InsufficientFundsError, match="41 needs funds, the balance available is 40"):
        w.reserve(1, Decimal(41))
    assert w.reserved(1) == 60  # nothing reserved by the refused call
    w.release(1, Decimal(60))
    assert (w.reserved(1), w.available(1)) == (0, 100)


def test_releasing_more_than_is_reserved_is_a_bug() -> None:
    w = Wallet()
    w.set_balance(1, Decimal(100))
    w.reserve(1, Decimal(10))
    with pytest.raises(ValueError, match=r"11 exceeds the 10\.00 reserved for player 1"):
        w.release(1, Decimal(11))
    assert w.reserved(1) == 10


def test_storage_calls_run_one_at_a_time_and_answer_in_order() -> None:
    w = Wallet()
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
