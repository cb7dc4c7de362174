"""A table machine's membership and its players' commands: the bet slip (Undo,
Double, Repeat), decisions, leaving, trainer mode, request-id dedupe and late
commands refused (docs/protocol.md).
"""

from __future__ import annotations

from datetime import datetime, timedelta
from decimal import Decimal
from typing import Any, cast

from uth.engine import events as ev
from uth.engine.round import Round
from uth.engine.table.base import LATE_SECONDS, REQUEST_IDS_PER_ROUND, STREET_NAMES, STREETS
from uth.engine.table.commands import (
    Command,
    CommandError,
    Decide,
    Double,
    Leave,
    PlaceBet,
    Repeat,
    Snapshot,
    Trainer,
    Undo,
)
from uth.engine.table.effects import (
    Advise,
    Debit,
    Spot,
)
from uth.engine.table.messages import TableMessages
from uth.engine.table.seats import SPOTS, Seat, cost, no_bets, second_hand
from uth.engine.wagers import BetSpot, spot_max, validate_wagers
from uth.errors import IllegalActionError, UthError
from uth.money import ZERO, parse_amount

#: A snapshot reply is not kept: a repeated snapshot id gets a fresh snapshot.
_SNAPSHOT_REPLY: dict[str, Any] = {}


class TableCommands(TableMessages):
    """Seats and commands (a part of :class:`~uth.engine.table.TableMachine`)."""

    def knows_last_bets(self, player_id: int) -> bool:
        """Whether the bets Repeat places are known for the player."""
        return player_id in self._last_bets

    def recall_last_bets(self, player_id: int, bets: dict[str, Decimal]) -> None:
        """The player's last bets at this table, read from storage (Repeat survives
        a restart); ignored when already known or without an Ante.
        """
        if player_id not in self._last_bets and bets["ante"] > 0:
            self._last_bets[player_id] = {spot: bets.get(spot, ZERO) for spot in SPOTS}

    def join(self, player_id: int, name: str, now: datetime) -> dict[str, Any]:
        """Seat a player (or count another connection of a seated player); returns
        the snapshot. What the player missed while away comes from :meth:`notices`.

        Raises:
            CommandError: ``table_full`` when every seat is taken.
        """
        self.now = max(self.now, now)
        seat = self.seats.get(player_id)
        if seat is None:
            number = None
            # At a card room a player takes a seat with ``sit`` (cardroom.py).
            if self.rules.seats is not None and self.rules.banking == "house":
                taken = {s.number for s in self.seats.values()}
                free = [n for n in range(1, self.rules.seats + 1) if n not in taken]
                if not free:
                    raise CommandError(
                        "table_full", f"table: all {self.rules.seats} seats are taken"
                    )
                number = free[0]
            seat = Seat(player_id, name, number)
            self.seats[player_id] = seat
        seat.connections += 1
        return self.snapshot(player_id)

    def push_state(self, player_id: int) -> None:
        """Send a seated player's state: their balance changed at another table."""
        if player_id in self.seats:
            self._send(player_id, {"type": "state", "state": self.state(player_id)})

    def notices(self, player_id: int) -> list[dict[str, Any]]:
        """The messages the player missed while away (taken: each is given once)."""
        return self._away_notices.pop(player_id, [])

    def disconnect(self, player_id: int, now: datetime) -> None:
        """A connection of the player closed. When their last one closes while
        betting is open, that round's bets are declined and refunded (004); a
        player in a round stays in it (the timer decides). A player with no
        connection and no hand in play leaves the seat.
        """
        self.now = max(self.now, now)
        seat = self.seats.get(player_id)
        if seat is None or seat.connections == 0:
            return
        seat.connections -= 1
        if seat.connections:
            return
        if self.phase == "betting":
            if seat.staked > 0:
                self._away_notices.setdefault(player_id, []).append(
                    self._declined(
                        "left",
                        "left: your last connection closed while betting was open; "
                        "the bets were declined and refunded (004)",
                    )
                )
            for hand in self._hands_of(seat):
                self._set_bets(hand, no_bets())
                hand.undo.clear()
        # Betting closed (red light) and the round being opened: the bets stand
        # and are dealt in. A hand in play, or being settled, keeps its seat.
        dealt_in = self.phase == "closed" and any(h.staked > 0 for h in self._hands_of(seat))
        playing = self._dealt_in(player_id) and self.phase in STREET_NAMES
        room = self._room
        if room is not None and room.rotation.in_round:
            return  # a card room's seats change between rounds only (_forget_departed)
        if not playing and not dealt_in:
            for hand in self._hands_of(seat):
                self._release_all(hand)
            del self.seats[player_id]
            self.lines.pop(player_id, None)
            if room is not None and seat.number is not None:
                room.rotation.leave(seat.hand_id)
                self._seats_note()

    def handle(self, player_id: int, command: Command, now: datetime) -> dict[str, Any]:
        """Apply one command of a seated player and return its reply.

        A request id seen in this round or the last is never applied again: the
        first reply is returned again (a snapshot is taken afresh). A player may
        use :data:`REQUEST_IDS_PER_ROUND` ids per round; more are refused with
        ``too_many_requests``. Errors are replies with a ``code`` (``wrong_phase``,
        ``over_limit``, ``insufficient_funds``, ``illegal_action``,
        ``invalid_amount``, ``not_seated``, ``round_paused``); a refused command
        changes nothing.
        """
        self.now = max(self.now, now)
        seat = self.seats.get(player_id)
        if seat is None:
            return _error(command.id, "not_seated", "player: not seated at this table")
        ids = self._ids_now.setdefault(player_id, {})
        cached = ids.get(command.id)
        if cached is None:
            cached = self._ids_before.get(player_id, {}).get(command.id)
        if cached is _SNAPSHOT_REPLY:
            return {
                "type": "accepted",
                "id": command.id,
                "state": self.state(player_id),
                "snapshot": self.snapshot(player_id),
            }
        if cached is not None:
            return cached
        if len(ids) >= REQUEST_IDS_PER_ROUND:
            return _error(
                command.id,
                "too_many_requests",
                f"id: at most {REQUEST_IDS_PER_ROUND} request ids per round; this one is not applied",
            )
        try:
            notice = self._handlers[type(command)](seat, command)
            reply: dict[str, Any] = {
                "type": "accepted",
                "id": command.id,
                "state": self.state(player_id),
            }
            if notice:
                reply.update(notice)
        except CommandError as exc:
            reply = _error(command.id, exc.code, str(exc))
        except IllegalActionError as exc:
            reply = _error(command.id, "illegal_action", str(exc))
        except UthError as exc:
            code = "insufficient_funds" if exc.code == "insufficient_funds" else "invalid_amount"
            reply = _error(command.id, code, str(exc))
        ids[command.id] = _SNAPSHOT_REPLY if isinstance(command, Snapshot) else reply
        return reply

    def _require_betting(self, cmd: Command) -> None:
        self._require_round(cmd)
        if self.phase != "betting" or self._past_deadline():
            raise CommandError("wrong_phase", f"phase: betting is closed (phase {self.phase})")

    def _require_round(self, cmd: Command) -> None:
        """A command naming a round answers that round only."""
        if cmd.game_number is not None and cmd.game_number != self.game_number:
            raise CommandError(
                "wrong_phase",
                f"game_number: round {cmd.game_number} is not open; "
                f"the table is at round {self.game_number}",
            )

    def _past_deadline(self) -> bool:
        """The window's time is up: only commands that arrive in time count (004)."""
        return self.deadline is not None and self.now >= self.deadline

    def _set_bets(self, seat: Seat, bets: dict[str, Decimal], *, field: str = "amount") -> None:
        """Replace a seat's bets, moving the reservation by the difference; ``field``
        names the command in an insufficient-funds error.
        """
        hold = self._play_hold(seat, bets)
        delta = cost(bets) + hold - seat.staked - seat.play_hold
        if delta > 0:
            self.funds.reserve(seat.player_id, delta, field=field)
        elif delta < 0:
            self.funds.release(seat.player_id, -delta)
        seat.bets = bets
        seat.play_hold = hold
        self._bets_dirty = True

    def _place_bet(self, seat: Seat, cmd: PlaceBet) -> dict[str, Any] | None:
        self._require_betting(cmd)
        self._check_room_bet(seat, cmd)
        seat = self._hand_for(seat, cmd.behind, create=True)
        amount = parse_amount(cmd.amount, field="amount")
        if amount <= 0:
            raise CommandError("invalid_amount", f"amount: must be positive, got {cmd.amount!r}")
        self._limit(cmd.spot)  # not offered: over_limit
        bets = dict(seat.bets)
        if cmd.spot != "ante" and bets["ante"] == 0:
            raise CommandError("wrong_phase", f"spot: place the Ante before {cmd.spot}")
        cap = spot_max(self.rules, cast("BetSpot", cmd.spot), bets["ante"])
        assert cap is not None
        if bets[cmd.spot] >= cap:
            raise CommandError("over_limit", f"amount: {cmd.spot} is at its maximum {cap}")
        bets[cmd.spot] += min(amount, cap - bets[cmd.spot])
        was_behind = seat.behind
        if cmd.behind is not None:  # a card room's back-line bet (checked above)
            # It follows the seat's Play: the largest is reserved with its wagers.
            seat.behind = cmd.behind
            most = self._play_hold(seat, bets)
            need = cost(bets) + most - seat.staked - seat.play_hold
            if need > self.funds.available(seat.player_id):
                seat.behind = was_behind
                raise CommandError(
                    "insufficient_funds",
                    f"behind: a back-line bet needs funds for the largest Play it may "
                    f"follow ({most}) besides its wagers",
                )
        previous = dict(seat.bets)
        self._set_bets(seat, bets)
        seat.undo.append((previous, False))
        if seat.line:
            self.lines[seat.player_id] = seat
        return {"notice": "maximum"} if bets[cmd.spot] == cap else None

    def _undo(self, seat: Seat, cmd: Undo) -> None:
        self._require_betting(cmd)
        seat = self._hand_for(seat, cmd.behind)
        if not seat.undo:
            raise CommandError("wrong_phase", "undo: there is no bet to remove")
        previous, was_double = seat.undo[-1]
        self._set_bets(seat, previous)
        seat.undo.pop()
        if was_double:
            seat.doubled = False

    def _double(self, seat: Seat, cmd: Double) -> dict[str, Any] | None:
        self._require_betting(cmd)
        seat = self._hand_for(seat, cmd.behind)
        if seat.doubled:
            raise CommandError("wrong_phase", "double: the bets were already doubled this round")
        if seat.bets["ante"] == 0:
            raise CommandError("wrong_phase", "double: there is no bet to double")
        bets = self._doubled(seat)
        capped = any(bets[spot] and bets[spot] == self._limit(spot)[1] for spot in SPOTS)
        previous = dict(seat.bets)
        self._set_bets(seat, bets, field="double")
        seat.undo.append((previous, True))
        seat.doubled = True
        return {"notice": "maximum"} if capped else None

    def _repeat(self, seat: Seat, cmd: Repeat) -> None:
        self._require_betting(cmd)
        self._check_bettor(seat, "repeat")
        if cmd.behind is not None:
            self._check_behind(seat, cmd.behind)
        seat = self._hand_for(seat, cmd.behind, create=True)
        last = (self._line_last_bets if seat.line else self._last_bets).get(seat.player_id)
        if last is None:
            raise CommandError("wrong_phase", "repeat: no bets from a previous round")
        if seat.staked > 0:
            raise CommandError("wrong_phase", "repeat: bets are already placed this round")
        bets = dict(last)
        try:  # the engine's one definition of legal wagers (the rules may have changed)
            validate_wagers(
                self.rules, ante=bets["ante"], trips=bets["trips"], bad_beat=bets["bad_beat"]
            )
        except UthError as exc:
            raise CommandError("over_limit", f"repeat: {exc}") from None
        was_behind = seat.behind
        if cmd.behind is not None:
            seat.behind = cmd.behind
        previous = dict(seat.bets)
        try:
            self._set_bets(seat, bets, field="repeat")
        except UthError:
            seat.behind = was_behind
            raise
        seat.undo.append((previous, False))
        if seat.line:
            self.lines[seat.player_id] = seat

    def _decide(self, seat: Seat, cmd: Decide) -> None:
        self._require_round(cmd)
        rnd = self.round
        if rnd is None or rnd.phase not in STREETS or not self._in_round(seat):
            raise CommandError(
                "wrong_phase", f"decide: no decision is open for you (phase {self.phase})"
            )
        if self._void_request is not None:
            raise CommandError("wrong_phase", "decide: the round is being voided")
        if self.paused is not None:
            raise CommandError(
                "round_paused", f"decide: the round is paused ({self.paused['reason']})"
            )
        street = str(rnd.phase)
        if cmd.street is not None and cmd.street != street:
            raise CommandError(
                "wrong_phase",
                f"decide: the {cmd.street} decision is closed; the open decision is {street}",
            )
        if self._past_deadline():
            raise CommandError("wrong_phase", f"decide: the {street} decision time is over")
        if not self.decisions.may_decide(rnd, seat.hand_id):
            raise CommandError("wrong_phase", f"decide: it is not your turn on the {street}")
        if (
            cmd.street is None
            and seat.decisions
            and seat.decisions[-1].startswith("auto:")
            and self._street_opened is not None
            and self.now < self._street_opened + timedelta(seconds=LATE_SECONDS)
        ):
            raise CommandError(
                "wrong_phase",
                f"decide: say which street (the {street} decision opened just after the "
                "timer decided the last one)",
            )
        available = self.funds.available(seat.player_id)
        events = rnd.act(seat.hand_id, cmd.action, available=available, at=self.now)
        self._after_decision(seat, events)

    def _leave(self, seat: Seat, cmd: Leave) -> dict[str, Any]:
        """The page was hidden or is closing (004): bets on the table while betting
        is open are declined and refunded, and the player told why.
        """
        self._require_round(cmd)
        hands = self._hands_of(seat)
        if self.phase != "betting" or self._past_deadline() or not any(h.staked for h in hands):
            return {"declined": False}
        for hand in hands:
            self._set_bets(hand, no_bets())
            hand.undo.clear()
            hand.doubled = False
        why = {
            "hidden": "hidden: the page was hidden while betting was open",
            "closed": "closed: the page was closed while betting was open",
        }[cmd.reason]
        # Sent after the reply (publish runs after every command's reply).
        self._outbox.append(
            (
                seat.player_id,
                self._declined(cmd.reason, f"{why}; the bets were declined and refunded (004)"),
            )
        )
        return {"declined": True}

    def _trainer(self, seat: Seat, cmd: Trainer) -> dict[str, Any]:
        """Switch the player's trainer on or off (docs/protocol.md, "Trainer mode");
        switched on during the player's decision, that decision is advised at once.
        """
        try:
            self.coach.switch(seat.player_id, cmd.on)
        except PermissionError as exc:
            raise CommandError("trainer_not_allowed", str(exc)) from None
        rnd = self.round
        if cmd.on and rnd is not None and seat.hand_id in rnd.awaiting():
            self._effects.append(Advise(self.game_number, (self._spot(rnd, seat),)))
        return {"trainer": self._trainer_view(seat)}

    def _spot(self, rnd: Round, seat: Seat) -> Spot:
        """The decision the player faces now, as the trainer sees it (cards dealt so far)."""
        available = self.funds.available(seat.player_id)
        return Spot(
            seat.player_id,
            rnd.hole_cards(seat.hand_id),
            rnd.board[: self._board_shown],
            tuple(str(a) for a in rnd.legal_actions(seat.hand_id, available=available)),
        )

    def _after_decision(self, seat: Seat, events: tuple[ev.Event, ...]) -> None:
        decision = events[0]
        assert isinstance(decision, ev.DecisionMade)
        seat.decisions.append(("auto:" if decision.auto else "") + decision.action)
        if decision.play > 0:
            self.funds.reserve(seat.player_id, decision.play, field="play")
            seat.pending_play += decision.play
            self._pending_debits.append(Debit(seat.player_id, "play", decision.play))
        rnd = self.round
        if decision.multiple > 0 and rnd is not None:
            # Back-line bets follow the seat's decision (card rooms): their Play too.
            # Their largest Play was reserved with the bet (``play_hold``): it moves
            # to the Play pending, so another table cannot have spent it meanwhile.
            for hand in rnd.followers(seat.hand_id):
                follower = self._seat_of(hand)
                if follower is None:
                    continue
                play = rnd.wagers(hand).ante * decision.multiple
                held = min(play, follower.play_hold)
                follower.play_hold -= held
                if play > held:
                    self.funds.reserve(follower.player_id, play - held, field="play")
                follower.pending_play += play
                self._pending_debits.append(
                    Debit(follower.player_id, "play", play, second_hand(hand))
                )
        self._wake()

    def _release_all(self, seat: Seat) -> None:
        self.funds.release(seat.player_id, seat.staked + seat.pending_play + seat.play_hold)
        seat.bets = no_bets()
        seat.pending_play = ZERO
        seat.play_hold = ZERO

    def _hands_of(self, seat: Seat) -> list[Seat]:
        """The player's own seat and, when they have one, their back-line hand."""
        line = self.lines.get(seat.player_id)
        return [seat] if line is None else [seat, line]

    def _wake(self) -> None:
        self._woken = True

    def _check_bettor(self, seat: Seat, doing: str) -> None:
        """A card room's check that the player may bet at all (the player-dealer may
        not: :class:`~uth.engine.table.cardroom.CardRoom`); anyone may elsewhere.
        """

    def _check_room_bet(self, seat: Seat, cmd: PlaceBet) -> None:
        """A card room's checks of a bet (:class:`~uth.engine.table.cardroom.CardRoom`)."""
        if cmd.behind is not None:
            raise CommandError("wrong_phase", "behind: back-line bets are card-room bets")

    def _check_behind(self, seat: Seat, behind: int) -> None:
        """A card room's checks of a back-line bet behind seat ``behind``
        (:class:`~uth.engine.table.cardroom.CardRoom`).
        """
        raise CommandError("wrong_phase", "behind: back-line bets are card-room bets")

    def _hand_for(self, seat: Seat, behind: int | None, *, create: bool = False) -> Seat:
        """The hand a bet-slip command acts on: the player's own, or at a card room a
        seated player's back-line hand (:class:`~uth.engine.table.cardroom.CardRoom`).
        """
        if behind is not None:
            raise CommandError("wrong_phase", "behind: back-line bets are card-room bets")
        return seat


def _error(request_id: str | None, code: str, message: str) -> dict[str, Any]:
    return {"type": "error", "id": request_id, "code": code, "message": message}
