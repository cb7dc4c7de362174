"""The records the storage ports take and give (``uth.server.ports``): players,
debits, rounds as stored, history rows, ledger entries, audit lines. Money is
``Decimal`` in currency units; times are timezone-aware UTC ``datetime`` values.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal
from typing import Any


@dataclass(frozen=True, slots=True)
class PlayerRecord:
    """A player account: id, display name and current balance."""

    id: int
    name: str
    balance: Decimal


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
class BackLineDetail:
    """A seated player's second hand in a round: a bet behind another seat (issue
    13), which followed that seat's cards and decisions.

    Attributes:
        hand: the engine hand id, ``"7@3"`` (player 7 behind seat 3).
        behind: the seat it was behind.
        hole, decisions, category, best_five: the seat's (empty or None while the
            round is not settled).
        wagers: per wager kind ``{"stake", "result", "net"}`` (currency units).
        outcome: ``win``, ``lose``, ``tie``, ``fold`` or ``void``; None while open.
    """

    hand: str
    behind: int
    hole: Sequence[str]
    decisions: Sequence[str]
    wagers: Mapping[str, Mapping[str, Any]]
    category: str | None
    best_five: Sequence[str]
    outcome: str | None


@dataclass(frozen=True, slots=True)
class RoundDetail:
    """One round as a player sees it in history.

    ``balance_before`` is the balance just before the round's first debit for this
    player; ``balance_after`` just after its last credit (both hands' entries when
    they had two). ``behind``: the seat the player's own hand was behind (a
    back-line bettor without a seat; ``decisions`` are then that seat's), else
    None; ``back_line``: a seated player's second hand, behind another seat.
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
    behind: int | None = None
    back_line: BackLineDetail | None = None


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
    #: The engine hand id of a player's second hand in the round (a seated
    #: player's back-line hand, ``"7@3"``); None for their own hand.
    hand: str | None = None


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
