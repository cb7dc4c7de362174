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
from dataclasses import dataclass, field
from datetime import datetime
from decimal import Decimal
from typing import Any, Protocol

from uth import money
from uth.errors import UthError

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


@dataclass(frozen=True, slots=True)
class PlayerRecord:
    """A player account: id, display name and current balance."""

    id: int
    name: str
    balance: Decimal


@dataclass(frozen=True, slots=True)
class Debit:
    """One wager to debit: ``amount`` from ``player_id`` for wager ``kind``
    (``ante``, ``blind``, ``trips``, ``bad_beat``, ``play``).
    """

    player_id: int
    kind: str
    amount: Decimal


@dataclass(frozen=True, slots=True)
class PlayerRound:
    """One player's part in a settled round, as stored for history.

    Attributes:
        player_id: the account.
        hole: the hole cards, notation strings.
        decisions: the decisions in order, e.g. ``["check", "play_2x"]``
            (``"auto:check"`` when the timer decided).
        wagers: per wager kind: ``{"stake": Decimal, "result": str, "net": Decimal}``
            (all five kinds).
        category: the player's best hand category key, e.g. ``"flush"``.
        best_five: the best five cards.
        outcome: ``win``, ``lose``, ``tie`` or ``fold``.
    """

    player_id: int
    hole: Sequence[str]
    decisions: Sequence[str]
    wagers: Mapping[str, Mapping[str, Any]]
    category: str
    best_five: Sequence[str]
    outcome: str


@dataclass(frozen=True, slots=True)
class RoundRecord:
    """Everything stored when a round is settled (one transaction).

    Attributes:
        settled_at: UTC time of settlement.
        deck: the 52 cards of the deck in deal order (stored only once settled).
        board: the five community cards.
        dealer: the dealer's hole cards.
        dealer_category: the dealer's hand category key.
        dealer_qualifies: whether the dealer qualified.
        players: one :class:`PlayerRound` per player with wagers.
        events: the round's events as JSON-ready dicts (``Event.to_dict()``).
    """

    settled_at: datetime
    deck: Sequence[str]
    board: Sequence[str]
    dealer: Sequence[str]
    dealer_category: str
    dealer_qualifies: bool
    players: Sequence[PlayerRound]
    events: Sequence[Mapping[str, Any]] = field(default=())


@dataclass(frozen=True, slots=True)
class RoundSummary:
    """A line of a player's history."""

    game_number: str
    table_id: str
    status: str  # "settled" | "voided" | "open"
    started_at: datetime
    total_stake: Decimal
    net: Decimal


@dataclass(frozen=True, slots=True)
class RoundDetail:
    """One round as a player sees it in history.

    ``balance_before`` is the balance just before the round's first debit for this
    player; ``balance_after`` just after its last credit.
    """

    game_number: str
    table_id: str
    rules: str
    status: str
    started_at: datetime
    settled_at: datetime | None
    board: Sequence[str]
    dealer: Sequence[str]
    dealer_category: str | None
    dealer_qualifies: bool | None
    hole: Sequence[str]
    decisions: Sequence[str]
    wagers: Mapping[str, Mapping[str, Any]]
    category: str | None
    best_five: Sequence[str]
    outcome: str | None
    balance_before: Decimal
    balance_after: Decimal
    void_reason: str | None = None


@dataclass(frozen=True, slots=True)
class LedgerEntry:
    """One append-only ledger entry: ``amount`` > 0 credits, < 0 debits."""

    id: int
    player_id: int
    amount: Decimal
    balance_after: Decimal
    kind: str  # "signup" | "wager" | "payout" | "refund" | "adjustment"
    wager: str | None
    round_id: int | None
    reason: str
    created_at: datetime


@dataclass(frozen=True, slots=True)
class KeptRecord:
    """A round's record as the round log keeps it, for replay (``uth replay``).

    Attributes:
        text: the record as canonical JSON (:func:`uth.engine.history.encode`).
        rules_fingerprint: the SHA-256 fingerprint of its rule set, 64 hex digits.
    """

    text: str
    rules_fingerprint: str


@dataclass(frozen=True, slots=True)
class StoredRound:
    """A round as the round log keeps it, for replay (``uth replay``).

    Attributes:
        round_id: the round's id in the log.
        game_number: the round's game number.
        table_id: the table that dealt it.
        status: ``open``, ``settled`` or ``voided``.
        record: the round record as canonical JSON (:mod:`uth.engine.history`), or
            None when none was stored (a round still open, or stored before records
            were kept).
        rules_fingerprint: the fingerprint of the record's rule set (64 hex digits),
            or None with no record.
    """

    round_id: int
    game_number: str
    table_id: str
    status: str
    record: str | None
    rules_fingerprint: str | None


@dataclass(frozen=True, slots=True)
class Refunds:
    """What :meth:`Ledger.reverse` gave back.

    Attributes:
        amounts: per player id, the amount refunded by this call (currency units).
        balances: per player id refunded, the balance after the refund.
    """

    amounts: Mapping[int, Decimal]
    balances: Mapping[int, Decimal]


@dataclass(frozen=True, slots=True)
class AuditEntry:
    """One line of the operator audit log."""

    id: int
    at: datetime
    actor: str
    action: str
    reason: str
    details: Mapping[str, Any]


class Ledger(Protocol):
    """Player accounts and their money: debits, credits and reversals of a round's
    wagers, operator adjustments, balances and the ledger itself.

    A remote operator wallet (a "seamless wallet") can stand in for this port: the
    server then holds no balance of its own. Every method is one transaction: it
    commits whole or not at all. A balance always equals the sum of its ledger
    entries and never goes negative.

    Idempotency: an entry of a round is known by its key (round, player, entry kind
    ``wager`` / ``payout`` / ``refund``, wager kind). :meth:`debit` and :meth:`credit`
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
        self, round_id: int, credits: Mapping[int, Mapping[str, Decimal]], now: datetime
    ) -> dict[int, Decimal]:
        """Pay each player (``credits[player][kind]`` = stake + net of that wager, 0 for a
        lost wager) in one transaction; returns the new balance of every player named.
        A payout already made (same key and amount) is skipped.
        """
        ...

    def reverse(self, round_id: int, reason: str, now: datetime) -> Refunds:
        """Give back what the round's entries took, per player and wager kind (a refund
        entry each). A round already reversed owes nothing: a second call posts nothing.
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

    def audit_log(self, limit: int = 100) -> list[AuditEntry]:
        """The newest audit lines first."""
        ...


class Store(Ledger, RoundLog, Protocol):
    """One backend that keeps both the ledger and the round log (``SqlStore``)."""
