"""The ASGI application: the routes (``uth.server.routes``), the error shapes and
the table tasks.

``create_app()`` builds a FastAPI app from :class:`~uth.server.config.Settings`.
On start-up it migrates an empty database, voids every round left unfinished by
a previous process (seed 004: the round is cancelled and the bets refunded), and
starts one task per configured table.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import datetime
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from uth.cards import SeededShuffler, Shuffler
from uth.errors import UthError
from uth.server import round_books
from uth.server.clock import Clock, SystemClock
from uth.server.config import Settings, TablesFile, load_tables
from uth.server.ports import (
    BalanceLimitError,
    InsufficientFundsError,
    NotFoundError,
    PlayerRecord,
    Store,
)
from uth.server.protocol import quote
from uth.server.routes import history, operator, play, players, tables
from uth.server.runtime import Runtime
from uth.server.table import GameNumbers, LiveTable, room_resume
from uth.server.web import mount_web

log = logging.getLogger("uth.server")

_CONFLICT_CODES = frozenset(
    {"round_not_open", "round_settling", "round_not_paused", "duplicate", "name_taken"}
)


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
        store: storage, the ledger and the round log in one; a ``SqlStore`` on
            ``settings.database_url`` when None
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
            voided = await rt.worker.call(round_books.recover, st, st, rt.clock.now())
            for game_number in voided:
                log.warning("voided unfinished round %s at start-up", game_number)
                for pid in await rt.worker.call(st.round_player_ids, game_number):
                    rt.restart_voids.setdefault(pid, []).append(game_number)
            numbers = GameNumbers()  # one sequence for every table: unique game numbers
            resumes: dict[str, dict[str, object]] = {}
            for tc in tables_file.tables:
                backer = None
                if tc.backer is not None:  # a card room's third-party backer account
                    record = await rt.worker.call(
                        _backer_account, st, tc.backer, tables_file, rt.clock.now()
                    )
                    rt.reservations.set_balance(record.id, record.balance)
                    backer = (record.id, record.name)
                rules = tc.rule_set(_base(cfg))
                resume = None
                if rules.banking == "player_dealer":  # the rotation goes on (000)
                    resume = await rt.worker.call(room_resume, st, tc.id, rules)
                    resumes[tc.id] = {
                        "last": resume.rotation.last,
                        "streak": resume.rotation.streak,
                        "start": resume.rotation.start,
                        "first_colour": resume.first_colour,
                    }
                rt.tables[tc.id] = LiveTable(
                    tc,
                    rules,
                    rt.ledger,
                    rt.rounds,
                    rt.reservations,
                    rt.worker,
                    rt.clock,
                    shuffler,
                    numbers,
                    backer,
                    resume,
                )
            if resumes:  # where this run's rounds start, for uth replay
                await rt.worker.call(round_books.mark_start, st, resumes, rt.clock.now())
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
                rt.worker.close()
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

    app.include_router(tables.health)
    app.include_router(players.router)
    app.include_router(tables.router)
    app.include_router(history.router)
    app.include_router(operator.router)
    app.include_router(play.router)
    mount_web(app)
    return app


def _backer_account(store: Store, name: str, tables: TablesFile, now: datetime) -> PlayerRecord:
    """The third-party backer's account, created with the starting balance (and a
    random session token nobody is given) when missing.
    """
    found = store.player_by_name(name)
    if found is not None:
        return found
    return store.create_player(name, secrets.token_urlsafe(32), tables.starting_balance, now)


def _base(settings: Settings) -> Any:
    return settings.tables_file.parent if settings.tables_file is not None else None


def _sql_store(url: str) -> Store:
    from uth.server.storage import SqlStore, is_empty, make_engine, upgrade

    if is_empty(url):
        upgrade(url)
    return SqlStore(make_engine(url))
