"""The round's money in bulk: SQLAlchemy Core statements, one per batch of rows.

A 1,000-player round posts 1,000 and more ledger entries at the close of betting
and as many at its settlement. Through ORM objects each row cost Python work in the
storage worker's thread, which holds the GIL while the event loop waits; here the
players' rows are read as plain rows, the new balances computed in Python, and the
entries inserted and the balances updated with one executemany each (SQLAlchemy's
insertmanyvalues on PostgreSQL). The rows, values, order and errors are those of
posting the entries one at a time (:func:`uth.server.storage._helpers._post`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal
from typing import Any

from sqlalchemy import bindparam, insert, select, update
from sqlalchemy.orm import Session

from uth.server.ports import NotFoundError, Refunds
from uth.server.storage._helpers import ZERO, _balance_after
from uth.server.storage.models import Base, Player, Round, RoundPlayer
from uth.server.storage.models import LedgerEntry as LedgerRow

_PLAYERS = Base.metadata.tables[Player.__tablename__]
_LEDGER = Base.metadata.tables[LedgerRow.__tablename__]
_ROUND_PLAYERS = Base.metadata.tables[RoundPlayer.__tablename__]

_SET_BALANCE = (
    update(_PLAYERS)
    .where(_PLAYERS.c.id == bindparam("player"))
    .values(balance=bindparam("new_balance"))
)


@dataclass(slots=True)
class Account:
    """A locked player's row as read in the transaction: id, name and balance
    (currency units; changed in Python, written by :func:`post_many`).
    """

    id: int
    name: str
    balance: Decimal


def lock_accounts(s: Session, player_ids: Iterable[int]) -> dict[int, Account]:
    """Lock the players' rows in id order (a fixed order: no deadlocks); one query.

    Raises:
        NotFoundError: naming the lowest id with no player.
    """
    wanted = sorted(set(player_ids))
    if not wanted:
        return {}
    rows = s.execute(
        select(_PLAYERS.c.id, _PLAYERS.c.name, _PLAYERS.c.balance)
        .where(_PLAYERS.c.id.in_(wanted))
        .order_by(_PLAYERS.c.id)
        .with_for_update()
    )
    found = {pid: Account(pid, name, balance) for pid, name, balance in rows}
    missing = [pid for pid in wanted if pid not in found]
    if missing:
        raise NotFoundError(f"player_id: no player {missing[0]}", field="player_id")
    return found


def post_many(
    s: Session,
    accounts: dict[int, Account],
    entries: Sequence[tuple[int, str | None, str | None, Decimal, str]],
    *,
    kind: str,
    round_id: int,
    now: datetime,
) -> None:
    """Post ``(player, hand, wager, amount, reason)`` entries of kind ``kind`` in order:
    each changes its player's balance and appends a ledger entry with the balance
    after it. Checked first (nothing written on an error); then one INSERT of the
    entries and one UPDATE of the balances changed, each an executemany.

    Raises:
        InsufficientFundsError: an entry would take a balance below 0 (names the player).
        BalanceLimitError: an entry would take a balance above the maximum.
    """
    rows: list[dict[str, Any]] = []
    changed: dict[int, Account] = {}
    for pid, hand, wager, amount, reason in entries:
        account = accounts[pid]
        new_balance = _balance_after(account, amount, reason)
        account.balance = new_balance
        changed[pid] = account
        rows.append(
            {
                "player_id": pid,
                "amount": amount,
                "balance_after": new_balance,
                "kind": kind,
                "wager": wager,
                "round_id": round_id,
                "reason": reason,
                "created_at": now,
                "hand": hand,
            }
        )
    if not rows:
        return
    conn = s.connection()
    conn.execute(insert(_LEDGER), rows)
    conn.execute(
        _SET_BALANCE,
        [{"player": pid, "new_balance": changed[pid].balance} for pid in sorted(changed)],
    )


def reverse_round(s: Session, rnd: Round, reason: str, now: datetime) -> Refunds:
    """Refund what the round's entries still hold from each player, per hand and wager."""
    rows = s.execute(
        select(LedgerRow.player_id, LedgerRow.hand, LedgerRow.wager, LedgerRow.amount)
        .where(LedgerRow.round_id == rnd.id)
        .order_by(LedgerRow.id)
    ).all()
    owed: dict[tuple[int, str | None, str | None], Decimal] = {}
    for pid, hand, wager, amount in rows:
        owed[(pid, hand, wager)] = owed.get((pid, hand, wager), ZERO) - amount
    accounts = lock_accounts(s, (pid for pid, _, _ in owed))
    why = f"refund, game {rnd.game_number} voided: {reason}"
    entries = [(pid, hand, wager, amount, why) for (pid, hand, wager), amount in owed.items()]
    entries = [entry for entry in entries if entry[3] != 0]
    post_many(s, accounts, entries, kind="refund", round_id=rnd.id, now=now)
    refunds: dict[int, Decimal] = {}
    for pid, _, _, amount, _ in entries:
        refunds[pid] = refunds.get(pid, ZERO) + amount
    return Refunds(
        amounts={pid: refunds[pid] for pid in sorted(refunds)},
        balances={pid: accounts[pid].balance for pid in sorted(refunds)},
    )


def round_entries(s: Session, round_id: int) -> dict[int, list[tuple[Decimal, Decimal]]]:
    """Every ledger entry of a round as ``(amount, balance_after)``, oldest first, by
    player (one query).
    """
    out: dict[int, list[tuple[Decimal, Decimal]]] = {}
    rows = s.execute(
        select(_LEDGER.c.player_id, _LEDGER.c.amount, _LEDGER.c.balance_after)
        .where(_LEDGER.c.round_id == round_id)
        .order_by(_LEDGER.c.id)
    )
    for pid, amount, after in rows:
        out.setdefault(pid, []).append((amount, after))
    return out


def insert_round_players(s: Session, rows: list[dict[str, Any]]) -> None:
    """Insert the players' parts of a settled round (``round_players`` rows), one executemany."""
    if rows:
        s.connection().execute(insert(_ROUND_PLAYERS), rows)
