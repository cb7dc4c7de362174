"""Reservations: balances held in memory for the players at the tables, and the
amounts reserved against them.

The ledger (:class:`~uth.server.ports.Ledger`) is the truth; this cache keeps the
balance of each player it has seen and the amounts *reserved*: bets placed while
betting is open, Play wagers decided but not yet written, an operator debit being
written. A new bet is accepted only when the balance less every reservation covers
it, so a player at two tables cannot bet the same money twice. Balances come in
from the storage worker (:class:`uth.server.storage.worker.StorageWorker`), whose
answers arrive in the order the calls were made, so a newer balance is never
overwritten by an older one.
"""

from __future__ import annotations

from decimal import Decimal

from uth.money import ZERO
from uth.server.ports import InsufficientFundsError


class Reservations:
    """Cached balances and reservations per player id (one per server process)."""

    def __init__(self) -> None:
        self._balance: dict[int, Decimal] = {}
        self._reserved: dict[int, Decimal] = {}

    def knows(self, player_id: int) -> bool:
        """Whether a balance is held for the player."""
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
