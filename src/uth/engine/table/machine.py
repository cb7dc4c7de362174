"""The table machine: one table's life as a Sans-I/O state machine.

RULES.md, "Online table" (seed 004): a betting window with a traffic light
(green, yellow for the last seconds, red), the deal, a decision window per street
with a timer (time-out: AUTO CHECKED pre-flop and on the flop, AUTO FOLDED at the
river), the dealer's reveal and announcement, settlement, a pause, the next round.
No round is dealt when nobody has bet. A malfunction pauses the round; the
operator resumes or voids it; a round that fails is voided and refunded.

The machine holds no clock, socket, database or random generator. The host (the
server's shell, or a test) drives it with plain calls, each given the current
time ``now``:

- :meth:`TableMachine.handle` (a player's command; returns the reply),
  :meth:`join`, :meth:`disconnect`, :meth:`request_pause` / ``resume`` / ``void``;
- :meth:`tick` when the time :attr:`wake_at` has come or after a command;
- :attr:`call`: the call the machine waits on (storage, the shuffle); the host runs
  it and answers :meth:`resolve` (its result) or :meth:`fail` (its exception);
- :meth:`take`: the messages to send (:class:`~uth.engine.table.effects.Send`) and
  advice to start, in order; :meth:`publish` after a command's reply is sent.

The round loop is written as a generator: it yields a :class:`_Wait` (until a time
or a wake-up by a command) or a call, and the driver resumes it; that frame is the
machine's control state, the fields below are its data.

What a player is sent is filtered per player: their own hole cards, decisions and
results; the board and the dealer's hand when turned; the dealer's hole cards and
the deck order never before the showdown (the deck is stored only once settled).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Generator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from decimal import Decimal
from typing import Any, TypeVar, cast

from uth.cards import PreparedDeck
from uth.engine import events as ev
from uth.engine.history import RoundRecord as HistoryRecord
from uth.engine.history import record_of
from uth.engine.round import Phase, Round
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
    Audit,
    Call,
    Debit,
    DebitWagers,
    Effect,
    OpenRound,
    PlayerRound,
    ReloadBalance,
    Review,
    RoundRecord,
    Send,
    SettleRound,
    Shuffle,
    Spot,
    VoidRound,
)
from uth.engine.table.policy import (
    AllAtOnce,
    Banking,
    Coach,
    DecisionOrder,
    Funds,
    HouseBank,
    NoCoach,
)
from uth.engine.table.seats import SPOTS, GameNumbers, Seat, cost, no_bets
from uth.engine.views import name_hand, seat_view, visible_events
from uth.engine.wagers import INITIAL_WAGERS, BetSpot, least_play, spot_limit, spot_max
from uth.errors import IllegalActionError, InvalidCardError, InvalidDealError, UthError
from uth.money import ZERO, money_json, parse_amount
from uth.rules import RuleSet

log = logging.getLogger("uth.table")
_T = TypeVar("_T")

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


@dataclass(frozen=True, slots=True)
class TableSettings:
    """A table's timers (seconds) and display settings the machine needs.

    Attributes:
        id: the table id (stored with each round).
        betting_seconds: the betting window; green, then yellow for the last
            ``yellow_seconds``, then red (004).
        decision_seconds: the time for each decision window.
        pause_seconds: the pause after a round before the next betting window.
        listed_bets: at most this many players' bets are listed in ``table_bets``.
    """

    id: str
    betting_seconds: float = 15
    yellow_seconds: float = 5
    decision_seconds: float = 10
    pause_seconds: float = 4
    listed_bets: int = 20


@dataclass(frozen=True, slots=True)
class _Wait:
    """The loop waits until ``until`` (None: no time) or a command wakes it."""

    until: datetime | None
    wakeable: bool


_Step = _Wait | Call
_Loop = Generator[_Step, Any, _T]


class RoundCancelledError(Exception):
    """A paused round was cancelled by the operator (void and refund)."""

    def __init__(self, reason: str, actor: str) -> None:
        super().__init__(reason)
        self.reason = reason
        self.actor = actor


class TableMachine:
    """One table: seats, bets, the round in play and its timers.

    Args:
        settings: the table's timers and listing size.
        rules: the validated rule set.
        funds: the host's reservation cache (balances less reservations).
        now: the time the machine starts (its first betting window opens then).
        coach: trainer mode; none by default.
        decisions: the decision order (:class:`AllAtOnce` at a live table).
        banking: who banks the table (:class:`HouseBank` by default).
        game_numbers: the allocator shared by a server's tables.
        table_info: the table's lobby entry, put in each snapshot.
    """

    def __init__(
        self,
        settings: TableSettings,
        rules: RuleSet,
        funds: Funds,
        now: datetime,
        *,
        coach: Coach | None = None,
        decisions: DecisionOrder | None = None,
        banking: Banking | None = None,
        game_numbers: GameNumbers | None = None,
        table_info: Callable[[], dict[str, Any]] | None = None,
    ) -> None:
        self.settings = settings
        self.rules = rules
        self.funds = funds
        self.coach: Coach = coach or NoCoach()
        self.decisions: DecisionOrder = decisions or AllAtOnce()
        self.banking: Banking = banking or HouseBank()
        self._table_info = table_info or (lambda: {"id": settings.id})
        self._game_numbers = game_numbers or GameNumbers()
        self.now = now
        self.seats: dict[int, Seat] = {}
        self.phase = "idle"
        self.light = "red"
        self.game_number: str | None = None
        self.deadline: datetime | None = None
        self.round: Round | None = None
        self.round_id: int | None = None
        self._published = 0
        self._board_shown = 0  # community cards sent to the players so far
        self._hand_names: dict[tuple[tuple[Any, ...], int], dict[str, Any]] = {}
        self._pending_debits: list[Debit] = []
        self._void_request: tuple[str, str] | None = None
        self._voidable = False
        self._round_voided = False
        self._bets_dirty = False
        # Request ids with their replies, per player: this round's and the last's.
        self._ids_now: dict[int, dict[str, dict[str, Any]]] = {}
        self._ids_before: dict[int, dict[str, dict[str, Any]]] = {}
        # Per player, kept while the seat comes and goes: the bets Repeat places,
        # the result of the round just played (until the next window), and what
        # happened while the player was away (sent after the next snapshot).
        self._last_bets: dict[int, dict[str, Decimal]] = {}
        self._last_result: dict[int, dict[str, Any]] = {}
        self._away_notices: dict[int, list[dict[str, Any]]] = {}
        self._street_opened: datetime | None = None
        # A malfunction pause: the reason and time.
        self.paused: dict[str, Any] | None = None
        self._paused_by = "system"
        self._resume_requested = False
        self._outbox: list[tuple[int, dict[str, Any]]] = []
        self._effects: list[Effect] = []
        self._handlers: dict[type[Any], Callable[[Seat, Any], dict[str, Any] | None]] = {
            PlaceBet: self._place_bet,
            Undo: self._undo,
            Double: self._double,
            Repeat: self._repeat,
            Decide: self._decide,
            Leave: self._leave,
            Snapshot: lambda seat, cmd: {"snapshot": self.snapshot(seat.player_id)},
            Trainer: self._trainer,
        }
        # The driver: the loop, what it waits on, and whether a command woke it.
        self._woken = False
        self._waiting: _Wait | None = None
        self.call: Call | None = None
        self._loop: _Loop[None] = self._run()
        self._step(None, None)

    # ---------------------------------------------------------------- driver
    @property
    def wake_at(self) -> datetime | None:
        """When the loop wants :meth:`tick` next (None: only after a command, or
        while a :attr:`call` is outstanding).
        """
        return None if self._waiting is None else self._waiting.until

    @property
    def woken(self) -> bool:
        """A command woke the waiting loop: call :meth:`tick` soon."""
        return self._woken and self._waiting is not None and self._waiting.wakeable

    def take(self) -> list[Effect]:
        """The effects produced so far (messages, advice), in order; taken once."""
        out, self._effects = self._effects, []
        return out

    def tick(self, now: datetime) -> None:
        """The time is ``now``: resume the loop if its wait is over."""
        self.now = max(self.now, now)
        wait = self._waiting
        if wait is not None and self._due(wait):
            self._waiting = None
            self._step(None, None)

    def resolve(self, result: Any, now: datetime) -> None:
        """The outstanding :attr:`call` returned ``result``."""
        self.now = max(self.now, now)
        assert self.call is not None, "resolve: no call is outstanding"
        self.call = None
        self._step(result, None)

    def fail(self, error: Exception, now: datetime) -> None:
        """The outstanding :attr:`call` raised ``error``."""
        self.now = max(self.now, now)
        assert self.call is not None, "fail: no call is outstanding"
        self.call = None
        self._step(None, error)

    def _due(self, wait: _Wait) -> bool:
        return (wait.until is not None and self.now >= wait.until) or (
            wait.wakeable and self._woken
        )

    def _step(self, value: Any, error: Exception | None) -> None:
        while True:
            item = self._loop.throw(error) if error is not None else self._loop.send(value)
            value, error = None, None
            if isinstance(item, _Wait):
                if self._due(item):
                    continue
                self._waiting = item
                return
            self.call = item
            return

    def _wake(self) -> None:
        self._woken = True

    # ------------------------------------------------------------ membership
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
            if self.rules.seats is not None:
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
            self._set_bets(seat, no_bets())
            seat.undo.clear()
        # Betting closed (red light) and the round being opened: the bets stand
        # and are dealt in. A hand in play, or being settled, keeps its seat.
        dealt_in = self.phase == "closed" and seat.staked > 0
        rnd = self.round
        playing = rnd is not None and rnd.has_hand(seat.hand_id) and self.phase in _STREET_NAMES
        if not playing and not dealt_in:
            self._release_all(seat)
            del self.seats[player_id]

    # ------------------------------------------------------------- commands
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
        delta = cost(bets) - seat.staked
        if delta > 0:
            self.funds.reserve(seat.player_id, delta, field=field)
        elif delta < 0:
            self.funds.release(seat.player_id, -delta)
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
        cap = spot_max(self.rules, cast("BetSpot", cmd.spot), bets["ante"])
        assert cap is not None
        if bets[cmd.spot] >= cap:
            raise CommandError("over_limit", f"amount: {cmd.spot} is at its maximum {cap}")
        bets[cmd.spot] += min(amount, cap - bets[cmd.spot])
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
        last = self._last_bets.get(seat.player_id)
        if last is None:
            raise CommandError("wrong_phase", "repeat: no bets from a previous round")
        if seat.staked > 0:
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
        if not self.decisions.may_decide(rnd, seat.hand_id):
            raise CommandError("wrong_phase", f"decide: it is not your turn on the {street}")
        if (
            cmd.street is None
            and seat.decisions
            and seat.decisions[-1].startswith("auto:")
            and self._street_opened is not None
            and self.now < self._street_opened + timedelta(seconds=_LATE_SECONDS)
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
        if self.phase != "betting" or self._past_deadline() or seat.staked == 0:
            return {"declined": False}
        self._set_bets(seat, no_bets())
        seat.undo.clear()
        seat.doubled = False
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

    def _trainer_view(self, seat: Seat) -> dict[str, Any] | None:
        rnd = self.round
        street = str(rnd.phase) if rnd is not None and rnd.phase in _STREETS else None
        return self.coach.snapshot(seat.player_id, street, self.game_number)

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
            self.funds.reserve(seat.player_id, decision.play, field="play")
            seat.pending_play += decision.play
            self._pending_debits.append(Debit(seat.player_id, "play", decision.play))
        self._wake()

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

    def state(self, player_id: int) -> dict[str, Any]:
        """A seated player's own state: bets, balance, legal actions and the
        buttons' state (docs/protocol.md, "state").
        """
        seat = self.seats[player_id]
        available = self.funds.available(player_id)
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
        betting = self.phase == "betting"
        out: dict[str, Any] = {
            "phase": self.phase,
            "balance": money_json(available),
            "bets": bets,
            "total_bet": money_json(total),
            "legal_actions": legal,
            "can_undo": betting and bool(seat.undo),
            "can_double": betting
            and not seat.doubled
            and seat.bets["ante"] > 0
            and cost(self._doubled(seat)) - seat.staked <= available,
            "can_repeat": betting
            and (last := self._last_bets.get(player_id)) is not None
            and cost(last) <= available
            and seat.staked == 0,
            "decisions": list(seat.decisions) if in_round else [],
            "hand": self._hand(seat) if in_round else None,
        }
        least = least_play(self.rules, seat.bets["ante"])
        if betting and seat.bets["ante"] > 0 and available < least:
            out["warning"] = "balance_low_for_play"
        return out

    def _hand(self, seat: Seat) -> dict[str, Any] | None:
        """The player's hand so far, once dealt (:func:`~uth.engine.views.name_hand`)."""
        rnd = self.round
        if rnd is None or rnd.phase in (Phase.BETTING, Phase.VOIDED):
            return None
        hole = rnd.hole_cards(seat.hand_id)
        if not hole:
            return None
        # Only the cards the players were sent; named once per hand and street (on
        # a shared-hand table every player holds the same cards).
        key = (hole, self._board_shown)
        named = self._hand_names.get(key)
        if named is None:
            named = name_hand(hole, rnd.board[: self._board_shown]).to_json()
            self._hand_names[key] = named
        return named

    def snapshot(self, player_id: int) -> dict[str, Any]:
        """Everything a (re)connecting player needs: phase, timers, own cards and bets,
        the shared player hand (shared-hand tables), the board so far, the dealer's
        hand once the settlement is stored, balance, and other players' bets.

        The cards are the player's :func:`~uth.engine.views.seat_view` (the one
        definition of who sees what), as far as they were sent: the board as
        published, the dealer's hand only once the round's settlement is stored
        (a round that never reaches storage is voided unseen).
        """
        seat = self.seats[player_id]
        rnd = self.round
        own_cards: list[str] = []
        board: list[str] = []
        player_hand: list[str] = []
        dealer: dict[str, Any] | None = None
        if rnd is not None:
            view = seat_view(rnd, seat.hand_id)
            own_cards = [str(c) for c in view.hole_cards]
            board = [str(c) for c in view.board[: self._board_shown]]
            player_hand = [str(c) for c in view.player_hand]
            if view.dealer is not None and self._settlement_stored():
                dealer = view.dealer.to_json()
        return {
            "type": "snapshot",
            "table": self._table_info(),
            "player": {"id": player_id, "name": seat.name, "seat": seat.number},
            "game_number": self.game_number,
            "phase": self.phase,
            "light": self.light,
            **self._timer(),
            "hole_cards": own_cards,
            "player_hand": player_hand,
            "board": board,
            "dealer": dealer,
            "state": self.state(player_id),
            "table_bets": self.table_bets(),
            "last_result": self._last_result.get(player_id),
            "paused": self.paused,
            "last_bets": _bets_json(self._last_bets.get(player_id)),
            **({"trainer": coached} if (coached := self._trainer_view(seat)) else {}),
        }

    def _settlement_stored(self) -> bool:
        """The round's settlement is stored: its showdown may be shown."""
        return self.phase in ("settled", "pause") and not self._round_voided

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
            total = cost(bets)
            if total > 0:
                rows.append((total, s, bets))
        rows.sort(key=lambda r: (-r[0], r[1].player_id))
        listed = [
            {
                "id": s.player_id,
                "name": s.name,
                "seat": s.number,
                "ante": money_json(b["ante"]),
                "trips": money_json(b["trips"]),
                "bad_beat": money_json(b["bad_beat"]),
                "total": money_json(total),
            }
            for total, s, b in rows[: self.settings.listed_bets]
        ]
        return {
            "players": len(rows),
            "total": money_json(sum((r[0] for r in rows), ZERO)),
            "listed": listed,
        }

    def _timer(self) -> dict[str, Any]:
        now = self.now
        if self.deadline is None:
            return {"now": now.isoformat(), "deadline": None, "seconds_left": None}
        left = max(0.0, (self.deadline - now).total_seconds())
        return {
            "now": now.isoformat(),
            "deadline": self.deadline.isoformat(),
            "seconds_left": round(left, 1),
        }

    def _send(self, player_id: int, message: dict[str, Any]) -> None:
        self._effects.append(Send(player_id, message))

    def _broadcast(self, message: dict[str, Any]) -> None:
        self._effects.append(Send(None, message))

    def publish(self) -> None:
        """Send each new engine event to the players allowed to see it.

        Called after a command's reply is sent, so that the reply comes first. The
        showdown is held back until the round's settlement is stored: a round that
        never reaches storage is voided, and nobody has seen its dealer's cards.
        """
        outbox, self._outbox = self._outbox, []
        for owner, note in outbox:
            self._send(owner, note)
        rnd = self.round
        if rnd is None:
            return
        for event in rnd.events_since(self._published):
            if isinstance(event, ev.DealerRevealed) and self.phase != "settled":
                return
            self._published += 1
            if isinstance(event, ev.FlopTurned | ev.TurnAndRiverTurned):
                self._board_shown += len(event.cards)
            if isinstance(event, ev.WagersPlaced | ev.WagersWithdrawn | ev.RoundOpened):
                continue  # no messages of the protocol: the table's own state says them
            if isinstance(event, ev.WagerSettled | ev.RoundSettled):
                continue  # sent as one settlement message per player
            # Who sees it: the one definition (engine.views). Seen by a spectator:
            # everyone; else only its owner; face-down cards by nobody.
            target = None
            if not visible_events((event,), None, rules=self.rules):
                target = getattr(event, "player", None)
                if target is None:
                    continue
            message = {
                "type": event.type,
                **{k: v for k, v in event.to_dict().items() if k != "type"},
            }
            if target is not None:
                if int(target) in self.seats:
                    self._send(int(target), message)
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
                    self._send(seat.player_id, dealt_in if rnd.has_hand(seat.hand_id) else watching)
            elif isinstance(event, ev.AntesReturned):
                self._broadcast({"type": event.type, "hands": len(event.players)})
            else:
                if isinstance(event, ev.DealerRevealed):
                    message["announcement"] = event.announcement
                self._broadcast(message)

    # ------------------------------------------------------------ the loop
    def _run(self) -> _Loop[None]:
        """Rounds for ever: a betting window, then a round if anybody bet.

        A round that fails (storage unreachable, a bug) is voided and its wagers
        refunded (004: a malfunction voids all pays and play); the table goes on.
        """
        while True:
            yield from self._betting_window()
            if any(s.staked > 0 for s in self.seats.values()):
                try:
                    yield from self._play_round()
                except Exception as exc:
                    log.exception("table %s: round %s failed", self.settings.id, self.game_number)
                    yield from self._recover_round(exc)
                finally:
                    self._voidable = False
                    self._void_request = None
                    self.paused = None
                    self._resume_requested = False
                self._forget_departed()
                self.phase = "pause"
                self.deadline = self.now + timedelta(seconds=self.settings.pause_seconds)
                self._broadcast({"type": "pause", **self._timer()})
                yield _Wait(self.deadline, False)

    def _betting_window(self) -> _Loop[None]:
        now = self.now
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
        self.deadline = now + timedelta(seconds=self.settings.betting_seconds)
        yellow_at = self.deadline - timedelta(seconds=self.settings.yellow_seconds)
        self._broadcast(
            {
                "type": "betting_open",
                "game_number": self.game_number,
                "light": "green",
                **self._timer(),
            }
        )
        yield from self._wait_with_bets(yellow_at)
        self.light = "yellow"
        self._broadcast({"type": "light", "light": "yellow", **self._timer()})
        yield from self._wait_with_bets(self.deadline)
        self.light = "red"
        self.phase = "closed"
        self._broadcast({"type": "light", "light": "red", **self._timer()})

    def _wait_with_bets(self, until: datetime) -> _Loop[None]:
        """Wait, telling everyone about bet changes at most once a second."""
        while self.now < until:
            yield _Wait(min(until, self.now + timedelta(seconds=1)), False)
            self._send_bets()
        self._send_bets()

    def _send_bets(self) -> None:
        if not self._bets_dirty:
            return
        self._bets_dirty = False
        self._broadcast({"type": "table_bets", **self.table_bets()})

    def _play_round(self) -> _Loop[None]:
        """Open, deal, play and settle one round; a round the operator cancels
        while paused is voided and refunded (004, malfunction).
        """
        try:
            yield from self._open_and_play()
        except RoundCancelledError as exc:
            yield from self._void_round(exc.reason, exc.actor)

    def _open_and_play(self) -> _Loop[None]:
        assert self.game_number is not None
        # Who plays: the engine's round, in its betting phase, takes each seat's
        # bets (limits, seats); bets it refuses are declined. It receives the deck
        # once the game number is stored and the wagers debited (the chance step).
        rnd = Round(self.rules, game_id=self.game_number)
        playing: list[Seat] = []
        for seat in sorted(self.seats.values(), key=lambda s: (s.number or 0, s.player_id)):
            if seat.staked == 0:
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
        now = self.now
        self.round_id = yield from self._open_round()
        if rnd.game_id != self.game_number:  # renumbered: the round takes the stored number
            rnd = Round(self.rules, game_id=self.game_number)
            for seat in playing:
                self._place_wagers(rnd, seat)
        while True:
            debits = tuple(
                Debit(s.player_id, kind, amount)
                for s in playing
                for kind in INITIAL_WAGERS
                if (amount := rnd.wagers(s.hand_id).get(kind)) > 0
            )
            try:
                balances = yield from self._store(DebitWagers(self.round_id, debits, now))
                break
            except UthError as exc:
                if exc.code != "insufficient_funds":
                    raise
                # Reservations make this rare; whoever is short is declined (told
                # alone, without the ledger's details) and the others still play.
                short = next(
                    (s for s in playing if s.player_id == getattr(exc, "player_id", None)), None
                )
                if short is None:
                    raise
                log.warning("table %s: %s", self.settings.id, exc)
                self._decline(
                    short, "insufficient_funds", "balance: the balance no longer covers these bets"
                )
                playing.remove(short)
                rnd.withdraw(short.hand_id, at=self.now)
                fresh = yield ReloadBalance(short.player_id)
                self.funds.set_balance(short.player_id, fresh)
                if not playing:
                    yield from self._void_round("no wagers could be debited", "system")
                    return
        for seat in playing:
            self.funds.release(seat.player_id, seat.staked)
            self._last_bets[seat.player_id] = dict(seat.bets)
            seat.bets = no_bets()
        for pid, balance in balances.items():
            self.funds.set_balance(pid, balance)
        self.round = rnd
        self._published = 0
        self._board_shown = 0
        self._hand_names.clear()
        self.coach.new_round()
        deck = (yield from self._shuffled_deck()) if self._void_request is None else None
        if self.paused is not None and self._void_request is None:
            yield from self._hold(None)
        if deck is not None and self._void_request is None:  # not voided while opening
            rnd.close_betting(deck, at=self.now)
            self.publish()
            while rnd.phase in _STREETS and self._void_request is None:
                yield from self._street(rnd)
                yield from self._flush_debits()
        if self.paused is not None and self._void_request is None:
            yield from self._hold(None)
        if self._void_request is not None:
            # Honoured whatever the engine's phase: until the settlement is written
            # the round can be voided, and its showdown is never sent.
            reason, actor = self._void_request
            yield from self._void_round(reason, actor)
            return
        # The point of no return: from here the settlement is written, and an
        # operator's void is refused (request_void answers "settling").
        self._voidable = False
        yield from self._settle(rnd)

    def _place_wagers(self, rnd: Round, seat: Seat) -> None:
        """Place the seat's bets in the engine's round (raises what the engine refuses)."""
        bets = seat.bets
        rnd.place_wagers(
            seat.hand_id,
            ante=bets["ante"],
            trips=bets["trips"],
            bad_beat=bets["bad_beat"],
            seat=seat.number,
            at=self.now,
        )

    def _open_round(self) -> _Loop[int]:
        """Record the round in storage. A game number already there (the server
        restarted within the same second) is replaced by the next free one.
        """
        for _ in range(9999):
            assert self.game_number is not None
            started = datetime.strptime(self.game_number[:15], "%Y%m%d-%H%M%S").replace(tzinfo=UTC)
            try:
                round_id: int = yield from self._store(
                    OpenRound(self.settings.id, self.game_number, self.rules.name, started)
                )
                return round_id
            except UthError as exc:
                if exc.code != "duplicate":
                    raise
                taken = self.game_number
                self.game_number = self._game_numbers.next(started)
                log.warning("game number %s is taken; using %s", taken, self.game_number)
        raise UthError(f"game_number: no free game number at {self.game_number}")

    def _shuffled_deck(self) -> _Loop[PreparedDeck]:
        """The round's deck, shuffled and checked by the host (52 distinct cards, at
        every shuffle). A deck that fails pauses the round (004, malfunction) until
        the operator resumes it (a new shuffle, checked again) or cancels it.
        """
        while True:
            try:
                deck: PreparedDeck = yield Shuffle()
                return deck
            except (InvalidDealError, InvalidCardError) as exc:
                log.error("table %s: deck integrity check failed: %s", self.settings.id, exc)
                self._pause(f"deck integrity check failed: {exc}", "system")
                yield from self._hold(None)

    def _store(self, call: Call) -> _Loop[Any]:
        """A storage call of the round in play. A storage error (anything but the
        store's own answers, :class:`~uth.errors.UthError`) pauses the round; when
        the operator resumes it the call is made again.
        """
        while True:
            try:
                return (yield call)
            except UthError:
                raise
            except Exception as exc:
                log.exception(
                    "table %s: storage error in round %s", self.settings.id, self.game_number
                )
                self._pause(f"storage error: {type(exc).__name__}", "system")
                yield from self._hold(None)

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

    def _hold(self, seconds: float | None) -> _Loop[None]:
        """Wait while the round is paused. Returns when the operator resumes it
        (the timer restarts with ``seconds``, or none); raises
        :class:`RoundCancelledError` when the operator voids it.
        """
        assert self.paused is not None
        yield from self._audit("pause_round", self._paused_by, self.paused["reason"])
        while self._void_request is None and not self._resume_requested:
            self._woken = False
            yield _Wait(None, True)
        if self._void_request is not None:
            raise RoundCancelledError(*self._void_request)
        self.paused = None
        self._resume_requested = False
        yield from self._audit("resume_round", "operator", "resumed by the operator")
        now = self.now
        self.deadline = None if seconds is None else now + timedelta(seconds=seconds)
        self._street_opened = now
        self._broadcast({"type": "round_resumed", "game_number": self.game_number, **self._timer()})

    def _audit(self, action: str, actor: str, reason: str) -> _Loop[None]:
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
        if self.round is not None and self.phase in _STREET_NAMES:
            return "settling"
        return None

    def _decline(self, seat: Seat, code: str, reason: str, field: str | None = None) -> None:
        self.funds.release(seat.player_id, seat.staked)
        seat.bets = no_bets()
        self._send(seat.player_id, self._declined(code, reason, field))

    def _ask(self, rnd: Round, hands: tuple[str, ...]) -> None:
        """Send ``decision_required`` to each of ``hands`` (and advise the players
        with the trainer on).
        """
        spots = []
        for hand_id in hands:
            seat = self.seats[int(hand_id)]
            if self.coach.is_on(seat.player_id):
                spots.append(self._spot(rnd, seat))
            available = self.funds.available(seat.player_id)
            self._send(
                seat.player_id,
                {
                    "type": "decision_required",
                    "street": str(rnd.phase),
                    "game_number": self.game_number,
                    "legal_actions": [
                        str(a) for a in rnd.legal_actions(hand_id, available=available)
                    ],
                    "hand": self._hand(seat),
                    **self._timer(),
                },
            )
        if spots:
            self._effects.append(Advise(self.game_number, tuple(spots)))

    def _street(self, rnd: Round) -> _Loop[None]:
        """One street: decision windows as the decision order opens them, each with
        its timer; whoever has not decided when a window's time is up is decided
        by the timer (AUTO CHECKED, or AUTO FOLDED at the river).
        """
        street = rnd.phase
        self.phase = str(street)
        if self.paused is not None:  # paused between streets: hold before asking
            yield from self._hold(None)
        while rnd.phase == street and self._void_request is None:
            asked = self.decisions.asked(rnd)
            if not asked:
                return
            yield from self._window(rnd, asked)

    def _window(self, rnd: Round, asked: tuple[str, ...]) -> _Loop[None]:
        """One decision window for ``asked``: open until each has decided, the
        time is up, or the round is being voided.
        """
        street = rnd.phase
        seconds = self.decisions.seconds(self.settings.decision_seconds)
        self._street_opened = self.now
        self.deadline = self.now + timedelta(seconds=seconds)
        self._woken = False
        self._ask(rnd, asked)

        # Only the hands asked decide in this window (the others are refused, see
        # _decide), so it is open while more hands than the others are undecided:
        # a count, not a scan of a thousand hands at each decision.
        others = rnd.undecided - len(asked)

        def open_hands() -> tuple[str, ...]:
            waiting = set(rnd.awaiting()) if rnd.phase == street else set()
            return tuple(h for h in asked if h in waiting)

        while rnd.phase == street and rnd.undecided > others and self._void_request is None:
            if self.paused is not None:
                yield from self._hold(seconds)
                self._ask(rnd, open_hands())
                continue
            assert self.deadline is not None
            yield _Wait(self.deadline, True)
            self._woken = False
            if self.paused is None and self.now >= self.deadline:
                break
        if self._void_request is not None:
            return
        for hand_id in open_hands():
            seat = self.seats[int(hand_id)]
            events = rnd.act(hand_id, rnd.timeout_action(hand_id), auto=True, at=self.now)
            self._after_decision(seat, events)
        self.publish()

    def _flush_debits(self) -> _Loop[None]:
        if not self._pending_debits or self.round_id is None:
            return
        debits, self._pending_debits = self._pending_debits, []
        balances = yield from self._store(DebitWagers(self.round_id, tuple(debits), self.now))
        for d in debits:
            self.funds.release(d.player_id, d.amount)
            seat = self.seats.get(d.player_id)
            if seat is not None:
                seat.pending_play -= d.amount
        for pid, balance in balances.items():
            self.funds.set_balance(pid, balance)

    def _settle(self, rnd: Round) -> _Loop[None]:
        result = rnd.settlement
        assert result is not None and self.round_id is not None
        players = []
        for hr in result.hands:
            seat = self.seats.get(int(hr.id))
            players.append(
                PlayerRound(
                    player_id=int(hr.id),
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
        record = RoundRecord(
            settled_at=self.now,
            deck=[str(c) for c in rnd.deck_order],
            board=[str(c) for c in result.board],
            dealer=[str(c) for c in rnd.dealer_hole],
            dealer_category=result.dealer.hand.category.key,
            dealer_qualifies=result.dealer.qualifies,
            players=players,
            events=[e.to_dict() for e in rnd.events],
        )
        credits = self.banking.credits(result)
        balances = yield from self._store(
            SettleRound(self.round_id, record, credits, record_of(rnd))
        )
        for pid, balance in balances.items():
            self.funds.set_balance(pid, balance)
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
                "balance": money_json(self.funds.available(pid)),
            }
            self._last_result[pid] = message
            if pid in self.seats:
                self._send(pid, message)
        present = tuple(
            (int(hr.id), tuple(self.seats[int(hr.id)].decisions))
            for hr in result.hands
            if int(hr.id) in self.seats
        )
        yield Review(self.game_number, present)

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

    def _void_round(self, reason: str, actor: str) -> _Loop[None]:
        self._end_round_events(reason)
        self._pending_debits.clear()
        for seat in self.seats.values():
            if seat.staked:  # voided before its wagers were debited
                self.funds.release(seat.player_id, seat.staked)
                seat.bets = no_bets()
            if seat.pending_play:
                self.funds.release(seat.player_id, seat.pending_play)
                seat.pending_play = ZERO
        if self.round_id is not None:
            balances = yield VoidRound(self.round_id, reason, actor, self.now, self._void_record())
            for pid, balance in balances.items():
                self.funds.set_balance(pid, balance)
        self._announce_void(reason)

    def _void_record(self) -> HistoryRecord | None:
        """The record of the round being voided, kept for replay; None when no hand
        was dealt in, or when the engine had already settled it (a failure after the
        showdown: the record would show a settlement that was never paid).
        """
        rnd = self.round
        return record_of(rnd) if rnd is not None and rnd.phase == Phase.VOIDED else None

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
                "balance": money_json(self.funds.available(seat.player_id)),
            }
            if rnd is not None and rnd.has_hand(seat.hand_id):
                self._last_result[seat.player_id] = message
            self._send(seat.player_id, message)

    def _recover_round(self, error: Exception) -> _Loop[None]:
        """After a round failed: void it in storage (refunding what was debited),
        release every reservation it held, reload the balances and tell the players.
        A round that cannot be voided now stays open and is voided at the next start.
        """
        reason = "malfunction: the round could not be completed"
        self._end_round_events(reason)
        self._pending_debits.clear()
        for seat in self.seats.values():
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
        for pid in list(self.seats):
            try:
                balance = yield ReloadBalance(pid)
            except Exception:
                log.exception("table %s: balance of player %s not reloaded", self.settings.id, pid)
                continue
            self.funds.set_balance(pid, balance)
        if not settled:
            self._announce_void(reason)

    def _forget_departed(self) -> None:
        for pid in [p for p, s in self.seats.items() if not s.connections]:
            self._release_all(self.seats.pop(pid))

    def _release_all(self, seat: Seat) -> None:
        self.funds.release(seat.player_id, seat.staked + seat.pending_play)
        seat.bets = no_bets()
        seat.pending_play = ZERO


def _bets_json(bets: dict[str, Decimal] | None) -> dict[str, int | float] | None:
    return None if bets is None else {spot: money_json(bets[spot]) for spot in SPOTS}


def _error(request_id: str | None, code: str, message: str) -> dict[str, Any]:
    return {"type": "error", "id": request_id, "code": code, "message": message}
