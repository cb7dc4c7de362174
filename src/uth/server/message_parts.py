"""The parts of the WebSocket messages (:mod:`uth.server.messages`): the money,
card and time encodings, and the models that several messages share (the state,
the table, the snapshot, the settlement). Split from ``messages.py`` to keep each
server module short; the published schema is the same.
"""

from __future__ import annotations

import math
from decimal import Decimal
from typing import Annotated, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    StrictBool,
    StrictFloat,
    StrictInt,
)

from uth.engine.settlement import HandOutcome, WagerOutcome
from uth.evaluator import CategoryKey


def _two_places(value: int | float) -> int | float:
    if isinstance(value, float):
        if not math.isfinite(value) or value.is_integer():
            raise ValueError(f"a whole amount is sent as an integer, got {value!r}")
        if Decimal(repr(value)).as_tuple().exponent < -2:  # type: ignore[operator]
            raise ValueError(f"amounts have at most two decimal places, got {value!r}")
    return value


#: An amount in currency units: a JSON number, an integer when whole (``10``), else a
#: float with at most two decimals (``7.5``); never a string.
Money = Annotated[
    StrictInt | StrictFloat,
    AfterValidator(_two_places),
    Field(description="currency units: an integer when whole, else at most two decimals"),
]
#: A card: rank then suit (``As``, ``Td``).
Card = Annotated[str, Field(pattern=r"^[2-9TJQKA][cdhs]$")]
#: A time: ISO 8601 in UTC (``2026-11-29T23:30:25+00:00``).
Time = Annotated[
    str, Field(pattern=r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?\+00:00$", description="UTC")
]
GameNumber = Annotated[str, Field(pattern=r"^\d{8}-\d{6}-\d{4}$")]
#: A player id in round messages: the account id as a string (``"1"``).
PlayerRef = Annotated[str, Field(pattern=r"^[1-9][0-9]*$")]
RequestId = Annotated[str, Field(min_length=1, max_length=64)]
Phase = Literal[
    "idle", "offer", "betting", "closed", "pre_flop", "flop", "river", "settled", "voided", "pause"
]
Light = Literal["green", "yellow", "red"]
Street = Literal["pre_flop", "flop", "river"]
#: A decision: ``play_4x`` ... ``play_1x`` (the rule set's multiples), ``check``, ``fold``.
Action = Annotated[str, Field(pattern=r"^(play_[1-9][0-9]?x|check|fold)$")]
#: The hand categories, the wager results and the hand outcomes: the engine's own
#: lists (one definition each).
Category = CategoryKey
WagerResult = WagerOutcome
Outcome = HandOutcome


class _Message(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class _Timer(_Message):
    """The running timer: the server's time, the deadline and the seconds left
    (one decimal); ``deadline`` and ``seconds_left`` are null with no timer running.
    """

    now: Time
    deadline: Time | None
    seconds_left: StrictFloat | None


# --------------------------------------------------------------- shared parts


class Limits(_Message):
    """A table's limits per spot as ``[min, max]``; null when the spot is not offered."""

    ante: Annotated[list[Money], Field(min_length=2, max_length=2)]
    trips: Annotated[list[Money], Field(min_length=2, max_length=2)] | None
    bad_beat: Annotated[list[Money], Field(min_length=2, max_length=2)] | None


class TableInfo(_Message):
    """A table's lobby entry (``GET /api/tables``; ``table`` in the snapshot)."""

    id: str
    name: str
    names: dict[str, str]
    rules: str
    limits: Limits
    seats: StrictInt | None
    players: StrictInt
    phase: Phase
    chips: list[Money]
    trainer: StrictBool


class Hand(_Message):
    """A player's hand so far: its category and the cards that name it."""

    category: Category
    cards: list[Card]


class Bets(_Message):
    """The player's bets (the Blind follows the Ante; ``play`` once decided)."""

    ante: Money
    blind: Money
    trips: Money
    bad_beat: Money
    play: Money


class BackLine(_Message):
    """A seated player's back-line hand at a card room (``state.back_line``): the seat
    it is behind, its bets (the wagers in play once dealt) and its bet-slip buttons.
    """

    behind: StrictInt
    bets: Bets
    total_bet: Money
    can_undo: StrictBool
    can_double: StrictBool
    can_repeat: StrictBool


class State(_Message):
    """The player's own state (``accepted``, ``state``, the snapshot); ``behind``
    only for a back-line bettor without a seat, ``back_line`` only for a seated
    player with a back-line hand (card rooms).
    """

    phase: Phase
    balance: Money
    bets: Bets
    total_bet: Money
    legal_actions: list[Action]
    can_undo: StrictBool
    can_double: StrictBool
    can_repeat: StrictBool
    decisions: list[Annotated[str, Field(pattern=r"^(auto:)?(play_[1-9][0-9]?x|check|fold)$")]]
    hand: Hand | None
    warning: Literal["balance_low_for_play"] | None = None
    #: Card rooms: a player without a seat whose bets are behind this seat number.
    behind: StrictInt | None = None
    back_line: BackLine | None = None


class ListedBet(_Message):
    """One player's bets in ``table_bets`` (``behind``: at a card room, the seat a
    back-line bet rides behind; absent otherwise).
    """

    id: StrictInt
    name: str
    seat: StrictInt | None
    ante: Money
    trips: Money
    bad_beat: Money
    total: Money
    behind: StrictInt | None = None


class TableBetsBody(_Message):
    """``players`` with a bet, the ``total`` of all bets (the Blind counted), the
    largest bettors ``listed`` first.
    """

    players: StrictInt
    total: Money
    listed: list[ListedBet]


class TableBets(TableBetsBody):
    """Every player's bets, once for the whole table (``table_bets``)."""

    type: Literal["table_bets"]


#: How a wager fared against the player-dealer's bank (card-room tables):
#: ``action`` (settled in full), ``collected_at_fold`` (a folded hand's losing wager,
#: collected in full before the showdown), ``returned_uncovered`` (the bank was used up
#: before it: the stake comes back), ``partial`` (part of it was covered),
#: ``no_wager`` (nothing was bet on that spot).
Coverage = Literal["action", "collected_at_fold", "returned_uncovered", "partial", "no_wager"]


class WagerLine(_Message):
    """One wager's stake, result and net (what it won, + or -); at a card-room table
    also the bank left after it and its coverage (absent at a house-banked table).
    """

    stake: Money
    result: WagerResult
    net: Money
    bank_left: Money | None = None
    coverage: Coverage | None = None


class Settlement(_Message):
    """To the player: every wager's result, the round's net, the balance after;
    ``behind``: the result of a seated player's back-line hand, behind that seat
    (card rooms; absent for the player's own hand).
    """

    type: Literal["settlement"]
    game_number: GameNumber
    outcome: Outcome
    category: Category
    best_five: list[Card]
    wagers: dict[Literal["ante", "blind", "play", "trips", "bad_beat", "bank"], WagerLine]
    net: Money
    balance: Money
    behind: StrictInt | None = None


class RoundVoided(_Message):
    """Everyone: the round is cancelled, every wager refunded; the receiver's balance."""

    type: Literal["round_voided"]
    game_number: GameNumber | None
    reason: str
    balance: Money
    code: Literal["server_restarted"] | None = None


class TrainerAdvice(_Message):
    """To one player with the trainer on: the EV (in Antes) of each legal action."""

    type: Literal["trainer_advice"]
    game_number: GameNumber | None
    street: Street
    actions: dict[str, StrictFloat]
    best: Action


class TrainerView(_Message):
    """The ``trainer`` field of the snapshot (and of the ``trainer`` reply)."""

    on: Literal[True]
    session_cost: StrictFloat
    rounds: StrictInt
    advice: TrainerAdvice | None


class Paused(_Message):
    """Why and since when the round is paused."""

    reason: str
    since: Time


class LastBets(_Message):
    """The bets ``repeat`` would place."""

    ante: Money
    trips: Money
    bad_beat: Money


class PlayerDealer(_Message):
    """Card-room tables: who banks this round (seat null: the third-party backer),
    the bank they put up and what is left of it as the seats settle.
    """

    player_id: StrictInt
    name: str
    seat: StrictInt | None
    bank: Money
    bank_left: Money


class Turn(_Message):
    """Card-room tables: whose decision it is (one seat at a time, in turn)."""

    seat: StrictInt
    player_id: StrictInt
    deadline: Time


class OfferFields(_Message):
    """Card-room tables: the player-dealer position offered to a player (seat null:
    the third-party backer) until ``deadline``; ``to_you`` for that player. Bank
    limits per the rule set (``max_bank`` null: no maximum).
    """

    player_id: StrictInt
    name: str
    seat: StrictInt | None
    deadline: Time
    min_bank: Money
    max_bank: Money | None
    to_you: StrictBool


class SeatTaken(_Message):
    """Card-room tables: a seat taken with ``sit`` and who sits there."""

    seat: StrictInt
    player_id: StrictInt
    name: str


class Seats(_Message):
    """Card-room tables, everyone: who sits where, when a seat is taken or freed."""

    type: Literal["seats"]
    seats: list[SeatTaken]


class BankLeft(_Message):
    """Card-room tables, everyone: the player-dealer's bank left once a hand's
    wagers are settled (``seat``: the hand's seat, a back-line bet's the seat it is
    behind), one per hand in the settlement order.
    """

    type: Literal["bank_left"]
    game_number: GameNumber | None
    player_id: StrictInt
    seat: StrictInt | None
    bank_left: Money


class SeatedPlayer(_Message):
    """The player and their seat number (null at tables without numbered seats)."""

    id: StrictInt
    name: str
    seat: StrictInt | None


class DealerHand(_Message):
    """The dealer's hand once shown: the fields of ``dealer_revealed`` (a snapshot at the
    showdown carries it, so a reload still shows the dealer's cards face up).
    """

    cards: list[Card]
    category: Category
    best_five: list[Card]
    qualifies: StrictBool


class TableSnapshot(_Timer):
    """Everything a (re)connecting player needs; the dealer's hole cards only once the
    round's settlement is stored (``dealer``).
    """

    type: Literal["snapshot"]
    table: TableInfo
    player: SeatedPlayer
    game_number: GameNumber | None
    phase: Phase
    light: Light
    hole_cards: list[Card]
    player_hand: list[Card]
    board: list[Card]
    dealer: DealerHand | None
    state: State
    table_bets: TableBetsBody
    last_result: Settlement | RoundVoided | None
    paused: Paused | None
    last_bets: LastBets | None
    trainer: TrainerView | None = None
    player_dealer: PlayerDealer | None = None
    turn: Turn | None = None
    seats: list[SeatTaken] | None = None
    offer: OfferFields | None = None
    #: Card rooms: the names that declined or were passed over in the last offer
    #: (so far while it is open), until the next offer starts.
    declined: list[str] | None = None
    #: Card rooms: why nobody took the bank at the last offer (None: somebody did,
    #: or the offer is open), until the next offer starts.
    no_banker: Literal["all_declined", "no_players"] | None = None
    last_back_line_result: Settlement | None = None
