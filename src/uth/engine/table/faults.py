"""The table machine's malfunctions: the round paused, resumed or voided by the
operator, and a round that failed voided and refunded.

RULES.md, "Online table" (seed 004, malfunction): a malfunction pauses the round, the
timers stop and everyone is told the issue is being investigated; the operator
resumes it or voids it (every wager refunded). A round that fails (storage, a bad
deck) is voided and refunded by the machine itself. Part of
:class:`~uth.engine.table.TableMachine` (its round loop is :mod:`.machine`).
"""

from __future__ import annotations

import logging
from dataclasses import replace
from datetime import timedelta

from uth.engine.history import RoundRecord as HistoryRecord
from uth.engine.history import record_of
from uth.engine.round import Phase, Round
from uth.engine.table.base import STREET_NAMES, Loop, RoundCancelledError, Wait
from uth.engine.table.cardroom import CardRoom
from uth.engine.table.effects import Audit, ReloadBalance, VoidRound
from uth.errors import UthError
from uth.money import money_json

log = logging.getLogger("uth.table")

_PAUSED_MESSAGE = "The round is paused: the issue is being investigated."


class TableFaults(CardRoom):
    """The malfunction pause, the operator's resume and void, and the recovery of a
    failed round (the void in storage, the reservations released, the balances
    reloaded), for :class:`~uth.engine.table.TableMachine`.
    """

    def _pause(self, reason: str, actor: str) -> None:
        """Pause the round in play: timers stop and everyone is told the issue is
        being investigated (004, malfunction).
        """
        if self.paused is not None:
            return
        self.paused = {"reason": reason, "since": self.now.isoformat()}
        self._paused_by = actor
        self._resume_requested = False
        self.deadline = None
        self._broadcast(
            {
                "type": "round_paused",
                "game_number": self.game_number,
                "reason": reason,
                "message": _PAUSED_MESSAGE,
            }
        )
        self._wake()

    def _hold(self, seconds: float | None) -> Loop[None]:
        """Wait while the round is paused. Returns when the operator resumes it
        (the timer restarts with ``seconds``, or none); raises
        :class:`RoundCancelledError` when the operator voids it.
        """
        assert self.paused is not None
        yield from self._audit("pause_round", self._paused_by, self.paused["reason"])
        while self._void_request is None and not self._resume_requested:
            self._woken = False
            yield Wait(None, True)
        if self._void_request is not None:
            raise RoundCancelledError(*self._void_request)
        self.paused = None
        self._resume_requested = False
        yield from self._audit("resume_round", "operator", "resumed by the operator")
        now = self.now
        self.deadline = None if seconds is None else now + timedelta(seconds=seconds)
        self._street_opened = now
        self._broadcast({"type": "round_resumed", "game_number": self.game_number, **self._timer()})

    def _audit(self, action: str, actor: str, reason: str) -> Loop[None]:
        try:
            yield Audit(actor, action, reason, {"game_number": self.game_number}, self.now)
        except Exception:
            log.exception("table %s: audit line %s not written", self.settings.id, action)

    def request_pause(self, game_number: str, reason: str, actor: str) -> str | None:
        """Pause this table's round in play (operator). Returns ``"paused"``, or
        None when the round is not in play at this table.
        """
        if game_number != self.game_number or not self._voidable:
            return None
        self._pause(reason, actor)
        return "paused"

    def request_resume(self, game_number: str) -> str | None:
        """Resume this table's paused round (operator). Returns ``"resumed"``,
        ``"not_paused"``, or None when the round is not in play at this table.
        """
        if game_number != self.game_number or not (self._voidable or self.paused):
            return None
        if self.paused is None:
            return "not_paused"
        self._resume_requested = True
        self._wake()
        return "resumed"

    def request_void(self, game_number: str, reason: str, actor: str) -> str | None:
        """Void this table's round in play (operator, malfunction).

        Returns:
            ``"voiding"``: the round ``game_number`` is this table's and is being
            voided (its wagers, Play included, are refunded); ``"settling"``: it is
            this table's but its settlement is being written (too late to void);
            None: it is not in play at this table.
        """
        if game_number != self.game_number:
            return None
        if self._voidable or self.paused is not None:
            if self._void_request is None:
                self._void_request = (reason, actor)
            self._wake()
            return "voiding"
        if self.round is not None and self.phase in STREET_NAMES:
            return "settling"
        return None

    def _end_round_events(self, reason: str) -> None:
        """Void the engine's round (if still open) and mark every event as sent: the
        ``round_voided`` message replaces them, and the showdown is never sent.
        """
        rnd = self.round
        if rnd is None:
            return
        if rnd.can_void():
            rnd.void(reason, at=self.now)
        self._published = len(rnd.events)

    def _void_round(self, reason: str, actor: str) -> Loop[None]:
        self._end_round_events(reason)
        self._pending_debits.clear()
        for seat in self._all_hands():
            # Bets voided before they were debited, Play not yet debited or held.
            self._release_all(seat)
        if self.round_id is not None:
            balances = yield VoidRound(self.round_id, reason, actor, self.now, self._void_record())
            for pid, balance in balances.items():
                self.funds.set_balance(pid, balance)
        self._announce_void(reason)

    def _void_record(self) -> HistoryRecord | None:
        """The record of the round being voided, kept for replay (issue 8: every
        stored round replays); None when the engine's round was not opened. A round
        the engine had already settled (a storage failure after the showdown, then
        the operator's void or the recovery) keeps its settled record: it replays to
        that result, and ``uth replay`` checks its ledger as a voided round's, every
        debit refunded (``uth.server.replay``).
        """
        rnd = self.round
        if rnd is None or rnd.phase not in (Phase.VOIDED, Phase.SETTLED):
            return None
        return self._history(rnd)

    def _history(self, rnd: Round) -> HistoryRecord:
        """The round's record (engine.history); at a card room with the player-dealer
        and the offer of the position.
        """
        record = record_of(rnd)
        room = self._room
        if room is None or room.banker is None:
            return record
        return replace(record, player_dealer=str(room.banker.player_id), offers=room.steps)

    def _announce_void(self, reason: str) -> None:
        self._round_voided = True
        self.paused = None
        self.phase = "voided"
        self.deadline = None
        for seat in self.seats.values():
            message = {
                "type": "round_voided",
                "game_number": self.game_number,
                "reason": reason,
                "balance": money_json(self.funds.available(seat.player_id)),
            }
            if self._dealt_in(seat.player_id):
                self._last_result[seat.player_id] = message
            self._send(seat.player_id, message)

    def _recover_round(self, error: Exception) -> Loop[None]:
        """After a round failed: void it in storage (refunding what was debited),
        release every reservation it held, reload the balances and tell the players.
        A round that cannot be voided now stays open and is voided at the next start.
        """
        reason = "malfunction: the round could not be completed"
        self._end_round_events(reason)
        self._pending_debits.clear()
        for seat in self._all_hands():
            self._release_all(seat)
        settled = False
        if self.round_id is not None:
            try:
                kept = self._void_record()
                yield VoidRound(
                    self.round_id, f"{reason} ({type(error).__name__})", "system", self.now, kept
                )
            except UthError as exc:
                if exc.code != "round_not_open":
                    log.exception(
                        "table %s: round %s not voided", self.settings.id, self.game_number
                    )
                else:
                    # The settlement was stored before the failure: the round stands.
                    settled = True
                    log.warning(
                        "table %s: round %s failed after it was settled",
                        self.settings.id,
                        self.game_number,
                    )
            except Exception:
                log.exception("table %s: round %s not voided", self.settings.id, self.game_number)
        backer = self._room.backer if self._room is not None else None
        for pid in [*self.seats, *([backer[0]] if backer and backer[0] not in self.seats else [])]:
            try:
                balance = yield ReloadBalance(pid)
            except Exception:
                log.exception("table %s: balance of player %s not reloaded", self.settings.id, pid)
                continue
            self.funds.set_balance(pid, balance)
        if not settled:
            self._announce_void(reason)
