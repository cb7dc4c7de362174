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
    Strict,
    StrictFloat,
    StrictInt,
    StrictStr,
    TypeAdapter,
    ValidationError,
)

RequestId = Annotated[str, Field(min_length=1, max_length=64)]


class _Command(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    id: RequestId


class PlaceBet(_Command):
    """Add a chip to a betting spot (``ante``, ``trips``, ``bad_beat``); the Blind
    follows the Ante automatically (004). ``amount`` is a decimal string or number,
    read by :func:`uth.money.parse_amount` (a plain decimal, at most two places);
    a JSON number arrives as an int or, decoded with ``parse_float=Decimal``, a
    ``Decimal`` that keeps its text (``1e2`` is refused).
    """

    type: Literal["place_bet"]
    spot: Literal["ante", "trips", "bad_beat"]
    amount: StrictStr | StrictInt | Annotated[Decimal, Strict()] | StrictFloat


class Undo(_Command):
    """Remove the last placement (repeatable, in reverse order)."""

    type: Literal["undo"]


class Double(_Command):
    """Double every bet, up to each spot's maximum; once per round."""

    type: Literal["double"]


class Repeat(_Command):
    """Place the previous round's bets again."""

    type: Literal["repeat"]


class Decide(_Command):
    """A decision: ``play_4x``, ``play_3x``, ``play_2x``, ``play_1x``, ``check`` or ``fold``."""

    type: Literal["decide"]
    action: str


class Snapshot(_Command):
    """Ask for the whole table state again."""

    type: Literal["snapshot"]


Command = Annotated[
    PlaceBet | Undo | Double | Repeat | Decide | Snapshot, Field(discriminator="type")
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
            return _raise("unknown_command", f"type: unknown command {raw.get('type')!r}", rid)
        if err["type"] == "union_tag_not_found":
            return _raise("malformed", "type: missing", rid)
        # loc is (command type, field, union member ...): name the field alone.
        parts = [str(p) for p in err["loc"]]
        field = parts[1] if len(parts) > 1 else loc
        if field == "amount":
            shown = json.dumps(raw.get("amount"))[:40]
            return _raise(
                "malformed", f"amount: expected a number or a decimal string, got {shown}", rid
            )
        return _raise("malformed", f"{field}: {err['msg']} (got {err.get('input')!r})", rid)


def _raise(code: str, message: str, rid: str | None) -> Command:
    raise ProtocolError(code, message, rid)
