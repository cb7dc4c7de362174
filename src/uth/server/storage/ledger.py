"""The :class:`uth.server.ports.Ledger` port on SQLAlchemy: accounts and their money
(see :mod:`uth.server.storage.store` for the transactions and locks).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from decimal import Decimal

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, sessionmaker

from uth.errors import UthError
from uth.server.ports import (
    Debit,
    LedgerEntry,
    PlayerRecord,
    Refunds,
)
from uth.server.storage._helpers import (
    MAX_NAME_KEY_LENGTH,
    MAX_NAME_LENGTH,
    ZERO,
    _aware,
    _by_name_key,
    _get_player,
    _ledger_entry,
    _lock_players,
    _lock_round,
    _money,
    _name_taken,
    _not_posted,
    _player_record,
    _post,
    _require_funds,
    _require_open,
    _text,
    hash_token,
    name_key,
)
from uth.server.storage.bulk import lock_accounts, post_many, reverse_round
from uth.server.storage.errors import DuplicateError
from uth.server.storage.models import AuditLog, Player, Round
from uth.server.storage.models import LedgerEntry as LedgerRow


class SqlLedger:
    """Accounts, balances and ledger entries (a part of :class:`SqlStore`)."""

    _sessions: sessionmaker[Session]

    def create_player(
        self, name: str, token: str, starting_balance: Decimal, now: datetime
    ) -> PlayerRecord:
        """Create an account with a signup credit; only a hash of ``token`` is stored.

        Raises:
            NameTakenError: another account has this name (as :func:`name_key`
                compares names); nothing is created.
            DuplicateError: the token is in use.
            UthError: a blank or too long name, a bad amount or time.
        """
        name = _text(name, "name")
        key = name_key(name)
        if len(name) > MAX_NAME_LENGTH or len(key) > MAX_NAME_KEY_LENGTH:
            raise UthError(f"name: must be at most {MAX_NAME_LENGTH} characters", field="name")
        if not token:
            raise UthError("token: must not be empty", field="token")
        amount = _money(starting_balance, "starting_balance")
        if amount < 0:
            raise UthError(
                f"starting_balance: must not be negative, got {amount}", field="starting_balance"
            )
        now = _aware(now, "now")
        try:
            with self._sessions.begin() as s:
                if _by_name_key(s, key) is not None:
                    raise _name_taken(name)
                player = Player(
                    name=name,
                    name_key=key,
                    token_hash=hash_token(token),
                    created_at=now,
                    balance=ZERO,
                )
                s.add(player)
                s.flush()
                _post(s, player, amount, kind="signup", reason="signup", now=now)
                return _player_record(player)
        except IntegrityError as exc:
            # A concurrent sign-in took the name (or the token) since the check.
            with self._sessions.begin() as s:
                if _by_name_key(s, key) is not None:
                    raise _name_taken(name) from exc
            raise DuplicateError("token: already in use by another player", field="token") from exc

    def player_by_name(self, name: str) -> PlayerRecord | None:
        """The account whose display name this is (compared by :func:`name_key`), or None."""
        with self._sessions.begin() as s:
            player = _by_name_key(s, name_key(name))
            return None if player is None else _player_record(player)

    def player_by_token(self, token: str) -> PlayerRecord | None:
        """The account whose session token this is, or None."""
        with self._sessions.begin() as s:
            player = s.scalars(select(Player).where(Player.token_hash == hash_token(token))).first()
            return None if player is None else _player_record(player)

    def player(self, player_id: int) -> PlayerRecord:
        """The account (raises NotFoundError)."""
        with self._sessions.begin() as s:
            return _player_record(_get_player(s, player_id))

    def debit(self, round_id: int, debits: Sequence[Debit], now: datetime) -> dict[int, Decimal]:
        """Debit every wager at once (all or none); returns each player's new balance.

        Zero amounts are skipped, and so is a wager already debited in the round
        with the same amount (a repeated call). Raises InsufficientFundsError naming
        the player when one cannot cover the sum of their wagers, DuplicateError for
        a wager already debited with another amount; then nothing is debited.
        """
        now = _aware(now, "now")
        checked: list[tuple[int, str | None, str, Decimal]] = []
        for i, debit in enumerate(debits):
            amount = _money(debit.amount, f"debits[{i}].amount")
            if amount < 0:
                raise UthError(
                    f"debits[{i}].amount: must not be negative, got {amount}",
                    field=f"debits[{i}].amount",
                )
            kind = _text(debit.kind, f"debits[{i}].kind")
            if amount > 0:
                checked.append((debit.player_id, debit.hand, kind, amount))
        with self._sessions.begin() as s:
            rnd = _lock_round(s, round_id)
            _require_open(rnd, "debit wagers of")
            accounts = lock_accounts(s, (pid for pid, _, _, _ in checked))
            new = _not_posted(
                s, rnd, "wager", [(pid, hand, kind, -amount) for pid, hand, kind, amount in checked]
            )
            totals: dict[int, Decimal] = {}
            for pid, _, _, amount in new:
                totals[pid] = totals.get(pid, ZERO) - amount
            for pid in sorted(totals):
                _require_funds(accounts[pid], totals[pid], f"the wagers of game {rnd.game_number}")
            game = rnd.game_number
            entries = [
                (pid, hand, kind, amount, f"{kind} wager, game {game}")
                for pid, hand, kind, amount in new
            ]
            post_many(s, accounts, entries, kind="wager", round_id=rnd.id, now=now)
            return {pid: accounts[pid].balance for pid in sorted(accounts)}

    def credit(
        self,
        round_id: int,
        credits: Mapping[int, Mapping[str, Decimal]],
        now: datetime,
        hands: Mapping[tuple[int, str], Mapping[str, Decimal]] | None = None,
    ) -> dict[int, Decimal]:
        """Pay each player of an open round, in one transaction.

        ``credits[player][kind]`` is the stake plus the net of that wager (0 for a
        lost wager), and ``hands[(player, hand)][kind]`` the same for a player's
        second hand (a seated player's back-line hand); each non-zero credit is one
        ``payout`` ledger entry, skipped when the round already has it with the same
        amount. Returns the new balance of every player named.

        Raises:
            RoundNotOpenError: the round is settled or voided.
            DuplicateError: a payout already made with another amount.
        """
        now = _aware(now, "now")
        checked: list[tuple[int, str | None, str, Decimal]] = []
        keyed: list[tuple[tuple[int, str | None], Mapping[str, Decimal]]]
        keyed = [((pid, None), by_kind) for pid, by_kind in credits.items()]
        keyed += [((pid, hand), by_kind) for (pid, hand), by_kind in (hands or {}).items()]
        for (pid, hand), by_kind in keyed:
            for kind, value in by_kind.items():
                field = f"credits[{pid}][{kind}]" if hand is None else f"hands[{hand}][{kind}]"
                amount = _money(value, field)
                if amount < 0:
                    raise UthError(f"{field}: must not be negative, got {amount}", field=field)
                if amount > 0:
                    checked.append((pid, hand, _text(kind, field), amount))
        with self._sessions.begin() as s:
            rnd = _lock_round(s, round_id)
            _require_open(rnd, "settle")
            accounts = lock_accounts(s, [pid for (pid, _), _ in keyed])
            game = rnd.game_number
            entries = [
                (pid, hand, kind, amount, f"{kind} payout, game {game}")
                for pid, hand, kind, amount in _not_posted(s, rnd, "payout", checked)
            ]
            post_many(s, accounts, entries, kind="payout", round_id=rnd.id, now=now)
            return {pid: accounts[pid].balance for pid in sorted(accounts)}

    def reverse(self, round_id: int, reason: str, now: datetime) -> Refunds:
        """Refund what an open round's entries took from each player, per wager kind.

        One ``refund`` entry per player and wager kind still owed; a round already
        reversed owes nothing and a second call posts nothing.

        Raises:
            RoundNotOpenError: the round is settled or voided.
        """
        reason = _text(reason, "reason")
        now = _aware(now, "now")
        with self._sessions.begin() as s:
            rnd = _lock_round(s, round_id)
            _require_open(rnd, "reverse")
            return reverse_round(s, rnd, reason, now)

    def adjust_balance(
        self, player_id: int, amount: Decimal, reason: str, actor: str, now: datetime
    ) -> Decimal:
        """Operator credit (+) or debit (-) with a reason, audited; returns the new balance.

        Raises InsufficientFundsError when a debit would take the balance below 0.
        """
        value = _money(amount, "amount")
        if value == 0:
            raise UthError("amount: an adjustment must not be zero", field="amount")
        reason = _text(reason, "reason")
        actor = _text(actor, "actor")
        now = _aware(now, "now")
        with self._sessions.begin() as s:
            player = _lock_players(s, [player_id])[player_id]
            if value < 0:
                _require_funds(player, -value, "the adjustment")
            _post(s, player, value, kind="adjustment", reason=reason, now=now)
            s.add(
                AuditLog(
                    at=now,
                    actor=actor,
                    action="adjust_balance",
                    reason=reason,
                    details={
                        "player_id": player.id,
                        "amount": str(value),
                        "balance_after": str(player.balance),
                    },
                )
            )
            return player.balance

    def ledger(self, player_id: int) -> list[LedgerEntry]:
        """Every ledger entry of a player, oldest first."""
        with self._sessions.begin() as s:
            _get_player(s, player_id)
            rows = s.scalars(
                select(LedgerRow).where(LedgerRow.player_id == player_id).order_by(LedgerRow.id)
            ).all()
            return [_ledger_entry(row) for row in rows]

    def round_entries(self, game_number: str) -> list[LedgerEntry]:
        """Every ledger entry of a round, oldest first (empty for an unknown game number)."""
        with self._sessions.begin() as s:
            rows = s.scalars(
                select(LedgerRow)
                .join(Round, Round.id == LedgerRow.round_id)
                .where(Round.game_number == game_number)
                .order_by(LedgerRow.id)
            ).all()
            return [_ledger_entry(row) for row in rows]
