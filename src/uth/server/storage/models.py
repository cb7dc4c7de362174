"""SQLAlchemy ORM models of the live table's database.

Money columns are ``Numeric(14, 2)`` mapped to ``Decimal``. Times are stored
timezone-aware and always read back as UTC-aware ``datetime`` values (SQLite
returns naive values; :class:`UtcDateTime` normalises them). JSON columns hold
only JSON-native values: ``Decimal`` amounts are stored as strings.

The initial migration (``migrations/versions/0001_initial.py``) creates exactly
this schema; a test compares the two.
"""

from __future__ import annotations

from datetime import UTC, datetime
from decimal import Decimal
from typing import Any

from sqlalchemy import (
    JSON,
    Boolean,
    CheckConstraint,
    DateTime,
    Dialect,
    ForeignKey,
    Integer,
    MetaData,
    Numeric,
    String,
    Text,
    TypeDecorator,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

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


def Money() -> Numeric[Decimal]:
    """The money column type: ``Numeric(14, 2)`` as ``Decimal``."""
    return Numeric(14, 2, asdecimal=True)


class Base(DeclarativeBase):
    """Declarative base with deterministic constraint names."""

    metadata = MetaData(naming_convention=NAMING_CONVENTION)


class Player(Base):
    """An account. Only the SHA-256 hex digest of the session token is stored."""

    __tablename__ = "players"
    __table_args__ = (CheckConstraint("balance >= 0", name="balance_non_negative"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(100), nullable=False)
    token_hash: Mapped[str] = mapped_column(String(64), nullable=False, unique=True)
    created_at: Mapped[datetime] = mapped_column(UtcDateTime(), nullable=False)
    balance: Mapped[Decimal] = mapped_column(Money(), nullable=False)


class Round(Base):
    """One round of a table; ``deck`` is stored only once the round is settled."""

    __tablename__ = "rounds"
    __table_args__ = (
        CheckConstraint("status IN ('open', 'settled', 'voided')", name="status_known"),
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


class LedgerEntry(Base):
    """An append-only ledger line: ``amount`` > 0 credits, < 0 debits."""

    __tablename__ = "ledger_entries"
    __table_args__ = (
        CheckConstraint(
            "kind IN ('signup', 'wager', 'payout', 'refund', 'adjustment')", name="kind_known"
        ),
        CheckConstraint("balance_after >= 0", name="balance_after_non_negative"),
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
