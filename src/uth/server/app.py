"""The ASGI application: HTTP routes, the WebSocket endpoint and the table tasks.

``create_app()`` builds a FastAPI app from :class:`~uth.server.config.Settings`.
On start-up it migrates an empty database, voids every round left unfinished by
a previous process (seed 004: the round is cancelled and the bets refunded), and
starts one task per configured table.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import json
import logging
import secrets
from collections import OrderedDict
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import asdict, is_dataclass
from datetime import datetime
from decimal import Decimal
from typing import Annotated, Any

from fastapi import (
    Depends,
    FastAPI,
    Header,
    HTTPException,
    Query,
    Request,
    WebSocket,
    WebSocketDisconnect,
)
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field, StrictFloat, StrictInt, StrictStr

from uth.cards import Shuffler
from uth.errors import UthError
from uth.money import ZERO, money_json, parse_amount
from uth.server.clock import Clock, SystemClock
from uth.server.config import Settings, TablesFile, load_tables
from uth.server.figures import Figures
from uth.server.ports import InsufficientFundsError, NotFoundError, PlayerRecord, Store
from uth.server.protocol import ProtocolError, parse_command
from uth.server.table import CommandError, GameNumbers, LiveTable
from uth.server.wallet import Wallet
from uth.server.web import mount_web

log = logging.getLogger("uth.server")

_AUTH_SECONDS = 10.0
_CONFLICT_CODES = frozenset({"round_not_open", "round_settling", "duplicate"})


class RoundSettlingError(UthError):
    """The round is being settled at its table: too late to void it."""

    code = "round_settling"


class SignIn(BaseModel):
    """Sign in with a display name (play money)."""

    name: str = Field(min_length=1, max_length=40, pattern=r"^[^\x00-\x1f]+$")


class VoidRequest(BaseModel):
    """Void a round: the reason is written to the audit log."""

    reason: str = Field(min_length=1, max_length=500)


class AdjustRequest(BaseModel):
    """Credit (+) or debit (-) a balance, with a reason for the audit log."""

    amount: StrictStr | StrictInt | StrictFloat
    reason: str = Field(min_length=1, max_length=500)


class Runtime:
    """What the routes share: store, wallet, clock, tables."""

    def __init__(
        self, settings: Settings, store: Store, tables_file: TablesFile, clock: Clock
    ) -> None:
        self.settings = settings
        self.store = store
        self.tables_file = tables_file
        self.clock = clock
        self.wallet = Wallet()
        self.tables: dict[str, LiveTable] = {}
        self.tasks: list[asyncio.Task[None]] = []
        self.figures = Figures()


def _json_ready(value: Any) -> Any:
    if is_dataclass(value) and not isinstance(value, type):
        return _json_ready(asdict(value))
    if isinstance(value, dict):
        return {k: _json_ready(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_json_ready(v) for v in value]
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


async def current_player(
    rt: Rt, authorization: Annotated[str | None, Header()] = None
) -> PlayerRecord:
    """The player whose Bearer token came with the request (401 otherwise)."""
    token = _bearer(authorization)
    player = await rt.wallet.call(rt.store.player_by_token, token) if token else None
    if player is None:
        raise HTTPException(401, "authorization: a valid player token is required (Bearer)")
    return player


Player = Annotated[PlayerRecord, Depends(current_player)]


def operator(rt: Rt, authorization: Annotated[str | None, Header()] = None) -> str:
    """Check the operator's Bearer token (401 otherwise); returns the actor name."""
    expected = rt.settings.operator_token
    token = _bearer(authorization)
    if not expected or not token or not hmac.compare_digest(token, expected):
        raise HTTPException(401, "authorization: a valid operator token is required (Bearer)")
    return "operator"


Operator = Annotated[str, Depends(operator)]


def create_app(
    settings: Settings | None = None,
    *,
    store: Store | None = None,
    clock: Clock | None = None,
    shuffler: Shuffler | None = None,
) -> FastAPI:
    """Build the application.

    Args:
        settings: server settings; read from ``UTH_*`` variables when None.
        store: storage; a ``SqlStore`` on ``settings.database_url`` when None
            (migrated when the database is empty).
        clock: the clock (a ``ManualClock`` in tests); the system clock when None.
        shuffler: the deck shuffler; cryptographically secure when None.
    """
    cfg = settings or Settings()
    tables_file = load_tables(cfg.tables_file)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        owned = store is None  # a store the app made is closed with it
        st = store or _sql_store(cfg.database_url)
        try:
            rt = Runtime(cfg, st, tables_file, clock or SystemClock())
            voided = await rt.wallet.call(st.recover, rt.clock.now())
            for game_number in voided:
                log.warning("voided unfinished round %s at start-up", game_number)
            numbers = GameNumbers()  # one sequence for every table: unique game numbers
            for tc in tables_file.tables:
                rt.tables[tc.id] = LiveTable(
                    tc, tc.rule_set(_base(cfg)), st, rt.wallet, rt.clock, shuffler, numbers
                )
            rt.figures.start(t.rules for t in rt.tables.values())
            rt.tasks = [
                asyncio.create_task(t.run(), name=f"table-{i}") for i, t in rt.tables.items()
            ]
            app.state.runtime = rt
            try:
                yield
            finally:
                for task in rt.tasks:
                    task.cancel()
                for task in rt.tasks:
                    with contextlib.suppress(asyncio.CancelledError):
                        await task
                rt.wallet.close()
        finally:
            engine = getattr(st, "engine", None) if owned else None
            if engine is not None:
                engine.dispose()

    app = FastAPI(
        title="uth live table",
        version="0.1.0",
        description="Ultimate Texas Hold'em live tables: sign-in, tables, history, operator routes. "
        "Play happens over the WebSocket /ws/tables/{table_id} (docs/protocol.md).",
        lifespan=lifespan,
    )

    @app.exception_handler(RequestValidationError)
    async def _invalid_request(request: Request, exc: RequestValidationError) -> JSONResponse:
        err = exc.errors()[0]
        # ("body", field, union member ...): name the request's own field.
        loc = [str(p) for p in err["loc"] if p not in ("body", "query", "path")]
        field = loc[0] if loc else "body"
        shown = f" (got {err['input']!r})" if loc and err["type"] != "missing" else ""
        message = f"{field}: {str(err['msg']).removeprefix('Value error, ')}{shown}"
        return JSONResponse(
            status_code=422,
            content={"error": {"code": "invalid_request", "message": message, "field": field}},
        )

    @app.exception_handler(UthError)
    async def _uth_error(request: Request, exc: UthError) -> JSONResponse:
        status = (
            404
            if isinstance(exc, NotFoundError)
            else 409
            if isinstance(exc, InsufficientFundsError) or exc.code in _CONFLICT_CODES
            else 400
        )
        return JSONResponse(
            status_code=status,
            content={"error": {"code": exc.code, "message": str(exc), "field": exc.field}},
        )

    @app.get("/healthz", tags=["health"])
    async def healthz(rt: Rt) -> dict[str, Any]:
        """Liveness: the tables and their phases."""
        return {"status": "ok", "tables": {i: t.phase for i, t in rt.tables.items()}}

    @app.post("/api/players", tags=["players"], status_code=201)
    async def sign_in(body: SignIn, rt: Rt) -> dict[str, Any]:
        """Create a play-money account; the token in the reply authorises this player only."""
        token = secrets.token_urlsafe(32)
        player = await rt.wallet.call(
            rt.store.create_player,
            body.name.strip(),
            token,
            rt.tables_file.starting_balance,
            rt.clock.now(),
        )
        rt.wallet.set_balance(player.id, player.balance)
        return {"player": _player_json(player, rt), "token": token}

    @app.get("/api/me", tags=["players"])
    async def me(player: Player, rt: Rt) -> dict[str, Any]:
        """The signed-in player and the balance available to bet."""
        return _player_json(player, rt)

    @app.get("/api/tables", tags=["tables"])
    async def tables(rt: Rt) -> list[dict[str, Any]]:
        """The lobby: every table with its rule set, limits, players and phase."""
        return [t.info() for t in rt.tables.values()]

    @app.get("/api/tables/{table_id}", tags=["tables"])
    async def table(table_id: str, rt: Rt) -> dict[str, Any]:
        """One table with its full rule set (pay tables, limits, options)."""
        t = _table(rt, table_id)
        return {
            **t.info(),
            "rule_set": t.rules.model_dump(mode="json"),
            "cap": _json_ready(t.rules.cap_amount()),
            "figures": rt.figures.for_rules(t.rules),
        }

    @app.get("/api/history", tags=["history"])
    async def history(
        player: Player, rt: Rt, limit: Annotated[int, Query(ge=1, le=200)] = 20
    ) -> list[Any]:
        """The player's last rounds, newest first."""
        rows = await rt.wallet.call(rt.store.history, player.id, limit)
        return [_json_ready(r) for r in rows]

    @app.get("/api/history/{game_number}", tags=["history"])
    async def round_detail(game_number: str, player: Player, rt: Rt) -> Any:
        """One of the player's rounds: cards, decisions, wagers, results, balance before and after."""
        return _json_ready(await rt.wallet.call(rt.store.round_detail, player.id, game_number))

    @app.get("/api/ledger", tags=["history"])
    async def ledger(player: Player, rt: Rt) -> list[Any]:
        """Every ledger entry of the player, oldest first."""
        return [_json_ready(e) for e in await rt.wallet.call(rt.store.ledger, player.id)]

    @app.post("/api/operator/rounds/{game_number}/void", tags=["operator"])
    async def void_round(
        game_number: str, body: VoidRequest, actor: Operator, rt: Rt
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
        round_id = await rt.wallet.call(rt.store.round_id, game_number)
        balances = await rt.wallet.call(
            rt.store.void_round, round_id, body.reason, actor, rt.clock.now()
        )
        for pid, balance in balances.items():
            rt.wallet.set_balance(pid, balance)
        return {"game_number": game_number, "status": "voided"}

    @app.post("/api/operator/players/{player_id}/adjust", tags=["operator"])
    async def adjust(
        player_id: int, body: AdjustRequest, actor: Operator, rt: Rt
    ) -> dict[str, Any]:
        """Credit or debit a balance with a reason (audited)."""
        amount = parse_amount(body.amount, field="amount", allow_negative=True)
        if amount == 0:
            raise UthError("amount: must not be zero", field="amount")
        player = await rt.wallet.call(rt.store.player, player_id)
        if not rt.wallet.knows(player.id):
            rt.wallet.set_balance(player.id, player.balance)
        # A debit is reserved first, with no await between the check and the
        # reservation, so bets placed meanwhile cannot spend the same money.
        held = -amount if amount < 0 else ZERO
        rt.wallet.reserve(player.id, held, field="amount")
        try:
            balance = await rt.wallet.call(
                rt.store.adjust_balance, player_id, amount, body.reason, actor, rt.clock.now()
            )
        finally:
            rt.wallet.release(player.id, held)
        rt.wallet.set_balance(player_id, balance)
        return {"player_id": player_id, "balance": money_json(balance)}

    @app.get("/api/operator/audit", tags=["operator"])
    async def audit(
        actor: Operator, rt: Rt, limit: Annotated[int, Query(ge=1, le=1000)] = 100
    ) -> list[Any]:
        """The audit log, newest first."""
        return [_json_ready(e) for e in await rt.wallet.call(rt.store.audit_log, limit)]

    @app.websocket("/ws/tables/{table_id}")
    async def play(websocket: WebSocket, table_id: str) -> None:
        """One player at one table. The first message must be ``{"type": "auth", "token": ...}``."""
        rt: Runtime = websocket.app.state.runtime
        await websocket.accept()
        t = rt.tables.get(table_id)
        if t is None:
            await websocket.send_json(
                {
                    "type": "error",
                    "id": None,
                    "code": "not_found",
                    "message": f"table: no table {table_id!r}",
                }
            )
            await websocket.close(code=4404)
            return
        player = await _authenticate(websocket, rt)
        if player is None:
            return
        conn = _WsConnection(websocket)
        if not rt.wallet.knows(player.id):
            rt.wallet.set_balance(player.id, player.balance)
        try:
            snapshot = t.join(player, conn)
        except CommandError as exc:
            await websocket.send_json(
                {"type": "error", "id": None, "code": exc.code, "message": str(exc)}
            )
            await websocket.close(code=4409)
            return
        conn.send(snapshot)
        writer = asyncio.create_task(conn.pump())
        try:
            while True:
                text = await _receive_text(websocket)
                conn.send(_dispatch(t, player.id, text))
                t.publish()
        except WebSocketDisconnect:
            pass
        finally:
            t.disconnect(player.id, conn)
            writer.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await writer

    mount_web(app)
    return app


async def _receive_text(websocket: WebSocket) -> str | None:
    """The next text frame; None for a binary frame (answered as malformed).

    Raises:
        WebSocketDisconnect: the client went away.
    """
    message = await websocket.receive()
    if message["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(message.get("code", 1000), message.get("reason"))
    text = message.get("text")
    return text if isinstance(text, str) else None


def _dispatch(table: LiveTable, player_id: int, text: str | None) -> dict[str, Any]:
    if text is None:
        return {
            "type": "error",
            "id": None,
            "code": "malformed",
            "message": "message: send JSON in a text frame (binary frames are not accepted)",
        }
    try:
        # JSON numbers with a fraction or exponent keep their text as Decimal, so
        # that the amount parser can refuse 1e2 (uth.money.parse_amount).
        raw = json.loads(text, parse_float=Decimal)
    except (ValueError, RecursionError):
        return {
            "type": "error",
            "id": None,
            "code": "malformed",
            "message": "message: not valid JSON",
        }
    try:
        command = parse_command(raw)
    except ProtocolError as exc:
        return {"type": "error", "id": exc.request_id, "code": exc.code, "message": str(exc)}
    return table.handle(player_id, command)


async def _authenticate(websocket: WebSocket, rt: Runtime) -> PlayerRecord | None:
    try:
        text = await asyncio.wait_for(_receive_text(websocket), timeout=_AUTH_SECONDS)
        first = json.loads(text) if text is not None else None
    except (TimeoutError, ValueError, RecursionError, WebSocketDisconnect):
        first = None
    token = first.get("token") if isinstance(first, dict) and first.get("type") == "auth" else None
    player = (
        await rt.wallet.call(rt.store.player_by_token, token) if isinstance(token, str) else None
    )
    if player is None:
        with contextlib.suppress(Exception):
            await websocket.send_json(
                {
                    "type": "error",
                    "id": None,
                    "code": "unauthorized",
                    "message": "auth: a valid player token is required",
                }
            )
            await websocket.close(code=4401)
        return None
    return player


#: Messages queued for one connection before it counts as stalled and is closed.
_QUEUE_LIMIT = 2000


class _Encoder:
    """JSON text of outgoing messages, encoded once per message object.

    A broadcast puts the same dict on every player's queue; this keeps its text so
    that a table of a thousand players encodes it once, not a thousand times.
    """

    def __init__(self, size: int = 256) -> None:
        self._size = size
        self._texts: OrderedDict[int, tuple[dict[str, Any], str]] = OrderedDict()

    def __call__(self, message: dict[str, Any]) -> str:
        hit = self._texts.get(id(message))
        if hit is not None and hit[0] is message:
            return hit[1]
        text = json.dumps(message, separators=(",", ":"))
        self._texts[id(message)] = (message, text)  # the reference keeps the id unique
        if len(self._texts) > self._size:
            self._texts.popitem(last=False)
        return text


_encode = _Encoder()


class _WsConnection:
    """A WebSocket with a bounded outgoing queue: ``send`` never blocks the table.

    A client that stops reading fills its queue; it is then disconnected rather
    than holding the server's memory.
    """

    def __init__(self, websocket: WebSocket) -> None:
        self.websocket = websocket
        self.queue: asyncio.Queue[dict[str, Any]] = asyncio.Queue(_QUEUE_LIMIT)
        self.stalled = False

    def send(self, message: dict[str, Any]) -> None:
        if self.stalled:
            return
        try:
            self.queue.put_nowait(message)
        except asyncio.QueueFull:
            self.stalled = True
            log.warning("closing a connection that stopped reading")
            asyncio.get_running_loop().create_task(self.websocket.close(code=1013))

    async def pump(self) -> None:
        while True:
            message = await self.queue.get()
            try:
                await self.websocket.send_text(_encode(message))
            except Exception:
                return


def _player_json(player: PlayerRecord, rt: Runtime) -> dict[str, Any]:
    # Every write of this process updates the wallet, so a balance it knows is current.
    balance = rt.wallet.available(player.id) if rt.wallet.knows(player.id) else player.balance
    return {"id": player.id, "name": player.name, "balance": money_json(balance)}


def _bearer(authorization: str | None) -> str | None:
    if authorization and authorization.lower().startswith("bearer "):
        return authorization[7:].strip() or None
    return None


def _table(rt: Runtime, table_id: str) -> LiveTable:
    t = rt.tables.get(table_id)
    if t is None:
        raise NotFoundError(f"table_id: no table {table_id!r}", field="table_id")
    return t


def _base(settings: Settings) -> Any:
    return settings.tables_file.parent if settings.tables_file is not None else None


def _sql_store(url: str) -> Store:
    from uth.server.storage import SqlStore, is_empty, make_engine, upgrade

    if is_empty(url):
        upgrade(url)
    return SqlStore(make_engine(url))
