"""Helpers of the live-table tests: a server on a manual clock, WebSocket clients
that never block for ever, and checks of balances against the ledger.

A test builds a server with :func:`live_server` (the real app, the real storage on
the ``store_url`` database, a :class:`~uth.server.clock.ManualClock` and a seeded
shuffler; when the server stops, every round it stored must replay:
:func:`assert_every_round_replays`), signs players in over HTTP and connects them over the real WebSocket
endpoint with :meth:`LiveServer.connect`. Nothing sleeps: time moves only when a
test advances the clock, and only to a deadline the server announced.
"""

from __future__ import annotations

import contextlib
import itertools
import json
import re
from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from decimal import Decimal
from pathlib import Path
from typing import Any

import anyio
from fastapi.testclient import TestClient
from pydantic import ValidationError
from sqlalchemy import text

from uth.cards import SeededShuffler, Shuffler, SingleDeck
from uth.server.app import create_app
from uth.server.clock import ManualClock
from uth.server.config import Settings
from uth.server.messages import ServerMessage
from uth.server.ports import Store
from uth.server.replay import check_all
from uth.server.storage import SqlStore, make_engine

OPERATOR_TOKEN = "operator-token-for-tests-0123456789"
START = datetime(2026, 11, 29, 23, 30, 15, tzinfo=UTC)
GAME_NUMBER = re.compile(r"^\d{8}-\d{6}-\d{4}$")
CARD = re.compile(r"^[2-9TJQKA][cdhs]$")
RECV_TIMEOUT = 10.0
_CONNECTIONS = itertools.count(1)
#: A California card-room table for the live tests (tables file entry).
CARD_ROOM_TABLE: dict[str, Any] = {
    "id": "t1",
    "name": "Test card room",
    "rules": "california",
    "betting_seconds": 10,
    "yellow_seconds": 3,
    "decision_seconds": 10,
    "pause_seconds": 2,
    "offer_seconds": 5,
}

# A live table with round numbers: 10 s betting (the last 3 s yellow), 10 s per
# decision, a 2 s pause.
LIVE_TABLE: dict[str, Any] = {
    "id": "t1",
    "name": "Test live table",
    "rules": "live",
    "betting_seconds": 10,
    "yellow_seconds": 3,
    "decision_seconds": 10,
    "pause_seconds": 2,
}


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value)
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{k} = {_toml_value(v)}" for k, v in value.items()) + " }"
    raise TypeError(value)


def write_tables(
    path: Path, tables: list[dict[str, Any]] | None = None, *, starting_balance: int = 1000
) -> Path:
    """Write a tables TOML file (one :data:`LIVE_TABLE` by default) and return its path."""
    lines = [f"starting_balance = {starting_balance}"]
    for table in tables or [LIVE_TABLE]:
        lines += ["", "[[tables]]"]
        lines += [f"{k} = {_toml_value(v)}" for k, v in table.items()]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def decks(seed: int, rounds: int) -> list[tuple[str, ...]]:
    """The deck orders the table deals in its first ``rounds`` rounds with this seed
    (one ``SingleDeck`` on a ``SeededShuffler``, as the live and casino presets use).
    """
    procedure = SingleDeck(SeededShuffler(seed))
    return [tuple(str(c) for c in procedure.next_deck().order) for _ in range(rounds)]


def cards_in(value: Any) -> set[str]:
    """Every card string anywhere in a JSON value."""
    if isinstance(value, str):
        return {value} if CARD.match(value) else set()
    if isinstance(value, dict):
        return set().union(*(cards_in(v) for v in value.values())) if value else set()
    if isinstance(value, list):
        return set().union(*(cards_in(v) for v in value)) if value else set()
    return set()


def check_message(text: str) -> None:
    """Validate a frame the server sent against its typed model
    (:class:`uth.server.messages.ServerMessage`): every message received in the live
    tests goes through here, so a message that drifts from docs/protocol.md and
    ``docs/protocol.schema.json`` fails the test that received it.
    """
    try:
        ServerMessage.model_validate_json(text)
    except ValidationError as exc:
        raise AssertionError(f"a server message breaks its model: {text[:300]}\n{exc}") from None


async def _receive(stream: Any, timeout: float) -> Any:
    with anyio.fail_after(timeout):
        return await stream.receive()


class Conn:
    """One player's WebSocket connection, with bounded receives.

    ``log`` keeps every message received, in order. Messages read while waiting
    for a command's reply are kept and returned by later :meth:`recv` calls.
    """

    def __init__(self, ws: Any, name: str) -> None:
        self.ws = ws
        self.name = name
        self.log: list[dict[str, Any]] = []
        self.pending: deque[dict[str, Any]] = deque()
        self.snapshot: dict[str, Any] = {}
        self.street: str | None = None  # the last decision_required read
        # Request ids are remembered per player, across their connections: each
        # connection uses its own prefix.
        self._prefix = f"{name}-{next(_CONNECTIONS)}"
        self._ids = itertools.count(1)

    def _read(self, timeout: float = RECV_TIMEOUT) -> dict[str, Any]:
        try:
            raw = self.ws.portal.call(_receive, self.ws._send_rx, timeout)
        except TimeoutError:
            raise AssertionError(
                f"{self.name}: no message within {timeout} s; last: {self.log[-3:]}"
            ) from None
        if raw["type"] == "websocket.close":
            message = {"type": "websocket.close", "code": raw.get("code", 1000)}
        else:
            message = json.loads(raw["text"])
            check_message(raw["text"])
            if message["type"] == "decision_required":
                self.street = message["street"]
        self.log.append(message)
        return message

    def recv(self, timeout: float = RECV_TIMEOUT) -> dict[str, Any]:
        """The next message (bounded wait)."""
        if self.pending:
            return self.pending.popleft()
        return self._read(timeout)

    def recv_until(self, type_: str, *, limit: int = 200) -> dict[str, Any]:
        """Read messages until one of type ``type_`` arrives (at most ``limit``)."""
        seen = []
        for _ in range(limit):
            message = self.recv()
            if message["type"] == type_:
                return message
            seen.append(message["type"])
            if message["type"] == "websocket.close":
                break
        raise AssertionError(f"{self.name}: no {type_!r} message; got {seen}")

    def drain_until(self, type_: str, *, limit: int = 200) -> list[dict[str, Any]]:
        """The messages up to and including the first of type ``type_``."""
        out = []
        for _ in range(limit):
            out.append(self.recv())
            if out[-1]["type"] in (type_, "websocket.close"):
                break
        assert out and out[-1]["type"] == type_, (self.name, [m["type"] for m in out])
        return out

    def send_raw(self, text: str) -> dict[str, Any]:
        """Send a text frame and return the reply that has no request id."""
        self.ws.send_text(text)
        return self._reply(None)

    def send(self, payload: Any) -> dict[str, Any]:
        """Send a JSON value and return its reply (``accepted`` or ``error``)."""
        self.ws.send_json(payload)
        rid = payload.get("id") if isinstance(payload, dict) else None
        valid = isinstance(rid, str) and 0 < len(rid) <= 64  # else the reply has id null
        return self._reply(rid if valid else None)

    def _reply(self, rid: str | None) -> dict[str, Any]:
        for _ in range(200):
            message = self._read()
            if message["type"] in ("accepted", "error") and message.get("id") == rid:
                return message
            if message["type"] == "websocket.close":
                return message
            self.pending.append(message)
        raise AssertionError(f"{self.name}: no reply to request {rid!r}")

    def cmd(self, type_: str, **fields: Any) -> dict[str, Any]:
        """Send a command with a fresh request id and return its reply."""
        return self.send({"type": type_, "id": f"{self._prefix}-{next(self._ids)}", **fields})

    def ok(self, type_: str, **fields: Any) -> dict[str, Any]:
        """Send a command that must be accepted; return the reply. A ``decide``
        names the street of the last ``decision_required`` read, as a client does
        (docs/protocol.md: which window a command answers).
        """
        if type_ == "decide" and "street" not in fields and self.street is not None:
            fields["street"] = self.street
        reply = self.cmd(type_, **fields)
        assert reply["type"] == "accepted", reply
        return reply


@dataclass
class Player:
    """A signed-in player."""

    id: int
    name: str
    token: str

    @property
    def headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"}


@dataclass
class LiveServer:
    """The app under test with its client and clock."""

    client: TestClient
    clock: ManualClock
    players: list[Player] = field(default_factory=list)

    def sign_in(self, name: str) -> Player:
        r = self.client.post("/api/players", json={"name": name})
        assert r.status_code == 201, r.text
        body = r.json()
        player = Player(body["player"]["id"], name, body["token"])
        self.players.append(player)
        return player

    @contextlib.contextmanager
    def connect(self, player: Player, table: str = "t1") -> Iterator[Conn]:
        with self.client.websocket_connect(f"/ws/tables/{table}") as ws:
            conn = Conn(ws, player.name)
            ws.send_json({"type": "auth", "token": player.token})
            conn.snapshot = conn.recv()
            assert conn.snapshot["type"] == "snapshot", conn.snapshot
            yield conn

    def advance_to(self, message: dict[str, Any]) -> None:
        """Move the clock to the deadline a message announced (a no-op if passed)."""
        deadline = datetime.fromisoformat(message["deadline"])
        seconds = (deadline - self.clock.now()).total_seconds()
        if seconds > 0:
            self.clock.advance(seconds)

    def me(self, player: Player) -> Any:
        r = self.client.get("/api/me", headers=player.headers)
        assert r.status_code == 200, r.text
        return r.json()["balance"]

    def ledger(self, player: Player) -> list[dict[str, Any]]:
        r = self.client.get("/api/ledger", headers=player.headers)
        assert r.status_code == 200, r.text
        entries: list[dict[str, Any]] = r.json()
        return entries

    def history(self, player: Player) -> list[dict[str, Any]]:
        r = self.client.get("/api/history", headers=player.headers)
        assert r.status_code == 200, r.text
        rows: list[dict[str, Any]] = r.json()
        return rows

    def round_detail(self, player: Player, game_number: str) -> dict[str, Any]:
        r = self.client.get(f"/api/history/{game_number}", headers=player.headers)
        assert r.status_code == 200, r.text
        detail: dict[str, Any] = r.json()
        return detail

    def audit(self) -> list[dict[str, Any]]:
        r = self.client.get(
            "/api/operator/audit", headers={"Authorization": f"Bearer {OPERATOR_TOKEN}"}
        )
        assert r.status_code == 200, r.text
        lines: list[dict[str, Any]] = r.json()
        return lines

    def assert_consistent(self, player: Player) -> list[dict[str, Any]]:
        """The balance equals the sum of the ledger and every entry's running balance."""
        return assert_ledger_consistent(self.ledger(player), self.me(player))


def money(value: Any) -> Decimal:
    """A JSON amount as an exact Decimal."""
    return Decimal(str(value))


def assert_ledger_consistent(entries: list[dict[str, Any]], balance: Any) -> list[dict[str, Any]]:
    running = Decimal(0)
    for entry in entries:
        running += money(entry["amount"])
        assert money(entry["balance_after"]) == running, entry
    assert running == money(balance), (running, balance)
    return entries


def entries_of(entries: list[dict[str, Any]]) -> list[tuple[str, str | None, Any, Any]]:
    """Ledger entries as ``(kind, wager, amount, balance_after)``."""
    return [(e["kind"], e["wager"], e["amount"], e["balance_after"]) for e in entries]


@contextlib.contextmanager
def live_server(
    store_url: str,
    tmp_path: Path,
    *,
    seed: int = 6,
    tables: list[dict[str, Any]] | None = None,
    starting_balance: int = 1000,
    store: Store | None = None,
    start: datetime = START,
    shuffler: Shuffler | None = None,
) -> Iterator[LiveServer]:
    """Run the app on ``store_url`` with a manual clock and a seeded shuffler
    (``shuffler`` when given).
    """
    tables_file = write_tables(
        tmp_path / f"tables-{seed}.toml", tables, starting_balance=starting_balance
    )
    settings = Settings(
        database_url=store_url, operator_token=OPERATOR_TOKEN, tables_file=tables_file
    )
    clock = ManualClock(start)
    app = create_app(settings, store=store, clock=clock, shuffler=shuffler or SeededShuffler(seed))
    with TestClient(app) as client:
        yield LiveServer(client, clock)
    assert_every_round_replays(store_url)


def assert_every_round_replays(url: str) -> None:
    """The test of every stored round in the live tests: each round of the database
    replays through the engine to its stored result and ledger entries, as
    ``uth replay --all`` checks them (rounds still open are skipped).
    """
    engine = make_engine(url)
    try:
        store = SqlStore(engine)
        failures = [c.message() for c in check_all(store, store) if not c.ok]
        assert failures == [], "\n".join(failures)
    finally:
        engine.dispose()


def sql(url: str, statement: str, **params: Any) -> list[Any]:
    """Run one SQL ``statement`` on the database at ``url`` (as a forger or an
    operator would, outside the store) and commit; the rows it returns, if any.
    """
    engine = make_engine(url)
    try:
        with engine.begin() as conn:
            result = conn.execute(text(statement), params)
            return list(result.all()) if result.returns_rows else []
    finally:
        engine.dispose()
