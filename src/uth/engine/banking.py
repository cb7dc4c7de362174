"""Who banks a California card-room round: seven seats and the player-dealer position.

Sources: seeds 000 ("The player-dealer may only 'bank' the hand ... for two
consecutive rounds of play before it is offered in a clockwise fashion around the
gaming table") and 002 ("At the start of a game, a player is offered the
player-dealer position"; "The position shall be offered systematically and
continuously in a clockwise manner around the table after every two hands"; "up
to seven players and a player-dealer position for a total of eight seated
positions"); RULES.md, "Who banks".

Our reading (RULES.md marks the choices "(our choice)"):

- The table has ``rules.seats`` seats (7) and one player-dealer position, to the
  right of seat 1: a seated player who banks plays the player-dealer position for
  the round and has no hand of their own in it, and decisions and settlement run
  from seat 1 to seat 7 ("clockwise from the player-dealer's left").
- At the start of every round the position is offered to each seated player once,
  clockwise, until one accepts. The offer starts with last round's player-dealer
  while they have banked fewer than ``rules.max_consecutive_banks`` (2) rounds in
  a row (they may keep it); once they have banked two in a row it starts at the
  seat to their left and they are passed over for that offer (000). After a round
  banked by the third-party banker the next offer starts one seat further
  clockwise than this one did, so the first refusal goes round the table (002,
  "systematically and continuously").
  When nobody accepts (no round is dealt), the next offer starts where this one
  did.
- Accepting takes a bank within the rule set's bank limits (``rules.bank``) and
  covered by the player's balance, which the caller passes in.
- If every seated player declines (or is passed over), the table's third-party
  banker, when one is configured (a card room's licensed backer), is offered the
  position last; without one, or when it declines too, no round is dealt and
  :class:`NoBanker` says why. The backer has no limit of consecutive rounds.
- Seating and leaving happen only between rounds: not while the position is being
  offered, nor during the round (so a player-dealer cannot leave mid-round).
- Consecutive rounds count the rounds dealt: :meth:`Rotation.end_round` with
  ``dealt=False`` (nobody bet) does not count.
- After a restart the rotation goes on where the table's kept rounds leave it
  (:class:`RotationState`, :meth:`Rotation.resume`): a player who banked the last
  two rounds before it is passed over at the first offer after it if they sit
  again (000 counts rounds of play, not server runs). The seats start empty; the
  offer starts at the restored seat, or at the next occupied seat clockwise from it
  when that seat is empty now (as at any offer).

The module is pure (no I/O, clock or randomness). Each command has the engine's
verify / can / do trio (``verify_answer`` raises what ``answer`` would and changes
nothing, ``can_answer`` says whether it would pass). A caller drives it::

    rotation = Rotation(preset("california"), backer="house-backer")
    rotation.sit("ann", 1); rotation.sit("bob", 2)
    state = rotation.open_offer()          # Offered("ann", 1)
    state = rotation.answer("ann", None)   # ann declines: Offered("bob", 2)
    state = rotation.answer("bob", 500, balance=Decimal(800))  # Banker("bob", 500, ...)
    ... deal the round with bank=state.bank ...
    rotation.end_round()
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from decimal import Decimal
from enum import StrEnum
from typing import Literal

from uth.engine.settlement import check_bank
from uth.errors import IllegalActionError, InvalidWagerError, UthError
from uth.money import parse_amount
from uth.rules import RuleSet


class NoBankReason(StrEnum):
    """Why no round is dealt (RULES.md, "Who banks": without a banker, no round)."""

    #: Nobody is seated, and there is no third-party banker to offer the position to.
    NO_PLAYERS = "no_players"
    #: Every seated player declined or was passed over, and there is no third-party
    #: banker (or it declined too).
    ALL_DECLINED = "all_declined"


OfferOutcome = Literal["accepted", "declined", "passed_over"]


@dataclass(frozen=True, slots=True)
class OfferStep:
    """One step of a round's offer, for the audit trail.

    Attributes:
        player: the player (or the third-party banker) offered the position.
        seat: their seat, or ``None`` for the third-party banker.
        outcome: ``accepted``, ``declined``, or ``passed_over`` (banked the last two
            rounds, 000).
        bank: the bank stated on acceptance (currency units), else ``None``.

    """

    player: str
    seat: int | None
    outcome: OfferOutcome
    bank: Decimal | None = None


@dataclass(frozen=True, slots=True)
class Offered:
    """The position is offered to ``player`` (at ``seat``; ``None``: the third-party
    banker); the rotation waits for :meth:`Rotation.answer`.
    """

    player: str
    seat: int | None
    steps: tuple[OfferStep, ...]


@dataclass(frozen=True, slots=True)
class Banker:
    """The round's player-dealer.

    Attributes:
        player: who banks.
        seat: their seat, or ``None`` for the third-party banker.
        bank: the bank in currency units (the round's ``bank``).
        consecutive: how many rounds in a row this player banks, this one included.
        steps: the offer sequence, who declined or was passed over and who accepted.

    """

    player: str
    seat: int | None
    bank: Decimal
    consecutive: int
    steps: tuple[OfferStep, ...]

    @property
    def third_party(self) -> bool:
        """Whether the table's third-party banker took the position."""
        return self.seat is None


@dataclass(frozen=True, slots=True)
class NoBanker:
    """Nobody banks, so no round is dealt; ``reason`` says why, ``steps`` who declined."""

    reason: NoBankReason
    steps: tuple[OfferStep, ...]


OfferState = Offered | Banker | NoBanker


@dataclass(frozen=True, slots=True)
class RotationState:
    """What the rotation carries from one round to the next (and over a restart).

    Attributes:
        last: the player (or third-party banker) who banked the last round dealt,
            or ``None`` before any.
        streak: how many rounds dealt in a row ``last`` has banked (0 with no
            ``last``).
        start: the seat the next offer starts at (1..seats).

    """

    last: str | None = None
    streak: int = 0
    start: int = 1

    def after(self, rules: RuleSet, player: str, seat: int | None, *, dealt: bool) -> RotationState:
        """The state after a round banked by ``player`` (at ``seat``; ``None``: the
        third-party banker) whose offer started at :attr:`start`: a round ``dealt``
        (settled) counts to the banker's streak, one not dealt (nobody bet, or
        voided) neither counts nor breaks it; the next offer starts at
        :func:`next_offer_start`. :meth:`Rotation.end_round` moves by it, and so do
        the server's restore after a restart and ``uth replay``'s check.
        """
        last, streak = self.last, self.streak
        if dealt:
            last, streak = player, (streak + 1 if player == last else 1)
        in_a_row = streak if last == player else 0
        start = next_offer_start(rules, offer_start=self.start, seat=seat, in_a_row=in_a_row)
        return RotationState(last, streak, start)

    def check(self, rules: RuleSet) -> None:
        """Check the state against the rule set (:meth:`Rotation.resume`).

        Raises:
            IllegalActionError: ``start`` is not a seat of the table, ``streak`` is
                not a whole number of rounds >= 0, or ``last`` and ``streak`` do not
                go together (a player with a streak of 0, or a streak without one).

        """
        seats = rules.seats or 7
        start, streak, last = self.start, self.streak, self.last
        if isinstance(start, bool) or not isinstance(start, int) or not 1 <= start <= seats:
            raise IllegalActionError(
                f"rotation.start: must be a seat 1..{seats}, got {start!r}", field="rotation.start"
            )
        if isinstance(streak, bool) or not isinstance(streak, int) or streak < 0:
            raise IllegalActionError(
                f"rotation.streak: must be a whole number of rounds >= 0, got {streak!r}",
                field="rotation.streak",
            )
        if last is not None and (not isinstance(last, str) or not last):
            raise IllegalActionError(
                f"rotation.last: expected a non-empty id or None, got {last!r}",
                field="rotation.last",
            )
        if (last is None) != (streak == 0):
            raise IllegalActionError(
                f"rotation.streak: {streak} round(s) in a row for "
                f"{'nobody' if last is None else repr(last)}; a streak needs its banker "
                "and a banker at least one round",
                field="rotation.streak",
            )


@dataclass
class Rotation:
    """The seats of a player-dealer table and the rotation of the player-dealer position.

    Args:
        rules: a ``player_dealer`` rule set (its ``seats``, ``bank`` limits and
            ``max_consecutive_banks``).
        backer: the id of the table's third-party banker (a card room's licensed
            backer), or ``None`` for none.

    Raises:
        IllegalActionError: the rule set is house-banked.

    """

    rules: RuleSet
    backer: str | None = None
    _seats: dict[int, str] = field(default_factory=dict, init=False)
    _stage: Literal["idle", "offering", "round"] = field(default="idle", init=False)
    _queue: list[tuple[str, int | None]] = field(default_factory=list, init=False)
    _steps: list[OfferStep] = field(default_factory=list, init=False)
    _start: int = field(default=1, init=False)
    _offer_start: int = field(default=1, init=False)
    _last: str | None = field(default=None, init=False)
    _streak: int = field(default=0, init=False)
    _banker: Banker | None = field(default=None, init=False)

    def __post_init__(self) -> None:
        if self.rules.banking != "player_dealer":
            raise IllegalActionError(
                f"rules: rule set {self.rules.name!r} is house-banked; no player-dealer rotates",
                field="rules",
            )

    # ----------------------------------------------------------------- queries
    @property
    def seat_count(self) -> int:
        """The number of seats (the rule set's ``seats``; 7 by default)."""
        return self.rules.seats or 7

    @property
    def seats(self) -> dict[int, str]:
        """The seated players: ``{seat: player}`` in seat order (a copy)."""
        return dict(sorted(self._seats.items()))

    @property
    def banker(self) -> Banker | None:
        """This round's player-dealer, from acceptance until :meth:`end_round`."""
        return self._banker

    @property
    def in_round(self) -> bool:
        """Whether a round is under way (the position offered, or a banker chosen)."""
        return self._stage != "idle"

    @property
    def streak(self) -> tuple[str | None, int]:
        """The player who banked the last round dealt and how many rounds in a row."""
        return self._last, self._streak

    @property
    def state(self) -> RotationState:
        """Who banked the last rounds dealt in a row, and where the next offer starts."""
        return RotationState(self._last, self._streak, self._start)

    def seat_of(self, player: str) -> int | None:
        """The player's seat, or ``None`` when not seated."""
        return next((s for s, p in self._seats.items() if p == player), None)

    def players(self) -> tuple[str, ...]:
        """The seated players who may play a hand this round, in seat order (clockwise
        from the player-dealer's left): every seated player but the player-dealer.
        """
        banker = self._banker.player if self._banker else None
        return tuple(p for _, p in sorted(self._seats.items()) if p != banker)

    def resume(self, state: RotationState) -> None:
        """Go on from ``state`` (a restart: the server restores it from the table's
        kept rounds): the streak and the next offer's start. Seats are not part of
        it; players sit again.

        Raises:
            IllegalActionError: a round is under way, a player is seated already, or
                the state does not fit the rule set (:meth:`RotationState.check`).

        """
        self._between_rounds("resume the rotation")
        if self._seats:
            raise IllegalActionError(
                "rotation: resume before anybody sits (the seats start empty)", field="rotation"
            )
        state.check(self.rules)
        self._last, self._streak, self._start = state.last, state.streak, state.start

    # ----------------------------------------------------------- seats
    def sit(self, player: str, seat: int) -> None:
        """Seat a player between rounds.

        Raises:
            IllegalActionError: see :meth:`verify_sit`.

        """
        self.verify_sit(player, seat)
        self._seats[seat] = player

    def can_sit(self, player: str, seat: int) -> bool:
        """Whether :meth:`sit` would accept this now."""
        return _can(lambda: self.verify_sit(player, seat))

    def verify_sit(self, player: str, seat: int) -> None:
        """Check :meth:`sit` without changing anything.

        Raises:
            IllegalActionError: a round is under way, the seat is out of range or
                taken, the player is already seated, or the player is the backer.

        """
        self._between_rounds("sit down")
        if not isinstance(player, str) or not player:
            raise IllegalActionError(
                f"player: expected a non-empty id, got {player!r}", field="player"
            )
        if isinstance(seat, bool) or not isinstance(seat, int) or not 1 <= seat <= self.seat_count:
            raise IllegalActionError(
                f"seat: must be 1..{self.seat_count}, got {seat!r}", field="seat"
            )
        if seat in self._seats:
            raise IllegalActionError(f"seat: seat {seat} is taken", field="seat")
        if player == self.backer:
            raise IllegalActionError(
                f"player: {player!r} is the table's third-party banker", field="player"
            )
        if self.seat_of(player) is not None:
            raise IllegalActionError(
                f"player: {player!r} is already seated at seat {self.seat_of(player)}",
                field="player",
            )

    def leave(self, player: str) -> int:
        """A player leaves their seat between rounds; returns the seat.

        Raises:
            IllegalActionError: see :meth:`verify_leave`.

        """
        seat = self.verify_leave(player)
        del self._seats[seat]
        return seat

    def can_leave(self, player: str) -> bool:
        """Whether :meth:`leave` would accept this now."""
        return _can(lambda: self.verify_leave(player))

    def verify_leave(self, player: str) -> int:
        """Check :meth:`leave` without changing anything; returns the player's seat.

        Raises:
            IllegalActionError: a round is under way (a player-dealer cannot leave
                mid-round), or the player is not seated.

        """
        self._between_rounds("leave")
        seat = self.seat_of(player)
        if seat is None:
            raise IllegalActionError(f"player: {player!r} is not seated", field="player")
        return seat

    # ----------------------------------------------------------- the offer
    def open_offer(self) -> OfferState:
        """Start a round: offer the position clockwise (module docstring).

        Returns:
            :class:`Offered` (waiting for that player's answer) or :class:`NoBanker`
            (nobody to offer it to; the rotation is then between rounds again).

        Raises:
            IllegalActionError: a round is already under way.

        """
        self._between_rounds("open the offer")
        self._steps = []
        self._queue = []
        start = self._start
        n = self.seat_count
        for k in range(n):
            seat = (start - 1 + k) % n + 1
            player = self._seats.get(seat)
            if player is not None:
                self._queue.append((player, seat))
        if self.backer is not None:
            self._queue.append((self.backer, None))
        self._offer_start = start
        if not self._queue:
            return NoBanker(NoBankReason.NO_PLAYERS, ())
        self._stage = "offering"
        return self._next()

    def answer(
        self, player: str, bank: object | None, *, balance: Decimal | None = None
    ) -> OfferState:
        """The offered player's answer: accept with ``bank``, or decline (``None``).

        Args:
            player: who answers; must be the player offered the position now.
            bank: the bank (currency units) to accept, or ``None`` to decline.
            balance: the player's balance; the bank must not exceed it. Required to
                accept.

        Returns:
            :class:`Banker` on acceptance, the next :class:`Offered`, or
            :class:`NoBanker` when everyone has declined.

        Raises:
            IllegalActionError, InvalidWagerError: see :meth:`verify_answer`.

        """
        amount = self.verify_answer(player, bank, balance=balance)
        seat = self._queue[0][1]
        if amount is None:
            self._queue.pop(0)
            self._steps.append(OfferStep(player, seat, "declined"))
            return self._next()
        self._queue = []
        self._steps.append(OfferStep(player, seat, "accepted", amount))
        streak = self._streak + 1 if player == self._last else 1
        self._banker = Banker(player, seat, amount, streak, tuple(self._steps))
        self._stage = "round"
        return self._banker

    def can_answer(
        self, player: str, bank: object | None, *, balance: Decimal | None = None
    ) -> bool:
        """Whether :meth:`answer` would accept this answer now."""
        return _can(lambda: self.verify_answer(player, bank, balance=balance))

    def verify_answer(
        self, player: str, bank: object | None, *, balance: Decimal | None = None
    ) -> Decimal | None:
        """Check :meth:`answer` without changing anything; returns the bank (``None``
        for a decline).

        Raises:
            IllegalActionError: no offer is open, or it is another player's turn.
            InvalidWagerError: the bank is outside the rule set's bank limits, not an
                amount, no balance was given, or the balance does not cover it. A
                refused answer changes nothing: the offer stays with the player.

        """
        if self._stage != "offering":
            raise IllegalActionError(
                "offer: the player-dealer position is not on offer", field="offer"
            )
        offered = self._queue[0][0]
        if player != offered:
            raise IllegalActionError(
                f"player: the position is offered to {offered!r}, not {player!r}",
                field="player",
            )
        if bank is None:
            return None
        amount = check_bank(self.rules, bank)
        assert amount is not None
        if balance is None:
            raise InvalidWagerError(
                "player_dealer.balance: the player's balance is needed to accept a bank",
                field="player_dealer.balance",
            )
        funds = parse_amount(balance, field="player_dealer.balance")
        if amount > funds:
            raise InvalidWagerError(
                f"player_dealer.bank: the balance of {funds} does not cover a bank of {amount}",
                field="player_dealer.bank",
            )
        return amount

    def end_round(self, *, dealt: bool = True) -> None:
        """The round is over: the banker's streak counts it (unless ``dealt`` is false:
        the round was not dealt, nobody bet) and the next offer's start moves.

        Raises:
            IllegalActionError: no banker was chosen.

        """
        banker = self._banker
        if self._stage != "round" or banker is None:
            raise IllegalActionError("round: no player-dealer was chosen", field="round")
        before = RotationState(self._last, self._streak, self._offer_start)
        after = before.after(self.rules, banker.player, banker.seat, dealt=dealt)
        self._last, self._streak, self._start = after.last, after.streak, after.start
        self._banker = None
        self._stage = "idle"

    # ----------------------------------------------------------- internals
    def _next(self) -> OfferState:
        """Offer the position to the next player in the queue, passing over a player
        who banked the last ``max_consecutive_banks`` rounds (000).
        """
        while self._queue:
            player, seat = self._queue[0]
            limited = seat is not None and player == self._last
            if limited and self._streak >= self.rules.max_consecutive_banks:
                self._queue.pop(0)
                self._steps.append(OfferStep(player, seat, "passed_over"))
                continue
            return Offered(player, seat, tuple(self._steps))
        self._stage = "idle"
        return NoBanker(NoBankReason.ALL_DECLINED, tuple(self._steps))

    def _between_rounds(self, what: str) -> None:
        if self._stage != "idle":
            raise IllegalActionError(
                f"round: cannot {what} while a round is under way (only between rounds)",
                field="round",
            )


def next_offer_start(rules: RuleSet, *, offer_start: int, seat: int | None, in_a_row: int) -> int:
    """The seat the next offer starts at, after a round (module docstring; RULES.md,
    "Who banks"): the player-dealer's ``seat`` while they have banked fewer than
    ``rules.max_consecutive_banks`` rounds in a row, the seat to their left once they
    have; after a round of the third-party banker (``seat`` None), one seat further
    clockwise than ``offer_start``, where that round's offer started. ``in_a_row``:
    how many rounds dealt in a row the player-dealer has banked, this one included
    when it was dealt. Shared by :class:`Rotation` and ``uth replay``'s check of a
    table's rounds (:mod:`uth.server.replay`).
    """
    n = rules.seats or 7
    if seat is None:
        return offer_start % n + 1
    if in_a_row >= rules.max_consecutive_banks:
        return seat % n + 1
    return seat


def _can(verify: Callable[[], object]) -> bool:
    try:
        verify()
    except UthError:
        return False
    return True


__all__ = [
    "Banker",
    "NoBankReason",
    "NoBanker",
    "OfferOutcome",
    "OfferState",
    "OfferStep",
    "Offered",
    "Rotation",
    "RotationState",
    "next_offer_start",
]
