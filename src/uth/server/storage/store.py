"""``SqlStore``: the :class:`uth.server.ports.Ledger` and
:class:`uth.server.ports.RoundLog` ports on SQLAlchemy.

Every public method runs in one transaction (``with Session.begin()``). Balance
changes lock the player rows first (``SELECT ... FOR UPDATE`` on PostgreSQL;
SQLite transactions take the database write lock up front, see
:func:`uth.server.storage.db.make_engine`), always in the same order (the round
row, then the players by id) so that concurrent calls cannot deadlock. Every
change of a balance appends a ledger entry carrying the new balance, so a
player's balance always equals the sum of their ledger entries. Every amount is
at most :data:`~uth.server.ports.MAX_AMOUNT` and every balance at most
:data:`~uth.server.ports.MAX_BALANCE` (checked here, naming the field, and by the
database's ``CHECK`` constraints).
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime
from decimal import Decimal
from enum import Enum
from typing import Any

from sqlalchemy import Engine, select, union
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, sessionmaker

from uth.errors import UthError
from uth.server.ports import (
    MAX_BALANCE,
    AuditEntry,
    BalanceLimitError,
    Debit,
    InsufficientFundsError,
    KeptRecord,
    LedgerEntry,
    NameTakenError,
    NotFoundError,
    PlayerRecord,
    Refunds,
    RoundDetail,
    RoundRecord,
    RoundSummary,
    Store,
    StoredRound,
    check_amount,
)
from uth.server.storage.errors import DuplicateError, RoundNotOpenError
from uth.server.storage.models import AuditLog, Player, Round, RoundPlayer
from uth.server.storage.models import LedgerEntry as LedgerRow

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


class SqlStore:
    """Accounts, ledger, rounds, history and audit log in a SQL database.

    The schema must exist (:func:`uth.server.storage.migrate.upgrade`).
    """

    def __init__(self, engine: Engine) -> None:
        self._engine = engine
        self._sessions = sessionmaker(engine, expire_on_commit=False)

    @property
    def engine(self) -> Engine:
        """The engine the store runs on."""
        return self._engine

    # -- accounts ---------------------------------------------------------------

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

    def round_player_ids(self, game_number: str) -> list[int]:
        """The ids of the players with a ledger entry in the round, ascending
        (empty for an unknown game number).
        """
        with self._sessions.begin() as s:
            ids = s.scalars(
                select(LedgerRow.player_id)
                .join(Round, Round.id == LedgerRow.round_id)
                .where(Round.game_number == game_number)
                .distinct()
            ).all()
            return sorted(ids)

    # -- rounds -----------------------------------------------------------------

    def open_round(self, table_id: str, game_number: str, rules: str, started_at: datetime) -> int:
        """Record a new round (status ``open``) and return its id."""
        table_id = _text(table_id, "table_id")
        game_number = _text(game_number, "game_number")
        started_at = _aware(started_at, "started_at")
        try:
            with self._sessions.begin() as s:
                rnd = Round(
                    game_number=game_number,
                    table_id=table_id,
                    rules=rules,
                    status="open",
                    started_at=started_at,
                )
                s.add(rnd)
                s.flush()
                return rnd.id
        except IntegrityError as exc:
            raise DuplicateError(
                f"game_number: {game_number} already exists", field="game_number"
            ) from exc

    def debit(self, round_id: int, debits: Sequence[Debit], now: datetime) -> dict[int, Decimal]:
        """Debit every wager at once (all or none); returns each player's new balance.

        Zero amounts are skipped, and so is a wager already debited in the round
        with the same amount (a repeated call). Raises InsufficientFundsError naming
        the player when one cannot cover the sum of their wagers, DuplicateError for
        a wager already debited with another amount; then nothing is debited.
        """
        now = _aware(now, "now")
        checked: list[tuple[int, str, Decimal]] = []
        for i, debit in enumerate(debits):
            amount = _money(debit.amount, f"debits[{i}].amount")
            if amount < 0:
                raise UthError(
                    f"debits[{i}].amount: must not be negative, got {amount}",
                    field=f"debits[{i}].amount",
                )
            kind = _text(debit.kind, f"debits[{i}].kind")
            if amount > 0:
                checked.append((debit.player_id, kind, amount))
        with self._sessions.begin() as s:
            rnd = _lock_round(s, round_id)
            _require_open(rnd, "debit wagers of")
            players = _lock_players(s, (pid for pid, _, _ in checked))
            new = _not_posted(
                s, rnd, "wager", [(pid, kind, -amount) for pid, kind, amount in checked]
            )
            totals: dict[int, Decimal] = {}
            for pid, _, amount in new:
                totals[pid] = totals.get(pid, ZERO) - amount
            for pid in sorted(totals):
                _require_funds(players[pid], totals[pid], f"the wagers of game {rnd.game_number}")
            for pid, kind, amount in new:
                _post(
                    s,
                    players[pid],
                    amount,
                    kind="wager",
                    wager=kind,
                    round_id=rnd.id,
                    reason=f"{kind} wager, game {rnd.game_number}",
                    now=now,
                )
            return {pid: players[pid].balance for pid in sorted(players)}

    def credit(
        self, round_id: int, credits: Mapping[int, Mapping[str, Decimal]], now: datetime
    ) -> dict[int, Decimal]:
        """Pay each player of an open round, in one transaction.

        ``credits[player][kind]`` is the stake plus the net of that wager (0 for a
        lost wager); each non-zero credit is one ``payout`` ledger entry, skipped
        when the round already has it with the same amount. Returns the new balance
        of every player named.

        Raises:
            RoundNotOpenError: the round is settled or voided.
            DuplicateError: a payout already made with another amount.
        """
        now = _aware(now, "now")
        checked: list[tuple[int, str, Decimal]] = []
        for pid, by_kind in credits.items():
            for kind, value in by_kind.items():
                field = f"credits[{pid}][{kind}]"
                amount = _money(value, field)
                if amount < 0:
                    raise UthError(f"{field}: must not be negative, got {amount}", field=field)
                if amount > 0:
                    checked.append((pid, _text(kind, field), amount))
        with self._sessions.begin() as s:
            rnd = _lock_round(s, round_id)
            _require_open(rnd, "settle")
            players = _lock_players(s, credits)
            for pid, kind, amount in _not_posted(s, rnd, "payout", checked):
                _post(
                    s,
                    players[pid],
                    amount,
                    kind="payout",
                    wager=kind,
                    round_id=rnd.id,
                    reason=f"{kind} payout, game {rnd.game_number}",
                    now=now,
                )
            return {pid: players[pid].balance for pid in sorted(players)}

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
            return _reverse(s, rnd, reason, now)

    def settle_round(
        self, round_id: int, record: RoundRecord, kept: KeptRecord | None = None
    ) -> None:
        """Store an open round as settled, with each player's part and its record
        ``kept``; its payouts are already in the ledger (:meth:`credit`).

        Raises:
            RoundNotOpenError: the round is settled or voided.
            UthError: a player twice in the record.
        """
        settled_at = _aware(record.settled_at, "settled_at")
        seen: set[int] = set()
        for pr in record.players:
            if pr.player_id in seen:
                raise UthError(
                    f"players: player {pr.player_id} appears twice in the round record",
                    field="players",
                )
            seen.add(pr.player_id)
        if kept is not None:
            _check_kept(kept)
        with self._sessions.begin() as s:
            rnd = _lock_round(s, round_id)
            _require_open(rnd, "settle")
            players = _lock_players(s, seen)
            if kept is not None:
                _keep(rnd, kept)
            rnd.status = "settled"
            rnd.settled_at = settled_at
            rnd.deck = [str(c) for c in record.deck]
            rnd.board = [str(c) for c in record.board]
            rnd.dealer = [str(c) for c in record.dealer]
            rnd.dealer_category = record.dealer_category
            rnd.dealer_qualifies = bool(record.dealer_qualifies)
            rnd.events = [_jsonable(e) for e in record.events]
            by_player = _round_entries(s, rnd.id)
            for pr in record.players:
                player = players[pr.player_id]
                before, after = _balances_from(by_player.get(player.id, []), player.balance)
                s.add(
                    RoundPlayer(
                        round_id=rnd.id,
                        player_id=pr.player_id,
                        hole=[str(c) for c in pr.hole],
                        decisions=[str(d) for d in pr.decisions],
                        wagers=_jsonable(pr.wagers),
                        category=pr.category,
                        best_five=[str(c) for c in pr.best_five],
                        outcome=pr.outcome,
                        balance_before=before,
                        balance_after=after,
                    )
                )

    def void_round(
        self,
        round_id: int,
        reason: str,
        actor: str,
        now: datetime,
        refunds: Mapping[int, Decimal],
        kept: KeptRecord | None = None,
    ) -> None:
        """Mark an open round voided, keep its record ``kept`` (when given) and write
        the audit line naming ``refunds`` (per player, the amount given back by
        :meth:`reverse`).

        Raises:
            RoundNotOpenError: the round is settled or voided.
            UthError: a blank reason or actor.
        """
        reason = _text(reason, "reason")
        actor = _text(actor, "actor")
        now = _aware(now, "now")
        if kept is not None:
            _check_kept(kept)
        with self._sessions.begin() as s:
            rnd = _lock_round(s, round_id)
            _require_open(rnd, "void")
            if kept is not None:
                _keep(rnd, kept)
            rnd.status = "voided"
            rnd.void_reason = reason
            s.add(
                AuditLog(
                    at=now,
                    actor=actor,
                    action="void_round",
                    reason=reason,
                    details={
                        "game_number": rnd.game_number,
                        "refunds": {str(pid): str(refunds[pid]) for pid in sorted(refunds)},
                    },
                )
            )

    def save_record(self, round_id: int, record: str, rules_fingerprint: str) -> None:
        """Keep the round's record (canonical JSON) and its rule set's fingerprint,
        replacing any record kept before.

        Raises:
            UthError: a blank record or a fingerprint that is not 64 hex digits.
            NotFoundError: no such round.
        """
        kept = KeptRecord(record, rules_fingerprint)
        _check_kept(kept)
        with self._sessions.begin() as s:
            _keep(_lock_round(s, round_id), kept)

    def stored_round(self, game_number: str) -> StoredRound:
        """The round with this game number as kept (raises NotFoundError)."""
        with self._sessions.begin() as s:
            rnd = s.scalars(select(Round).where(Round.game_number == game_number)).first()
            if rnd is None:
                raise NotFoundError(f"game_number: no round {game_number}", field="game_number")
            return StoredRound(
                round_id=rnd.id,
                game_number=rnd.game_number,
                table_id=rnd.table_id,
                status=rnd.status,
                record=rnd.record,
                rules_fingerprint=rnd.rules_fingerprint,
            )

    def game_numbers(self) -> list[str]:
        """The game number of every round, oldest first."""
        with self._sessions.begin() as s:
            return list(s.scalars(select(Round.game_number).order_by(Round.id)))

    def check_open(self, round_id: int, doing: str) -> None:
        """Nothing when the round is ``open``; RoundNotOpenError naming its game number
        and status otherwise (NotFoundError for no such round).
        """
        with self._sessions.begin() as s:
            rnd = s.get(Round, round_id)
            if rnd is None:
                raise NotFoundError(f"round_id: no round {round_id}", field="round_id")
            if rnd.status != "open":
                raise RoundNotOpenError(
                    f"round {rnd.game_number} is {rnd.status}: only an open round can be {doing}",
                    field="round_id",
                )

    def open_rounds(self) -> list[str]:
        """The game numbers of the rounds still ``open``, oldest first."""
        with self._sessions.begin() as s:
            return list(
                s.scalars(
                    select(Round.game_number).where(Round.status == "open").order_by(Round.id)
                )
            )

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

    # -- reading ----------------------------------------------------------------

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

    def history(self, player_id: int, limit: int = 20) -> list[RoundSummary]:
        """The player's last rounds (open, settled or voided), newest first."""
        if limit < 1:
            raise UthError(f"limit: must be at least 1, got {limit}", field="limit")
        with self._sessions.begin() as s:
            _get_player(s, player_id)
            mine = union(
                select(LedgerRow.round_id).where(
                    LedgerRow.player_id == player_id, LedgerRow.round_id.is_not(None)
                ),
                select(RoundPlayer.round_id).where(RoundPlayer.player_id == player_id),
            ).subquery()
            rounds = s.scalars(
                select(Round)
                .where(Round.id.in_(select(mine.c.round_id)))
                .order_by(Round.started_at.desc(), Round.id.desc())
                .limit(limit)
            ).all()
            entries = _entries(s, player_id, [r.id for r in rounds])
            summaries = []
            for rnd in rounds:
                own = [e for e in entries if e.round_id == rnd.id]
                stake = -sum((e.amount for e in own if e.kind == "wager"), ZERO)
                net = sum((e.amount for e in own), ZERO)
                summaries.append(
                    RoundSummary(
                        game_number=rnd.game_number,
                        table_id=rnd.table_id,
                        status=rnd.status,
                        started_at=rnd.started_at,
                        total_stake=stake,
                        net=net,
                    )
                )
            return summaries

    def round_detail(self, player_id: int, game_number: str) -> RoundDetail:
        """One of the player's rounds by game number (raises NotFoundError).

        A round the player took no part in is not found, whether or not it exists.
        """
        with self._sessions.begin() as s:
            player = _get_player(s, player_id)
            rnd = s.scalars(select(Round).where(Round.game_number == game_number)).first()
            part = None if rnd is None else s.get(RoundPlayer, (rnd.id, player_id))
            entries = [] if rnd is None else _entries(s, player_id, [rnd.id])
            if rnd is None or (part is None and not entries):
                raise NotFoundError(
                    f"game_number: no round {game_number} for player {player_id}",
                    field="game_number",
                )
            if part is not None:
                wagers = _wagers_from_json(part.wagers)
                before, after = part.balance_before, part.balance_after
            else:
                wagers = _wagers_from_ledger(entries, rnd.status)
                before, after = _balances_from(entries, player.balance)
            return RoundDetail(
                game_number=rnd.game_number,
                table_id=rnd.table_id,
                rules=rnd.rules,
                status=rnd.status,
                started_at=rnd.started_at,
                settled_at=rnd.settled_at,
                board=list(rnd.board or []),
                dealer=list(rnd.dealer or []),
                dealer_category=rnd.dealer_category,
                dealer_qualifies=rnd.dealer_qualifies,
                hole=list(part.hole) if part else [],
                decisions=list(part.decisions) if part else [],
                wagers=wagers,
                category=part.category if part else None,
                best_five=list(part.best_five) if part else [],
                outcome=part.outcome if part else None,
                balance_before=before,
                balance_after=after,
                void_reason=rnd.void_reason,
            )

    def round_id(self, game_number: str) -> int:
        """The id of the round with that game number (raises NotFoundError)."""
        with self._sessions.begin() as s:
            found = s.scalars(select(Round.id).where(Round.game_number == game_number)).first()
            if found is None:
                raise NotFoundError(f"game_number: no round {game_number}", field="game_number")
            return found

    # -- audit ------------------------------------------------------------------

    def audit(
        self, actor: str, action: str, reason: str, details: Mapping[str, Any], now: datetime
    ) -> None:
        """Append a line to the audit log."""
        actor = _text(actor, "actor")
        action = _text(action, "action")
        now = _aware(now, "now")
        with self._sessions.begin() as s:
            s.add(
                AuditLog(
                    at=now, actor=actor, action=action, reason=reason, details=_jsonable(details)
                )
            )

    def audit_log(self, limit: int = 100) -> list[AuditEntry]:
        """The newest audit lines first."""
        if limit < 1:
            raise UthError(f"limit: must be at least 1, got {limit}", field="limit")
        with self._sessions.begin() as s:
            rows = s.scalars(select(AuditLog).order_by(AuditLog.id.desc()).limit(limit)).all()
            return [
                AuditEntry(
                    id=row.id,
                    at=row.at,
                    actor=row.actor,
                    action=row.action,
                    reason=row.reason,
                    details=dict(row.details),
                )
                for row in rows
            ]


# -- transaction helpers ----------------------------------------------------------


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


def _require_funds(player: Player, amount: Decimal, what: str) -> None:
    if player.balance < amount:
        raise InsufficientFundsError(
            f"player {player.id} ({player.name}) has a balance of {player.balance}, "
            f"which cannot cover {amount} for {what}",
            field="amount",
            player_id=player.id,
        )


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
) -> None:
    """Change a locked player's balance by ``amount`` and append the ledger entry."""
    new_balance = (player.balance + amount).quantize(CENT)
    if new_balance < 0:
        _require_funds(player, -amount, reason)
    if new_balance > MAX_BALANCE:
        raise BalanceLimitError(
            f"amount: a credit of {amount} would take the balance of player {player.id} "
            f"to {new_balance}, above the maximum balance {MAX_BALANCE:,}",
            field="amount",
            player_id=player.id,
        )
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


def _reverse(s: Session, rnd: Round, reason: str, now: datetime) -> Refunds:
    """Refund what the round's entries still hold from each player, per wager kind."""
    rows = s.execute(
        select(LedgerRow.player_id, LedgerRow.wager, LedgerRow.amount)
        .where(LedgerRow.round_id == rnd.id)
        .order_by(LedgerRow.id)
    ).all()
    owed: dict[tuple[int, str | None], Decimal] = {}
    for pid, wager, amount in rows:
        owed[(pid, wager)] = owed.get((pid, wager), ZERO) - amount
    players = _lock_players(s, (pid for pid, _ in owed))
    refunds: dict[int, Decimal] = {}
    for (pid, wager), amount in owed.items():
        if amount == 0:
            continue
        _post(
            s,
            players[pid],
            amount,
            kind="refund",
            wager=wager,
            round_id=rnd.id,
            reason=f"refund, game {rnd.game_number} voided: {reason}",
            now=now,
        )
        refunds[pid] = refunds.get(pid, ZERO) + amount
    return Refunds(
        amounts={pid: refunds[pid] for pid in sorted(refunds)},
        balances={pid: players[pid].balance for pid in sorted(refunds)},
    )


def _not_posted(
    s: Session, rnd: Round, kind: str, entries: Sequence[tuple[int, str, Decimal]]
) -> list[tuple[int, str, Decimal]]:
    """The ``(player, wager, amount)`` entries of kind ``kind`` the round does not have yet.

    An entry is known by its key (round, player, kind, wager); one already posted
    with the same amount is left out (a repeated call).

    Raises:
        DuplicateError: an entry posted with another amount, or one key twice.
    """
    posted = {
        (pid, wager): amount
        for pid, wager, amount in s.execute(
            select(LedgerRow.player_id, LedgerRow.wager, LedgerRow.amount).where(
                LedgerRow.round_id == rnd.id, LedgerRow.kind == kind
            )
        )
    }
    new: list[tuple[int, str, Decimal]] = []
    keys: set[tuple[int, str]] = set()
    for pid, wager, amount in entries:
        if (pid, wager) in keys:
            raise DuplicateError(
                f"{wager}: player {pid} has two {kind} entries in one call", field=wager
            )
        keys.add((pid, wager))
        if (pid, wager) not in posted:
            new.append((pid, wager, amount))
        elif posted[(pid, wager)] != amount:
            raise DuplicateError(
                f"{wager}: game {rnd.game_number} already has a {kind} of "
                f"{abs(posted[(pid, wager)])} for player {pid}, not {abs(amount)}",
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


def _round_entries(s: Session, round_id: int) -> dict[int, list[LedgerRow]]:
    """Every ledger entry of a round, oldest first, by player (one query)."""
    out: dict[int, list[LedgerRow]] = {}
    rows = s.scalars(select(LedgerRow).where(LedgerRow.round_id == round_id).order_by(LedgerRow.id))
    for row in rows:
        out.setdefault(row.player_id, []).append(row)
    return out


def _balances_from(entries: Sequence[LedgerRow], current: Decimal) -> tuple[Decimal, Decimal]:
    """Balance before the round's first debit and after its last entry.

    The balance before an entry is the ``balance_after`` of the player's previous
    entry, which equals ``balance_after - amount`` of this one.
    """
    if not entries:
        return current, current
    first = next((e for e in entries if e.amount < 0), entries[0])
    return (first.balance_after - first.amount).quantize(CENT), entries[-1].balance_after


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
    """Wagers of a round that was not settled: the stakes; a voided round nets 0."""
    wagers: dict[str, dict[str, Any]] = {}
    for entry in entries:
        if entry.kind != "wager" or entry.wager is None:
            continue
        item = wagers.setdefault(entry.wager, {"stake": ZERO, "result": status, "net": ZERO})
        item["stake"] -= entry.amount
    for item in wagers.values():
        item["net"] = ZERO if status == "voided" else -item["stake"]
    return wagers


def _conforms(store: SqlStore) -> Store:
    """Let mypy (strict, run over the package) check that SqlStore is a Ledger and a RoundLog."""
    return store
