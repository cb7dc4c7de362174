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
float (``7.5``) (:func:`uth.money.money_json`); never a string, the ``rule_set`` of
``GET /api/tables/{id}`` included (:class:`uth.server.http_models.RuleSetOut`).
"""

from __future__ import annotations

import json
from typing import Annotated, Any, Literal

from pydantic import (
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

from uth.server.message_parts import (
    Action,
    BankLeft,
    Card,
    Category,
    GameNumber,
    Hand,
    Money,
    OfferFields,
    Outcome,
    PlayerDealer,
    PlayerRef,
    RequestId,
    RoundVoided,
    Seats,
    Settlement,
    State,
    Street,
    TableBets,
    TableSnapshot,
    TrainerAdvice,
    TrainerView,
    Turn,
    _Message,
    _Timer,
)
from uth.server.protocol import Command

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


class Offer(OfferFields):
    """Card-room tables, everyone: the offer of the player-dealer position."""

    type: Literal["offer"]


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
    """Card-room tables, everyone: nobody banks, so no round is dealt; ``declined``:
    who declined or was passed over, in offer order (empty with ``no_players``).
    """

    type: Literal["no_banker"]
    code: Literal["all_declined", "no_players"]
    message: str
    declined: list[str]


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
    | NoBankerMessage
    | Seats
    | BankLeft,
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
