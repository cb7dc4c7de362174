"""What a table machine asks its host to do: the effects (Sans-I/O).

The machine never sends, stores, shuffles or sleeps itself. It returns:

- :class:`Send`: a message for one player (``to`` = the player id) or for every
  player at the table (``to=None``; one dict for all, so the host may encode it once);
- :class:`Advise`: decisions to advise (players with the trainer on); nothing comes back;
- a *call*, which the machine waits on: the host runs it and hands back its result
  (:meth:`TableMachine.resolve`) or its exception (:meth:`TableMachine.fail`).
  Calls: :class:`Shuffle` (the chance step: a checked deck), :class:`OpenRound`,
  :class:`DebitWagers`, :class:`SettleRound`, :class:`VoidRound`, :class:`Audit`,
  :class:`ReloadBalance`, :class:`Review`.

Amounts are Decimal currency units; times are timezone-aware UTC datetimes given
by the host.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from decimal import Decimal
from typing import Any

from uth.cards import Card
from uth.engine import history
from uth.engine.events import Event


@dataclass(frozen=True, slots=True)
class Send:
    """Send ``message`` to player ``to``, or to every player at the table (None)."""

    to: int | None
    message: dict[str, Any]


@dataclass(frozen=True, slots=True)
class Spot:
    """One player's decision to advise: their hole cards, the board dealt so far
    (0, 3 or 5 cards) and their legal actions (protocol names).
    """

    player_id: int
    hole: tuple[Card, ...]
    board: tuple[Card, ...]
    legal: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Advise:
    """Advise these decisions of round ``game_number`` (trainer mode, issue 11)."""

    game_number: str | None
    spots: tuple[Spot, ...]


@dataclass(frozen=True, slots=True)
class Debit:
    """One wager to debit: ``amount`` from ``player_id`` for wager ``kind``
    (``ante``, ``blind``, ``trips``, ``bad_beat``, ``play``, ``bank``); ``hand``: the
    engine hand id when it is the player's second hand in the round (a seated
    player's back-line hand, ``"7@3"``), None for their own hand. The ledger keys
    each entry by it, so two hands of one player do not collide.
    """

    player_id: int
    kind: str
    amount: Decimal
    hand: str | None = None


@dataclass(frozen=True, slots=True)
class PlayerRound:
    """One player's part in a settled round, as stored for history (the storage
    ports take this record as it is: ``uth.server.ports``).

    Attributes:
        player_id: the account.
        hole: the hole cards, notation strings.
        decisions: the decisions in order, e.g. ``["check", "play_2x"]``
            (``"auto:check"`` when the timer decided).
        wagers: per wager kind: ``{"stake": Decimal, "result": str, "net": Decimal}``
            (all five kinds).
        category: the player's best hand category key, e.g. ``"flush"``.
        best_five: the best five cards.
        outcome: ``win``, ``lose``, ``tie`` or ``fold``.
    """

    player_id: int
    hole: Sequence[str]
    decisions: Sequence[str]
    wagers: Mapping[str, Mapping[str, Any]]
    category: str
    best_five: Sequence[str]
    outcome: str


@dataclass(frozen=True, slots=True)
class RoundRecord:
    """Everything stored when a round is settled (one transaction; the storage
    ports take this record as it is: ``uth.server.ports``).

    Attributes:
        settled_at: UTC time of settlement.
        deck: the 52 cards of the deck in deal order (stored only once settled).
        board: the five community cards.
        dealer: the dealer's hole cards.
        dealer_category: the dealer's hand category key.
        dealer_qualifies: whether the dealer qualified.
        players: one :class:`PlayerRound` per player with wagers.
        events: the round's engine events; the storage stores them as
            ``Event.to_dict()``, in the storage worker, off the table's loop (a
            1,000-player round has about 11,000).
    """

    settled_at: datetime
    deck: Sequence[str]
    board: Sequence[str]
    dealer: Sequence[str]
    dealer_category: str
    dealer_qualifies: bool
    players: Sequence[PlayerRound]
    events: Sequence[Event] = field(default=())


@dataclass(frozen=True, slots=True)
class Shuffle:
    """Call: a shuffled and checked deck (``PreparedDeck``) for the round. Raises
    ``InvalidDealError``/``InvalidCardError`` when the check fails.
    """


@dataclass(frozen=True, slots=True)
class OpenRound:
    """Call: record the round; returns its storage id (int). Raises a ``UthError``
    with code ``duplicate`` when the game number is taken.
    """

    table_id: str
    game_number: str
    rules: str
    started_at: datetime


@dataclass(frozen=True, slots=True)
class DebitWagers:
    """Call: debit ``debits`` in the round; returns ``{player_id: balance}``. Raises
    a ``UthError`` with code ``insufficient_funds`` (and ``player_id``) when a
    balance does not cover its wagers; nothing is then debited.
    """

    round_id: int
    debits: tuple[Debit, ...]
    at: datetime


@dataclass(frozen=True, slots=True)
class SettleRound:
    """Call: keep the round's ``history`` (:mod:`uth.engine.history`: rule set, deck,
    actions, result; it replays), store the settlement and credit ``credits`` (per
    player, per wager kind: stake plus net, only amounts above 0) and
    ``hand_credits`` (the same for players' second hands, keyed by (player id,
    hand id)); returns ``{player_id: balance}``.
    """

    round_id: int
    record: RoundRecord
    credits: dict[int, dict[str, Decimal]]
    history: history.RoundRecord
    hand_credits: dict[tuple[int, str], dict[str, Decimal]] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class VoidRound:
    """Call: keep the round's ``history`` (None before any hand was dealt in), void
    the round and refund every wager it debited; returns ``{player_id: balance}``.
    Raises a ``UthError`` with code ``round_not_open`` when the round was already
    settled or voided.
    """

    round_id: int
    reason: str
    actor: str
    at: datetime
    history: history.RoundRecord | None = None


@dataclass(frozen=True, slots=True)
class Audit:
    """Call: write an audit line (``pause_round``, ``resume_round``)."""

    actor: str
    action: str
    reason: str
    details: dict[str, Any]
    at: datetime


@dataclass(frozen=True, slots=True)
class ReloadBalance:
    """Call: the player's balance in the ledger now (Decimal)."""

    player_id: int


@dataclass(frozen=True, slots=True)
class Review:
    """Call: once the round's advice is complete, send each player with the trainer
    on their review; ``decisions`` per player in street order.
    """

    game_number: str | None
    decisions: tuple[tuple[int, tuple[str, ...]], ...]


Call = Shuffle | OpenRound | DebitWagers | SettleRound | VoidRound | Audit | ReloadBalance | Review
Effect = Send | Advise
