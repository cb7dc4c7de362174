"""SQLAlchemy ORM models of the live table's database.

Money columns are integer cents (``BIGINT``) read and written as ``Decimal``
currency units by :class:`Cents`: exact on every database (SQLite stored
``Numeric`` as binary floating point). Balances and amounts are bounded by
:data:`~uth.server.ports.MAX_BALANCE` and :data:`~uth.server.ports.MAX_AMOUNT`,
also as ``CHECK`` constraints. Times are stored
timezone-aware and always read back as UTC-aware ``datetime`` values (SQLite
returns naive values; :class:`UtcDateTime` normalises them). JSON columns hold
only JSON-native values: ``Decimal`` amounts are stored as strings.

The migrations (``migrations/versions/``) create exactly this schema; a test
compares the two.
"""

from __future__ import annotations

from datetime import UTC, datetime
from decimal import Decimal
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    CheckConstraint,
    DateTime,
    Dialect,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Text,
    TypeDecorator,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

from uth.server.ports import MAX_AMOUNT, MAX_BALANCE

NAMING_CONVENTION = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}

ROUND_STATUSES = ("open", "settled", "voided")
LEDGER_KINDS = ("signup", "wager", "payout", "refund", "adjustment")


class UtcDateTime(TypeDecorator[datetime]):
    """``DateTime(timezone=True)`` that writes UTC and reads UTC-aware values.

    Naive values are refused on write (the server passes aware UTC times);
    naive values read back (SQLite keeps no offset) are UTC by construction.
    """

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        """Convert an aware time to UTC; refuse a naive one."""
        if value is None:
            return None
        if value.tzinfo is None or value.utcoffset() is None:
            raise ValueError(f"naive datetime {value!r}: times must be timezone-aware")
        return value.astimezone(UTC)

    def process_result_value(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        """Return a UTC-aware time."""
        if value is None:
            return None
        if value.tzinfo is None:
            return value.replace(tzinfo=UTC)
        return value.astimezone(UTC)


#: The largest balance and amount, in cents (the bounds of the CHECK constraints).
MAX_BALANCE_CENTS = int(MAX_BALANCE * 100)
MAX_AMOUNT_CENTS = int(MAX_AMOUNT * 100)


class Cents(TypeDecorator[Decimal]):
    """Money stored as integer cents (``BIGINT``), used as ``Decimal`` currency units.

    ``Decimal("12.34")`` is stored as ``1234`` and read back as ``Decimal("12.34")``
    on SQLite and PostgreSQL alike: no binary floating point anywhere.

    Raises:
        ValueError: on write, an amount that is not a whole number of cents
            (the store validates amounts first; this is the last line).
    """

    impl = BigInteger
    cache_ok = True

    def process_bind_param(self, value: Decimal | int | None, dialect: Dialect) -> int | None:
        """Currency units to integer cents (exact, or ValueError)."""
        if value is None:
            return None
        if isinstance(value, bool) or not isinstance(value, Decimal | int):
            raise ValueError(f"money: expected a Decimal amount, got {value!r}")
        scaled = Decimal(value).scaleb(2)
        if not scaled.is_finite() or scaled != scaled.to_integral_value():
            raise ValueError(f"money: {value!r} is not a whole number of cents")
        return int(scaled)

    def process_result_value(self, value: int | None, dialect: Dialect) -> Decimal | None:
        """Integer cents to currency units with two places (``1234`` -> ``12.34``)."""
        if value is None:
            return None
        return Decimal(int(value)).scaleb(-2)


def Money() -> Cents:
    """The money column type: integer cents as ``Decimal`` (:class:`Cents`)."""
    return Cents()


class Base(DeclarativeBase):
    """Declarative base with deterministic constraint names."""

    metadata = MetaData(naming_convention=NAMING_CONVENTION)


class Player(Base):
    """An account. Only the SHA-256 hex digest of the session token is stored.

    ``name_key`` is the display name as compared (NFKC, case-folded; see
    :func:`uth.server.storage.store.name_key`), unique: a name belongs to one
    account. It is NULL only for accounts that migration 0003 found sharing a
    name with an older account (the oldest keeps the name).
    """

    __tablename__ = "players"
    __table_args__ = (
        CheckConstraint("balance >= 0", name="balance_non_negative"),
        CheckConstraint(f"balance <= {MAX_BALANCE_CENTS}", name="balance_at_most_max"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(100), nullable=False)
    name_key: Mapped[str | None] = mapped_column(String(400), nullable=True, unique=True)
    token_hash: Mapped[str] = mapped_column(String(64), nullable=False, unique=True)
    created_at: Mapped[datetime] = mapped_column(UtcDateTime(), nullable=False)
    balance: Mapped[Decimal] = mapped_column(Money(), nullable=False)


class Round(Base):
    """One round of a table; ``deck`` is stored only once the round is settled,
    ``record`` once it is settled or voided (revision 0004 on).
    """

    __tablename__ = "rounds"
    __table_args__ = (
        CheckConstraint("status IN ('open', 'settled', 'voided')", name="status_known"),
        # A table's rounds newest first (revision 0006): a card room's restore at start.
        Index("ix_rounds_table_game", "table_id", "game_number"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_number: Mapped[str] = mapped_column(String(64), nullable=False, unique=True)
    table_id: Mapped[str] = mapped_column(String(64), nullable=False)
    rules: Mapped[str] = mapped_column(Text, nullable=False)
    status: Mapped[str] = mapped_column(String(16), nullable=False, index=True)
    started_at: Mapped[datetime] = mapped_column(UtcDateTime(), nullable=False)
    settled_at: Mapped[datetime | None] = mapped_column(UtcDateTime(), nullable=True)
    void_reason: Mapped[str | None] = mapped_column(Text, nullable=True)
    deck: Mapped[list[str] | None] = mapped_column(JSON, nullable=True)
    board: Mapped[list[str] | None] = mapped_column(JSON, nullable=True)
    dealer: Mapped[list[str] | None] = mapped_column(JSON, nullable=True)
    dealer_category: Mapped[str | None] = mapped_column(String(32), nullable=True)
    dealer_qualifies: Mapped[bool | None] = mapped_column(Boolean, nullable=True)
    events: Mapped[list[dict[str, Any]] | None] = mapped_column(JSON, nullable=True)
    #: The round's record as canonical JSON (uth.engine.history), for replay.
    record: Mapped[str | None] = mapped_column(Text, nullable=True)
    #: The SHA-256 fingerprint of the record's rule set, 64 hex digits.
    rules_fingerprint: Mapped[str | None] = mapped_column(String(64), nullable=True, index=True)


class LedgerEntry(Base):
    """An append-only ledger line: ``amount`` > 0 credits, < 0 debits."""

    __tablename__ = "ledger_entries"
    __table_args__ = (
        CheckConstraint(
            "kind IN ('signup', 'wager', 'payout', 'refund', 'adjustment')", name="kind_known"
        ),
        CheckConstraint("balance_after >= 0", name="balance_after_non_negative"),
        CheckConstraint(f"balance_after <= {MAX_BALANCE_CENTS}", name="balance_after_at_most_max"),
        CheckConstraint(
            f"amount BETWEEN -{MAX_AMOUNT_CENTS} AND {MAX_AMOUNT_CENTS}", name="amount_in_range"
        ),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    player_id: Mapped[int] = mapped_column(
        Integer, ForeignKey("players.id"), nullable=False, index=True
    )
    amount: Mapped[Decimal] = mapped_column(Money(), nullable=False)
    balance_after: Mapped[Decimal] = mapped_column(Money(), nullable=False)
    kind: Mapped[str] = mapped_column(String(16), nullable=False)
    wager: Mapped[str | None] = mapped_column(String(16), nullable=True)
    round_id: Mapped[int | None] = mapped_column(
        Integer, ForeignKey("rounds.id"), nullable=True, index=True
    )
    reason: Mapped[str] = mapped_column(Text, nullable=False)
    created_at: Mapped[datetime] = mapped_column(UtcDateTime(), nullable=False)
    #: A player's second hand in the round (the engine hand id of a seated player's
    #: back-line hand, ``"7@3"``); NULL for their own hand (migration 0005).
    hand: Mapped[str | None] = mapped_column(String(32), nullable=True)


class RoundPlayer(Base):
    """One player's part in a settled round."""

    __tablename__ = "round_players"

    round_id: Mapped[int] = mapped_column(Integer, ForeignKey("rounds.id"), primary_key=True)
    player_id: Mapped[int] = mapped_column(
        Integer, ForeignKey("players.id"), primary_key=True, index=True
    )
    hole: Mapped[list[str]] = mapped_column(JSON, nullable=False)
    decisions: Mapped[list[str]] = mapped_column(JSON, nullable=False)
    wagers: Mapped[dict[str, Any]] = mapped_column(JSON, nullable=False)
    category: Mapped[str] = mapped_column(String(32), nullable=False)
    best_five: Mapped[list[str]] = mapped_column(JSON, nullable=False)
    outcome: Mapped[str] = mapped_column(String(16), nullable=False)
    balance_before: Mapped[Decimal] = mapped_column(Money(), nullable=False)
    balance_after: Mapped[Decimal] = mapped_column(Money(), nullable=False)


class AuditLog(Base):
    """One line of the operator audit log."""

    __tablename__ = "audit_log"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    at: Mapped[datetime] = mapped_column(UtcDateTime(), nullable=False)
    actor: Mapped[str] = mapped_column(String(100), nullable=False)
    action: Mapped[str] = mapped_column(String(64), nullable=False)
    reason: Mapped[str] = mapped_column(Text, nullable=False)
    details: Mapped[dict[str, Any]] = mapped_column(JSON, nullable=False)
