"""Balances held in memory for the players at the tables, backed by the ledger.

The ledger (``Store``) is the truth; the wallet caches each seated player's
balance and the amounts *reserved* at tables: bets placed while betting is open
and Play wagers decided but not yet written. A new bet is accepted only when the
balance less every reservation covers it, so a player at two tables cannot bet
the same money twice.
"""

from __future__ import annotations

from decimal import Decimal

from uth.money import ZERO
from uth.server.ports import InsufficientFundsError


class Wallet:
    """Cached balances and reservations per player id (one per server process)."""

    def __init__(self) -> None:
        self._balance: dict[int, Decimal] = {}
        self._reserved: dict[int, Decimal] = {}

    def set_balance(self, player_id: int, balance: Decimal) -> None:
        """Record the ledger balance after a write (or on sign-in)."""
        self._balance[player_id] = balance

    def balance(self, player_id: int) -> Decimal:
        """The ledger balance last seen for the player (0 when unknown)."""
        return self._balance.get(player_id, ZERO)

    def reserved(self, player_id: int) -> Decimal:
        """The amount reserved at tables and not yet debited."""
        return self._reserved.get(player_id, ZERO)

    def available(self, player_id: int) -> Decimal:
        """What the player may still bet: balance less reservations."""
        return self.balance(player_id) - self.reserved(player_id)

    def reserve(self, player_id: int, amount: Decimal, *, field: str = "amount") -> None:
        """Reserve ``amount`` for a bet.

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
        """Give back a reservation (an Undo, a declined bet, or a debit written)."""
        left = self.reserved(player_id) - amount
        if left:
            self._reserved[player_id] = left
        else:
            self._reserved.pop(player_id, None)
