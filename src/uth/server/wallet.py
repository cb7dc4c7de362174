"""Balances held in memory for the players at the tables, backed by the ledger.

The ledger (``Store``) is the truth; the wallet caches the balance of each player
it has seen and the amounts *reserved*: bets placed while betting is open, Play
wagers decided but not yet written, an operator debit being written. A new bet
is accepted only when the balance less every reservation covers it, so a player
at two tables cannot bet the same money twice.

Every storage call of the server goes through :meth:`Wallet.call`: one worker
thread runs them one at a time, in the order they were made, and hands the
results back in that order. A balance read back after a write is therefore never
overwritten by an older one from another table.
"""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from decimal import Decimal
from typing import Any, TypeVar

from uth.money import ZERO
from uth.server.ports import InsufficientFundsError

_T = TypeVar("_T")


class Wallet:
    """Cached balances and reservations per player id (one per server process)."""

    def __init__(self) -> None:
        self._balance: dict[int, Decimal] = {}
        self._reserved: dict[int, Decimal] = {}
        self._worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="uth-store")

    async def call(self, fn: Callable[..., _T], *args: Any) -> _T:
        """Run one storage call in the worker thread and return its result.

        Calls run one at a time in the order made; their results come back in
        that order.
        """
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._worker, functools.partial(fn, *args))

    def close(self) -> None:
        """Stop the worker thread (calls already queued still run)."""
        self._worker.shutdown(wait=False)

    def knows(self, player_id: int) -> bool:
        """Whether the wallet holds a balance for the player."""
        return player_id in self._balance

    def set_balance(self, player_id: int, balance: Decimal) -> None:
        """Record the ledger balance after a write (or on sign-in)."""
        self._balance[player_id] = balance

    def balance(self, player_id: int) -> Decimal:
        """The ledger balance last seen for the player (0 when unknown)."""
        return self._balance.get(player_id, ZERO)

    def reserved(self, player_id: int) -> Decimal:
        """The amount reserved and not yet written to the ledger."""
        return self._reserved.get(player_id, ZERO)

    def available(self, player_id: int) -> Decimal:
        """What the player may still bet: balance less reservations."""
        return self.balance(player_id) - self.reserved(player_id)

    def reserve(self, player_id: int, amount: Decimal, *, field: str = "amount") -> None:
        """Reserve ``amount`` for a bet (or a debit being written).

        Raises:
            InsufficientFundsError: the available balance does not cover it; nothing
                is reserved.
        """
        available = self.available(player_id)
        if amount > available:
            raise InsufficientFundsError(
                f"{field}: {amount} needs funds, the balance available is {available}", field=field
            )
        self._reserved[player_id] = self.reserved(player_id) + amount

    def release(self, player_id: int, amount: Decimal) -> None:
        """Give back a reservation (an Undo, a declined bet, or a debit written).

        Raises:
            ValueError: more than is reserved (a bug: the books would no longer add up).
        """
        left = self.reserved(player_id) - amount
        if left < 0:
            raise ValueError(
                f"release: {amount} exceeds the {self.reserved(player_id)} reserved "
                f"for player {player_id}"
            )
        if left:
            self._reserved[player_id] = left
        else:
            self._reserved.pop(player_id, None)
