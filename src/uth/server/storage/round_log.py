"""The :class:`uth.server.ports.RoundLog` port on SQLAlchemy: rounds, their records,
history and the audit log (see :mod:`uth.server.storage.store`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from datetime import datetime
from decimal import Decimal
from typing import Any

from sqlalchemy import func, select, union
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, sessionmaker

from uth.errors import UthError
from uth.server.ports import (
    AuditEntry,
    KeptRecord,
    NotFoundError,
    RoundDetail,
    RoundRecord,
    RoundSummary,
    StoredRound,
)
from uth.server.storage._helpers import (
    ZERO,
    _aware,
    _balances_from,
    _check_kept,
    _entries,
    _get_player,
    _jsonable,
    _keep,
    _lock_round,
    _require_open,
    _text,
    _wagers_from_json,
    _wagers_from_ledger,
)
from uth.server.storage.back_line import back_line
from uth.server.storage.bulk import insert_round_players, lock_accounts, round_entries
from uth.server.storage.errors import DuplicateError, RoundNotOpenError
from uth.server.storage.models import AuditLog, Round, RoundPlayer
from uth.server.storage.models import LedgerEntry as LedgerRow
from uth.server.storage.seen import from_columns, kept_round, seen


class SqlRoundLog:
    """Rounds, history and the audit log (a part of :class:`SqlStore`)."""

    _sessions: sessionmaker[Session]

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
            accounts = lock_accounts(s, seen)
            if kept is not None:
                _keep(rnd, kept)
            rnd.status = "settled"
            rnd.settled_at = settled_at
            rnd.deck = [str(c) for c in record.deck]
            rnd.board = [str(c) for c in record.board]
            rnd.dealer = [str(c) for c in record.dealer]
            rnd.dealer_category = record.dealer_category
            rnd.dealer_qualifies = bool(record.dealer_qualifies)
            # to_dict() is JSON already (cards as notation, money as numbers).
            rnd.events = [e.to_dict() for e in record.events]
            by_player = round_entries(s, rnd.id)
            rows: list[dict[str, Any]] = []
            for pr in record.players:
                before, after = _balances_from(
                    by_player.get(pr.player_id, []), accounts[pr.player_id].balance
                )
                rows.append(
                    {
                        "round_id": rnd.id,
                        "player_id": pr.player_id,
                        "hole": [str(c) for c in pr.hole],
                        "decisions": [str(d) for d in pr.decisions],
                        "wagers": _jsonable(pr.wagers),
                        "category": pr.category,
                        "best_five": [str(c) for c in pr.best_five],
                        "outcome": pr.outcome,
                        "balance_before": before,
                        "balance_after": after,
                    }
                )
            insert_round_players(s, rows)

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
            return _stored(rnd)

    def game_numbers(self) -> list[str]:
        """The game number of every round, oldest first."""
        with self._sessions.begin() as s:
            return list(s.scalars(select(Round.game_number).order_by(Round.id)))

    def last_round_id(self) -> int:
        """The id of the newest round (0 when there is none)."""
        with self._sessions.begin() as s:
            newest = s.scalar(select(func.max(Round.id)))
            return int(newest or 0)

    def table_rounds(
        self, table_id: str, *, before: str | None = None, limit: int = 50
    ) -> list[StoredRound]:
        """The table's rounds, newest first: ``limit`` at most, game numbers below ``before``."""
        query = select(Round).where(Round.table_id == table_id)
        if before is not None:
            query = query.where(Round.game_number < before)
        with self._sessions.begin() as s:
            rows = s.scalars(query.order_by(Round.game_number.desc()).limit(limit))
            return [_stored(rnd) for rnd in rows]

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
        The cards and decisions (and the hand's category, best five and outcome)
        are the player's seat view of the round replayed from its kept record;
        a round without a usable record falls back on the stored columns (see
        :func:`~uth.server.storage.seen.kept_round`). The wagers and balances come
        from the stored part and the ledger either way.
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
                own = [e for e in entries if e.hand is None]
                wagers = _wagers_from_ledger(own, rnd.status)
                before, after = _balances_from(
                    [(e.amount, e.balance_after) for e in entries], player.balance
                )
            engine_round = kept_round(rnd)
            line = back_line(rnd, entries, engine_round)
            if engine_round is None:
                shown = from_columns(rnd, part)
            else:  # the own hand, or the back-line hand of a player with no other
                own_hand = str(player_id)
                alone = line is not None and not engine_round.has_hand(own_hand)
                shown = seen(engine_round, line.hand if line and alone else own_hand)
                if alone:
                    shown = replace(shown, behind=None)
            return RoundDetail(
                game_number=rnd.game_number,
                table_id=rnd.table_id,
                rules=rnd.rules,
                status=rnd.status,
                started_at=rnd.started_at,
                settled_at=rnd.settled_at,
                board=shown.board,
                dealer=shown.dealer,
                dealer_category=shown.dealer_category,
                dealer_qualifies=shown.dealer_qualifies,
                hole=shown.hole,
                decisions=shown.decisions,
                wagers=wagers,
                category=shown.category,
                best_five=shown.best_five,
                outcome=shown.outcome,
                balance_before=before,
                balance_after=after,
                void_reason=rnd.void_reason,
                behind=shown.behind,
                back_line=line,
            )

    def round_id(self, game_number: str) -> int:
        """The id of the round with that game number (raises NotFoundError)."""
        with self._sessions.begin() as s:
            found = s.scalars(select(Round.id).where(Round.game_number == game_number)).first()
            if found is None:
                raise NotFoundError(f"game_number: no round {game_number}", field="game_number")
            return found

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

    def audit_lines(self, action: str) -> list[AuditEntry]:
        """Every audit line with this ``action``, oldest first."""
        with self._sessions.begin() as s:
            query = select(AuditLog).where(AuditLog.action == action).order_by(AuditLog.id)
            return [_audit_entry(row) for row in s.scalars(query)]

    def audit_log(self, limit: int = 100) -> list[AuditEntry]:
        """The newest audit lines first."""
        if limit < 1:
            raise UthError(f"limit: must be at least 1, got {limit}", field="limit")
        with self._sessions.begin() as s:
            rows = s.scalars(select(AuditLog).order_by(AuditLog.id.desc()).limit(limit)).all()
            return [_audit_entry(row) for row in rows]


def _stored(rnd: Round) -> StoredRound:
    return StoredRound(
        rnd.id, rnd.game_number, rnd.table_id, rnd.status, rnd.record, rnd.rules_fingerprint
    )


def _audit_entry(row: AuditLog) -> AuditEntry:
    return AuditEntry(row.id, row.at, row.actor, row.action, row.reason, dict(row.details))
