"""WebSocket protocol: the commands a client sends (pydantic discriminated union).

Every command is a JSON object with a ``type`` and a client request ``id``; the
server answers each with exactly one reply, ``accepted`` (with the player's new
state) or ``error`` (with a ``code`` and a ``message``). A repeated ``id`` gets
the same reply again and is not applied twice. See ``docs/protocol.md``.
"""

from __future__ import annotations

import json
from decimal import Decimal
from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    InstanceOf,
    StrictBool,
    StrictFloat,
    StrictInt,
    StrictStr,
    TypeAdapter,
    ValidationError,
)

RequestId = Annotated[str, Field(min_length=1, max_length=64)]
GameNumber = Annotated[str, Field(pattern=r"^\d{8}-\d{6}-\d{4}$")]

#: The longest text frame a client may send, in bytes (UTF-8); longer ones are
#: answered ``malformed`` without being parsed (issue 7: memory grew with what one
#: client sent).
MAX_FRAME_BYTES = 4096
#: At most this many characters of a client's value are quoted in an error.
_SHOWN = 40


class _Command(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    id: RequestId
    game_number: GameNumber | None = None


class PlaceBet(_Command):
    """Add a chip to a betting spot (``ante``, ``trips``, ``bad_beat``); the Blind
    follows the Ante automatically (004). ``amount`` is a decimal string or number,
    read by :func:`uth.money.parse_amount` (a plain decimal, at most two places);
    a JSON number arrives as an int or, decoded with
    ``parse_float=uth.money.WrittenNumber``, a ``Decimal`` that keeps its text as
    written (``1e2`` is refused, and echoed as ``1e2``).
    """

    type: Literal["place_bet"]
    spot: Literal["ante", "trips", "bad_beat"]
    amount: StrictStr | StrictInt | InstanceOf[Decimal] | StrictFloat
    #: Card-room tables: a back-line bet behind this seat number (None: the
    #: player's own seat).
    behind: Annotated[StrictInt, Field(ge=1, le=7)] | None = None


class Undo(_Command):
    """Remove the last placement (repeatable, in reverse order)."""

    type: Literal["undo"]
    #: Card-room tables: a seated player's back-line hand behind this seat number
    #: (None: the player's own hand).
    behind: Annotated[StrictInt, Field(ge=1, le=7)] | None = None


class Double(_Command):
    """Double every bet, up to each spot's maximum; once per round."""

    type: Literal["double"]
    #: Card-room tables: a seated player's back-line hand behind this seat number
    #: (None: the player's own hand).
    behind: Annotated[StrictInt, Field(ge=1, le=7)] | None = None


class Repeat(_Command):
    """Place the previous round's bets again."""

    type: Literal["repeat"]
    #: Card-room tables: a seated player's back-line hand behind this seat number
    #: (None: the player's own hand).
    behind: Annotated[StrictInt, Field(ge=1, le=7)] | None = None


class Decide(_Command):
    """A decision: ``play_4x``, ``play_3x``, ``play_2x``, ``play_1x``, ``check`` or ``fold``."""

    type: Literal["decide"]
    action: Annotated[str, Field(max_length=16)]
    street: Literal["pre_flop", "flop", "river"] | None = None


class Leave(_Command):
    """The page was hidden or is closing: bets on the table while betting is open
    are declined and refunded (004's note on minimising the browser or switching tab).
    """

    type: Literal["leave"]
    reason: Literal["hidden", "closed"]


class Snapshot(_Command):
    """Ask for the whole table state again."""

    type: Literal["snapshot"]


class Trainer(_Command):
    """Switch the sender's trainer mode on or off at this table (issue 11; allowed
    only at play-money tables).
    """

    type: Literal["trainer"]
    on: StrictBool


class Sit(_Command):
    """Card-room tables: take seat ``seat`` (1-7) between rounds (RULES.md, "Who
    banks"); a player who has not sat bets behind a seat or watches.
    """

    type: Literal["sit"]
    seat: Annotated[StrictInt, Field(ge=1, le=7)]


class AnswerOffer(_Command):
    """Card-room tables: answer the offer of the player-dealer position: ``accept``
    with a ``bank`` (an amount within the rule set's bank limits, covered by the
    balance), or decline (RULES.md, "Who banks").
    """

    type: Literal["answer_offer"]
    accept: StrictBool
    bank: StrictStr | StrictInt | InstanceOf[Decimal] | StrictFloat | None = None


Command = Annotated[
    PlaceBet | Undo | Double | Repeat | Decide | Leave | Snapshot | Trainer | Sit | AnswerOffer,
    Field(discriminator="type"),
]
_ADAPTER: TypeAdapter[Command] = TypeAdapter(Command)


class ProtocolError(ValueError):
    """A message that is not a valid command."""

    def __init__(self, code: str, message: str, request_id: str | None) -> None:
        super().__init__(message)
        self.code = code
        self.request_id = request_id


def parse_command(raw: Any) -> Command:
    """Validate one decoded JSON message as a command.

    Raises:
        ProtocolError: code ``malformed`` (not an object, missing or bad ``id``,
            bad field) or ``unknown_command`` (unknown ``type``); the message names
            the field.
    """
    request_id = raw.get("id") if isinstance(raw, dict) else None
    rid = request_id if isinstance(request_id, str) and 0 < len(request_id) <= 64 else None
    if not isinstance(raw, dict):
        raise ProtocolError("malformed", "message: expected a JSON object", None)
    try:
        return _ADAPTER.validate_python(raw)
    except ValidationError as exc:
        err = exc.errors()[0]
        loc = ".".join(str(p) for p in err["loc"])
        if err["type"] == "union_tag_invalid":
            return _raise("unknown_command", f"type: unknown command {quote(raw.get('type'))}", rid)
        if err["type"] == "union_tag_not_found":
            return _raise("malformed", "type: missing", rid)
        # loc is (command type, field, union member ...): name the field alone.
        parts = [str(p) for p in err["loc"]]
        field = parts[1] if len(parts) > 1 else loc
        if err["type"] != "missing" and field in _EXPECTED:
            return _raise(
                "malformed", f"{field}: {_EXPECTED[field]}, got {written(raw[field])}", rid
            )
        return _raise("malformed", f"{field}: {err['msg']} (got {quote(err.get('input'))})", rid)


#: What a field expects, for the fields whose refusal quotes the value as written.
_EXPECTED = {
    "amount": "expected a number or a decimal string",
    "bank": "expected a number or a decimal string",
    "behind": "expected a seat number from 1 to 7",
    "seat": "expected a seat number from 1 to 7",
}


def written(value: Any) -> str:
    """A client's JSON value as they wrote it (a number with a fraction or an
    exponent keeps its text: :class:`uth.money.WrittenNumber`), cut to 40 characters.
    """
    text = str(value) if isinstance(value, Decimal) else json.dumps(value, default=str)
    return text if len(text) <= _SHOWN else text[:_SHOWN] + "..."


def quote(value: Any) -> str:
    """A client's value as quoted in an error message: its ``repr``, cut to 40
    characters (a reply never echoes the input at length; frames are bounded too).
    """
    text = repr(value)
    return text if len(text) <= _SHOWN else text[:_SHOWN] + "..."


def _raise(code: str, message: str, rid: str | None) -> Command:
    raise ProtocolError(code, message, rid)
