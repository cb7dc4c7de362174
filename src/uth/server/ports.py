"""What the live table needs from storage: the ``Ledger`` and ``RoundLog`` ports and
their records.

The server talks only to these interfaces: the :class:`Ledger` (accounts and money)
and the :class:`RoundLog` (rounds, history, audit). The SQLAlchemy implementation
``uth.server.storage.SqlStore`` is both (:class:`Store`). Money is ``Decimal`` in
currency units; times are timezone-aware UTC ``datetime`` values passed in by
the caller (the server owns the clock).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from decimal import Decimal
from typing import Any, Protocol

from uth import money
from uth.engine.table.effects import Debit, PlayerRound, RoundRecord
from uth.errors import UthError
from uth.server.records import (
    AuditEntry,
    KeptRecord,
    LedgerEntry,
    PlayerRecord,
    Refunds,
    RoundDetail,
    RoundSummary,
    StoredRound,
)

#: The largest balance an account may hold, in currency units. A credit that would
#: take a balance above it is refused (:class:`BalanceLimitError`). 999,999,999,999.99
#: has 14 significant digits, so every amount up to it survives a JSON number
#: (a binary double) exactly; stored as cents it fits a 64-bit integer with room.
MAX_BALANCE = Decimal("999999999999.99")
#: The largest amount of one ledger entry (a credit, debit, wager or adjustment),
#: in currency units, either sign (the amount parser's maximum, :data:`uth.money.MAX_AMOUNT`).
MAX_AMOUNT = money.MAX_AMOUNT


def check_amount(amount: Decimal, field: str) -> Decimal:
    """``amount`` when it is at most :data:`MAX_AMOUNT` either way.

    Raises:
        UthError: a larger amount; the message names ``field`` and the maximum.
    """
    if abs(amount) > MAX_AMOUNT:
        raise UthError(
            f"{field}: must be at most {MAX_AMOUNT:,} either way, got {amount}", field=field
        )
    return amount


class BalanceLimitError(UthError):
    """A credit that would take a balance above :data:`MAX_BALANCE`; nothing changed.

    Attributes:
        player_id: the player whose balance would exceed the maximum.
    """

    code = "balance_limit"

    def __init__(self, message: str, *, field: str | None = None, player_id: int | None = None):
        super().__init__(message, field=field)
        self.player_id = player_id


class InsufficientFundsError(UthError):
    """A debit larger than the player's balance; nothing was debited.

    Attributes:
        player_id: the player who is short, when the error comes from storage.
    """

    code = "insufficient_funds"

    def __init__(self, message: str, *, field: str | None = None, player_id: int | None = None):
        super().__init__(message, field=field)
        self.player_id = player_id


class RoundNotOpenError(UthError):
    """A round that is settled or voided cannot be debited, settled or voided again."""

    code = "round_not_open"


class DuplicateError(UthError):
    """A game number or session token that is already in use."""

    code = "duplicate"


class NameTakenError(DuplicateError):
    """A display name that already belongs to another account (compared by
    :func:`uth.server.storage.name_key`: NFKC, case-insensitive).
    """

    code = "name_taken"


class NotFoundError(UthError):
    """No player, round or game number matches."""

    code = "not_found"


class Ledger(Protocol):
    """Player accounts and their money: debits, credits and reversals of a round's
    wagers, operator adjustments, balances and the ledger itself.

    A remote operator wallet (a "seamless wallet") can stand in for this port: the
    server then holds no balance of its own. Every method is one transaction: it
    commits whole or not at all. A balance always equals the sum of its ledger
    entries and never goes negative.

    Idempotency: an entry of a round is known by its key (round, player, hand, entry
    kind ``wager`` / ``payout`` / ``refund``, wager kind); ``hand`` is None for the
    player's own hand and the engine hand id of a second hand (a seated player's
    back-line hand at a card room, ``"7@3"``; migration 0005). :meth:`debit` and :meth:`credit`
    skip an entry whose key is already in the ledger with the same amount, and
    :meth:`reverse` posts only what the round still owes; so a call repeated after a
    failure (a lost answer, a restart) never moves money twice.
    """

    def create_player(
        self, name: str, token: str, starting_balance: Decimal, now: datetime
    ) -> PlayerRecord:
        """Create an account with a signup credit; only a hash of ``token`` is stored.

        Raises NameTakenError when another account has the name.
        """
        ...

    def player_by_token(self, token: str) -> PlayerRecord | None:
        """The account whose session token this is, or None."""
        ...

    def player_by_name(self, name: str) -> PlayerRecord | None:
        """The account that owns this display name (NFKC, case-insensitive), or None."""
        ...

    def player(self, player_id: int) -> PlayerRecord:
        """The account and its balance (raises NotFoundError)."""
        ...

    def round_player_ids(self, game_number: str) -> list[int]:
        """The ids of the players with a ledger entry in the round."""
        ...

    def debit(self, round_id: int, debits: Sequence[Debit], now: datetime) -> dict[int, Decimal]:
        """Debit every wager at once (all or none); returns each player's new balance.

        A wager already debited (same key and amount) is skipped. Raises
        InsufficientFundsError naming the player when one cannot cover.
        """
        ...

    def credit(
        self,
        round_id: int,
        credits: Mapping[int, Mapping[str, Decimal]],
        now: datetime,
        hands: Mapping[tuple[int, str], Mapping[str, Decimal]] | None = None,
    ) -> dict[int, Decimal]:
        """Pay each player (``credits[player][kind]`` = stake + net of that wager, 0 for a
        lost wager; ``hands[(player, hand)][kind]`` the same for a player's second
        hand) in one transaction; returns the new balance of every player named.
        A payout already made (same key and amount) is skipped.
        """
        ...

    def reverse(self, round_id: int, reason: str, now: datetime) -> Refunds:
        """Give back what the round's entries took, per player, hand and wager kind (a
        refund entry each). A round already reversed owes nothing: a second call posts nothing.
        """
        ...

    def adjust_balance(
        self, player_id: int, amount: Decimal, reason: str, actor: str, now: datetime
    ) -> Decimal:
        """Operator credit (+) or debit (-) with a reason, audited; returns the new balance."""
        ...

    def ledger(self, player_id: int) -> list[LedgerEntry]:
        """Every ledger entry of a player, oldest first."""
        ...

    def round_entries(self, game_number: str) -> list[LedgerEntry]:
        """Every ledger entry of a round, oldest first (empty for an unknown game number)."""
        ...


class RoundLog(Protocol):
    """The rounds as played: opened, settled or voided, their history, and the audit log.

    Every method is one transaction. The money of a round moves through the
    :class:`Ledger`; :mod:`uth.server.round_books` calls the two in the right order.
    """

    def open_round(self, table_id: str, game_number: str, rules: str, started_at: datetime) -> int:
        """Record a new round (status ``open``) and return its id."""
        ...

    def settle_round(
        self, round_id: int, record: RoundRecord, kept: KeptRecord | None = None
    ) -> None:
        """Store the settled round (status ``settled``) with its record ``kept``, in one
        transaction; its payouts are already in the ledger. Raises RoundNotOpenError
        for a settled or voided round.
        """
        ...

    def void_round(
        self,
        round_id: int,
        reason: str,
        actor: str,
        now: datetime,
        refunds: Mapping[int, Decimal],
        kept: KeptRecord | None = None,
    ) -> None:
        """Mark an open round voided, keep its record ``kept`` (when it was dealt) and
        write the audit line (with ``refunds``, the amount given back to each player),
        in one transaction. Raises RoundNotOpenError for a settled or voided round.
        """
        ...

    def save_record(self, round_id: int, record: str, rules_fingerprint: str) -> None:
        """Keep the round's record (canonical JSON, :mod:`uth.engine.history`) and the
        fingerprint of its rule set, replacing any record kept before.

        Raises:
            UthError: a blank record or a fingerprint that is not 64 hex digits.
            NotFoundError: no such round.
        """
        ...

    def stored_round(self, game_number: str) -> StoredRound:
        """The round with this game number as kept (raises NotFoundError)."""
        ...

    def game_numbers(self) -> list[str]:
        """The game number of every round, oldest first."""
        ...

    def last_round_id(self) -> int:
        """The id of the newest round (0 when there is none)."""
        ...

    def table_rounds(
        self, table_id: str, *, before: str | None = None, limit: int = 50
    ) -> list[StoredRound]:
        """The table's rounds as kept, newest first (game-number order reversed):
        at most ``limit``, with a game number below ``before`` when given (the next
        page). A card-room table's rotation and deck colour are restored from them
        when the server starts.
        """
        ...

    def check_open(self, round_id: int, doing: str) -> None:
        """Nothing when the round is ``open``.

        Raises:
            RoundNotOpenError: the round is settled or voided; the message names its
                game number, its status and ``doing`` (e.g. ``"voided"``).
            NotFoundError: no such round.
        """
        ...

    def open_rounds(self) -> list[str]:
        """The game numbers of the rounds still ``open``, oldest first."""
        ...

    def history(self, player_id: int, limit: int = 20) -> list[RoundSummary]:
        """The player's last rounds, newest first."""
        ...

    def round_detail(self, player_id: int, game_number: str) -> RoundDetail:
        """One of the player's rounds by game number (raises NotFoundError)."""
        ...

    def round_id(self, game_number: str) -> int:
        """The id of the round with that game number (raises NotFoundError)."""
        ...

    def audit(
        self, actor: str, action: str, reason: str, details: Mapping[str, Any], now: datetime
    ) -> None:
        """Append a line to the audit log."""
        ...

    def audit_lines(self, action: str) -> list[AuditEntry]:
        """Every audit line with this ``action``, oldest first."""
        ...

    def audit_log(self, limit: int = 100) -> list[AuditEntry]:
        """The newest audit lines first."""
        ...


class Store(Ledger, RoundLog, Protocol):
    """One backend that keeps both the ledger and the round log (``SqlStore``)."""


__all__ = [
    "MAX_AMOUNT",
    "MAX_BALANCE",
    "AuditEntry",
    "BalanceLimitError",
    "Debit",
    "DuplicateError",
    "InsufficientFundsError",
    "KeptRecord",
    "Ledger",
    "LedgerEntry",
    "NameTakenError",
    "NotFoundError",
    "PlayerRecord",
    "PlayerRound",
    "Refunds",
    "RoundDetail",
    "RoundLog",
    "RoundNotOpenError",
    "RoundRecord",
    "RoundSummary",
    "Store",
    "StoredRound",
    "check_amount",
]
