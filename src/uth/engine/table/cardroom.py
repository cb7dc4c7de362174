"""A card-room table's own commands and messages (issue 13; seeds 000, 002;
RULES.md, "Who banks", "A round", "Order of decisions"): seats taken with ``sit``,
the answer to the offer of the player-dealer position, back-line bets, and the
``player_dealer`` / ``turn`` fields of the state (docs/protocol.md, "Card-room
tables"), and the offer of the position before each round (``_offer``, a step the
round loop of :mod:`uth.engine.table.machine` runs) and its end after the round;
the rotation is the :class:`~uth.engine.table.policy.PlayerDealerBank`'s, the two
alternating decks the machine's (``TableMachine.decks``).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import timedelta
from decimal import Decimal
from typing import Any

from uth.engine import events as ev
from uth.engine.banking import Banker, Offered, OfferStep, RotationState
from uth.engine.decks import COLOURS
from uth.engine.history import RoundRecord
from uth.engine.round import Phase, Round
from uth.engine.settlement import HandResult, WagerResult
from uth.engine.table.base import STREETS, Loop, Wait
from uth.engine.table.commands import AnswerOffer, CommandError, PlaceBet, Sit
from uth.engine.table.handlers import TableCommands
from uth.engine.table.policy import PlayerDealer
from uth.engine.table.seats import Seat, account_of
from uth.errors import IllegalActionError, UthError
from uth.money import ZERO, money_json, parse_amount
from uth.rules import RuleSet


class CardRoom(TableCommands):
    """The card-room part of :class:`~uth.engine.table.TableMachine` (inactive at
    a house-banked table: ``_room`` is None).
    """

    #: The player the position is offered to now, and their answer once given
    #: (the bank, reserved; None: declined).
    _offer_to: int | None
    _offer_reply: tuple[Decimal | None] | None
    #: The offer open now (None: none), for the snapshot.
    _offered: Offered | None
    #: The last offer's names that declined or were passed over, in offer order, and
    #: why nobody banks (``no_banker``'s code; None: somebody does, or the offer is
    #: still open), for the snapshot until the next offer starts.
    _offer_declined: list[str]
    _no_banker: str | None

    def room_fields(self) -> dict[str, Any]:
        """``player_dealer`` and ``turn`` for the state and the snapshot (nothing at a
        house-banked table).
        """
        room = self._room
        if room is None:
            return {}
        banker = room.banker
        dealer = None
        if banker is not None:
            dealer = {
                "player_id": banker.player_id,
                "name": banker.name,
                "seat": banker.seat,
                "bank": money_json(banker.bank),
                "bank_left": money_json(self._bank_left(banker)),
            }
        turn = None
        rnd = self.round
        if rnd is not None and rnd.phase in STREETS and rnd.to_act is not None:
            seat = self.seats.get(int(rnd.to_act))
            if seat is not None and seat.number is not None and self.deadline is not None:
                turn = {
                    "seat": seat.number,
                    "player_id": seat.player_id,
                    "deadline": self.deadline.isoformat(),
                }
        return {"player_dealer": dealer, "turn": turn}

    def room_snapshot_fields(self, player_id: int) -> dict[str, Any]:
        """``seats`` (who sits where), ``offer`` (the offer open now, as the
        ``offer`` message has it for this player; None: no offer is open),
        ``declined`` (the names that declined or were passed over in the last
        offer, so far while it is open) and ``no_banker`` (its code when nobody
        took the bank; None otherwise) for the snapshot, so that a reload shows the
        seats taken, the offer's form and who declined (nothing at a house-banked
        table).
        """
        if self._room is None:
            return {}
        offered = self._offered
        offer = None
        if offered is not None and self.phase == "offer" and self.deadline is not None:
            offer = {
                k: v for k, v in self._offer_message(offered, player_id).items() if k != "type"
            }
        return {
            "seats": self._seat_rows(),
            "offer": offer,
            "declined": list(self._offer_declined),
            "no_banker": self._no_banker,
        }

    def _seat_rows(self) -> list[dict[str, Any]]:
        """The seats taken: ``[{"seat", "player_id", "name"}]`` in seat order."""
        room = self._room
        assert room is not None
        rows = []
        for number, player in room.rotation.seats.items():
            seat = self.seats.get(int(player))
            name = seat.name if seat is not None else player
            rows.append({"seat": number, "player_id": int(player), "name": name})
        return rows

    def _seats_note(self, *, after_reply: bool = False) -> None:
        """Tell everyone at a card room who sits where now (a ``seats`` message);
        ``after_reply``: sent after the reply of the command being handled.
        """
        if self._room is None:
            return
        message = {"type": "seats", "seats": self._seat_rows()}
        if after_reply:
            self._outbox.append((None, message))
        else:
            self._broadcast(message)

    def _bank_left_note(self, event: ev.WagerSettled, following: ev.Event | None) -> None:
        """Everyone: the bank left once a hand's wagers are settled (its last
        ``wager_settled``), so that the table shows the bank going down seat by seat
        in the settlement order (RULES.md, "A round", step 7; issue 13): ``{"type":
        "bank_left", "game_number", "player_id", "seat", "bank_left"}``, ``seat`` the
        hand's seat (a back-line bet's: the seat it is behind).
        """
        if self._room is None or event.bank_left is None:
            return
        if isinstance(following, ev.WagerSettled) and following.player == event.player:
            return
        seat = self._seat_of(event.player)
        number = None if seat is None else seat.number if seat.number is not None else seat.behind
        self._broadcast(
            {
                "type": "bank_left",
                "game_number": self.game_number,
                "player_id": account_of(event.player),
                "seat": number,
                "bank_left": money_json(event.bank_left),
            }
        )

    def _offer_message(self, state: Offered, to: int) -> dict[str, Any]:
        limits = self.rules.bank
        assert limits is not None and self.deadline is not None
        pid = int(state.player)
        return {
            "type": "offer",
            "player_id": pid,
            "name": self.seats[pid].name if pid in self.seats else self._backer_name(),
            "seat": state.seat,
            "deadline": self.deadline.isoformat(),
            "min_bank": money_json(limits.min),
            "max_bank": None if limits.max is None else money_json(limits.max),
            "to_you": to == pid,
        }

    def _backer_name(self) -> str:
        backer = self._room.backer if self._room is not None else None
        return "" if backer is None else backer[1]

    def _bank_left(self, banker: PlayerDealer) -> Decimal:
        """The bank after the wagers settled and sent so far."""
        rnd = self.round
        if rnd is None or self._round_voided:
            return banker.bank
        left = banker.bank
        for event in rnd.events_since(0)[: self._published]:
            if isinstance(event, ev.WagerSettled) and event.bank_left is not None:
                left = event.bank_left
        if self.phase in ("settled", "pause") and rnd.settlement is not None:
            left = banker.bank + rnd.settlement.banker_net
        return left

    def _room_state_to_all(self) -> None:
        """Every player's ``state`` with ``player_dealer`` and ``turn`` (card rooms)."""
        if self._room is None:
            return
        fields = self.room_fields()
        for pid in self.seats:
            self._send(pid, {"type": "state", "state": self.state(pid), **fields})

    # ------------------------------------------------------------ commands
    def _sit(self, seat: Seat, cmd: Sit) -> None:
        """Take (or move to) seat ``cmd.seat`` between rounds."""
        self._require_round(cmd)
        room = self._room
        if room is None:
            raise CommandError("wrong_phase", "sit: seats are taken only at card-room tables")
        if room.rotation.in_round or self.phase not in ("pause", "idle"):
            raise CommandError(
                "wrong_phase", f"sit: seats are taken between rounds only (phase {self.phase})"
            )
        if seat.number == cmd.seat:
            return
        occupant = room.rotation.seats.get(cmd.seat)
        if occupant is not None:
            raise CommandError("seat_taken", f"seat: seat {cmd.seat} is taken")
        player = str(seat.player_id)
        try:
            if seat.number is not None:
                room.rotation.leave(player)
            room.rotation.sit(player, cmd.seat)
        except UthError as exc:
            raise CommandError("wrong_phase", str(exc)) from None
        seat.number = cmd.seat
        seat.behind = None  # a seated player bets at their seat
        line = self.lines.get(seat.player_id)
        if line is not None and line.behind == cmd.seat:  # not behind their own seat
            self.lines.pop(seat.player_id)
            self._line_last_bets.pop(seat.player_id, None)
        self._bets_dirty = True
        self._seats_note(after_reply=True)

    def _answer_offer(self, seat: Seat, cmd: AnswerOffer) -> None:
        """Accept the position with a bank (reserved at once), or decline."""
        self._require_round(cmd)
        room = self._room
        if room is None or self._offer_to != seat.player_id or self._offer_reply is not None:
            raise CommandError("not_offered", "offer: the position is not offered to you now")
        if not cmd.accept:
            self._offer_reply = (None,)
            self._wake()
            return
        if cmd.bank is None:
            raise CommandError("invalid_amount", "bank: required to accept the position")
        bank = parse_amount(cmd.bank, field="bank")
        available = self.funds.available(seat.player_id)
        try:  # the limits first; the balance is the reservation's to check
            room.rotation.verify_answer(str(seat.player_id), bank, balance=max(bank, available))
        except IllegalActionError as exc:
            raise CommandError("not_offered", str(exc)) from None
        except UthError as exc:
            raise CommandError("over_limit", str(exc)) from None
        self.funds.reserve(seat.player_id, bank, field="bank")
        room.reserved = bank
        self._offer_reply = (bank,)
        self._wake()

    def _check_bettor(self, seat: Seat, doing: str) -> None:
        """The player-dealer does not bet (``wrong_phase``, naming the command)."""
        room = self._room
        if room is not None and room.banker is not None and room.banker.player_id == seat.player_id:
            raise CommandError("wrong_phase", f"{doing}: the player-dealer does not bet")

    def _check_room_bet(self, seat: Seat, cmd: PlaceBet) -> None:
        """At a card room: the player-dealer does not bet; a seated player bets at
        their seat, and may also bet behind one other occupied seat (their back-line
        hand); a player without a seat bets behind an occupied seat.
        """
        room = self._room
        if room is None:
            super()._check_room_bet(seat, cmd)
            return
        self._check_bettor(seat, "place_bet")
        if cmd.behind is None:
            if seat.number is None:
                raise CommandError(
                    "not_seated", "place_bet: sit first, or bet behind a seat (behind)"
                )
            return
        self._check_behind(seat, cmd.behind)

    def _check_behind(self, seat: Seat, behind: int) -> None:
        """A back-line bet behind seat ``behind``: an occupied seat, not the
        player-dealer's nor the player's own, and the seat this round's back-line
        bets of the player already follow (issue 13, item 4).
        """
        room = self._room
        if room is None:
            super()._check_behind(seat, behind)
            return
        self._check_bettor(seat, "place_bet")
        if behind == seat.number:
            raise CommandError(
                "wrong_phase", f"behind: you sit at seat {behind}; bet there without behind"
            )
        hand = self.lines.get(seat.player_id) if seat.number is not None else seat
        if hand is not None and hand.behind not in (None, behind) and hand.staked > 0:
            raise CommandError(
                "wrong_phase", f"behind: your bets this round are behind seat {hand.behind}"
            )
        occupant = room.rotation.seats.get(behind)
        if occupant is None:
            raise CommandError("not_seated", f"behind: seat {behind} has no player to bet behind")
        if room.banker is not None and int(occupant) == room.banker.player_id:
            raise CommandError(
                "not_seated", f"behind: seat {behind} is the player-dealer's, it has no hand"
            )

    def _hand_for(self, seat: Seat, behind: int | None, *, create: bool = False) -> Seat:
        """The hand a bet-slip command acts on: with ``behind``, a seated player's
        back-line hand (made when ``create``: a new bet or Repeat); without, or for a
        player without a seat (whose one hand is behind a seat), their own.

        Raises:
            CommandError: ``wrong_phase`` when a seated player has no back-line hand
                (Undo, Double), or it is behind another seat; or when a player
                without a seat names another seat than the one their bets are behind
                (Undo, Double).
        """
        if self._room is None:
            return super()._hand_for(seat, behind, create=create)
        if seat.number is None:
            if behind is not None and seat.staked > 0 and seat.behind not in (None, behind):
                raise CommandError(
                    "wrong_phase", f"behind: your bets this round are behind seat {seat.behind}"
                )
            return seat
        if behind is None:
            return seat
        line = self.lines.get(seat.player_id)
        if line is None and create:
            return Seat(seat.player_id, seat.name, None, behind=behind, line=True)
        if line is None or (not create and line.behind != behind):
            raise CommandError("wrong_phase", f"behind: you have no bet behind seat {behind}")
        return line

    def _behind_hand(self, rnd: Round, seat: Seat) -> str | None:
        """The hand id a back-line bet follows in ``rnd`` (None: not a back-line bet).

        Raises:
            IllegalActionError: the seat it is behind has no hand in the round (its
                player left or did not bet), naming the seat.
        """
        room = self._room
        if room is None or seat.behind is None:
            return None
        hand = room.rotation.seats.get(seat.behind)
        if hand is None or not rnd.has_hand(hand):
            raise IllegalActionError(
                f"behind: seat {seat.behind} has no hand in this round", field="behind"
            )
        return hand

    # ------------------------------------------------------------ settlement
    def _wager_extras(self, rnd: Round, hr: HandResult, w: WagerResult) -> dict[str, Any]:
        """A wager line's ``bank_left`` and ``coverage`` (card rooms; nothing at a
        house-banked table): ``no_wager`` (stake 0), ``returned_uncovered`` (none of
        the stake covered by the bank), ``partial`` (part of the win or loss beyond
        the bank; a folded hand's too), ``collected_at_fold`` (a folded hand's losing
        wager collected in full), else ``action``.
        """
        if self._room is None:
            return {}
        left = None
        for event in rnd.events:
            if (
                isinstance(event, ev.WagerSettled)
                and event.player == hr.id
                and event.wager == w.kind
                and event.bank_left is not None
            ):
                left = event.bank_left
        # The bank's limit first: a folded hand's wager beyond the player-dealer's
        # win limit is returned, wholly or in part (RULES.md, "Who banks").
        if w.stake == 0:
            coverage = "no_wager"
        elif w.uncovered_stake >= w.stake:
            coverage = "returned_uncovered"
        elif w.uncovered > 0:
            coverage = "partial"
        elif hr.outcome == "fold" and w.result == "lose":
            coverage = "collected_at_fold"
        else:
            coverage = "action"
        return {"bank_left": None if left is None else money_json(left), "coverage": coverage}

    def _banker_settlement(self, rnd: Round) -> dict[str, Any] | None:
        """The player-dealer's own ``settlement``: the bank's result."""
        room = self._room
        result = rnd.settlement
        if room is None or room.banker is None or result is None or result.bank is None:
            return None
        net = result.banker_net
        outcome = "win" if net > 0 else "lose" if net < 0 else "tie"
        wager = "win" if net > 0 else "lose" if net < 0 else "push"
        return {
            "type": "settlement",
            "game_number": self.game_number,
            "outcome": outcome,
            "category": result.dealer.hand.category.key,
            "best_five": [str(c) for c in result.dealer.hand.best_five],
            "wagers": {
                "bank": {
                    "stake": money_json(result.bank),
                    "result": wager,
                    "net": money_json(net),
                    "bank_left": money_json(result.bank + net),
                    "coverage": "action",
                }
            },
            "net": money_json(net),
            "balance": money_json(self.funds.available(room.banker.player_id)),
        }

    # ----------------------------------------------------------------- rotation
    def _offer(self) -> Loop[bool]:
        """Card rooms: offer the player-dealer position clockwise, each player until
        a deadline (no answer: declined); the backer, when every player declined,
        banks the rule set's largest bank (its smallest without a largest) within
        its balance. Returns whether somebody banks this round; says who
        (``banker``) or why nobody does (``no_banker``). RULES.md, "Who banks".
        """
        room = self._room
        assert room is not None
        self.phase = "offer"
        self.light = "red"
        limits = self.rules.bank
        assert limits is not None
        state = room.rotation.open_offer()
        # Passed over before the first offer (a player who banked the last two
        # rounds, sitting where the offer starts now): named from the start.
        self._offer_declined, self._no_banker = self._declined_names(state.steps), None
        while isinstance(state, Offered):
            pid = int(state.player)
            bank: Decimal | None = None
            self._offered = state
            if room.backer is not None and state.seat is None:
                self.deadline = self.now  # the backer answers at once
                for other in self.seats:
                    self._send(other, self._offer_message(state, other))
                available = self.funds.available(pid)
                wanted = limits.max if limits.max is not None else limits.min
                bank = min(wanted, available)
                if room.rotation.can_answer(state.player, bank, balance=available):
                    self.funds.reserve(pid, bank, field="bank")
                    room.reserved = bank
                else:
                    bank = None
            elif pid in self.seats and self.seats[pid].connections > 0:
                self.deadline = self.now + timedelta(seconds=room.offer_seconds)
                self._offer_to, self._offer_reply = pid, None
                for other in self.seats:
                    self._send(other, self._offer_message(state, other))
                while self._offer_reply is None and pid in self.seats:
                    self._woken = False
                    yield Wait(self.deadline, True)
                    if self.now >= self.deadline:
                        break
                reply, self._offer_to, self._offer_reply = self._offer_reply, None, None
                bank = None if reply is None else reply[0]
            balance = self.funds.available(pid) + (bank or ZERO)
            state = room.rotation.answer(state.player, bank, balance=balance)
            self._offer_declined = self._declined_names(state.steps)
        self._offered = None
        self.deadline = None
        room.steps = state.steps
        declined = list(self._offer_declined)
        if not isinstance(state, Banker):
            code = str(state.reason)
            self._no_banker = code
            why = {
                "all_declined": "Nobody accepted the bank: no round is dealt.",
                "no_players": "Nobody is seated to bank: no round is dealt.",
            }[code]
            self._broadcast(
                {"type": "no_banker", "code": code, "message": why, "declined": declined}
            )
            return False
        pid = int(state.player)
        room.banker = PlayerDealer(pid, self._name_of(state.player), state.seat, state.bank)
        self._broadcast(
            {
                "type": "banker",
                "player_id": pid,
                "name": room.banker.name,
                "seat": state.seat,
                "bank": money_json(state.bank),
                "declined": declined,
            }
        )
        self._room_state_to_all()
        return True

    def _name_of(self, player: str) -> str:
        """A player's name at this table (the backer's configured name; the id when
        the player has left).
        """
        room = self._room
        if room is not None and room.backer is not None and player == str(room.backer[0]):
            return room.backer[1]
        seat = self.seats.get(int(player)) if player.isdigit() else None
        return seat.name if seat is not None else player

    def _declined_names(self, steps: tuple[OfferStep, ...]) -> list[str]:
        """The names that declined or were passed over in ``steps``, in offer order."""
        return [self._name_of(st.player) for st in steps if st.outcome != "accepted"]

    def _end_room_round(self) -> None:
        """Card rooms, after a round (or a betting window nobody bet in): give back a
        bank still reserved and end the rotation's round (it counts to the banker's
        streak only when dealt and settled).
        """
        room = self._room
        if room is None or room.banker is None:
            return
        if room.reserved:
            self.funds.release(room.banker.player_id, room.reserved)
            room.reserved = ZERO
        room.rotation.end_round(dealt=settled(self.round) and not self._round_voided)
        room.banker = None


def settled(rnd: Round | None) -> bool:
    """Whether the round was dealt and settled (it counts to the banker's streak)."""
    return rnd is not None and rnd.phase == Phase.SETTLED


@dataclass(frozen=True, slots=True)
class RoomResume:
    """What a card-room table takes over from its kept rounds when the server starts
    again (:func:`resumed`; RULES.md, "Who banks"; README, "Card-room tables").

    Attributes:
        rotation: who banked the last settled rounds in a row and where the next
            offer starts (:meth:`~uth.engine.banking.Rotation.resume`).
        first_colour: the back colour of the deck the first round dealt after the
            start takes: the other colour than the last round dealt before it, so
            that the colours alternate across restarts too; ``None`` (no round dealt
            yet): the first of :data:`~uth.engine.decks.COLOURS`.

    """

    rotation: RotationState = field(default_factory=RotationState)
    first_colour: str | None = None


def resumed(rules: RuleSet, newest_first: Iterable[tuple[RoundRecord, bool]]) -> RoomResume:
    """The rotation and deck colour a card-room table goes on from after a restart.

    Args:
        rules: the table's rule set now (its seats and ``max_consecutive_banks``).
        newest_first: the table's kept rounds, newest first (game-number order
            reversed), each with whether it was settled (``False``: voided); read
            only as far back as needed (below). A round whose offer nobody accepted
            or without an offer (a house-banked round) tells nothing.

    The state is the one :meth:`Rotation.end_round
    <uth.engine.banking.Rotation.end_round>` leaves after the kept rounds in
    game-number order (:meth:`RotationState.after`): a settled round counts to its
    banker's streak, a voided one neither counts nor breaks it. Betting windows
    nobody bet in keep no round, so the next offer's start is the one the kept
    rounds give (as if there had been none); a start beyond the table's seats now
    (its rule set changed) is seat 1. The colour is the other one than the last
    round dealt (``deck`` kept) with a card-room colour.

    The rounds are read back to the last one a seated player banked and settled
    after a settled round of another banker (the state after it does not depend on
    the rounds before it) and to the last round dealt: a few rounds at a table
    whose players bank, every round at one only the third-party banker ever banked.
    """
    read: list[tuple[RoundRecord, bool]] = []
    colour: str | None = None
    newer: OfferStep | None = None  # the banker of the newest settled round read so far
    for record, was_settled in newest_first:
        read.append((record, was_settled))
        if colour is None and record.deck and record.deck_colour in COLOURS:
            colour = record.deck_colour
        banker = _banker(record)
        if banker is None or not was_settled:
            continue
        reset = newer is not None and newer.seat is not None and newer.player != banker.player
        if reset and colour is not None:
            break
        newer = banker
    state = RotationState()
    for record, was_settled in reversed(read):
        banker = _banker(record)
        if banker is not None:
            state = state.after(rules, banker.player, banker.seat, dealt=was_settled)
    if state.start > (rules.seats or 7):
        state = RotationState(state.last, state.streak, 1)
    first = None if colour is None else COLOURS[1 - COLOURS.index(colour)]
    return RoomResume(state, first)


def _banker(record: RoundRecord) -> OfferStep | None:
    """The round's accepted offer step (None: nobody accepted, or no offer)."""
    offers = record.offers
    return offers[-1] if offers and offers[-1].outcome == "accepted" else None
