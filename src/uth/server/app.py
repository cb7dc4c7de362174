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
import unicodedata
from collections import OrderedDict
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import asdict, is_dataclass
from datetime import datetime
from decimal import Decimal
from typing import Annotated, Any

from fastapi import (
    Depends,
    FastAPI,
    HTTPException,
    Path,
    Query,
    Request,
    Response,
    WebSocket,
    WebSocketDisconnect,
)
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from pydantic import (
    AfterValidator,
    BaseModel,
    Field,
    StrictFloat,
    StrictInt,
    StrictStr,
    field_validator,
)
from starlette.exceptions import HTTPException as StarletteHTTPException

from uth.cards import SeededShuffler, Shuffler
from uth.errors import UthError
from uth.money import ZERO, WrittenNumber, money_json, parse_amount
from uth.server.clock import Clock, SystemClock
from uth.server.config import Settings, TablesFile, load_tables
from uth.server.figures import Figures
from uth.server.http_models import (
    AdjustOut,
    AuditOut,
    Health,
    HistoryRow,
    LedgerEntryOut,
    PauseOut,
    PlayerOut,
    RoundDetailOut,
    SignInOut,
    TableDetailOut,
    TableOut,
    VoidOut,
    errors,
)
from uth.server.ports import (
    BalanceLimitError,
    InsufficientFundsError,
    NameTakenError,
    NotFoundError,
    PlayerRecord,
    Store,
)
from uth.server.protocol import MAX_FRAME_BYTES, ProtocolError, parse_command, quote
from uth.server.table import CommandError, GameNumbers, LiveTable
from uth.server.wallet import Wallet
from uth.server.web import mount_web

log = logging.getLogger("uth.server")

_AUTH_SECONDS = 10.0
_CONFLICT_CODES = frozenset(
    {"round_not_open", "round_settling", "round_not_paused", "duplicate", "name_taken"}
)


class RoundSettlingError(UthError):
    """The round is being settled at its table: too late to void it."""

    code = "round_settling"


class InvalidAmountError(UthError):
    """An operator's adjustment that is not a non-zero amount of whole cents."""

    code = "invalid_amount"


class RoundNotPausedError(UthError):
    """Only a paused round can be resumed."""

    code = "round_not_paused"


#: The longest display name, in characters after normalisation.
NAME_MAX = 20
#: Unicode categories refused in a name: control, format (zero-width space,
#: right-to-left override), private use, surrogates, unassigned, line and
#: paragraph separators.
_NAME_REFUSED = frozenset({"Cc", "Cf", "Co", "Cs", "Cn", "Zl", "Zp"})


def normalise_name(value: str) -> str:
    """A display name as stored and compared: NFKC, outer white space removed.

    Raises:
        ValueError: blank, longer than :data:`NAME_MAX`, or holding a control or
            invisible character (named by its code point).
    """
    name = unicodedata.normalize("NFKC", value).strip()
    if not name:
        raise ValueError("must not be blank")
    if len(name) > NAME_MAX:
        raise ValueError(f"at most {NAME_MAX} characters, got {len(name)}")
    bad = next((c for c in name if unicodedata.category(c) in _NAME_REFUSED), None)
    if bad is not None:
        raise ValueError(f"no control or invisible characters, got U+{ord(bad):04X}")
    return name


class SignIn(BaseModel):
    """Sign in with a display name (play money); ``token`` resumes the name's account."""

    name: str = Field(max_length=200)
    token: str | None = Field(default=None, min_length=1, max_length=200)

    @field_validator("name")
    @classmethod
    def _name(cls, value: str) -> str:
        return normalise_name(value)


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
#: A game number in a path: ``YYYYMMDD-HHMMSS-NNNN`` in practice; any other
#: printable text up to 64 characters (the column's size) is simply not found.
GameNumber = Annotated[str, Path(min_length=1, max_length=64, pattern=r"^[\x21-\x7e]+$")]
#: A player id in a path: a positive 32-bit integer (the id column's range).
PlayerId = Annotated[int, Path(ge=1, le=2**31 - 1)]


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
        # Rounds voided by this start (the last server stopped during them), per
        # player: each player is told once, on their next connection.
        self.restart_voids: dict[int, list[str]] = {}
        self.figures = Figures()


async def _amount_as_written(request: Request, parsed: object) -> object:
    """The body's ``amount`` as the client wrote it: FastAPI decodes a JSON number
    to a float (``1e3`` becomes 1000.0), so the raw body is read again with JSON
    numbers kept as written (:class:`uth.money.WrittenNumber`), and the one amount parser (:func:`uth.money.parse_amount`)
    refuses ``1e3`` here as it does on the WebSocket. ``parsed`` is the validated
    value, used when the body cannot be read again.
    """
    try:
        raw = json.loads(await request.body(), parse_float=WrittenNumber)
    except (ValueError, RecursionError):
        return parsed
    return raw.get("amount", parsed) if isinstance(raw, dict) else parsed


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
    token = _bearer(credentials)
    player = await rt.wallet.call(rt.store.player_by_token, token) if token else None
    if player is None:
        raise HTTPException(401, "authorization: a valid player token is required (Bearer)")
    return player


Player = Annotated[PlayerRecord, Depends(current_player)]


def operator(rt: Rt, credentials: Annotated[Bearer, Depends(_operator_bearer)]) -> str:
    """Check the operator's Bearer token (401 otherwise); returns the actor name."""
    expected = rt.settings.operator_token
    token = _bearer(credentials)
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
        shuffler: the deck shuffler (tests and simulations); when None, a seeded
            one if ``settings.shuffle_seed`` is set (development only, logged),
            else each table shuffles with the cryptographically secure generator.
    """
    cfg = settings or Settings()
    tables_file = load_tables(cfg.tables_file)
    if shuffler is None and cfg.shuffle_seed is not None:
        log.warning(
            "UTH_SHUFFLE_SEED=%s: every deck is predictable (development only)", cfg.shuffle_seed
        )
        shuffler = SeededShuffler(cfg.shuffle_seed)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        owned = store is None  # a store the app made is closed with it
        st = store or _sql_store(cfg.database_url)
        try:
            rt = Runtime(cfg, st, tables_file, clock or SystemClock())
            voided = await rt.wallet.call(st.recover, rt.clock.now())
            for game_number in voided:
                log.warning("voided unfinished round %s at start-up", game_number)
                for pid in await rt.wallet.call(st.round_player_ids, game_number):
                    rt.restart_voids.setdefault(pid, []).append(game_number)
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
        shown = f" (got {quote(err['input'])})" if loc and err["type"] != "missing" else ""
        message = f"{field}: {str(err['msg']).removeprefix('Value error, ')}{shown}"
        return JSONResponse(
            status_code=422,
            content={"error": {"code": "invalid_request", "message": message, "field": field}},
        )

    @app.exception_handler(StarletteHTTPException)
    async def _http_error(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        # 401 keeps its documented {"detail"}; a body that cannot be parsed (400)
        # gets the error shape of every other refusal.
        if exc.status_code != 400:
            return JSONResponse(
                status_code=exc.status_code, content={"detail": exc.detail}, headers=exc.headers
            )
        message = f"body: {str(exc.detail).lower()}"
        return JSONResponse(
            status_code=400,
            content={"error": {"code": "invalid_request", "message": message, "field": "body"}},
        )

    @app.exception_handler(UthError)
    async def _uth_error(request: Request, exc: UthError) -> JSONResponse:
        status = (
            404
            if isinstance(exc, NotFoundError)
            else 409
            if isinstance(exc, InsufficientFundsError | BalanceLimitError)
            or exc.code in _CONFLICT_CODES
            else 400
        )
        return JSONResponse(
            status_code=status,
            content={"error": {"code": exc.code, "message": str(exc), "field": exc.field}},
        )

    @app.get("/healthz", tags=["health"], response_model=Health)
    async def healthz(rt: Rt) -> dict[str, Any]:
        """Liveness: the tables and their phases."""
        return {"status": "ok", "tables": {i: t.phase for i, t in rt.tables.items()}}

    @app.post(
        "/api/players",
        tags=["players"],
        status_code=201,
        response_model=SignInOut,
        responses={
            200: {"model": SignInOut, "description": "The name's account, resumed with its token"},
            **errors(400, 409, 422),
        },
    )
    async def sign_in(body: SignIn, rt: Rt, response: Response) -> dict[str, Any]:
        """Sign in with a name: a free name opens a play-money account (201); the
        name with its account's token resumes that account (200); the name of
        another account is refused (409 ``name_taken``). The token in the reply
        authorises this player only.
        """
        store = rt.store

        def sign_in_once() -> tuple[PlayerRecord, bool]:
            # One storage call: the worker runs calls one at a time, so two
            # sign-ins with one name cannot both find it free.
            owner = store.player_by_name(body.name)
            if owner is None:
                # A new account always gets a fresh token, never one the client chose.
                start = rt.tables_file.starting_balance
                return store.create_player(body.name, fresh, start, rt.clock.now()), True
            holder = store.player_by_token(body.token) if body.token else None
            if holder is None or holder.id != owner.id:
                raise NameTakenError(
                    f"name: {body.name!r} belongs to another account; sign in with its token "
                    "(kept by the browser that created it) or choose another name",
                    field="name",
                )
            return owner, False

        fresh = secrets.token_urlsafe(32)
        player, created = await rt.wallet.call(sign_in_once)
        token = fresh if created else body.token
        if created or not rt.wallet.knows(player.id):
            rt.wallet.set_balance(player.id, player.balance)
        response.status_code = 201 if created else 200
        return {"player": _player_json(player, rt), "token": token}

    @app.get("/api/me", tags=["players"], response_model=PlayerOut, responses=errors(401))
    async def me(player: Player, rt: Rt) -> dict[str, Any]:
        """The signed-in player and the balance available to bet."""
        return _player_json(player, rt)

    @app.get("/api/tables", tags=["tables"], response_model=list[TableOut])
    async def tables(rt: Rt) -> list[dict[str, Any]]:
        """The lobby: every table with its rule set, limits, players and phase."""
        return [t.info() for t in rt.tables.values()]

    @app.get(
        "/api/tables/{table_id}",
        tags=["tables"],
        response_model=TableDetailOut,
        responses=errors(404, 422),
    )
    async def table(table_id: str, rt: Rt) -> dict[str, Any]:
        """One table with its full rule set (pay tables, limits, options)."""
        t = _table(rt, table_id)
        return {
            **t.info(),
            "rule_set": t.rules.model_dump(mode="json"),
            "cap": _json_ready(t.rules.cap_amount()),
            "figures": rt.figures.for_rules(t.rules),
        }

    @app.get(
        "/api/history",
        tags=["history"],
        response_model=list[HistoryRow],
        responses=errors(401, 422),
    )
    async def history(
        player: Player, rt: Rt, limit: Annotated[int, Query(ge=1, le=200)] = 20
    ) -> list[Any]:
        """The player's last rounds, newest first."""
        rows = await rt.wallet.call(rt.store.history, player.id, limit)
        return [_json_ready(r) for r in rows]

    @app.get(
        "/api/history/{game_number}",
        tags=["history"],
        response_model=RoundDetailOut,
        responses=errors(401, 404, 422),
    )
    async def round_detail(game_number: GameNumber, player: Player, rt: Rt) -> Any:
        """One of the player's rounds: cards, decisions, wagers, results, balance before and after."""
        return _json_ready(await rt.wallet.call(rt.store.round_detail, player.id, game_number))

    @app.get(
        "/api/ledger", tags=["history"], response_model=list[LedgerEntryOut], responses=errors(401)
    )
    async def ledger(player: Player, rt: Rt) -> list[Any]:
        """Every ledger entry of the player, oldest first."""
        return [_json_ready(e) for e in await rt.wallet.call(rt.store.ledger, player.id)]

    @app.post(
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
        round_id = await rt.wallet.call(rt.store.round_id, game_number)
        balances = await rt.wallet.call(
            rt.store.void_round, round_id, body.reason, actor, rt.clock.now()
        )
        for pid, balance in balances.items():
            rt.wallet.set_balance(pid, balance)
        return {"game_number": game_number, "status": "voided"}

    @app.post(
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

    @app.post(
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

    @app.post(
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

    @app.get(
        "/api/operator/audit",
        tags=["operator"],
        response_model=list[AuditOut],
        responses=errors(401, 422),
    )
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
        conn = _WsConnection(websocket, lambda c: t.disconnect(player.id, c))
        if not rt.wallet.knows(player.id):
            rt.wallet.set_balance(player.id, player.balance)
        try:
            await t.load_player(player.id)
        except Exception:  # Repeat is a convenience: the player still sits down
            log.exception("table %s: last bets of player %s not loaded", table_id, player.id)
        try:
            snapshot = t.join(player, conn)
        except CommandError as exc:
            await websocket.send_json(
                {"type": "error", "id": None, "code": exc.code, "message": str(exc)}
            )
            await websocket.close(code=4409)
            return
        conn.send(snapshot)
        for notice in t.notices(player.id):
            conn.send(notice)
        for game_number in rt.restart_voids.pop(player.id, []):
            conn.send(
                {
                    "type": "round_voided",
                    "game_number": game_number,
                    "code": "server_restarted",
                    "reason": "server restarted during the round",
                    "balance": money_json(rt.wallet.available(player.id)),
                }
            )
        writer = asyncio.create_task(conn.pump())
        try:
            while not conn.stalled:
                text = await _receive_text(websocket)
                reply = _dispatch(t, player.id, text, conn)
                conn.send(reply)
                t.publish()
                if reply["type"] == "accepted" and "snapshot" not in reply:
                    # The balance is shared: the player's other tables show it too.
                    for other in rt.tables.values():
                        if other is not t:
                            other.push_state(player.id)
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


def _dispatch(
    table: LiveTable, player_id: int, text: str | None, conn: _WsConnection | None = None
) -> dict[str, Any]:
    if text is None:
        return {
            "type": "error",
            "id": None,
            "code": "malformed",
            "message": "message: send JSON in a text frame (binary frames are not accepted)",
        }
    if len(text) > MAX_FRAME_BYTES or len(text.encode("utf-8")) > MAX_FRAME_BYTES:
        # Not parsed, not quoted: the reply's size does not depend on the input's.
        return {
            "type": "error",
            "id": None,
            "code": "malformed",
            "message": f"message: too long; at most {MAX_FRAME_BYTES} bytes",
        }
    try:
        # JSON numbers with a fraction or exponent keep their text as written, so
        # that the amount parser can refuse 1e2 and echo it as 1e2 (parse_amount).
        raw = json.loads(text, parse_float=WrittenNumber)
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
    return table.handle(player_id, command, conn)


async def _authenticate(websocket: WebSocket, rt: Runtime) -> PlayerRecord | None:
    try:
        text = await asyncio.wait_for(_receive_text(websocket), timeout=_AUTH_SECONDS)
        first = json.loads(text) if text is not None and len(text) <= MAX_FRAME_BYTES else None
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


#: Bytes of text queued for one connection before it counts as stalled and is
#: closed (issue 7: queues were bounded in messages, not bytes).
QUEUE_BYTES = 1 << 20


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
    """A WebSocket with an outgoing queue bounded in bytes: ``send`` never blocks
    the table.

    A client that stops reading fills its queue; it is then closed and counts as
    disconnected at once (``on_stall`` releases its seat), rather than holding the
    server's memory.
    """

    def __init__(
        self, websocket: WebSocket, on_stall: Callable[[_WsConnection], None] | None = None
    ) -> None:
        self.websocket = websocket
        self.queue: asyncio.Queue[str] = asyncio.Queue()
        self.queued_bytes = 0
        self.stalled = False
        self._on_stall = on_stall
        self._closing: asyncio.Task[None] | None = None

    def send(self, message: dict[str, Any]) -> None:
        if self.stalled:
            return
        text = _encode(message)
        if self.queued_bytes + len(text) > QUEUE_BYTES:
            self.stalled = True
            log.warning("closing a connection that stopped reading")
            self.queue = asyncio.Queue()  # the queued texts are dropped
            self.queued_bytes = 0
            loop = asyncio.get_running_loop()
            if self._on_stall is not None:
                # Not now: the table may be iterating over its seats.
                loop.call_soon(self._on_stall, self)
            self._closing = loop.create_task(self._close())
            return
        self.queued_bytes += len(text)
        self.queue.put_nowait(text)

    async def _close(self) -> None:
        # A client that does not read may never complete the closing handshake:
        # whatever happens, nothing is left for "Task exception was never retrieved".
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self.websocket.close(code=1013), timeout=5)

    async def pump(self) -> None:
        while not self.stalled:
            text = await self.queue.get()
            self.queued_bytes -= len(text)
            try:
                await self.websocket.send_text(text)
            except Exception:
                return


def _player_json(player: PlayerRecord, rt: Runtime) -> dict[str, Any]:
    # Every write of this process updates the wallet, so a balance it knows is current.
    balance = rt.wallet.available(player.id) if rt.wallet.knows(player.id) else player.balance
    return {"id": player.id, "name": player.name, "balance": money_json(balance)}


def _bearer(credentials: HTTPAuthorizationCredentials | None) -> str | None:
    return (credentials.credentials.strip() or None) if credentials is not None else None


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
