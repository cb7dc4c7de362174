"""Transaction helpers and conversions shared by the SQL ledger and round log
(:mod:`uth.server.storage.ledger`, :mod:`uth.server.storage.round_log`).
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime
from decimal import Decimal
from enum import Enum
from typing import Any, Protocol

from sqlalchemy import select
from sqlalchemy.orm import Session

from uth.errors import UthError
from uth.server.ports import (
    MAX_BALANCE,
    BalanceLimitError,
    InsufficientFundsError,
    KeptRecord,
    LedgerEntry,
    NameTakenError,
    NotFoundError,
    PlayerRecord,
    check_amount,
)
from uth.server.storage.errors import DuplicateError, RoundNotOpenError
from uth.server.storage.models import LedgerEntry as LedgerRow
from uth.server.storage.models import Player, Round

CENT = Decimal("0.01")
ZERO = Decimal("0.00")


_FINGERPRINT = re.compile(r"[0-9a-f]{64}")

#: The longest display name stored (the column's size), in characters.
MAX_NAME_LENGTH = 100
#: The longest comparison key of a name (NFKC may expand a character up to 18).
MAX_NAME_KEY_LENGTH = 400


def hash_token(token: str) -> str:
    """The SHA-256 hex digest under which a session token is stored."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def name_key(name: str) -> str:
    """The form in which display names are compared: a name belongs to one account.

    Surrounding white space is dropped, the name is normalised to NFKC, case-folded
    and normalised again (Unicode's NFKC_Casefold, less its removal of default
    ignorable characters, which sign-in refuses): ``"Alice"``, ``"ALICE"``,
    ``"alice"`` and the full-width ``"ａｌｉｃｅ"`` are one name.
    """
    folded = unicodedata.normalize("NFKC", name.strip()).casefold()
    return unicodedata.normalize("NFKC", folded)


def _by_name_key(s: Session, key: str) -> Player | None:
    return s.scalars(select(Player).where(Player.name_key == key)).first()


def _name_taken(name: str) -> NameTakenError:
    return NameTakenError(f"name: {name!r} is taken by another account", field="name")


def _get_player(s: Session, player_id: int) -> Player:
    player = s.get(Player, player_id)
    if player is None:
        raise NotFoundError(f"player_id: no player {player_id}", field="player_id")
    return player


def _lock_round(s: Session, round_id: int) -> Round:
    rnd = s.scalars(
        select(Round)
        .where(Round.id == round_id)
        .with_for_update()
        .execution_options(populate_existing=True)
    ).first()
    if rnd is None:
        raise NotFoundError(f"round_id: no round {round_id}", field="round_id")
    return rnd


def _lock_players(s: Session, player_ids: Iterable[int]) -> dict[int, Player]:
    """Lock the players' rows in id order (a fixed order: no deadlocks)."""
    wanted = sorted(set(player_ids))
    if not wanted:
        return {}
    rows = s.scalars(
        select(Player)
        .where(Player.id.in_(wanted))
        .order_by(Player.id)
        .with_for_update()
        .execution_options(populate_existing=True)
    ).all()
    found = {p.id: p for p in rows}
    missing = [pid for pid in wanted if pid not in found]
    if missing:
        raise NotFoundError(f"player_id: no player {missing[0]}", field="player_id")
    return found


def _require_open(rnd: Round, doing: str) -> None:
    if rnd.status != "open":
        raise RoundNotOpenError(
            f"round {rnd.game_number} is {rnd.status}: cannot {doing} a round that is not open",
            field="round_id",
        )


class _Holder(Protocol):
    """A locked player's row: an ORM :class:`Player` or a :class:`~.bulk.Account`."""

    @property
    def id(self) -> int: ...
    @property
    def name(self) -> str: ...
    @property
    def balance(self) -> Decimal: ...


def _require_funds(player: _Holder, amount: Decimal, what: str) -> None:
    if player.balance < amount:
        raise InsufficientFundsError(
            f"player {player.id} ({player.name}) has a balance of {player.balance}, "
            f"which cannot cover {amount} for {what}",
            field="amount",
            player_id=player.id,
        )


def _balance_after(player: _Holder, amount: Decimal, what: str) -> Decimal:
    """The balance after adding ``amount`` (negative: a debit) to a locked player's.

    Raises:
        InsufficientFundsError: the balance cannot cover the debit (``what`` names it).
        BalanceLimitError: the balance would pass ``MAX_BALANCE``.
    """
    new_balance = (player.balance + amount).quantize(CENT)
    if new_balance < 0:
        _require_funds(player, -amount, what)
    if new_balance > MAX_BALANCE:
        raise BalanceLimitError(
            f"amount: a credit of {amount} would take the balance of player {player.id} "
            f"to {new_balance}, above the maximum balance {MAX_BALANCE:,}",
            field="amount",
            player_id=player.id,
        )
    return new_balance


def _post(
    s: Session,
    player: Player,
    amount: Decimal,
    *,
    kind: str,
    reason: str,
    now: datetime,
    wager: str | None = None,
    round_id: int | None = None,
    hand: str | None = None,
) -> None:
    """Change a locked player's balance by ``amount`` and append the ledger entry."""
    new_balance = _balance_after(player, amount, reason)
    player.balance = new_balance
    s.add(
        LedgerRow(
            player_id=player.id,
            amount=amount,
            balance_after=new_balance,
            kind=kind,
            wager=wager,
            round_id=round_id,
            reason=reason,
            created_at=now,
            hand=hand,
        )
    )


def _check_kept(kept: KeptRecord) -> None:
    if not isinstance(kept.text, str) or not kept.text.strip():
        raise UthError("record: must not be empty", field="record")
    if not _FINGERPRINT.fullmatch(kept.rules_fingerprint):
        raise UthError(
            f"rules_fingerprint: expected 64 hex digits, got {kept.rules_fingerprint!r}",
            field="rules_fingerprint",
        )


def _keep(rnd: Round, kept: KeptRecord) -> None:
    rnd.record = kept.text
    rnd.rules_fingerprint = kept.rules_fingerprint


def _not_posted(
    s: Session, rnd: Round, kind: str, entries: Sequence[tuple[int, str | None, str, Decimal]]
) -> list[tuple[int, str | None, str, Decimal]]:
    """The ``(player, hand, wager, amount)`` entries of kind ``kind`` the round does
    not have yet (``hand``: a player's second hand, None for their own).

    An entry is known by its key (round, player, hand, kind, wager); one already
    posted with the same amount is left out (a repeated call).

    Raises:
        DuplicateError: an entry posted with another amount, or one key twice.
    """
    posted = {
        (pid, hand, wager): amount
        for pid, hand, wager, amount in s.execute(
            select(LedgerRow.player_id, LedgerRow.hand, LedgerRow.wager, LedgerRow.amount).where(
                LedgerRow.round_id == rnd.id, LedgerRow.kind == kind
            )
        )
    }
    new: list[tuple[int, str | None, str, Decimal]] = []
    keys: set[tuple[int, str | None, str]] = set()
    for pid, hand, wager, amount in entries:
        key, whose = (pid, hand, wager), f"player {pid}" + (f" (hand {hand})" if hand else "")
        if key in keys:
            raise DuplicateError(
                f"{wager}: {whose} has two {kind} entries in one call", field=wager
            )
        keys.add(key)
        if key not in posted:
            new.append((pid, hand, wager, amount))
        elif posted[key] != amount:
            raise DuplicateError(
                f"{wager}: game {rnd.game_number} already has a {kind} of "
                f"{abs(posted[key])} for {whose}, not {abs(amount)}",
                field=wager,
            )
    return new


def _entries(s: Session, player_id: int, round_ids: Sequence[int]) -> list[LedgerRow]:
    if not round_ids:
        return []
    return list(
        s.scalars(
            select(LedgerRow)
            .where(LedgerRow.player_id == player_id, LedgerRow.round_id.in_(round_ids))
            .order_by(LedgerRow.id)
        ).all()
    )


def _balances_from(
    entries: Sequence[tuple[Decimal, Decimal]], current: Decimal
) -> tuple[Decimal, Decimal]:
    """Balance before the round's first debit and after its last entry, from the
    player's entries of the round as ``(amount, balance_after)``, oldest first.

    The balance before an entry is the ``balance_after`` of the player's previous
    entry, which equals ``balance_after - amount`` of this one.
    """
    if not entries:
        return current, current
    amount, after = next((e for e in entries if e[0] < 0), entries[0])
    return (after - amount).quantize(CENT), entries[-1][1]


# -- conversions -------------------------------------------------------------------


def _ledger_entry(row: LedgerRow) -> LedgerEntry:
    return LedgerEntry(
        id=row.id,
        player_id=row.player_id,
        amount=row.amount,
        balance_after=row.balance_after,
        kind=row.kind,
        wager=row.wager,
        round_id=row.round_id,
        reason=row.reason,
        created_at=row.created_at,
        hand=row.hand,
    )


def _player_record(player: Player) -> PlayerRecord:
    return PlayerRecord(id=player.id, name=player.name, balance=player.balance)


def _text(value: str, field: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise UthError(f"{field}: must not be empty", field=field)
    return value.strip()


def _aware(value: datetime, field: str) -> datetime:
    if not isinstance(value, datetime) or value.tzinfo is None or value.utcoffset() is None:
        raise UthError(f"{field}: expected a timezone-aware datetime, got {value!r}", field=field)
    return value


def _money(value: object, field: str) -> Decimal:
    """A Decimal (or int) amount in whole cents, as a two-place Decimal.

    Raises:
        UthError: not a Decimal or int, not finite, a fraction of a cent, or
            larger than :data:`~uth.server.ports.MAX_AMOUNT` either way.
    """
    if isinstance(value, bool) or not isinstance(value, Decimal | int):
        raise UthError(f"{field}: expected a Decimal amount, got {value!r}", field=field)
    amount = Decimal(value)
    if not amount.is_finite():
        raise UthError(f"{field}: expected a finite amount, got {value!r}", field=field)
    check_amount(amount, field)
    cents = amount.quantize(CENT)
    if cents != amount:
        raise UthError(f"{field}: amounts are in whole cents, got {value!r}", field=field)
    return cents


def _jsonable(value: Any) -> Any:
    """``value`` with Decimals as strings, times as ISO strings, sequences as lists."""
    if isinstance(value, Decimal):
        return str(value)
    if isinstance(value, datetime):
        return value.isoformat()
    if isinstance(value, Enum):
        return _jsonable(value.value)
    if value is None or isinstance(value, bool | int | float | str):
        return value
    if isinstance(value, Mapping):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, Iterable):
        return [_jsonable(v) for v in value]
    return str(value)


def _wagers_from_json(stored: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    """The stored wagers with ``stake`` and ``net`` back as Decimals."""
    wagers: dict[str, dict[str, Any]] = {}
    for kind, wager in stored.items():
        item = dict(wager)
        for key in ("stake", "net"):
            if isinstance(item.get(key), str | int):
                item[key] = Decimal(item[key])
        wagers[kind] = item
    return wagers


def _wagers_from_ledger(entries: Sequence[LedgerRow], status: str) -> dict[str, dict[str, Any]]:
    """Wagers of a player without a stored part in the round, from the ledger: the
    stakes (wager debits) and, per wager kind, ``{"stake", "result", "net"}``.

    An open round's wagers net minus their stake (result ``open``), a voided
    round's 0 (result ``voided``); a settled round's net is its payouts less the
    stake, and its result ``win``/``lose``/``push`` by that net: the player-dealer's
    ``bank`` (issue 13), whose bank is debited when the round opens and credited
    back with its result (RULES.md, "Who banks").
    """
    wagers: dict[str, dict[str, Any]] = {}
    paid: dict[str, Decimal] = {}
    for entry in entries:
        if entry.wager is None:
            continue
        if entry.kind == "wager":
            item = wagers.setdefault(entry.wager, {"stake": ZERO, "result": status, "net": ZERO})
            item["stake"] -= entry.amount
        elif entry.kind == "payout":
            paid[entry.wager] = paid.get(entry.wager, ZERO) + entry.amount
    for kind, item in wagers.items():
        if status == "voided":
            item["net"] = ZERO
        elif status == "settled":
            net = paid.get(kind, ZERO) - item["stake"]
            item["net"] = net
            item["result"] = "win" if net > 0 else "lose" if net < 0 else "push"
        else:
            item["net"] = -item["stake"]
    return wagers
