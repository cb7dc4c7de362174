"""What the routes share: the :class:`Runtime` (storage, reservations, clock,
tables) and the FastAPI dependencies that give it and the signed-in player or
operator to a route.
"""

from __future__ import annotations

import asyncio
import hmac
from dataclasses import asdict, is_dataclass
from datetime import datetime
from decimal import Decimal
from typing import Annotated, Any

from fastapi import Depends, HTTPException, Path, Request
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from uth.money import money_json
from uth.server.clock import Clock
from uth.server.config import Settings, TablesFile
from uth.server.figures import Figures
from uth.server.ports import Ledger, NotFoundError, PlayerRecord, RoundLog, Store
from uth.server.reservations import Reservations
from uth.server.storage.worker import StorageWorker
from uth.server.table import LiveTable

#: A game number in a path: ``YYYYMMDD-HHMMSS-NNNN`` in practice; any other
#: printable text up to 64 characters (the column's size) is simply not found.
GameNumber = Annotated[str, Path(min_length=1, max_length=64, pattern=r"^[\x21-\x7e]+$")]
#: A player id in a path: a positive 32-bit integer (the id column's range).
PlayerId = Annotated[int, Path(ge=1, le=2**31 - 1)]


class Runtime:
    """What the routes share: ledger, round log, reservations, storage worker, clock, tables."""

    def __init__(
        self, settings: Settings, store: Store, tables_file: TablesFile, clock: Clock
    ) -> None:
        self.settings = settings
        self.ledger: Ledger = store
        self.rounds: RoundLog = store
        self.tables_file = tables_file
        self.clock = clock
        self.reservations = Reservations()
        self.worker = StorageWorker()
        self.tables: dict[str, LiveTable] = {}
        self.tasks: list[asyncio.Task[None]] = []
        # Rounds voided by this start (the last server stopped during them), per
        # player: each player is told once, on their next connection.
        self.restart_voids: dict[int, list[str]] = {}
        self.figures = Figures()


def json_ready(value: Any) -> Any:
    """A storage record as JSON: dataclasses as objects, Decimal amounts as money
    numbers, datetimes as ISO text.
    """
    if is_dataclass(value) and not isinstance(value, type):
        return json_ready(asdict(value))
    if isinstance(value, dict):
        return {k: json_ready(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [json_ready(v) for v in value]
    if isinstance(value, Decimal):
        return money_json(value)
    if isinstance(value, datetime):
        return value.isoformat()
    return value


def runtime(request: Request) -> Runtime:
    """The running server's shared state (a FastAPI dependency)."""
    rt: Runtime = request.app.state.runtime
    return rt


Rt = Annotated[Runtime, Depends(runtime)]


#: The Bearer token schemes of the OpenAPI document (``Authorization: Bearer <token>``).
_player_bearer = HTTPBearer(
    auto_error=False, scheme_name="player", description="a session token from POST /api/players"
)
_operator_bearer = HTTPBearer(
    auto_error=False, scheme_name="operator", description="the operator token (UTH_OPERATOR_TOKEN)"
)
Bearer = HTTPAuthorizationCredentials | None


async def current_player(
    rt: Rt, credentials: Annotated[Bearer, Depends(_player_bearer)]
) -> PlayerRecord:
    """The player whose Bearer token came with the request (401 otherwise)."""
    token = bearer_token(credentials)
    player = await rt.worker.call(rt.ledger.player_by_token, token) if token else None
    if player is None:
        raise HTTPException(401, "authorization: a valid player token is required (Bearer)")
    return player


Player = Annotated[PlayerRecord, Depends(current_player)]


def operator(rt: Rt, credentials: Annotated[Bearer, Depends(_operator_bearer)]) -> str:
    """Check the operator's Bearer token (401 otherwise); returns the actor name."""
    expected = rt.settings.operator_token
    token = bearer_token(credentials)
    if not expected or not token or not hmac.compare_digest(token, expected):
        raise HTTPException(401, "authorization: a valid operator token is required (Bearer)")
    return "operator"


Operator = Annotated[str, Depends(operator)]


def player_json(player: PlayerRecord, rt: Runtime) -> dict[str, Any]:
    """The player as the API shows them: id, name, balance available to bet."""
    # Every write of this process updates the reservations, so a balance they know is current.
    balance = (
        rt.reservations.available(player.id) if rt.reservations.knows(player.id) else player.balance
    )
    return {"id": player.id, "name": player.name, "balance": money_json(balance)}


def bearer_token(credentials: HTTPAuthorizationCredentials | None) -> str | None:
    """The token of an ``Authorization: Bearer`` header, or None."""
    return (credentials.credentials.strip() or None) if credentials is not None else None


def table_of(rt: Runtime, table_id: str) -> LiveTable:
    """The table ``table_id``.

    Raises:
        NotFoundError: no such table.
    """
    t = rt.tables.get(table_id)
    if t is None:
        raise NotFoundError(f"table_id: no table {table_id!r}", field="table_id")
    return t
