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

The round loop (this module) is written as a generator: it yields a :class:`Wait`
(until a time or a wake-up by a command) or a call, and the driver resumes it; that
frame is the machine's control state. Its data is :class:`~uth.engine.table.base.TableState`;
the players' commands and membership are :mod:`uth.engine.table.handlers`, the
messages it sends :mod:`uth.engine.table.messages`, the card room's commands and
the offer of the bank :mod:`uth.engine.table.cardroom`, and the malfunction pause,
the operator's resume and void and the recovery of a failed round
:mod:`uth.engine.table.faults`.

What a player is sent is filtered per player: their own hole cards, decisions and
results; the board and the dealer's hand when turned; the dealer's hole cards and
the deck order never before the showdown (the deck is stored only once settled).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from decimal import Decimal
from typing import Any

from uth.cards import PreparedDeck
from uth.engine.decks import COLOURS, TwoDecks
from uth.engine.round import Round
from uth.engine.table.base import (
    REQUEST_IDS_PER_ROUND,
    STREETS,
    Loop,
    RoundCancelledError,
    TableSettings,
    Wait,
)
from uth.engine.table.commands import (
    AnswerOffer,
    Decide,
    Double,
    Leave,
    PlaceBet,
    Repeat,
    Sit,
    Snapshot,
    Trainer,
    Undo,
)
from uth.engine.table.effects import (
    Advise,
    Call,
    Debit,
    DebitWagers,
    Effect,
    OpenRound,
    PlayerRound,
    ReloadBalance,
    Review,
    RoundRecord,
    SettleRound,
    Shuffle,
)
from uth.engine.table.faults import TableFaults
from uth.engine.table.policy import (
    AllAtOnce,
    Banking,
    Coach,
    DecisionOrder,
    Funds,
    HouseBank,
    InTurn,
    NoCoach,
    PlayerDealerBank,
    second_hand_credits,
)
from uth.engine.table.seats import GameNumbers, Seat, account_of, no_bets, second_hand
from uth.engine.wagers import INITIAL_WAGERS
from uth.errors import InvalidCardError, InvalidDealError, UthError
from uth.money import ZERO, money_json
from uth.rules import RuleSet

log = logging.getLogger("uth.table")


class TableMachine(TableFaults):
    """One table: seats, bets, the round in play and its timers.

    Args:
        settings: the table's timers and listing size.
        rules: the validated rule set.
        funds: the host's reservation cache (balances less reservations).
        now: the time the machine starts (its first betting window opens then).
        coach: trainer mode; none by default.
        decisions: the decision order (by default :class:`InTurn` when the rule
            set's ``decision_order`` is ``in_turn``, else :class:`AllAtOnce`).
        banking: who banks the table (:class:`HouseBank` by default; a card room:
            :class:`PlayerDealerBank`, which adds the offer of the position before
            each round, ``sit``, ``answer_offer`` and back-line bets).
        game_numbers: the allocator shared by a server's tables.
        table_info: the table's lobby entry, put in each snapshot.
        first_colour: with two alternating decks, the back colour of the deck the
            first round dealt takes (after a restart: the other colour than the last
            round dealt before it, :class:`~uth.engine.table.cardroom.RoomResume`);
            None: the first of :data:`~uth.engine.decks.COLOURS`.

    Raises:
        InvalidDealError: ``first_colour`` is not one of the two colours.
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
        first_colour: str | None = None,
    ) -> None:
        self.settings = settings
        self.rules = rules
        self.funds = funds
        self.coach: Coach = coach or NoCoach()
        in_turn = rules.decision_order == "in_turn"
        self.decisions: DecisionOrder = decisions or (InTurn() if in_turn else AllAtOnce())
        self.banking: Banking = banking or HouseBank()
        self._room = banking if isinstance(banking, PlayerDealerBank) else None
        #: Two alternating decks and their discard rack (000, 002), or None: one deck
        #: shuffled for every round.
        self._decks = (
            TwoDecks(_colours_from(first_colour))
            if rules.deck_procedure == "two_alternating_decks"
            else None
        )
        self._offer_to = None
        self._offer_reply = None
        self._offered = None
        self._offer_declined: list[str] = []
        self._no_banker: str | None = None
        self._table_info = table_info or (lambda: {"id": settings.id})
        self._game_numbers = game_numbers or GameNumbers()
        self.now = now
        self.seats: dict[int, Seat] = {}
        self.lines: dict[int, Seat] = {}
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
        # The same for seated players' back-line hands (card rooms).
        self._line_last_bets: dict[int, dict[str, Decimal]] = {}
        self._line_result: dict[int, dict[str, Any]] = {}
        self._street_opened: datetime | None = None
        # A malfunction pause: the reason and time.
        self.paused: dict[str, Any] | None = None
        self._paused_by = "system"
        self._resume_requested = False
        self._outbox: list[tuple[int | None, dict[str, Any]]] = []
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
            Sit: self._sit,
            AnswerOffer: self._answer_offer,
        }
        # The driver: the loop, what it waits on, and whether a command woke it.
        self._woken = False
        self._waiting: Wait | None = None
        self.call: Call | None = None
        self._loop: Loop[None] = self._run()
        self._step(None, None)

    @property
    def decks(self) -> TwoDecks | None:
        """The two alternating decks and their discard rack (000, 002), or None for a
        table dealing one deck shuffled for every round.
        """
        return self._decks

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

    def _due(self, wait: Wait) -> bool:
        return (wait.until is not None and self.now >= wait.until) or (
            wait.wakeable and self._woken
        )

    def _step(self, value: Any, error: Exception | None) -> None:
        while True:
            item = self._loop.throw(error) if error is not None else self._loop.send(value)
            value, error = None, None
            if isinstance(item, Wait):
                if self._due(item):
                    continue
                self._waiting = item
                return
            self.call = item
            return

    def _run(self) -> Loop[None]:
        """Rounds for ever: a betting window, then a round if anybody bet.

        A round that fails (storage unreachable, a bug) is voided and its wagers
        refunded (004: a malfunction voids all pays and play); the table goes on.
        """
        while True:
            if self._room is not None and not (yield from self._offer()):
                yield from self._pause_after_round()
                continue
            yield from self._betting_window()
            if any(s.staked > 0 for s in self._all_hands()):
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
                if self._decks is not None and self._decks.in_play is not None:
                    self._decks.collect()  # into the discard rack: one colour at a time
                self._end_room_round()
                yield from self._pause_after_round()
            elif self._room is not None:  # a pause to sit down before the next offer
                self._end_room_round()
                yield from self._pause_after_round()

    def _pause_after_round(self) -> Loop[None]:
        self._forget_departed()
        self.phase = "pause"
        self.deadline = self.now + timedelta(seconds=self.settings.pause_seconds)
        self._broadcast({"type": "pause", **self._timer()})
        yield Wait(self.deadline, False)

    def _betting_window(self) -> Loop[None]:
        now = self.now
        self.round = None
        self.round_id = None
        self._round_voided = False
        self._ids_before, self._ids_now = self._ids_now, {}
        self._last_result.clear()
        self._line_result.clear()
        self.game_number = self._game_numbers.next(now)
        self.phase = "betting"
        self.light = "green"
        for seat in self._all_hands():
            seat.doubled = False
            seat.undo.clear()
            seat.decisions = []  # ``behind`` stays: Repeat bets behind the same seat
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

    def _wait_with_bets(self, until: datetime) -> Loop[None]:
        """Wait, telling everyone about bet changes at most once a second."""
        while self.now < until:
            yield Wait(min(until, self.now + timedelta(seconds=1)), False)
            self._send_bets()
        self._send_bets()

    def _send_bets(self) -> None:
        if not self._bets_dirty:
            return
        self._bets_dirty = False
        self._broadcast({"type": "table_bets", **self.table_bets()})

    def _play_round(self) -> Loop[None]:
        """Open, deal, play and settle one round; a round the operator cancels
        while paused is voided and refunded (004, malfunction).
        """
        try:
            yield from self._open_and_play()
        except RoundCancelledError as exc:
            yield from self._void_round(exc.reason, exc.actor)

    def _open_and_play(self) -> Loop[None]:
        assert self.game_number is not None
        # Who plays: the engine's round, in its betting phase, takes each seat's
        # bets (limits, seats); bets it refuses are declined. It receives the deck
        # once the game number is stored and the wagers debited (the chance step).
        rnd = self._new_round()
        playing: list[Seat] = []
        # Seated hands first, then back-line bets (which follow a seated hand).
        order = sorted(self._all_hands(), key=lambda s: (s.behind or 0, s.number or 0, s.player_id))
        for seat in order:
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
            rnd = self._new_round()
            for seat in playing:
                self._place_wagers(rnd, seat)
        while True:
            debits = tuple(
                Debit(s.player_id, kind, amount, second_hand(s.hand_id))
                for s in playing
                for kind in INITIAL_WAGERS
                if (amount := rnd.wagers(s.hand_id).get(kind)) > 0
            )
            banker = self._room.banker if self._room is not None else None
            if banker is not None:  # the bank, reserved at the offer, is debited now
                debits += (Debit(banker.player_id, "bank", banker.bank),)
            try:
                balances = yield from self._store(DebitWagers(self.round_id, debits, now))
                break
            except UthError as exc:
                if exc.code != "insufficient_funds":
                    raise
                # Reservations make this rare; whoever is short is declined (told
                # alone, without the ledger's details) and the others still play.
                pid = getattr(exc, "player_id", None)
                shorts = [s for s in playing if s.player_id == pid]
                if pid is None or not shorts:
                    raise
                log.warning("table %s: %s", self.settings.id, exc)
                for short in shorts:  # both hands of the player, and bets behind them
                    if rnd.has_hand(short.hand_id):
                        rnd.withdraw(short.hand_id, at=self.now)
                for short in [s for s in playing if not rnd.has_hand(s.hand_id)]:
                    self._decline(
                        short,
                        "insufficient_funds",
                        "balance: the balance no longer covers these bets",
                    )
                    playing.remove(short)
                fresh = yield ReloadBalance(pid)
                self.funds.set_balance(pid, fresh)
                if not playing:
                    yield from self._void_round("no wagers could be debited", "system")
                    return
        for seat in playing:  # a back-line hand keeps its Play reserved (play_hold)
            self.funds.release(seat.player_id, seat.staked)
            last = self._line_last_bets if seat.line else self._last_bets
            last[seat.player_id] = dict(seat.bets)
            seat.bets = no_bets()
        if self._room is not None and self._room.banker is not None and self._room.reserved:
            self.funds.release(self._room.banker.player_id, self._room.reserved)
            self._room.reserved = ZERO
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
            while rnd.phase in STREETS and self._void_request is None:
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

    def _new_round(self) -> Round:
        """The engine's round for this game number (with the player-dealer's bank at
        a card room).
        """
        assert self.game_number is not None
        banker = self._room.banker if self._room is not None else None
        bank = None if banker is None else banker.bank
        return Round(self.rules, game_id=self.game_number, bank=bank)

    def _place_wagers(self, rnd: Round, seat: Seat) -> None:
        """Place the seat's bets in the engine's round (raises what the engine refuses):
        at its seat, or behind another seat's hand (a card room's back-line bet).
        """
        bets = seat.bets
        behind = self._behind_hand(rnd, seat)
        rnd.place_wagers(
            seat.hand_id,
            ante=bets["ante"],
            trips=bets["trips"],
            bad_beat=bets["bad_beat"],
            seat=None if behind is not None else seat.number,
            behind=behind,
            at=self.now,
        )

    def _open_round(self) -> Loop[int]:
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

    def _shuffled_deck(self) -> Loop[PreparedDeck]:
        """The round's deck, shuffled and checked by the host (52 distinct cards, at
        every shuffle). A deck that fails pauses the round (004, malfunction) until
        the operator resumes it (a new shuffle, checked again) or cancels it.
        """
        while True:
            try:
                decks = self._decks
                if decks is None:
                    deck: PreparedDeck = yield Shuffle()
                    return deck
                # Two alternating decks: the shuffler delivers the colours that need
                # a deck; the round is dealt from the other colour than last round's.
                for colour in decks.needs_shuffle():
                    shuffled: PreparedDeck = yield Shuffle()
                    decks.load(colour, shuffled.order)
                return decks.deal()
            except (InvalidDealError, InvalidCardError) as exc:
                log.error("table %s: deck integrity check failed: %s", self.settings.id, exc)
                self._pause(f"deck integrity check failed: {exc}", "system")
                yield from self._hold(None)

    def _store(self, call: Call) -> Loop[Any]:
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

    def _decline(self, seat: Seat, code: str, reason: str, field: str | None = None) -> None:
        self.funds.release(seat.player_id, seat.staked + seat.play_hold)
        seat.bets = no_bets()
        seat.play_hold = ZERO
        self._send(seat.player_id, self._declined(code, reason, field))

    def _ask(self, rnd: Round, hands: tuple[str, ...]) -> None:
        """Send ``decision_required`` to each of ``hands`` (and advise the players
        with the trainer on).
        """
        spots = []
        for hand_id in hands:
            seat = self._seat_of(hand_id)
            assert seat is not None
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

    def _street(self, rnd: Round) -> Loop[None]:
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

    def _window(self, rnd: Round, asked: tuple[str, ...]) -> Loop[None]:
        """One decision window for ``asked``: open until each has decided, the
        time is up, or the round is being voided.
        """
        street = rnd.phase
        seconds = self.decisions.seconds(self.settings.decision_seconds)
        self._street_opened = self.now
        self.deadline = self.now + timedelta(seconds=seconds)
        self._woken = False
        self._ask(rnd, asked)
        self._room_state_to_all()

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
            yield Wait(self.deadline, True)
            self._woken = False
            if self.paused is None and self.now >= self.deadline:
                break
        if self._void_request is not None:
            return
        for hand_id in open_hands():
            seat = self._seat_of(hand_id)
            assert seat is not None
            events = rnd.act(hand_id, rnd.timeout_action(hand_id), auto=True, at=self.now)
            self._after_decision(seat, events)
        self.publish()

    def _flush_debits(self) -> Loop[None]:
        if not self._pending_debits or self.round_id is None:
            return
        debits, self._pending_debits = self._pending_debits, []
        balances = yield from self._store(DebitWagers(self.round_id, tuple(debits), self.now))
        for d in debits:
            self.funds.release(d.player_id, d.amount)
            seat = self._seat_of(d.hand or str(d.player_id))
            if seat is not None:
                seat.pending_play -= d.amount
        for pid, balance in balances.items():
            self.funds.set_balance(pid, balance)

    def _settle(self, rnd: Round) -> Loop[None]:
        result = rnd.settlement
        assert result is not None and self.round_id is not None
        players = []
        own = {hr.id for hr in result.hands if second_hand(hr.id) is None}
        for hr in result.hands:
            # One part per player: their own hand's, or their back-line hand's when
            # they have no other (the round's record and the ledger have both).
            if second_hand(hr.id) is not None and str(account_of(hr.id)) in own:
                continue
            seat = self._seat_of(hr.id)
            players.append(
                PlayerRound(
                    player_id=account_of(hr.id),
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
            events=tuple(rnd.events),
        )
        credits = self.banking.credits(result)
        balances = yield from self._store(
            SettleRound(
                self.round_id, record, credits, self._history(rnd), second_hand_credits(result)
            )
        )
        for pid, balance in balances.items():
            self.funds.set_balance(pid, balance)
        for seat in self._all_hands():  # the Play a back-line hand did not need
            if seat.play_hold:
                self.funds.release(seat.player_id, seat.play_hold)
                seat.play_hold = ZERO
        self.phase = "settled"
        self.deadline = None
        self.publish()
        for hr in result.hands:
            pid = account_of(hr.id)
            message: dict[str, Any] = {
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
                        **self._wager_extras(rnd, hr, w),
                    }
                    for w in hr.wagers
                },
                "net": money_json(hr.net),
                "balance": money_json(self.funds.available(pid)),
            }
            if (hand := second_hand(hr.id)) is not None:  # a seated player's back-line hand
                message["behind"] = int(hand.partition("@")[2])
                self._line_result[pid] = message
            else:
                self._last_result[pid] = message
            if pid in self.seats:
                self._send(pid, message)
        banker_message = self._banker_settlement(rnd)
        if banker_message is not None and self._room is not None and self._room.banker:
            pid = self._room.banker.player_id
            self._last_result[pid] = banker_message
            if pid in self.seats:
                self._send(pid, banker_message)
        self._room_state_to_all()
        present = tuple(
            (int(hr.id), tuple(self.seats[int(hr.id)].decisions))
            for hr in result.hands
            if second_hand(hr.id) is None and int(hr.id) in self.seats
        )
        yield Review(self.game_number, present)

    def _forget_departed(self) -> None:
        room = self._room
        for pid in [p for p, s in self.seats.items() if not s.connections]:
            seat = self.seats.pop(pid)
            self._release_all(seat)
            line = self.lines.pop(pid, None)
            if line is not None:
                self._release_all(line)
            if room is not None and seat.number is not None:
                room.rotation.leave(seat.hand_id)
                self._seats_note()


def _colours_from(first: str | None) -> tuple[str, str]:
    """The two deck colours in dealing order, ``first`` first (None: as
    :data:`~uth.engine.decks.COLOURS`).

    Raises:
        InvalidDealError: ``first`` is not one of them.
    """
    if first is None:
        return COLOURS
    if first not in COLOURS:
        raise InvalidDealError(
            f"first_colour: must be one of {', '.join(COLOURS)}, got {first!r}",
            field="first_colour",
        )
    return (first, COLOURS[1 - COLOURS.index(first)])


__all__ = ["REQUEST_IDS_PER_ROUND", "RoundCancelledError", "TableMachine", "TableSettings"]
