"""The WebSocket messages as typed models: what a client sends and what the server sends.

``docs/protocol.md`` describes each message; these models are its machine-readable
form, published as JSON Schema in ``docs/protocol.schema.json``
(``python tools/schemas.py`` writes it; a test checks that the committed file is
the generated one). The server builds its messages as plain dicts
(``server/table.py``); the live tests validate every message they receive against
:data:`ServerMessage` (``tests/server/helpers.py``), so a message that drifts from
its model fails a test.

The models are strict (no coercion) and refuse unknown fields. **Money** leaves the
server in one encoding, the one every message already used: a JSON number in
currency units with at most two decimals, an integer when whole (``10``), else a
float (``7.5``) (:func:`uth.money.money_json`); never a string. The one exception
is ``rule_set`` in ``GET /api/tables/{id}``: the rule set's own canonical JSON,
amounts as decimal strings as in rule-set files and ``uth rules show --json``.
"""

from __future__ import annotations

import json
import math
from decimal import Decimal
from typing import Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    RootModel,
    StrictBool,
    StrictFloat,
    StrictInt,
    StrictStr,
)
from pydantic.json_schema import models_json_schema

from uth.server.protocol import Command


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
Category = Literal[
    "royal_flush",
    "straight_flush",
    "four_of_a_kind",
    "full_house",
    "flush",
    "straight",
    "three_of_a_kind",
    "two_pair",
    "pair",
    "high_card",
]
WagerResult = Literal["win", "lose", "push", "no_action"]
Outcome = Literal["win", "lose", "tie", "fold"]


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


class State(_Message):
    """The player's own state (``accepted``, ``state``, the snapshot)."""

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


class ListedBet(_Message):
    """One player's bets in ``table_bets``."""

    id: StrictInt
    name: str
    seat: StrictInt | None
    ante: Money
    trips: Money
    bad_beat: Money
    total: Money


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
#: ``action`` (settled in full), ``collected_at_fold`` (a folded hand's wager,
#: collected before the showdown), ``returned_uncovered`` (the bank was used up
#: before it: the stake comes back), ``partial`` (part of it was covered).
Coverage = Literal["action", "collected_at_fold", "returned_uncovered", "partial"]


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
    """To the player: every wager's result, the round's net, the balance after."""

    type: Literal["settlement"]
    game_number: GameNumber
    outcome: Outcome
    category: Category
    best_five: list[Card]
    wagers: dict[Literal["ante", "blind", "play", "trips", "bad_beat", "bank"], WagerLine]
    net: Money
    balance: Money


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


class SeatedPlayer(_Message):
    """The player and their seat number (null at tables without numbered seats)."""

    id: StrictInt
    name: str
    seat: StrictInt | None


class TableSnapshot(_Timer):
    """Everything a (re)connecting player needs; never the dealer's hole cards."""

    type: Literal["snapshot"]
    table: TableInfo
    player: SeatedPlayer
    game_number: GameNumber | None
    phase: Phase
    light: Light
    hole_cards: list[Card]
    player_hand: list[Card]
    board: list[Card]
    state: State
    table_bets: TableBetsBody
    last_result: Settlement | RoundVoided | None
    paused: Paused | None
    last_bets: LastBets | None
    trainer: TrainerView | None = None
    player_dealer: PlayerDealer | None = None
    turn: Turn | None = None


# --------------------------------------------------------------- replies


class Accepted(_Message):
    """The reply to an accepted command: the player's new state."""

    type: Literal["accepted"]
    id: RequestId
    state: State
    notice: Literal["maximum"] | None = None
    declined: StrictBool | None = None
    snapshot: TableSnapshot | None = None
    trainer: TrainerView | None = None


ErrorCode = Literal[
    "malformed",
    "unknown_command",
    "wrong_phase",
    "over_limit",
    "insufficient_funds",
    "invalid_amount",
    "illegal_action",
    "not_seated",
    "too_many_requests",
    "round_paused",
    "trainer_not_allowed",
    "unauthorized",
    "not_found",
    "table_full",
    "seat_taken",
    "not_offered",
]


class Error(_Message):
    """The reply to a refused command (nothing changed), or a refused connection
    (``"id": null``).
    """

    type: Literal["error"]
    id: RequestId | None
    code: ErrorCode
    message: str


# --------------------------------------------------------------- the round


class BettingOpen(_Timer):
    """Everyone: a new round's betting window opens, the light is green."""

    type: Literal["betting_open"]
    game_number: GameNumber
    light: Literal["green"]


class LightChanged(_Timer):
    """Everyone: the light turns yellow, then red when betting closes."""

    type: Literal["light"]
    light: Literal["yellow", "red"]


class BetsDeclined(_Message):
    """To the player: bets declined, nothing debited; ``code`` says why."""

    type: Literal["bets_declined"]
    game_number: GameNumber | None
    code: Literal["outside_limits", "insufficient_funds", "hidden", "closed", "left"]
    reason: str
    field: Literal["wagers.ante", "wagers.trips", "wagers.bad_beat"] | None = None


class BettingClosed(_Message):
    """Everyone: the round is dealt to ``hands`` hands under its final game number."""

    type: Literal["betting_closed"]
    game_number: GameNumber
    hands: StrictInt
    in_round: StrictBool


class PlayerHandDealt(_Message):
    """Everyone, on a shared-hand table: the one player hand, face up."""

    type: Literal["player_hand_dealt"]
    cards: list[Card]


class HoleCardsDealt(_Message):
    """To the player alone: their two hole cards."""

    type: Literal["hole_cards_dealt"]
    player: PlayerRef
    cards: list[Card]


class DecisionRequired(_Timer):
    """To each player whose hand must decide on this street."""

    type: Literal["decision_required"]
    street: Street
    game_number: GameNumber
    legal_actions: list[Action]
    hand: Hand | None


class Decision(_Message):
    """To the player alone: their decision was recorded (``auto``: by the timer)."""

    type: Literal["decision"]
    player: PlayerRef
    street: Street
    action: Action
    multiple: StrictInt
    play: Money
    auto: StrictBool


class FlopTurned(_Message):
    """Everyone: the flop, three cards."""

    type: Literal["flop_turned"]
    cards: list[Card]


class TurnAndRiverTurned(_Message):
    """Everyone: the turn and the river."""

    type: Literal["turn_and_river_turned"]
    cards: list[Card]


class DealerRevealed(_Message):
    """Everyone: the dealer's cards and hand, once the settlement is stored."""

    type: Literal["dealer_revealed"]
    cards: list[Card]
    category: Category
    best_five: list[Card]
    qualifies: StrictBool
    announcement: str


class AntesReturned(_Message):
    """Everyone: the dealer does not qualify; the Antes of ``hands`` hands return."""

    type: Literal["antes_returned"]
    hands: StrictInt


class HandShown(_Message):
    """To the player alone: their hand at the showdown."""

    type: Literal["hand_shown"]
    player: PlayerRef
    cards: list[Card]
    category: Category
    best_five: list[Card]
    outcome: Outcome


class HandFolded(_Message):
    """To the player alone: their hand was folded (no cards)."""

    type: Literal["hand_folded"]
    player: PlayerRef


class RoundPaused(_Message):
    """Everyone: the round is paused by a malfunction."""

    type: Literal["round_paused"]
    game_number: GameNumber | None
    reason: str
    message: str


class RoundResumed(_Timer):
    """Everyone: the round resumes with a new deadline."""

    type: Literal["round_resumed"]
    game_number: GameNumber | None


class StateChanged(_Message):
    """To the player's other connections: their state after a command. At a
    card-room table also to every player when the player-dealer, the bank left or
    the turn changes, with ``player_dealer`` and ``turn``.
    """

    type: Literal["state"]
    state: State
    player_dealer: PlayerDealer | None = None
    turn: Turn | None = None


class Offer(_Message):
    """Card-room tables, everyone: the player-dealer position is offered to a player
    (seat null: the third-party backer) until ``deadline``; ``to_you`` for that
    player. Bank limits per the rule set (``max_bank`` null: no maximum).
    """

    type: Literal["offer"]
    player_id: StrictInt
    name: str
    seat: StrictInt | None
    deadline: Time
    min_bank: Money
    max_bank: Money | None
    to_you: StrictBool


class BankerTaken(_Message):
    """Card-room tables, everyone: the position is taken for this round with
    ``bank``; ``declined``: who declined or was passed over, in offer order.
    """

    type: Literal["banker"]
    player_id: StrictInt
    name: str
    seat: StrictInt | None
    bank: Money
    declined: list[str]


class NoBankerMessage(_Message):
    """Card-room tables, everyone: nobody banks, so no round is dealt."""

    type: Literal["no_banker"]
    code: Literal["all_declined", "no_players"]
    message: str


class Pause(_Timer):
    """Everyone: the round is over; the next betting window opens at ``deadline``."""

    type: Literal["pause"]


class ReviewedDecision(_Message):
    """One decision of the round against the best action (cost in Antes)."""

    street: Street
    action: Action
    best: Action
    cost: StrictFloat
    auto: StrictBool


class TrainerReview(_Message):
    """To one player with the trainer on, after their settlement."""

    type: Literal["trainer_review"]
    game_number: GameNumber | None
    decisions: list[ReviewedDecision]
    round_cost: StrictFloat
    session_cost: StrictFloat
    rounds: StrictInt


_Server = Annotated[
    Accepted
    | Error
    | TableSnapshot
    | BettingOpen
    | TableBets
    | LightChanged
    | BetsDeclined
    | BettingClosed
    | PlayerHandDealt
    | HoleCardsDealt
    | DecisionRequired
    | Decision
    | FlopTurned
    | TurnAndRiverTurned
    | DealerRevealed
    | AntesReturned
    | HandShown
    | HandFolded
    | Settlement
    | RoundVoided
    | RoundPaused
    | RoundResumed
    | StateChanged
    | Pause
    | TrainerAdvice
    | TrainerReview
    | Offer
    | BankerTaken
    | NoBankerMessage,
    Field(discriminator="type"),
]


class ServerMessage(RootModel[_Server]):
    """Any message the server sends on the WebSocket (discriminated by ``type``).

    Validate a frame's text with ``ServerMessage.model_validate_json(text)``.
    """


class Auth(BaseModel):
    """The first message of a connection: the player's session token."""

    model_config = ConfigDict(extra="forbid", strict=True)

    type: Literal["auth"]
    token: StrictStr


class ClientMessage(RootModel[Auth | Command]):
    """Any message a client sends: ``auth`` first, then commands
    (:mod:`uth.server.protocol`).
    """


def protocol_schema() -> dict[str, Any]:
    """The JSON Schema of the WebSocket protocol (``docs/protocol.schema.json``):
    ``$defs.ClientMessage`` and ``$defs.ServerMessage``, one of them per message.
    """
    _, schema = models_json_schema(
        [(ClientMessage, "validation"), (ServerMessage, "validation")],
        title="uth live table protocol (docs/protocol.md)",
    )
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        **schema,
        "anyOf": [{"$ref": "#/$defs/ClientMessage"}, {"$ref": "#/$defs/ServerMessage"}],
    }


def protocol_schema_text() -> str:
    """:func:`protocol_schema` as the text of ``docs/protocol.schema.json``."""
    return json.dumps(protocol_schema(), indent=2, ensure_ascii=False) + "\n"
