"""The shapes of the HTTP routes' answers, for the OpenAPI document and its checks.

Every route declares its answer (``response_model``) and each error status it can
give (:func:`errors`), so that the OpenAPI document at ``/openapi.json`` is the
whole contract: a test runs schemathesis against it and finds no answer outside it
(``tests/server/test_http_schema.py``). Money is a JSON number in currency units
(an integer when whole, else at most two decimals; never a string:
:data:`uth.server.messages.Money`, the WebSocket's encoding); times are ISO 8601
strings in UTC.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from uth.server.message_parts import Money, TableInfo

#: An ISO 8601 time in UTC, ``2026-11-29T23:30:15+00:00``.
Time = str


class _Out(BaseModel):
    model_config = ConfigDict(extra="forbid")


class ErrorDetail(_Out):
    """What went wrong: a code, a message for people naming the field, the field."""

    code: str = Field(examples=["invalid_request"])
    message: str = Field(examples=["amount: must not be zero"])
    field: str | None = Field(examples=["amount"])


class ErrorBody(_Out):
    """The error answer of every route (401 aside)."""

    error: ErrorDetail


class Unauthorized(_Out):
    """401: no valid Bearer token for the route."""

    detail: str = Field(examples=["authorization: a valid player token is required (Bearer)"])


def errors(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """The ``responses`` of a route: each error status with its body's shape."""
    described = {
        400: "a bad value (named in the message) or a body that is not JSON",
        401: "no valid Bearer token",
        404: "no such table, round or player",
        409: "the request conflicts with the state (funds, balance limit, round, name)",
        422: "a body, path or query value that fails validation (the first error, named)",
    }
    return {
        status: {
            "model": Unauthorized if status == 401 else ErrorBody,
            "description": described[status],
        }
        for status in statuses
    }


class Health(_Out):
    """``GET /healthz``."""

    status: Literal["ok"]
    tables: dict[str, str]


class TableOut(TableInfo):
    """A table of the lobby, ``GET /api/tables`` (``table`` in the WebSocket snapshot)."""


class FiguresReady(_Out):
    """The rule set's return-to-player figures (``uth.server.figures``), fractions of one."""

    status: Literal["ready"]
    house_edge: float
    rtp_initial_bet: float
    rtp_total_bet: float
    trips_rtp: float | None
    bad_beat_rtp: float | None


class FiguresComputing(_Out):
    """The figures are being computed (the exact analysis runs in the background)."""

    status: Literal["computing"]


class FiguresFailed(_Out):
    """The analysis failed: why."""

    status: Literal["failed"]
    error: str


FiguresOut = Annotated[
    FiguresReady | FiguresComputing | FiguresFailed, Field(discriminator="status")
]


class LimitOut(_Out):
    """A wager's table minimum and maximum in the rule set (inclusive)."""

    min: Money
    max: Money


class PayoutCapOut(_Out):
    """The rule set's payout cap (001): ``amount`` and whether the minimum-bettor
    rule applies (``cap`` of the table is the resulting figure).
    """

    amount: Money
    min_bettor_rule: bool


class RuleSetOut(BaseModel):
    """The rule set of ``GET /api/tables/{table_id}``: its canonical JSON, as
    ``uth rules show --json`` prints it, except that the amounts (the limits and the
    payout cap) are money numbers like every amount the server sends. The other
    fields (pay tables as ``"3:2"`` odds, options) are passed as they are.
    """

    model_config = ConfigDict(extra="allow")

    name: str
    ante: LimitOut
    trips: LimitOut | None
    bad_beat: LimitOut | None
    bank: LimitOut | None
    payout_cap: PayoutCapOut | None


class TableDetailOut(TableInfo):
    """``GET /api/tables/{table_id}``: the lobby entry, the whole rule set, the
    payout cap and the figures.
    """

    rule_set: RuleSetOut = Field(
        description="the rule set's canonical JSON (`uth rules show --json`), amounts "
        "as money numbers"
    )
    cap: Money | None = Field(description="the payout cap on Ante + Blind + Play, or null")
    figures: FiguresOut


class PlayerOut(_Out):
    """A player and the balance available to bet."""

    id: int
    name: str
    balance: Money


class SignInOut(_Out):
    """``POST /api/players``: the new account and its session token."""

    player: PlayerOut
    token: str


class WagerOut(_Out):
    """One wager of a round: stake, result and net (what it won, + or -)."""

    stake: Money
    result: str
    net: Money


class HistoryRow(_Out):
    """A line of ``GET /api/history``."""

    game_number: str
    table_id: str
    status: Literal["open", "settled", "voided"]
    started_at: Time
    total_stake: Money
    net: Money


class BackLineOut(_Out):
    """A seated player's second hand in a round: a bet behind another seat, which
    followed that seat's cards and decisions (``hand``: ``"7@3"``, behind seat 3).
    """

    hand: str
    behind: int
    hole: list[str]
    decisions: list[str]
    wagers: dict[str, WagerOut]
    category: str | None
    best_five: list[str]
    outcome: str | None


class RoundDetailOut(_Out):
    """``GET /api/history/{game_number}``: one of the player's rounds."""

    game_number: str
    table_id: str
    rules: str
    status: Literal["open", "settled", "voided"]
    started_at: Time
    settled_at: Time | None
    board: list[str]
    dealer: list[str]
    dealer_category: str | None
    dealer_qualifies: bool | None
    hole: list[str]
    decisions: list[str]
    wagers: dict[str, WagerOut]
    category: str | None
    best_five: list[str]
    outcome: str | None
    balance_before: Money
    balance_after: Money
    void_reason: str | None
    #: The seat the player's own hand was behind (a back-line bettor without a
    #: seat; ``decisions`` are that seat's), else None.
    behind: int | None
    #: A seated player's second hand, behind another seat; None when none.
    back_line: BackLineOut | None


class LedgerEntryOut(_Out):
    """A line of ``GET /api/ledger``: ``amount`` > 0 credits, < 0 debits."""

    id: int
    player_id: int
    amount: Money
    balance_after: Money
    kind: Literal["signup", "wager", "payout", "refund", "adjustment"]
    wager: str | None
    round_id: int | None
    reason: str
    created_at: Time
    #: Only on an entry of a player's second hand in a round (a seated player's
    #: back-line hand at a card room, ``"7@3"``: behind seat 3).
    hand: str | None = None


class VoidOut(_Out):
    """``POST /api/operator/rounds/{game_number}/void``."""

    game_number: str
    status: Literal["voiding", "voided"]


class PauseOut(_Out):
    """``POST /api/operator/rounds/{game_number}/pause`` and ``.../resume`` (seed 004, malfunction)."""

    game_number: str
    status: Literal["paused", "resumed"]


class AdjustOut(_Out):
    """``POST /api/operator/players/{player_id}/adjust``: the new ledger balance."""

    player_id: int
    balance: Money


class AuditOut(_Out):
    """A line of ``GET /api/operator/audit``."""

    id: int
    at: Time
    actor: str
    action: str
    reason: str
    details: dict[str, Any]
