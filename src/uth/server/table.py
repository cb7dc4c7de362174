"""The live table: one asyncio task per table drives the engine's rounds.

RULES.md, "Online table" (seed 004): a betting window with a traffic light
(green, yellow for the last seconds, red), the deal, a decision window per street
with a timer (time-out: AUTO CHECKED pre-flop and on the flop, AUTO FOLDED at the
river), the dealer's reveal and announcement, settlement, a pause, the next round.
No round is dealt when nobody has bet.

Concurrency: everything here runs on the server's event loop. Commands
(:meth:`LiveTable.handle`) are synchronous and never await, so each one is applied
whole before another starts; the table task awaits only the clock and storage.
Storage calls run in a worker thread.

What a player is sent is filtered per player: their own hole cards, decisions and
results; the board and the dealer's hand when turned; the dealer's hole cards and
the deck order never before the showdown (the deck is stored only once settled).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from decimal import Decimal
from typing import Any, Protocol, TypeVar, cast

from uth.cards import Card, PreparedDeck, SecureShuffler, Shuffler, make_procedure
from uth.engine import Phase, Round, history
from uth.engine import events as ev
from uth.engine.views import name_hand
from uth.engine.wagers import INITIAL_WAGERS, BetSpot, least_play, spot_limit, spot_max
from uth.errors import IllegalActionError, InvalidCardError, InvalidDealError, UthError
from uth.money import ZERO, money_json, parse_amount
from uth.rules import RuleSet
from uth.server import round_books
from uth.server.clock import Clock
from uth.server.config import TableConfig
from uth.server.ports import (
    Debit,
    InsufficientFundsError,
    Ledger,
    PlayerRecord,
    PlayerRound,
    RoundLog,
    RoundNotOpenError,
    RoundRecord,
)
from uth.server.protocol import (
    Command,
    Decide,
    Double,
    Leave,
    PlaceBet,
    Repeat,
    Snapshot,
    Trainer,
    Undo,
)
from uth.server.reservations import Reservations
from uth.server.storage.worker import StorageWorker
from uth.server.trainer import Spot, TableTrainer

log = logging.getLogger("uth.table")
_T = TypeVar("_T")

SPOTS = ("ante", "trips", "bad_beat")
_STREETS = (Phase.PRE_FLOP, Phase.FLOP, Phase.RIVER)
_STREET_NAMES = frozenset(str(p) for p in _STREETS)
#: Request ids a player may use in one round; every one is remembered until the
#: end of the next round, so an id is never applied twice within a round
#: (docs/protocol.md, "Repeated request ids").
REQUEST_IDS_PER_ROUND = 256
#: A ``decide`` without ``street`` this soon after a street opened, from a player
#: whose previous street the timer decided, may answer that earlier street.
_LATE_SECONDS = 1.0
_PAUSED_MESSAGE = "The round is paused: the issue is being investigated."
#: A snapshot reply is not kept: a repeated snapshot id gets a fresh snapshot.
_SNAPSHOT_REPLY: dict[str, Any] = {}


class Connection(Protocol):
    """A player's open connection; ``send`` queues a message and never blocks."""

    def send(self, message: dict[str, Any]) -> None:
        """Queue one message for the client."""
        ...


class GameNumbers:
    """Allocates game numbers ``YYYYMMDD-HHMMSS-NNNN``: the round's UTC start time
    (to the second) and a sequence number shared by every table of the server, so
    that two tables opening a round in the same second get different numbers
    (004: every round has a unique game number that tells when it started).
    """

    def __init__(self) -> None:
        self._sequence = 0

    def next(self, now: datetime) -> str:
        """The next game number for a round starting at ``now`` (1..9999, then again 1)."""
        self._sequence = self._sequence % 9999 + 1
        return f"{now.astimezone(UTC):%Y%m%d-%H%M%S}-{self._sequence:04d}"


class CommandError(UthError):
    """A command refused by the table, with a protocol error code."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


class RoundCancelledError(Exception):
    """A paused round was cancelled by the operator (void and refund)."""

    def __init__(self, reason: str, actor: str) -> None:
        super().__init__(reason)
        self.reason = reason
        self.actor = actor


def hand_name(
    hole: tuple[Card, ...] | list[Card], board: tuple[Card, ...] | list[Card]
) -> dict[str, Any]:
    """A player's hand so far, for naming it: ``{"category", "cards"}``.

    Before the flop the two hole cards alone (``pair`` or ``high_card``, higher
    card first); from the flop the evaluator's best five of the cards seen
    (category key and best five, in the order that names the hand).
    """
    return name_hand(hole, board).to_json()


@dataclass
class Seat:
    """A player at the table and their bets for the coming round."""

    player: PlayerRecord
    number: int | None
    bets: dict[str, Decimal] = field(default_factory=lambda: dict.fromkeys(SPOTS, ZERO))
    undo: list[tuple[dict[str, Decimal], bool]] = field(default_factory=list)
    doubled: bool = False
    connections: list[Connection] = field(default_factory=list)
    pending_play: Decimal = ZERO
    decisions: list[str] = field(default_factory=list)

    @property
    def hand_id(self) -> str:
        """The player's hand id in the engine's round."""
        return str(self.player.id)

    def cost(self, bets: dict[str, Decimal]) -> Decimal:
        """Money needed for these bets: the Ante twice (Ante and Blind), Trips, Bad Beat."""
        return 2 * bets["ante"] + bets["trips"] + bets["bad_beat"]

    def send(self, message: dict[str, Any]) -> None:
        """Send to every connection of this player."""
        for conn in self.connections:
            conn.send(message)


class LiveTable:
    """One live table and its round loop.

    Args:
        config: the table's configuration (timers, chips, rule set source).
        rules: the validated rule set.
        ledger: the accounts and their money.
        rounds: the round log (rounds, history, audit).
        reservations: the server's shared balances and reservations.
        worker: the server's storage worker (every storage call goes through it).
        clock: the server's clock (a manual clock in tests).
        shuffler: the shuffler; a cryptographically secure one by default.
        game_numbers: the server's game-number allocator (shared by its tables).
    """

    def __init__(
        self,
        config: TableConfig,
        rules: RuleSet,
        ledger: Ledger,
        rounds: RoundLog,
        reservations: Reservations,
        worker: StorageWorker,
        clock: Clock,
        shuffler: Shuffler | None = None,
        game_numbers: GameNumbers | None = None,
    ) -> None:
        self.config = config
        self.rules = rules
        self.ledger = ledger
        self.rounds = rounds
        self.reservations = reservations
        self.worker = worker
        self.clock = clock
        self.decks = make_procedure(rules.deck_procedure, shuffler or SecureShuffler())
        self.seats: dict[int, Seat] = {}
        self.phase = "idle"
        self.light = "red"
        self.game_number: str | None = None
        self.deadline: datetime | None = None
        self.round: Round | None = None
        self.round_id: int | None = None
        self.rounds_played = 0
        self._published = 0
        self._board_shown = 0  # community cards sent to the players so far
        self._hand_names: dict[tuple[tuple[Card, ...], int], dict[str, Any]] = {}
        self._pending_debits: list[Debit] = []
        self._wake = asyncio.Event()
        self._void_request: tuple[str, str] | None = None
        self._voidable = False
        self._round_voided = False
        self._bets_dirty = False
        self._game_numbers = game_numbers or GameNumbers()
        # Request ids with their replies, per player: this round's and the last
        # round's (a round runs from one betting window to the next).
        self._ids_now: dict[int, dict[str, dict[str, Any]]] = {}
        self._ids_before: dict[int, dict[str, dict[str, Any]]] = {}
        # Per player, kept while the seat comes and goes: the bets Repeat places,
        # the result of the round just played (until the next window), and what
        # happened while the player was away (sent after the next snapshot).
        self._last_bets: dict[int, dict[str, Decimal]] = {}
        self._last_result: dict[int, dict[str, Any]] = {}
        self._away_notices: dict[int, list[dict[str, Any]]] = {}
        self._street_opened: datetime | None = None
        # A malfunction pause: the reason and time, the decision time left.
        self.paused: dict[str, Any] | None = None
        self._paused_by = "system"
        self._resume_requested = False
        self._outbox: list[tuple[Seat, dict[str, Any]]] = []
        self._handlers: dict[type[Any], Callable[[Seat, Any], dict[str, Any] | None]] = {
            PlaceBet: self._place_bet,
            Undo: self._undo,
            Double: self._double,
            Repeat: self._repeat,
            Decide: self._decide,
            Leave: self._leave,
            Snapshot: lambda seat, cmd: {"snapshot": self.snapshot(seat)},
            Trainer: self._trainer,
        }
        # Trainer mode (issue 11): advice and reviews for the players who switch it on.
        self.trainer = TableTrainer(rules, allowed=config.play_money)

    # ------------------------------------------------------------ membership
    async def load_player(self, player_id: int) -> None:
        """Before a player joins: recall the bets Repeat would place from the
        player's last round at this table in storage, unless already known (so
        Repeat survives a server restart).
        """
        if player_id in self._last_bets:
            return
        rows = await self.worker.call(self.rounds.history, player_id, 50)
        last = next((r for r in rows if r.table_id == self.config.id and r.status != "open"), None)
        if last is None or player_id in self._last_bets:
            return
        detail = await self.worker.call(self.rounds.round_detail, player_id, last.game_number)
        # A voided round lists only the wagers it debited.
        bets = {spot: Decimal(detail.wagers.get(spot, {}).get("stake", 0)) for spot in SPOTS}
        if player_id not in self._last_bets and bets["ante"] > 0:
            self._last_bets[player_id] = bets

    def join(self, player: PlayerRecord, conn: Connection) -> dict[str, Any]:
        """Seat a player (or add a connection of a seated player); returns the
        snapshot. What the player was not told while away (bets declined when
        their last connection closed) is sent to ``conn`` after the snapshot by
        :meth:`notices`.

        Raises:
            CommandError: ``table_full`` when every seat is taken.
        """
        seat = self.seats.get(player.id)
        if seat is None:
            number = None
            if self.rules.seats is not None:
                taken = {s.number for s in self.seats.values()}
                free = [n for n in range(1, self.rules.seats + 1) if n not in taken]
                if not free:
                    raise CommandError(
                        "table_full", f"table: all {self.rules.seats} seats are taken"
                    )
                number = free[0]
            seat = Seat(player, number)
            self.seats[player.id] = seat
        seat.connections.append(conn)
        return self.snapshot(seat)

    def push_state(self, player_id: int) -> None:
        """Send a seated player's state to each of their connections here: their
        balance changed at another table (the balance is shared).
        """
        seat = self.seats.get(player_id)
        if seat is not None:
            seat.send({"type": "state", "state": self.state(seat)})

    def notices(self, player_id: int) -> list[dict[str, Any]]:
        """The messages the player missed while away (taken: each is given once)."""
        return self._away_notices.pop(player_id, [])

    def disconnect(self, player_id: int, conn: Connection) -> None:
        """A connection closed. When the player's last one closes while betting is
        open, that round's bets are declined and refunded (004); a player in a
        round stays in it (the timer decides). A player with no connection and no
        hand in play leaves the seat.
        """
        seat = self.seats.get(player_id)
        if seat is None or conn not in seat.connections:
            return
        seat.connections.remove(conn)
        if seat.connections:
            return
        if self.phase == "betting":
            if seat.cost(seat.bets) > 0:
                self._away_notices.setdefault(player_id, []).append(
                    self._declined(
                        "left",
                        "left: your last connection closed while betting was open; "
                        "the bets were declined and refunded (004)",
                    )
                )
            self._set_bets(seat, dict.fromkeys(SPOTS, ZERO))
            seat.undo.clear()
        # Betting closed (red light) and the round being opened: the bets stand
        # and are dealt in, as for a player in the round (the timer decides). A
        # hand in play, or being settled, keeps its seat until the round is over.
        dealt_in = self.phase == "closed" and seat.cost(seat.bets) > 0
        rnd = self.round
        playing = rnd is not None and rnd.has_hand(seat.hand_id) and self.phase in _STREET_NAMES
        if not playing and not dealt_in:
            self._release_all(seat)
            del self.seats[player_id]

    # ------------------------------------------------------------- commands
    def handle(
        self, player_id: int, command: Command, origin: Connection | None = None
    ) -> dict[str, Any]:
        """Apply one command of a seated player and return its reply.

        A request id seen in this round or the last is never applied again: the
        first reply is returned again (a snapshot is taken afresh). A player may
        use :data:`REQUEST_IDS_PER_ROUND` ids per round; more are refused with
        ``too_many_requests``. Errors are replies with a ``code`` (``wrong_phase``,
        ``over_limit``, ``insufficient_funds``, ``illegal_action``,
        ``invalid_amount``, ``not_seated``, ``round_paused``); a refused command
        changes nothing. An accepted command's new state is sent as a ``state``
        message to the player's other connections than ``origin``.
        """
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
                "state": self.state(seat),
                "snapshot": self.snapshot(seat),
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
                "state": self.state(seat),
            }
            if notice:
                reply.update(notice)
        except CommandError as exc:
            reply = _error(command.id, exc.code, str(exc))
        except InsufficientFundsError as exc:
            reply = _error(command.id, "insufficient_funds", str(exc))
        except IllegalActionError as exc:
            reply = _error(command.id, "illegal_action", str(exc))
        except UthError as exc:
            reply = _error(command.id, "invalid_amount", str(exc))
        ids[command.id] = _SNAPSHOT_REPLY if isinstance(command, Snapshot) else reply
        if reply["type"] == "accepted" and not isinstance(command, Snapshot):
            others = [c for c in seat.connections if c is not origin]
            if others:
                update = {"type": "state", "state": reply["state"]}
                for conn in others:
                    conn.send(update)
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
        """The window's time is up, though the table task has not closed it yet:
        only commands that arrive in time count (004).
        """
        return self.deadline is not None and self.clock.now() >= self.deadline

    def _set_bets(self, seat: Seat, bets: dict[str, Decimal], *, field: str = "amount") -> None:
        """Replace a seat's bets, moving the reservation by the difference; ``field``
        names the command in an insufficient-funds error.
        """
        delta = seat.cost(bets) - seat.cost(seat.bets)
        if delta > 0:
            self.reservations.reserve(seat.player.id, delta, field=field)
        elif delta < 0:
            self.reservations.release(seat.player.id, -delta)
        seat.bets = bets
        self._bets_dirty = True

    def _limit(self, spot: str) -> tuple[Decimal, Decimal]:
        limit = spot_limit(self.rules, cast("BetSpot", spot))
        if limit is None:
            raise CommandError("over_limit", f"spot: {spot} is not offered at this table")
        return limit.min, limit.max

    def _place_bet(self, seat: Seat, cmd: PlaceBet) -> dict[str, Any] | None:
        self._require_betting(cmd)
        amount = parse_amount(cmd.amount, field="amount")
        if amount <= 0:
            raise CommandError("invalid_amount", f"amount: must be positive, got {cmd.amount!r}")
        self._limit(cmd.spot)  # not offered: over_limit
        bets = dict(seat.bets)
        if cmd.spot != "ante" and bets["ante"] == 0:
            raise CommandError("wrong_phase", f"spot: place the Ante before {cmd.spot}")
        cap = spot_max(self.rules, cmd.spot, bets["ante"])
        assert cap is not None
        if bets[cmd.spot] >= cap:
            raise CommandError("over_limit", f"amount: {cmd.spot} is at its maximum {cap}")
        added = min(amount, cap - bets[cmd.spot])
        bets[cmd.spot] += added
        previous = dict(seat.bets)
        self._set_bets(seat, bets)
        seat.undo.append((previous, False))
        return {"notice": "maximum"} if bets[cmd.spot] == cap else None

    def _undo(self, seat: Seat, cmd: Undo) -> None:
        self._require_betting(cmd)
        if not seat.undo:
            raise CommandError("wrong_phase", "undo: there is no bet to remove")
        previous, was_double = seat.undo[-1]
        self._set_bets(seat, previous)
        seat.undo.pop()
        if was_double:
            seat.doubled = False
        return None

    def _double(self, seat: Seat, cmd: Double) -> dict[str, Any] | None:
        self._require_betting(cmd)
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

    def _doubled(self, seat: Seat) -> dict[str, Decimal]:
        """The seat's bets doubled, each up to its spot's maximum."""
        return {
            spot: min(2 * amount, self._limit(spot)[1]) if amount else amount
            for spot, amount in seat.bets.items()
        }

    def _repeat(self, seat: Seat, cmd: Repeat) -> None:
        self._require_betting(cmd)
        last = self._last_bets.get(seat.player.id)
        if last is None:
            raise CommandError("wrong_phase", "repeat: no bets from a previous round")
        if seat.cost(seat.bets) > 0:
            raise CommandError("wrong_phase", "repeat: bets are already placed this round")
        bets = dict(last)
        for spot in SPOTS:
            if bets[spot]:
                low, high = self._limit(spot)
                if not low <= bets[spot] <= high:
                    raise CommandError(
                        "over_limit", f"{spot}: {bets[spot]} is outside {low}-{high}"
                    )
        previous = dict(seat.bets)
        self._set_bets(seat, bets, field="repeat")
        seat.undo.append((previous, False))
        return None

    def _decide(self, seat: Seat, cmd: Decide) -> None:
        self._require_round(cmd)
        rnd = self.round
        if rnd is None or rnd.phase not in _STREETS or not self._in_round(seat):
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
        if (
            cmd.street is None
            and seat.decisions
            and seat.decisions[-1].startswith("auto:")
            and self._street_opened is not None
            and self.clock.now() < self._street_opened + timedelta(seconds=_LATE_SECONDS)
        ):
            raise CommandError(
                "wrong_phase",
                f"decide: say which street (the {street} decision opened just after the "
                "timer decided the last one)",
            )
        available = self.reservations.available(seat.player.id)
        events = rnd.act(seat.hand_id, cmd.action, available=available, at=self.clock.now())
        self._after_decision(seat, events)
        return None

    def _leave(self, seat: Seat, cmd: Leave) -> dict[str, Any]:
        """The page was hidden or is closing (004): bets on the table while betting
        is open are declined and refunded, and the player told why.
        """
        self._require_round(cmd)
        if self.phase != "betting" or self._past_deadline() or seat.cost(seat.bets) == 0:
            return {"declined": False}
        self._set_bets(seat, dict.fromkeys(SPOTS, ZERO))
        seat.undo.clear()
        seat.doubled = False
        why = {
            "hidden": "hidden: the page was hidden while betting was open",
            "closed": "closed: the page was closed while betting was open",
        }[cmd.reason]
        # Sent after the reply (publish runs after every command's reply).
        self._outbox.append(
            (seat, self._declined(cmd.reason, f"{why}; the bets were declined and refunded (004)"))
        )
        return {"declined": True}

    def _trainer(self, seat: Seat, cmd: Trainer) -> dict[str, Any]:
        """Switch the player's trainer on or off (docs/protocol.md, "Trainer mode");
        switched on during the player's decision, that decision is advised at once.
        """
        pid = seat.player.id
        try:
            self.trainer.switch(pid, cmd.on)
        except PermissionError as exc:
            raise CommandError("trainer_not_allowed", str(exc)) from None
        rnd = self.round
        if cmd.on and rnd is not None and seat.hand_id in rnd.awaiting():
            self.trainer.ask(self.game_number, [self._spot(rnd, seat)], self._send_trainer)
        return {"trainer": self._trainer_view(seat)}

    def _spot(self, rnd: Round, seat: Seat) -> Spot:
        """The decision the player faces now, as the trainer sees it (cards dealt so far)."""
        available = self.reservations.available(seat.player.id)
        return Spot(
            seat.player.id,
            rnd.hole_cards(seat.hand_id),
            rnd.board[: self._board_shown],
            tuple(str(a) for a in rnd.legal_actions(seat.hand_id, available=available)),
        )

    def _send_trainer(self, player_id: int, message: dict[str, Any]) -> None:
        seat = self.seats.get(player_id)
        if seat is not None:
            seat.send(message)

    def _trainer_view(self, seat: Seat) -> dict[str, Any] | None:
        rnd = self.round
        street = str(rnd.phase) if rnd is not None and rnd.phase in _STREETS else None
        return self.trainer.snapshot(seat.player.id, street, self.game_number)

    def _declined(self, code: str, reason: str, field: str | None = None) -> dict[str, Any]:
        """A ``bets_declined`` message: ``code`` says why for the client (``left``,
        ``hidden``, ``closed``, ``outside_limits`` with the wager's ``field``,
        ``insufficient_funds``); ``reason`` is for people reading logs.
        """
        message = {
            "type": "bets_declined",
            "game_number": self.game_number,
            "code": code,
            "reason": reason,
        }
        if field is not None:
            message["field"] = field
        return message

    def _after_decision(self, seat: Seat, events: tuple[ev.Event, ...]) -> None:
        decision = events[0]
        assert isinstance(decision, ev.DecisionMade)
        seat.decisions.append(("auto:" if decision.auto else "") + decision.action)
        if decision.play > 0:
            self.reservations.reserve(seat.player.id, decision.play, field="play")
            seat.pending_play += decision.play
            self._pending_debits.append(Debit(seat.player.id, "play", decision.play))
        self._wake.set()

    # ---------------------------------------------------------------- views
    def _in_round(self, seat: Seat) -> bool:
        rnd = self.round
        return (
            rnd is not None
            and rnd.phase not in (Phase.SETTLED, Phase.VOIDED)
            and rnd.has_hand(seat.hand_id)
        )

    def _holds_hand(self, seat: Seat) -> bool:
        """The player has a hand in the table's current round, in play or settled
        (not voided): its wagers are shown until the next betting window.
        """
        rnd = self.round
        return (
            rnd is not None
            and not self._round_voided
            and rnd.phase != Phase.VOIDED
            and rnd.has_hand(seat.hand_id)
        )

    def state(self, seat: Seat) -> dict[str, Any]:
        """The player's own state: bets, balance, legal actions and the buttons' state."""
        pid = seat.player.id
        available = self.reservations.available(pid)
        rnd = self.round
        in_round = self._holds_hand(seat)
        amounts = {**seat.bets, "blind": seat.bets["ante"], "play": ZERO}
        legal: list[str] = []
        if in_round and rnd is not None:
            w = rnd.wagers(seat.hand_id)
            amounts = {kind: w.get(kind) for kind in INITIAL_WAGERS}
            amounts["play"] = w.ante * (rnd.play_multiple(seat.hand_id) or 0)
            legal = [str(a) for a in rnd.legal_actions(seat.hand_id, available=available)]
        bets = {kind: money_json(amount) for kind, amount in amounts.items()}
        total = sum(amounts.values(), ZERO)
        out: dict[str, Any] = {
            "phase": self.phase,
            "balance": money_json(available),
            "bets": bets,
            "total_bet": money_json(total),
            "legal_actions": legal,
            "can_undo": self.phase == "betting" and bool(seat.undo),
            "can_double": self.phase == "betting"
            and not seat.doubled
            and seat.bets["ante"] > 0
            and seat.cost(self._doubled(seat)) - seat.cost(seat.bets) <= available,
            "can_repeat": self.phase == "betting"
            and (last := self._last_bets.get(pid)) is not None
            and seat.cost(last) <= available
            and seat.cost(seat.bets) == 0,
            "decisions": list(seat.decisions) if in_round else [],
            "hand": self._hand(seat) if in_round else None,
        }
        least = least_play(self.rules, seat.bets["ante"])
        if self.phase == "betting" and seat.bets["ante"] > 0 and available < least:
            out["warning"] = "balance_low_for_play"
        return out

    def _hand(self, seat: Seat) -> dict[str, Any] | None:
        """The player's hand so far, once dealt (see :func:`hand_name`)."""
        rnd = self.round
        if rnd is None or rnd.phase in (Phase.BETTING, Phase.VOIDED):
            return None
        hole = rnd.hole_cards(seat.hand_id)
        if not hole:
            return None
        # Only the cards the players were sent: a reply goes out before the
        # events its command caused (a decision that ends the streets). Named
        # once per hand and street: on a shared-hand table every player holds
        # the same cards (the evaluator takes about 0.1-0.3 ms).
        key = (hole, self._board_shown)
        named = self._hand_names.get(key)
        if named is None:
            named = self._hand_names[key] = hand_name(hole, rnd.board[: self._board_shown])
        return named

    def snapshot(self, seat: Seat) -> dict[str, Any]:
        """Everything a (re)connecting player needs: phase, timers, own cards and bets,
        the shared player hand (shared-hand tables), the board so far, balance, and
        other players' bets. The dealer's hole cards are never in it.
        """
        rnd = self.round
        own_cards: list[str] = []
        board: list[str] = []
        player_hand: list[str] = []
        if rnd is not None and rnd.phase not in (Phase.VOIDED,):
            board = [str(c) for c in rnd.board[: self._board_shown]]
            if rnd.has_hand(seat.hand_id) and rnd.phase != Phase.BETTING:
                own_cards = [str(c) for c in rnd.hole_cards(seat.hand_id)]
            # shared-hand table (004): dealt face up for everyone
            player_hand = [str(c) for c in rnd.shared_hand]
        return {
            "type": "snapshot",
            "table": self.info(),
            "player": {"id": seat.player.id, "name": seat.player.name, "seat": seat.number},
            "game_number": self.game_number,
            "phase": self.phase,
            "light": self.light,
            **self._timer(),
            "hole_cards": own_cards,
            "player_hand": player_hand,
            "board": board,
            "state": self.state(seat),
            "table_bets": self.table_bets(),
            "last_result": self._last_result.get(seat.player.id),
            "paused": self.paused,
            "last_bets": _bets_json(self._last_bets.get(seat.player.id)),
            **({"trainer": view} if (view := self._trainer_view(seat)) else {}),
        }

    def info(self) -> dict[str, Any]:
        """The table for the lobby: id, name, rule set, limits, players and phase."""
        return {
            "id": self.config.id,
            "name": self.config.name or self.config.id,
            "names": dict(self.config.names),
            "rules": self.rules.name,
            "limits": {
                "ante": [money_json(self.rules.ante.min), money_json(self.rules.ante.max)],
                "trips": _limit_json(self.rules.trips),
                "bad_beat": _limit_json(self.rules.bad_beat),
            },
            "seats": self.rules.seats,
            "players": len(self.seats),
            "phase": self.phase,
            "chips": [money_json(c) for c in self.config.chips],
            "trainer": self.trainer.allowed,
        }

    def table_bets(self) -> dict[str, Any]:
        """Every player's bets: how many players bet, the total, and the largest
        ``listed_bets`` listed with their player ids (one message for everyone; a
        client leaves out its own row and amount).
        """
        rows = []
        for s in self.seats.values():
            bets = s.bets
            if self._holds_hand(s) and self.round is not None:
                w = self.round.wagers(s.hand_id)
                bets = {"ante": w.ante, "trips": w.trips, "bad_beat": w.bad_beat}
            total = s.cost(bets)
            if total > 0:
                rows.append((total, s, bets))
        rows.sort(key=lambda r: (-r[0], r[1].player.id))
        listed = [
            {
                "id": s.player.id,
                "name": s.player.name,
                "seat": s.number,
                "ante": money_json(b["ante"]),
                "trips": money_json(b["trips"]),
                "bad_beat": money_json(b["bad_beat"]),
                "total": money_json(total),
            }
            for total, s, b in rows[: self.config.listed_bets]
        ]
        return {
            "players": len(rows),
            "total": money_json(sum((r[0] for r in rows), ZERO)),
            "listed": listed,
        }

    def _timer(self) -> dict[str, Any]:
        now = self.clock.now()
        if self.deadline is None:
            return {"now": now.isoformat(), "deadline": None, "seconds_left": None}
        left = max(0.0, (self.deadline - now).total_seconds())
        return {
            "now": now.isoformat(),
            "deadline": self.deadline.isoformat(),
            "seconds_left": round(left, 1),
        }

    def _broadcast(self, message: dict[str, Any]) -> None:
        for seat in self.seats.values():
            seat.send(message)

    def publish(self) -> None:
        """Send each new engine event to the players allowed to see it.

        Called after a command's reply is sent, so that the reply comes first. The
        showdown is held back until the round's settlement is stored: a round that
        never reaches storage is voided, and nobody has seen its dealer's cards.
        """
        outbox, self._outbox = self._outbox, []
        for owner, note in outbox:
            owner.send(note)
        rnd = self.round
        if rnd is None:
            return
        for event in rnd.events_since(self._published):
            if isinstance(event, ev.DealerRevealed) and self.phase != "settled":
                return
            self._published += 1
            if isinstance(event, ev.FlopTurned | ev.TurnAndRiverTurned):
                self._board_shown += len(event.cards)
            target = getattr(event, "player", None)
            if event.visibility == "hidden" or isinstance(
                event, ev.WagersPlaced | ev.WagersWithdrawn | ev.RoundOpened
            ):
                continue
            if isinstance(event, ev.WagerSettled | ev.RoundSettled):
                continue  # sent as one settlement message per player
            message = {
                "type": event.type,
                **{k: v for k, v in event.to_dict().items() if k != "type"},
            }
            if target is not None:
                seat = self.seats.get(int(target))
                if seat is not None:
                    seat.send(message)
            elif isinstance(event, ev.BettingClosed):
                # A count, not the list of every hand: one message for everyone.
                common = {
                    "type": event.type,
                    "game_number": self.game_number,
                    "hands": len(event.hands),
                }
                dealt_in = {**common, "in_round": True}
                watching = {**common, "in_round": False}
                for seat in self.seats.values():
                    seat.send(dealt_in if rnd.has_hand(seat.hand_id) else watching)
            elif isinstance(event, ev.AntesReturned):
                self._broadcast({"type": event.type, "hands": len(event.players)})
            else:
                if isinstance(event, ev.DealerRevealed):
                    message["announcement"] = event.announcement
                self._broadcast(message)

    # ------------------------------------------------------------ the loop
    async def run(self) -> None:
        """Run rounds for ever: betting window, then a round if anybody bet.

        A round that fails (storage unreachable, a bug) is voided and its wagers
        refunded (004: a malfunction voids all pays and play); the table goes on.
        """
        while True:
            await self._betting_window()
            if any(s.cost(s.bets) > 0 for s in self.seats.values()):
                try:
                    await self._play_round()
                except Exception as exc:
                    log.exception("table %s: round %s failed", self.config.id, self.game_number)
                    await self._recover_round(exc)
                finally:
                    self._voidable = False
                    self._void_request = None
                    self.paused = None
                    self._resume_requested = False
                self._forget_departed()
                self.phase = "pause"
                self.deadline = self.clock.now() + timedelta(seconds=self.config.pause_seconds)
                self._broadcast({"type": "pause", **self._timer()})
                await self.clock.wait_until(self.deadline)

    async def _betting_window(self) -> None:
        now = self.clock.now()
        self.round = None
        self.round_id = None
        self._round_voided = False
        self._ids_before, self._ids_now = self._ids_now, {}
        self._last_result.clear()
        self.game_number = self._game_numbers.next(now)
        self.phase = "betting"
        self.light = "green"
        for seat in self.seats.values():
            seat.doubled = False
            seat.undo.clear()
            seat.decisions = []
        self.deadline = now + timedelta(seconds=self.config.betting_seconds)
        yellow_at = self.deadline - timedelta(seconds=self.config.yellow_seconds)
        self._broadcast(
            {
                "type": "betting_open",
                "game_number": self.game_number,
                "light": "green",
                **self._timer(),
            }
        )
        await self._wait_with_bets(yellow_at)
        self.light = "yellow"
        self._broadcast({"type": "light", "light": "yellow", **self._timer()})
        await self._wait_with_bets(self.deadline)
        self.light = "red"
        self.phase = "closed"
        self._broadcast({"type": "light", "light": "red", **self._timer()})

    async def _wait_with_bets(self, until: datetime) -> None:
        """Wait, telling everyone about bet changes at most once a second."""
        while self.clock.now() < until:
            step = min(until, self.clock.now() + timedelta(seconds=1))
            await self.clock.wait_until(step)
            self._send_bets()
        self._send_bets()

    def _send_bets(self) -> None:
        if not self._bets_dirty:
            return
        self._bets_dirty = False
        self._broadcast({"type": "table_bets", **self.table_bets()})

    async def _play_round(self) -> None:
        """Open, deal, play and settle one round; a round the operator cancels
        while paused is voided and refunded (004, malfunction).
        """
        try:
            await self._open_and_play()
        except RoundCancelledError as exc:
            await self._void_round(exc.reason, exc.actor)

    async def _open_and_play(self) -> None:
        assert self.game_number is not None
        # Who plays: the engine's round, in its betting phase, takes each seat's
        # bets (limits, seats); bets it refuses are declined. It receives the deck
        # once the game number is stored and the wagers debited, shuffled then and
        # checked (_shuffled_deck).
        rnd = Round(self.rules, game_id=self.game_number)
        playing: list[Seat] = []
        for seat in sorted(self.seats.values(), key=lambda s: (s.number or 0, s.player.id)):
            if seat.cost(seat.bets) == 0:
                continue
            try:
                self._place_wagers(rnd, seat)
            except UthError as exc:
                self._decline(seat, "outside_limits", str(exc), exc.field)
                continue
            playing.append(seat)
        if not playing:
            return
        self._void_request = None
        self._voidable = True
        now = self.clock.now()
        self.round_id = await self._open_round()
        if rnd.game_id != self.game_number:  # renumbered: the round takes the stored number
            rnd = Round(self.rules, game_id=self.game_number)
            for seat in playing:
                self._place_wagers(rnd, seat)
        while True:
            debits = [
                Debit(s.player.id, kind, amount)
                for s in playing
                for kind in INITIAL_WAGERS
                if (amount := rnd.wagers(s.hand_id).get(kind)) > 0
            ]
            try:
                balances = await self._store(self.ledger.debit, self.round_id, debits, now)
                break
            except InsufficientFundsError as exc:
                # Reservations make this rare; whoever is short is declined (told
                # alone, without the ledger's details) and the others still play.
                short = next((s for s in playing if s.player.id == exc.player_id), None)
                if short is None:
                    raise
                log.warning("table %s: %s", self.config.id, exc)
                self._decline(
                    short,
                    "insufficient_funds",
                    "balance: the balance no longer covers these bets",
                )
                playing.remove(short)
                rnd.withdraw(short.hand_id, at=self.clock.now())
                fresh = await self.worker.call(self.ledger.player, short.player.id)
                self.reservations.set_balance(fresh.id, fresh.balance)
                if not playing:
                    await self._void_round("no wagers could be debited", "system")
                    return
        for seat in playing:
            self.reservations.release(seat.player.id, seat.cost(seat.bets))
            self._last_bets[seat.player.id] = dict(seat.bets)
            seat.bets = dict.fromkeys(SPOTS, ZERO)
        for pid, balance in balances.items():
            self.reservations.set_balance(pid, balance)
        self.round = rnd
        self._published = 0
        self._board_shown = 0
        self._hand_names.clear()
        self.trainer.new_round()
        self.rounds_played += 1
        deck = await self._shuffled_deck() if self._void_request is None else None
        if self.paused is not None and self._void_request is None:
            await self._hold(None)
        if deck is not None and self._void_request is None:  # not voided while opening
            rnd.close_betting(deck, at=self.clock.now())
            self.publish()
            while rnd.phase in _STREETS and self._void_request is None:
                await self._street(rnd)
                await self._flush_debits()
        if self.paused is not None and self._void_request is None:
            await self._hold(None)
        if self._void_request is not None:
            # Honoured whatever the engine's phase: until the settlement is written
            # the round can be voided, and its showdown is never sent.
            reason, actor = self._void_request
            await self._void_round(reason, actor)
            return
        # The point of no return: from here the settlement is written, and an
        # operator's void is refused (request_void answers "settling").
        self._voidable = False
        await self._settle(rnd)

    def _place_wagers(self, rnd: Round, seat: Seat) -> None:
        """Place the seat's bets in the engine's round (raises what the engine refuses)."""
        bets = seat.bets
        rnd.place_wagers(
            seat.hand_id,
            ante=bets["ante"],
            trips=bets["trips"],
            bad_beat=bets["bad_beat"],
            seat=seat.number,
            at=self.clock.now(),
        )

    async def _open_round(self) -> int:
        """Record the round in storage. A game number already there (the server
        restarted within the same second) is replaced by the next free one.
        """
        for _ in range(9999):
            assert self.game_number is not None
            started = datetime.strptime(self.game_number[:15], "%Y%m%d-%H%M%S").replace(tzinfo=UTC)
            try:
                return await self._store(
                    self.rounds.open_round,
                    self.config.id,
                    self.game_number,
                    self.rules.name,
                    started,
                )
            except UthError as exc:
                if exc.code != "duplicate":
                    raise
                taken = self.game_number
                self.game_number = self._game_numbers.next(started)
                log.warning("game number %s is taken; using %s", taken, self.game_number)
        raise UthError(f"game_number: no free game number at {self.game_number}")

    async def _shuffled_deck(self) -> PreparedDeck:
        """Shuffle the round's deck and check it (52 distinct cards, at every
        shuffle: :class:`~uth.cards.PreparedDeck`). A deck that fails pauses the
        round (004, malfunction) until the operator resumes it (a new shuffle,
        checked again) or cancels it.
        """
        while True:
            try:
                return self.decks.next_deck()
            except (InvalidDealError, InvalidCardError) as exc:
                log.error("table %s: deck integrity check failed: %s", self.config.id, exc)
                self._pause(f"deck integrity check failed: {exc}", "system")
                await self._hold(None)

    async def _store(self, fn: Callable[..., _T], *args: Any) -> _T:
        """A storage call of the round in play. A storage error (anything but the
        store's own answers, :class:`~uth.errors.UthError`) pauses the round; when
        the operator resumes it the call is made again.
        """
        while True:
            try:
                return await self.worker.call(fn, *args)
            except UthError:
                raise
            except Exception as exc:
                log.exception(
                    "table %s: storage error in round %s", self.config.id, self.game_number
                )
                self._pause(f"storage error: {type(exc).__name__}", "system")
                await self._hold(None)

    def _pause(self, reason: str, actor: str) -> None:
        """Pause the round in play: timers stop and everyone is told the issue is
        being investigated (004, malfunction).
        """
        if self.paused is not None:
            return
        self.paused = {"reason": reason, "since": self.clock.now().isoformat()}
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
        self._wake.set()

    async def _hold(self, seconds: float | None) -> None:
        """Wait while the round is paused. Returns when the operator resumes it
        (the timer restarts with ``seconds``, or none); raises
        :class:`RoundCancelledError` when the operator voids it.
        """
        assert self.paused is not None
        await self._audit("pause_round", self._paused_by, self.paused["reason"])
        while self._void_request is None and not self._resume_requested:
            self._wake.clear()
            await self._wake.wait()
        if self._void_request is not None:
            raise RoundCancelledError(*self._void_request)
        self.paused = None
        self._resume_requested = False
        await self._audit("resume_round", "operator", "resumed by the operator")
        now = self.clock.now()
        self.deadline = None if seconds is None else now + timedelta(seconds=seconds)
        self._street_opened = now
        self._broadcast({"type": "round_resumed", "game_number": self.game_number, **self._timer()})

    async def _audit(self, action: str, actor: str, reason: str) -> None:
        try:
            await self.worker.call(
                self.rounds.audit,
                actor,
                action,
                reason,
                {"game_number": self.game_number},
                self.clock.now(),
            )
        except Exception:
            log.exception("table %s: audit line %s not written", self.config.id, action)

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
        self._wake.set()
        return "resumed"

    def _decline(self, seat: Seat, code: str, reason: str, field: str | None = None) -> None:
        self.reservations.release(seat.player.id, seat.cost(seat.bets))
        seat.bets = dict.fromkeys(SPOTS, ZERO)
        seat.send(self._declined(code, reason, field))

    def _ask(self, rnd: Round) -> None:
        """Send ``decision_required`` to every hand still to decide on this street
        (and start the advice of the players with the trainer on).
        """
        spots = []
        for hand_id in rnd.awaiting():
            seat = self.seats[int(hand_id)]
            if self.trainer.is_on(seat.player.id):
                spots.append(self._spot(rnd, seat))
            available = self.reservations.available(seat.player.id)
            seat.send(
                {
                    "type": "decision_required",
                    "street": str(rnd.phase),
                    "game_number": self.game_number,
                    "legal_actions": [
                        str(a) for a in rnd.legal_actions(hand_id, available=available)
                    ],
                    "hand": self._hand(seat),
                    **self._timer(),
                }
            )
        self.trainer.ask(self.game_number, spots, self._send_trainer)

    async def _street(self, rnd: Round) -> None:
        street = rnd.phase
        self.phase = str(street)
        if self.paused is not None:  # paused between streets: hold before asking
            await self._hold(None)
        self._street_opened = self.clock.now()
        self.deadline = self._street_opened + timedelta(seconds=self.config.decision_seconds)
        self._wake.clear()
        self._ask(rnd)
        while rnd.phase == street and rnd.undecided and self._void_request is None:
            if self.paused is not None:
                await self._hold(self.config.decision_seconds)
                self._ask(rnd)
                continue
            assert self.deadline is not None
            await self.clock.wait_until(self.deadline, self._wake)
            self._wake.clear()
            if self.paused is None and self.clock.now() >= self.deadline:
                break
        if self._void_request is not None:
            return
        if rnd.phase != street:
            return
        for hand_id in rnd.awaiting():
            seat = self.seats[int(hand_id)]
            events = rnd.act(hand_id, rnd.timeout_action(hand_id), auto=True, at=self.clock.now())
            self._after_decision(seat, events)
        self.publish()

    async def _flush_debits(self) -> None:
        if not self._pending_debits or self.round_id is None:
            return
        debits, self._pending_debits = self._pending_debits, []
        balances = await self._store(self.ledger.debit, self.round_id, debits, self.clock.now())
        for d in debits:
            self.reservations.release(d.player_id, d.amount)
            seat = self.seats.get(d.player_id)
            if seat is not None:
                seat.pending_play -= d.amount
        for pid, balance in balances.items():
            self.reservations.set_balance(pid, balance)

    async def _settle(self, rnd: Round) -> None:
        result = rnd.settlement
        assert result is not None and self.round_id is not None
        now = self.clock.now()
        players = []
        credits: dict[int, dict[str, Decimal]] = {}
        for hr in result.hands:
            pid = int(hr.id)
            seat = self.seats.get(pid)
            players.append(
                PlayerRound(
                    player_id=pid,
                    hole=[str(c) for c in rnd.hole_cards(hr.id)],
                    decisions=list(seat.decisions) if seat else [],
                    wagers={
                        w.kind: {"stake": w.stake, "result": w.result, "net": w.net}
                        for w in hr.wagers
                    },
                    category=hr.hand.category.key,
                    best_five=[str(c) for c in hr.hand.best_five],
                    outcome=hr.outcome,
                )
            )
            credits[pid] = {w.kind: w.stake + w.net for w in hr.wagers if w.stake + w.net > 0}
        record = RoundRecord(
            settled_at=now,
            deck=[str(c) for c in rnd.deck_order],
            board=[str(c) for c in result.board],
            dealer=[str(c) for c in rnd.dealer_hole],
            dealer_category=result.dealer.hand.category.key,
            dealer_qualifies=result.dealer.qualifies,
            players=players,
            events=[e.to_dict() for e in rnd.events],
        )
        balances = await self._store(
            round_books.settle_round,
            self.ledger,
            self.rounds,
            self.round_id,
            record,
            credits,
            history.record_of(rnd),
        )
        for pid, balance in balances.items():
            self.reservations.set_balance(pid, balance)
        self.phase = "settled"
        self.deadline = None
        self.publish()
        for hr in result.hands:
            pid = int(hr.id)
            message = {
                "type": "settlement",
                "game_number": self.game_number,
                "outcome": hr.outcome,
                "category": hr.hand.category.key,
                "best_five": [str(c) for c in hr.hand.best_five],
                "wagers": {
                    w.kind: {
                        "stake": money_json(w.stake),
                        "result": w.result,
                        "net": money_json(w.net),
                    }
                    for w in hr.wagers
                },
                "net": money_json(hr.net),
                "balance": money_json(self.reservations.available(pid)),
            }
            self._last_result[pid] = message
            seat = self.seats.get(pid)
            if seat is not None:
                seat.send(message)
        await self.trainer.flush()
        for hr in result.hands:
            seat = self.seats.get(int(hr.id))
            review = (
                None
                if seat is None
                else self.trainer.review(seat.player.id, self.game_number, seat.decisions)
            )
            if seat is not None and review is not None:
                seat.send(review)

    def _kept(self) -> history.RoundRecord | None:
        """The engine's record of the round in play, kept with it (``uth replay``)."""
        return None if self.round is None else history.record_of(self.round)

    def _end_round_events(self, reason: str) -> None:
        """Void the engine's round (if still open) and mark every event as sent: the
        ``round_voided`` message replaces them, and the showdown is never sent.
        """
        rnd = self.round
        if rnd is None:
            return
        if rnd.can_void():
            rnd.void(reason, at=self.clock.now())
        self._published = len(rnd.events)

    async def _void_round(self, reason: str, actor: str) -> None:
        self._end_round_events(reason)
        self._pending_debits.clear()
        for seat in self.seats.values():
            if seat.cost(seat.bets):  # voided before its wagers were debited
                self.reservations.release(seat.player.id, seat.cost(seat.bets))
                seat.bets = dict.fromkeys(SPOTS, ZERO)
            if seat.pending_play:
                self.reservations.release(seat.player.id, seat.pending_play)
                seat.pending_play = ZERO
        if self.round_id is not None:
            balances = await self.worker.call(
                round_books.void_round,
                self.ledger,
                self.rounds,
                self.round_id,
                reason,
                actor,
                self.clock.now(),
                self._kept(),
            )
            for pid, balance in balances.items():
                self.reservations.set_balance(pid, balance)
        self._announce_void(reason)

    def _announce_void(self, reason: str) -> None:
        self._round_voided = True
        self.paused = None
        self.phase = "voided"
        self.deadline = None
        rnd = self.round
        for seat in self.seats.values():
            message = {
                "type": "round_voided",
                "game_number": self.game_number,
                "reason": reason,
                "balance": money_json(self.reservations.available(seat.player.id)),
            }
            if rnd is not None and rnd.has_hand(seat.hand_id):
                self._last_result[seat.player.id] = message
            seat.send(message)

    async def _recover_round(self, error: Exception) -> None:
        """After a round failed: void it in storage (refunding what was debited),
        release every reservation it held, reload the balances and tell the players.
        A round that cannot be voided now stays open and is voided at the next start.
        """
        reason = "malfunction: the round could not be completed"
        self._end_round_events(reason)
        self._pending_debits.clear()
        for seat in self.seats.values():
            self._release_all(seat)
        now = self.clock.now()
        settled = False
        if self.round_id is not None:
            try:
                await self.worker.call(
                    round_books.void_round,
                    self.ledger,
                    self.rounds,
                    self.round_id,
                    f"{reason} ({type(error).__name__})",
                    "system",
                    now,
                    self._kept(),
                )
            except RoundNotOpenError:
                # The settlement was stored before the failure: the round stands.
                settled = True
                log.warning(
                    "table %s: round %s failed after it was settled",
                    self.config.id,
                    self.game_number,
                )
            except Exception:
                log.exception("table %s: round %s not voided", self.config.id, self.game_number)
        for pid in list(self.seats):
            try:
                player = await self.worker.call(self.ledger.player, pid)
            except Exception:
                log.exception("table %s: balance of player %s not reloaded", self.config.id, pid)
                continue
            self.reservations.set_balance(pid, player.balance)
        if not settled:
            self._announce_void(reason)

    def request_void(self, game_number: str, reason: str, actor: str) -> str | None:
        """Ask the loop to void this table's round in play (operator, malfunction).

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
            self._wake.set()
            return "voiding"
        if self.round is not None and self.phase in (str(p) for p in _STREETS):
            return "settling"
        return None

    def _forget_departed(self) -> None:
        for pid in [p for p, s in self.seats.items() if not s.connections]:
            self._release_all(self.seats.pop(pid))

    def _release_all(self, seat: Seat) -> None:
        self.reservations.release(seat.player.id, seat.cost(seat.bets) + seat.pending_play)
        seat.bets = dict.fromkeys(SPOTS, ZERO)
        seat.pending_play = ZERO


def _bets_json(bets: dict[str, Decimal] | None) -> dict[str, int | float] | None:
    return None if bets is None else {spot: money_json(bets[spot]) for spot in SPOTS}


def _limit_json(limit: Any) -> list[int | float] | None:
    if limit is None:
        return None
    return [money_json(limit.min), money_json(limit.max)]


def _error(request_id: str | None, code: str, message: str) -> dict[str, Any]:
    return {"type": "error", "id": request_id, "code": code, "message": message}
