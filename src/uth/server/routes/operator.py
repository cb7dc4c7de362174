"""Operator routes: void, pause and resume a round, adjust a balance, the audit log."""

from __future__ import annotations

import json
from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from pydantic import AfterValidator, BaseModel, Field, StrictFloat, StrictInt, StrictStr

from uth.errors import UthError
from uth.money import ZERO, WrittenNumber, money_json, parse_amount
from uth.server import round_books
from uth.server.http_models import AdjustOut, AuditOut, PauseOut, VoidOut, errors
from uth.server.ports import NotFoundError
from uth.server.runtime import GameNumber, Operator, PlayerId, Rt, json_ready

router = APIRouter()


class RoundSettlingError(UthError):
    """The round is being settled at its table: too late to void it."""

    code = "round_settling"


class InvalidAmountError(UthError):
    """An operator's adjustment that is not a non-zero amount of whole cents."""

    code = "invalid_amount"


class RoundNotPausedError(UthError):
    """Only a paused round can be resumed."""

    code = "round_not_paused"


def _storable_text(value: str) -> str:
    """Refuse text no database should get: blank, or with control characters (tab
    and line breaks aside; PostgreSQL refuses NUL). Lone surrogates, which are not
    UTF-8, pydantic refuses before this.
    """
    if not value.strip():
        raise ValueError("must not be blank")
    for ch in value:
        if (ord(ch) < 0x20 and ch not in "\t\n\r") or ord(ch) == 0x7F:
            raise ValueError(f"must not contain the control character U+{ord(ch):04X}")
    return value


#: A reason for the audit log: 1-500 characters of storable text.
Reason = Annotated[str, Field(min_length=1, max_length=500), AfterValidator(_storable_text)]


class VoidRequest(BaseModel):
    """Void a round: the reason is written to the audit log."""

    reason: Reason


class AdjustRequest(BaseModel):
    """Credit (+) or debit (-) a balance, with a reason for the audit log.

    ``amount`` in currency units, a number or a decimal string, whole cents, not
    zero, at most :data:`~uth.server.ports.MAX_AMOUNT` either way.
    """

    amount: StrictStr | StrictInt | StrictFloat
    reason: Reason


async def _amount_as_written(request: Request, parsed: object) -> object:
    """The body's ``amount`` as the client wrote it: FastAPI decodes a JSON number
    to a float (``1e3`` becomes 1000.0), so the raw body is read again with JSON
    numbers kept as written (:class:`uth.money.WrittenNumber`), and the one amount
    parser (:func:`uth.money.parse_amount`) refuses ``1e3`` here as it does on the
    WebSocket. ``parsed`` is the validated
    value, used when the body cannot be read again.
    """
    try:
        raw = json.loads(await request.body(), parse_float=WrittenNumber)
    except (ValueError, RecursionError):
        return parsed
    return raw.get("amount", parsed) if isinstance(raw, dict) else parsed


@router.post(
    "/api/operator/rounds/{game_number}/void",
    tags=["operator"],
    response_model=VoidOut,
    responses=errors(400, 401, 404, 409, 422),
)
async def void_round(
    game_number: GameNumber, body: VoidRequest, actor: Operator, rt: Rt
) -> dict[str, Any]:
    """Void a round with a reason: every wager, Play included, is refunded (seed 004,
    malfunction). A round in play is voided by its table ("voiding": the players get
    ``round_voided``); an open round no table plays is voided in storage ("voided").
    409 when the round is settled, voided, or its settlement is being written.
    """
    for t in rt.tables.values():
        answer = t.request_void(game_number, body.reason, actor)
        if answer == "voiding":
            return {"game_number": game_number, "status": "voiding"}
        if answer == "settling":
            raise RoundSettlingError(
                f"game_number: round {game_number} is being settled; too late to void it",
                field="game_number",
            )
    round_id = await rt.worker.call(rt.rounds.round_id, game_number)
    balances = await rt.worker.call(
        round_books.void_round,
        rt.ledger,
        rt.rounds,
        round_id,
        body.reason,
        actor,
        rt.clock.now(),
    )
    for pid, balance in balances.items():
        rt.reservations.set_balance(pid, balance)
    return {"game_number": game_number, "status": "voided"}


@router.post(
    "/api/operator/rounds/{game_number}/pause",
    tags=["operator"],
    response_model=PauseOut,
    responses=errors(400, 401, 404, 422),
)
async def pause_round(
    game_number: GameNumber, body: VoidRequest, actor: Operator, rt: Rt
) -> dict[str, Any]:
    """Pause a round in play (seed 004, malfunction): its timers stop and every
    player is told the issue is being investigated. Resume it or void it next.
    404 when no table plays that round.
    """
    for t in rt.tables.values():
        if t.request_pause(game_number, body.reason, actor) == "paused":
            return {"game_number": game_number, "status": "paused"}
    raise NotFoundError(f"game_number: no round {game_number!r} in play", field="game_number")


@router.post(
    "/api/operator/rounds/{game_number}/resume",
    tags=["operator"],
    response_model=PauseOut,
    responses=errors(400, 401, 404, 409, 422),
)
async def resume_round(
    game_number: GameNumber, body: VoidRequest, actor: Operator, rt: Rt
) -> dict[str, Any]:
    """Resume a paused round: the street's decision time starts again, a failed
    storage write is retried, a deck that failed its check is shuffled again.
    404 when no table plays that round, 409 when it is not paused.
    """
    for t in rt.tables.values():
        answer = t.request_resume(game_number)
        if answer == "resumed":
            return {"game_number": game_number, "status": "resumed"}
        if answer == "not_paused":
            raise RoundNotPausedError(
                f"game_number: round {game_number} is not paused", field="game_number"
            )
    raise NotFoundError(f"game_number: no round {game_number!r} in play", field="game_number")


@router.post(
    "/api/operator/players/{player_id}/adjust",
    tags=["operator"],
    response_model=AdjustOut,
    responses=errors(400, 401, 404, 409, 422),
)
async def adjust(
    player_id: PlayerId, body: AdjustRequest, actor: Operator, rt: Rt, request: Request
) -> dict[str, Any]:
    """Credit or debit a balance with a reason (audited)."""
    written = await _amount_as_written(request, body.amount)
    try:
        amount = parse_amount(written, field="amount", allow_negative=True)
    except UthError as exc:
        raise InvalidAmountError(str(exc), field="amount") from None
    if amount == 0:
        raise InvalidAmountError("amount: must not be zero", field="amount")
    player = await rt.worker.call(rt.ledger.player, player_id)
    if not rt.reservations.knows(player.id):
        rt.reservations.set_balance(player.id, player.balance)
    # A debit is reserved first, with no await between the check and the
    # reservation, so bets placed meanwhile cannot spend the same money.
    held = -amount if amount < 0 else ZERO
    rt.reservations.reserve(player.id, held, field="amount")
    try:
        balance = await rt.worker.call(
            rt.ledger.adjust_balance, player_id, amount, body.reason, actor, rt.clock.now()
        )
    finally:
        rt.reservations.release(player.id, held)
    rt.reservations.set_balance(player_id, balance)
    return {"player_id": player_id, "balance": money_json(balance)}


@router.get(
    "/api/operator/audit",
    tags=["operator"],
    response_model=list[AuditOut],
    responses=errors(401, 422),
)
async def audit(
    actor: Operator, rt: Rt, limit: Annotated[int, Query(ge=1, le=1000)] = 100
) -> list[Any]:
    """The audit log, newest first."""
    return [json_ready(e) for e in await rt.worker.call(rt.rounds.audit_log, limit)]
