"""The table machine's seams: what differs between kinds of table.

A table kind is a configuration of one :class:`~uth.engine.table.TableMachine`:

- :class:`DecisionOrder`: who is asked to decide now, and for how long. A live
  table asks every hand of the street at once with one timer (RULES.md, "Online
  table", 004): :class:`AllAtOnce`. A California card room asks one seat at a time,
  in turn, each with its own timer: an ``InTurn`` order returning the first hand of
  ``Round.awaiting()`` fits the same interface.
- :class:`Banking`: who stands behind the table's side of the wagers and so which
  ledger entries a settlement makes. At a house-banked table each player is paid
  stake plus net from the house: :class:`HouseBank`. At a card room the
  player-dealer's bank pays and collects, and the position rotates between rounds
  (``engine/banking.py``): a ``PlayerDealerBank`` adds the bank's entries.
- :class:`Funds` and :class:`Coach`: synchronous in-memory services of the host
  (the reservation cache shared by a server's tables; trainer mode).
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import Any, Protocol

from uth.engine.banking import OfferStep, Rotation, RotationState
from uth.engine.round import Round
from uth.engine.settlement import Settlement
from uth.engine.table.seats import account_of, second_hand
from uth.money import ZERO
from uth.rules import RuleSet


class DecisionOrder(Protocol):
    """Which hands a decision window asks, and its length."""

    def asked(self, rnd: Round) -> tuple[str, ...]:
        """The hands asked to decide in the window opening now; empty when the
        street has no decision left.
        """
        ...

    def seconds(self, configured: float) -> float:
        """The window's length in seconds, given the table's decision time."""
        ...

    def may_decide(self, rnd: Round, hand: str) -> bool:
        """Whether ``hand`` may decide now (the engine checks the rest: that the hand
        is awaited, the action legal).
        """
        ...


class AllAtOnce:
    """Every hand still to decide is asked at once, with one timer per street (004)."""

    def asked(self, rnd: Round) -> tuple[str, ...]:
        """Every hand the round awaits."""
        return rnd.awaiting()

    def seconds(self, configured: float) -> float:
        """The table's decision time."""
        return configured

    def may_decide(self, rnd: Round, hand: str) -> bool:
        """Any hand the round awaits may decide (the engine refuses the others)."""
        return True


class InTurn:
    """One seat at a time, clockwise from the player-dealer's left, each with its own
    window and timer (000, 002; RULES.md, "Order of decisions"): the engine's
    :attr:`Round.to_act`.
    """

    def asked(self, rnd: Round) -> tuple[str, ...]:
        """The one hand whose turn it is (empty: the street is decided)."""
        hand = rnd.to_act
        return () if hand is None else (hand,)

    def seconds(self, configured: float) -> float:
        """The table's decision time, for each seat."""
        return configured

    def may_decide(self, rnd: Round, hand: str) -> bool:
        """Only the hand whose turn it is."""
        return rnd.to_act == hand


class Banking(Protocol):
    """Who banks the table: the ledger credits of a settlement."""

    def credits(self, settlement: Settlement) -> dict[int, dict[str, Decimal]]:
        """Per account id, per wager kind, the amount credited (only amounts above 0)
        for the players' own hands; a second hand's are :func:`second_hand_credits`.
        """
        ...


class HouseBank:
    """The house banks every wager: each player gets stake plus net per wager
    (a lost wager credits nothing; its debit stands).
    """

    def credits(self, settlement: Settlement) -> dict[int, dict[str, Decimal]]:
        """Stake plus net of every wager that returns money, per player id (the
        players' own hands; not their second hands, :func:`second_hand_credits`).
        """
        return {
            int(hr.id): {w.kind: w.stake + w.net for w in hr.wagers if w.stake + w.net > 0}
            for hr in settlement.hands
            if second_hand(hr.id) is None
        }


def second_hand_credits(settlement: Settlement) -> dict[tuple[int, str], dict[str, Decimal]]:
    """The credits of the players' second hands (a seated player's back-line hand,
    :func:`~uth.engine.table.seats.line_hand`): stake plus net of every wager that
    returns money, keyed by (player id, hand id). A back-line bet is paid as the
    seat's own wagers are, by the house or within the bank (RULES.md, "A round").
    """
    return {
        (account_of(hr.id), hr.id): {
            w.kind: w.stake + w.net for w in hr.wagers if w.stake + w.net > 0
        }
        for hr in settlement.hands
        if second_hand(hr.id) is not None
    }


@dataclass(frozen=True, slots=True)
class PlayerDealer:
    """The round's player-dealer: account, name, seat (None: the third-party backer)
    and bank (currency units).
    """

    player_id: int
    name: str
    seat: int | None
    bank: Decimal


class PlayerDealerBank:
    """A California card room's banking (000, 002; RULES.md, "Who banks"): the
    player-dealer's bank pays and collects, and the position rotates between rounds
    (:class:`~uth.engine.banking.Rotation`). Its rule sets deal from two
    alternating decks, the table machine's :class:`~uth.engine.decks.TwoDecks`.

    Args:
        rules: a ``player_dealer`` rule set.
        backer: the third-party backer's account id and name, or None.
        offer_seconds: how long each player has to answer the offer.
        rotation: the rotation to go on from after a restart (the streak and the
            next offer's start, restored from the table's kept rounds:
            :func:`~uth.engine.table.cardroom.resumed`); None: a fresh table.

    Raises:
        IllegalActionError: ``rotation`` does not fit the rule set
            (:meth:`~uth.engine.banking.RotationState.check`).

    The bank is reserved from the player-dealer's balance on acceptance, debited
    (wager kind ``bank``) when the round opens, and credited back with the bank's
    result at settlement (:meth:`credits`); a void refunds it with the wagers.
    """

    def __init__(
        self,
        rules: RuleSet,
        *,
        backer: tuple[int, str] | None = None,
        offer_seconds: float = 15,
        rotation: RotationState | None = None,
    ) -> None:
        self.rotation = Rotation(rules, backer=None if backer is None else str(backer[0]))
        if rotation is not None:
            self.rotation.resume(rotation)
        self.backer = backer
        self.offer_seconds = offer_seconds
        self.banker: PlayerDealer | None = None
        self.steps: tuple[OfferStep, ...] = ()
        #: The bank still reserved (not yet debited) from the player-dealer's balance.
        self.reserved = ZERO

    def credits(self, settlement: Settlement) -> dict[int, dict[str, Decimal]]:
        """Each player's stake plus net per wager (:class:`HouseBank`), and the
        player-dealer's bank plus its result (between 0 and twice the bank).
        """
        out = HouseBank().credits(settlement)
        banker = self.banker
        if banker is not None and settlement.bank is not None:
            back = settlement.bank + settlement.banker_net
            if back > 0:
                out.setdefault(banker.player_id, {})["bank"] = back
        return out


class Funds(Protocol):
    """Balances less reservations per player (the host's reservation cache, shared
    by its tables so that a player cannot bet the same money twice).
    """

    def available(self, player_id: int) -> Decimal:
        """What the player may still bet."""
        ...

    def reserve(self, player_id: int, amount: Decimal, *, field: str = "amount") -> None:
        """Reserve ``amount``; raises a ``UthError`` with code ``insufficient_funds``
        (nothing reserved) when the available balance does not cover it.
        """
        ...

    def release(self, player_id: int, amount: Decimal) -> None:
        """Give back a reservation."""
        ...

    def set_balance(self, player_id: int, balance: Decimal) -> None:
        """Record the ledger balance after a write."""
        ...


class Coach(Protocol):
    """Trainer mode (issue 11): who has it on and what their snapshot shows."""

    def switch(self, player_id: int, on: bool) -> None:
        """Switch on or off; raises ``PermissionError`` where it is not allowed."""
        ...

    def is_on(self, player_id: int) -> bool:
        """Whether the player has the trainer on."""
        ...

    def snapshot(
        self, player_id: int, street: str | None, game_number: str | None
    ) -> dict[str, Any] | None:
        """The snapshot's ``trainer`` field, or None with the trainer off."""
        ...

    def new_round(self) -> None:
        """Forget the last round's advice."""
        ...


class NoCoach:
    """A table without trainer mode: switching it on is refused."""

    def switch(self, player_id: int, on: bool) -> None:
        """Refuse switching on."""
        if on:
            raise PermissionError("trainer: trainer mode is only for play-money tables")

    def is_on(self, player_id: int) -> bool:
        """Never on."""
        return False

    def snapshot(
        self, player_id: int, street: str | None, game_number: str | None
    ) -> dict[str, Any] | None:
        """Nothing to show."""
        return None

    def new_round(self) -> None:
        """Nothing to forget."""
