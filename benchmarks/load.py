"""Load test for the live table: N players on one table over WebSocket.

Usage (from the repository root)::

    .venv/bin/python benchmarks/load.py --spawn --players 100 --rounds 3
    .venv/bin/python benchmarks/load.py --url http://127.0.0.1:8000 --players 50 --rounds 2

``--spawn`` starts a server subprocess on a free loopback port with a temporary
SQLite database and a temporary tables file with short timers; ``--url`` uses a
running server (loopback only). The script signs in N players over HTTP, opens N
WebSocket connections to ``/ws/tables/<table>``, and plays R rounds each:

* on ``betting_open`` a player waits a random think time (0..``--think`` s), then
  places an Ante of 5..25, sometimes Trips, sometimes an Undo (and the Ante again)
  or a Double; each command waits for its reply before the next is sent;
* on ``decision_required`` it waits a think time and sends ``decide`` with a
  random legal action, or (``--p-timeout``) lets the timer decide;
* it waits for ``settlement`` (or ``bets_declined`` / ``round_voided`` / the next
  ``betting_open`` when it was not dealt in).

What is measured (see docs/benchmarks.md):

* command latency: from sending a command with a unique ``id`` to receiving the
  reply (``accepted`` or ``error``) with that ``id``, on the client's monotonic
  clock; per command type and overall: p50/p95/p99/max.
* settlement time: per round, the *end of decisions* is the moment the last
  decision of the round's last street was sent by a client, or that street's
  deadline when the timer decided for somebody; settlement time is from then to
  each dealt client's receipt of its ``settlement`` message (wall clock; all
  processes are on one machine).
* health probe: ``GET /healthz`` every 0.25 s from the coordinating process, a
  measure of how long the server's event loop takes to answer anything.
* client event-loop lag: how late a 50 ms timer fires in each client process (a
  busy client inflates every latency it measures; reported so it can be judged).
* messages received per second over the measured interval, errors by code,
  rounds completed, server and client CPU time (``--spawn`` only for the server).

Everything is bounded: ``--timeout`` (seconds) stops the run, whatever happens.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import hashlib
import json
import multiprocessing as mp
import os
import random
import resource
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import textwrap
import time
from collections import Counter, defaultdict
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from websockets.asyncio.client import ClientConnection, connect

ROOT = Path(__file__).resolve().parent.parent
STREETS = ("pre_flop", "flop", "river")


# --------------------------------------------------------------------- HTTP
async def http_request(
    host: str, port: int, method: str, path: str, body: Any = None, timeout: float = 30.0
) -> tuple[int, Any]:
    """A minimal HTTP/1.1 request (stdlib only); returns (status, decoded JSON or text)."""
    data = b"" if body is None else json.dumps(body).encode()
    head = (
        f"{method} {path} HTTP/1.1\r\nHost: {host}:{port}\r\nConnection: close\r\n"
        f"Content-Type: application/json\r\nContent-Length: {len(data)}\r\n\r\n"
    )
    reader, writer = await asyncio.wait_for(asyncio.open_connection(host, port), timeout)
    try:
        writer.write(head.encode() + data)
        await writer.drain()
        raw = await asyncio.wait_for(reader.read(), timeout)
    finally:
        writer.close()
        with contextlib.suppress(Exception):
            await writer.wait_closed()
    header, _, payload = raw.partition(b"\r\n\r\n")
    status = int(header.split(b" ", 2)[1])
    if b"transfer-encoding: chunked" in header.lower():
        payload = _unchunk(payload)
    try:
        return status, json.loads(payload)
    except ValueError:
        return status, payload.decode(errors="replace")


def _unchunk(payload: bytes) -> bytes:
    out = b""
    while payload:
        size_line, _, rest = payload.partition(b"\r\n")
        size = int(size_line.split(b";")[0], 16)
        if size == 0:
            break
        out += rest[:size]
        payload = rest[size + 2 :]
    return out


# ------------------------------------------------------------------ the server
def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


TABLES_TOML = """\
starting_balance = {balance}

[[tables]]
id = "{table}"
name = "Load test table"
rules = "live"
betting_seconds = {betting}
yellow_seconds = {yellow}
decision_seconds = {decision}
pause_seconds = {pause}
"""

# The server as `uth serve` runs it (uth.server.runner.serve: its uvicorn options,
# its GC settings, its database lock), configured through UTH_* variables.
SERVER_CODE = """\
import os, sys
from pathlib import Path
from uth.server.config import Settings
from uth.server.runner import serve
db, tables, port = sys.argv[1], sys.argv[2], int(sys.argv[3])
serve(Settings(database_url=db, tables_file=Path(tables), port=port, log_level="warning"))
"""


class SpawnedServer:
    """A server subprocess on a free loopback port with a temporary database."""

    def __init__(self, args: argparse.Namespace) -> None:
        self.dir = Path(tempfile.mkdtemp(prefix="uth-load-"))
        self.port = free_port()
        tables = self.dir / "tables.toml"
        tables.write_text(
            TABLES_TOML.format(
                balance=args.balance,
                table=args.table,
                betting=args.betting_seconds,
                yellow=args.yellow_seconds,
                decision=args.decision_seconds,
                pause=args.pause_seconds,
            )
        )
        self.log = self.dir / "server.log"
        env = dict(os.environ)
        env["PYTHONPATH"] = str(ROOT / "src") + os.pathsep + env.get("PYTHONPATH", "")
        db = f"sqlite:///{self.dir / 'load.db'}"
        launcher = (
            ["-c", SERVER_CODE]
            if args.server_script is None
            else [str(args.server_script.resolve())]
        )
        self.proc = subprocess.Popen(
            [sys.executable, *launcher, db, str(tables), str(self.port)],
            stdout=self.log.open("wb"),
            stderr=subprocess.STDOUT,
            env=env,
            cwd=self.dir,
        )
        self.url = f"http://127.0.0.1:{self.port}"

    async def wait_ready(self, timeout: float = 30.0) -> None:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if self.proc.poll() is not None:
                raise RuntimeError(f"server exited early:\n{self.log_tail()}")
            with contextlib.suppress(OSError, TimeoutError, ValueError, IndexError):
                status, _ = await http_request("127.0.0.1", self.port, "GET", "/healthz", None, 2)
                if status == 200:
                    return
            await asyncio.sleep(0.1)
        raise RuntimeError(f"server not ready after {timeout}s:\n{self.log_tail()}")

    def cpu_seconds(self) -> float | None:
        try:
            fields = Path(f"/proc/{self.proc.pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            return None
        ticks = os.sysconf("SC_CLK_TCK")
        return (int(fields[11]) + int(fields[12])) / ticks  # utime + stime

    def log_tail(self, lines: int = 40) -> str:
        try:
            return "\n".join(self.log.read_text(errors="replace").splitlines()[-lines:])
        except OSError:
            return ""

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)


# ------------------------------------------------------------------ the clients
@dataclass
class Decision:
    street: str
    deadline: float | None  # wall clock (epoch seconds)
    sent: float | None = None  # wall clock of the decide sent, None: timer decides
    accepted: bool = False


@dataclass
class RoundRecord:
    game: str
    placed: bool = False  # an Ante was accepted
    dealt: bool = False
    declined: bool = False
    voided: bool = False
    settled_at: float | None = None  # wall clock of the settlement message
    decisions: list[Decision] = field(default_factory=list)


@dataclass
class WorkerResult:
    worker: int
    clients: int
    connected: int
    connect_failures: int
    latencies: dict[str, list[float]]  # command type -> ms
    errors: dict[str, int]
    messages: int
    message_bytes: int
    msg_types: dict[str, int]
    type_bytes: dict[str, int]
    samples: list[tuple[float, float, str]]
    timeline: list[tuple[float, str]]
    rounds: list[dict[str, Any]]
    loop_lag_ms: list[float]
    cpu_seconds: float
    t_start: float
    t_end: float
    disconnects: int
    unanswered: int
    stalled: bool
    timed_out: bool


class Client:
    """One player: a connection, a reader, and the commands it sends."""

    def __init__(self, shared: Shared, token: str, rng: random.Random, bettor: bool) -> None:
        self.s = shared
        self.token = token
        self.bettor = bettor
        self.pauses = 0
        self.rng = rng
        self.ws: ClientConnection | None = None
        self.pending: dict[str, tuple[float, float, str, asyncio.Future[dict[str, Any]]]] = {}
        self.observer = False  # one client per process logs what it receives (timeline)
        self.seq = 0
        self.rounds: list[RoundRecord] = []
        self.current: RoundRecord | None = None
        self.done = asyncio.Event()
        self.task: asyncio.Task[None] | None = None
        self.started = False

    async def connect(self, url: str) -> dict[str, Any]:
        self.ws = await connect(
            url,
            open_timeout=60,
            ping_interval=None,
            max_size=None,
            compression=self.s.compression,
        )
        await self.ws.send(json.dumps({"type": "auth", "token": self.token}))
        first = json.loads(await asyncio.wait_for(self.ws.recv(), 60))
        if first.get("type") != "snapshot":
            raise RuntimeError(f"expected a snapshot, got {first}")
        return first

    async def command(self, kind: str, **fields: Any) -> dict[str, Any] | None:
        assert self.ws is not None
        self.seq += 1
        rid = f"{kind}-{self.seq}"
        fut: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self.pending[rid] = (time.monotonic(), time.time(), kind, fut)
        try:
            await self.ws.send(json.dumps({"type": kind, "id": rid, **fields}))
            return await asyncio.wait_for(fut, 30)
        except Exception:
            self.pending.pop(rid, None)
            self.s.unanswered += 1
            return None

    async def read(self) -> None:
        assert self.ws is not None
        try:
            async for raw in self.ws:
                self.s.messages += 1
                self.s.message_bytes += len(raw)
                m = json.loads(raw)
                self.s.type_bytes[m.get("type", "?")] += len(raw)
                self.on_message(m)
        except Exception:
            self.s.disconnects += 1
        finally:
            self.done.set()

    def spawn(self, coro: Any) -> None:
        task = asyncio.ensure_future(coro)
        self.s.tasks.add(task)
        task.add_done_callback(self.s.tasks.discard)

    def on_message(self, m: dict[str, Any]) -> None:
        kind = m.get("type", "?")
        self.s.msg_types[kind] += 1
        if kind not in ("accepted", "error"):
            self.s.last_progress = time.monotonic()
            if self.observer and self.s.start.is_set():
                self.s.timeline.append((round(time.time(), 4), kind))
        rid = m.get("id")
        if kind in ("accepted", "error") and rid in self.pending:
            sent, wall, cmd, fut = self.pending.pop(rid)
            ms = (time.monotonic() - sent) * 1000
            self.s.latencies[cmd].append(ms)
            self.s.samples.append((round(wall, 4), round(ms, 2), cmd))
            if kind == "error":
                self.s.errors[f"{cmd}:{m.get('code')}"] += 1
            if not fut.done():
                fut.set_result(m)
            return
        if kind == "betting_open":
            self.finish_round()
            if not self.started and self.s.start.is_set():
                self.started = True
            if not self.bettor:
                return
            if self.started and len(self.rounds) < self.s.rounds:
                self.current = RoundRecord(str(m.get("game_number")))
                self.rounds.append(self.current)
                self.spawn(self.bet(self.current))
            elif self.started:
                self.done.set()
            return
        if kind == "pause" and self.started and not self.bettor:
            self.pauses += 1  # a spectator is done when R rounds were played
            if self.pauses >= self.s.rounds:
                self.done.set()
            return
        rec = self.current
        if rec is None or m.get("game_number", rec.game) != rec.game:
            return
        if kind == "hole_cards_dealt":
            rec.dealt = True
        elif kind == "decision_required":
            rec.dealt = True  # with a shared hand, the deal itself is broadcast to all
            d = Decision(str(m.get("street")), _epoch(m.get("deadline")))
            rec.decisions.append(d)
            self.spawn(self.decide(d, list(m.get("legal_actions") or [])))
        elif kind == "settlement":
            rec.settled_at = time.time()
            self.finish_round()
        elif kind == "bets_declined":
            rec.declined = True
            self.finish_round()
        elif kind == "round_voided":
            rec.voided = True
            self.finish_round()

    def finish_round(self) -> None:
        if self.current is not None:
            self.current = None
            if len(self.rounds) >= self.s.rounds:
                self.done.set()

    async def bet(self, rec: RoundRecord) -> None:
        rng = self.rng
        await asyncio.sleep(rng.uniform(0, self.s.think))
        ante = rng.randint(5, 25)
        r = await self.command("place_bet", spot="ante", amount=ante)
        rec.placed = bool(r and r["type"] == "accepted")
        if rng.random() < self.s.p_undo:
            await asyncio.sleep(rng.uniform(0, self.s.think / 4))
            r = await self.command("undo")
            r = await self.command("place_bet", spot="ante", amount=ante)
            rec.placed = bool(r and r["type"] == "accepted")
        if rec.placed and rng.random() < self.s.p_trips:
            await asyncio.sleep(rng.uniform(0, self.s.think / 4))
            await self.command("place_bet", spot="trips", amount=rng.randint(5, ante))
        if rec.placed and rng.random() < self.s.p_double:
            await asyncio.sleep(rng.uniform(0, self.s.think / 4))
            await self.command("double")

    async def decide(self, d: Decision, legal: list[str]) -> None:
        if not legal or self.rng.random() < self.s.p_timeout:
            return  # the timer decides
        await asyncio.sleep(self.rng.uniform(0, self.s.think))
        d.sent = time.time()
        r = await self.command("decide", action=self.rng.choice(legal), street=d.street)
        d.accepted = bool(r and r["type"] == "accepted")


@dataclass
class Shared:
    rounds: int
    think: float
    p_trips: float
    p_undo: float
    p_double: float
    p_timeout: float
    compression: str | None
    start: asyncio.Event
    last_progress: float = 0.0
    latencies: defaultdict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    errors: Counter[str] = field(default_factory=Counter)
    msg_types: Counter[str] = field(default_factory=Counter)
    type_bytes: Counter[str] = field(default_factory=Counter)
    samples: list[tuple[float, float, str]] = field(default_factory=list)
    timeline: list[tuple[float, str]] = field(default_factory=list)
    messages: int = 0
    message_bytes: int = 0
    disconnects: int = 0
    unanswered: int = 0
    tasks: set[asyncio.Task[Any]] = field(default_factory=set)


def _epoch(iso: Any) -> float | None:
    if not isinstance(iso, str):
        return None
    return datetime.fromisoformat(iso).timestamp()


async def _loop_lag(out: list[float], stop: asyncio.Event) -> None:
    while not stop.is_set():
        t = time.monotonic()
        await asyncio.sleep(0.05)
        out.append((time.monotonic() - t - 0.05) * 1000)


async def worker_main(
    index: int,
    cfg: dict[str, Any],
    tokens: list[str],
    ready: Any,
    go: Any,
    deadline: float,
) -> WorkerResult:
    start = asyncio.Event()
    shared = Shared(
        rounds=cfg["rounds"],
        think=cfg["think"],
        p_trips=cfg["p_trips"],
        p_undo=cfg["p_undo"],
        p_double=cfg["p_double"],
        p_timeout=cfg["p_timeout"],
        compression=None if cfg["compression"] == "none" else "deflate",
        start=start,
    )
    rng = random.Random(cfg["seed"] * 1000 + index)
    clients = [
        Client(shared, t, random.Random(rng.random()), g < cfg["bettors"])
        for t, g in zip(tokens, cfg["indices"], strict=True)
    ]
    if clients:
        clients[0].observer = True
    sem = asyncio.Semaphore(cfg["connect_concurrency"])
    failures = 0

    async def open_one(c: Client) -> None:
        nonlocal failures
        async with sem:
            try:
                await c.connect(cfg["ws_url"])
            except Exception as exc:
                failures += 1
                if failures <= 3:
                    print(f"worker {index}: connect failed: {exc!r}", file=sys.stderr)
                c.ws = None
                return
        c.task = asyncio.ensure_future(c.read())

    await asyncio.gather(*(open_one(c) for c in clients))
    live = [c for c in clients if c.ws is not None]
    ready.put(("ready", index, len(live)))
    while not go.is_set():  # wait for the coordinator (all workers connected)
        if time.time() > deadline:
            break
        await asyncio.sleep(0.01)
    cpu0 = sum(os.times()[:2])
    lag: list[float] = []
    stop = asyncio.Event()
    lag_task = asyncio.ensure_future(_loop_lag(lag, stop))
    shared.messages = shared.message_bytes = 0
    shared.msg_types.clear()
    shared.type_bytes.clear()
    t_start = time.time()
    shared.last_progress = time.monotonic()
    start.set()
    stalled = False
    all_done = asyncio.ensure_future(asyncio.gather(*(c.done.wait() for c in live)))
    while not all_done.done() and time.time() < deadline:
        await asyncio.wait([all_done], timeout=0.2)
        if time.monotonic() - shared.last_progress > cfg["stall"]:
            stalled = True  # the table sent nothing for too long: stop, and say so
            break
    timed_out = not all_done.done() and not stalled
    all_done.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await all_done
    t_end = time.time()
    shared.unanswered += sum(len(c.pending) for c in live)  # still waiting at the stop
    stop.set()
    cpu1 = sum(os.times()[:2])
    for t in [*shared.tasks, lag_task]:
        t.cancel()
    closing = [asyncio.ensure_future(c.ws.close()) for c in live if c.ws is not None]
    if closing:
        await asyncio.wait(closing, timeout=10)  # a busy server may not answer: don't wait
    for t in [*closing, *(c.task for c in live if c.task)]:
        t.cancel()
    rounds = [{**asdict(r), "client": f"{index}-{i}"} for i, c in enumerate(live) for r in c.rounds]
    return WorkerResult(
        worker=index,
        clients=len(clients),
        connected=len(live),
        connect_failures=failures,
        latencies=dict(shared.latencies),
        errors=dict(shared.errors),
        messages=shared.messages,
        message_bytes=shared.message_bytes,
        msg_types=dict(shared.msg_types),
        type_bytes=dict(shared.type_bytes),
        samples=shared.samples,
        timeline=shared.timeline,
        rounds=rounds,
        loop_lag_ms=lag,
        cpu_seconds=cpu1 - cpu0,
        t_start=t_start,
        t_end=t_end,
        disconnects=shared.disconnects,
        unanswered=shared.unanswered,
        stalled=stalled,
        timed_out=timed_out,
    )


def worker_process(
    index: int,
    cfg: dict[str, Any],
    tokens: list[str],
    ready: Any,
    go: Any,
    results: Any,
    deadline: float,
) -> None:
    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    with contextlib.suppress(ValueError, OSError):
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    try:
        res = asyncio.run(worker_main(index, cfg, tokens, ready, go, deadline))
        results.put(("result", index, asdict(res)))
    except BaseException as exc:
        results.put(("failed", index, repr(exc)))
        ready.put(("failed", index, 0))


# --------------------------------------------------------------- coordinator
def pct(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    s = sorted(values)
    k = min(len(s) - 1, max(0, round(p / 100 * (len(s) - 1))))
    return s[k]


def summary(values: list[float]) -> dict[str, float | int]:
    return {
        "n": len(values),
        "p50": pct(values, 50),
        "p95": pct(values, 95),
        "p99": pct(values, 99),
        "max": max(values) if values else float("nan"),
        "mean": statistics.fmean(values) if values else float("nan"),
    }


def settlement_times(rounds: list[dict[str, Any]]) -> tuple[list[float], dict[str, Any]]:
    """Per game: the end of decisions and each dealt client's settlement delay (ms)."""
    by_game: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for r in rounds:
        by_game[r["game"]].append(r)
    out: list[float] = []
    games: dict[str, Any] = {}
    for game, recs in by_game.items():
        decisions = [d for r in recs for d in r["decisions"]]
        if not decisions:
            games[game] = {"dealt": sum(r["dealt"] for r in recs), "settled": 0}
            continue
        last = max(STREETS.index(d["street"]) for d in decisions)
        on_last = [d for d in decisions if STREETS.index(d["street"]) == last]
        timed_out = [d for d in on_last if not d["accepted"]]
        if timed_out:
            end = max(d["deadline"] for d in on_last if d["deadline"] is not None)
            how = "deadline"
        else:
            end = max(d["sent"] for d in on_last)
            how = "last_decision"
        delays = [(r["settled_at"] - end) * 1000 for r in recs if r["settled_at"] is not None]
        out.extend(delays)
        games[game] = {
            "placed": sum(r["placed"] for r in recs),
            "dealt": sum(r["dealt"] for r in recs),
            "declined": sum(r["declined"] for r in recs),
            "voided": sum(r["voided"] for r in recs),
            "settled": len(delays),
            "last_street": STREETS[last],
            "end_of_decisions": how,
            "settlement_ms": summary(delays) if delays else None,
        }
    return out, games


async def probe(
    host: str, port: int, out: list[float], stamps: list[tuple[float, float]], stop: asyncio.Event
) -> None:
    while not stop.is_set():
        t = time.monotonic()
        wall = time.time()
        try:
            await http_request(host, port, "GET", "/healthz", None, 30)
            out.append((time.monotonic() - t) * 1000)
        except Exception:
            out.append(float("inf"))
        stamps.append((round(wall, 4), round(out[-1], 2)))
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), 0.25)


async def sign_in(host: str, port: int, n: int, concurrency: int) -> tuple[list[str], list[float]]:
    sem = asyncio.Semaphore(concurrency)
    times: list[float] = []

    async def one(i: int) -> str:
        async with sem:
            t = time.monotonic()
            status, body = await http_request(
                host, port, "POST", "/api/players", {"name": f"load-{i:05d}"}
            )
            times.append((time.monotonic() - t) * 1000)
            if status != 201:
                raise RuntimeError(f"sign-in failed: {status} {body}")
            return str(body["token"])

    tokens = await asyncio.gather(*(one(i) for i in range(n)))
    return list(tokens), times


def start_py_spy(
    args: argparse.Namespace, server: SpawnedServer | None
) -> subprocess.Popen[bytes] | None:
    """Sample the spawned server with py-spy during the measured interval (optional)."""
    if not args.py_spy or server is None:
        return None
    exe = shutil.which("py-spy") or str(Path(sys.executable).parent / "py-spy")
    fmt = "flamegraph" if str(args.py_spy).endswith(".svg") else "raw"
    return subprocess.Popen(
        [
            *(exe, "record", "--nonblocking", "--rate", "50", "--format", fmt),
            *("--output", str(args.py_spy), "--pid", str(server.proc.pid)),
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


def stop_py_spy(spy: subprocess.Popen[bytes] | None) -> None:
    if spy is None:
        return
    spy.send_signal(signal.SIGINT)
    try:
        spy.wait(30)
    except subprocess.TimeoutExpired:
        spy.kill()


def source_digest() -> str:
    """A digest of src/ (the working tree may hold uncommitted changes)."""
    h = hashlib.sha256()
    for path in sorted((ROOT / "src").rglob("*.py")):
        h.update(str(path.relative_to(ROOT)).encode() + b"\0" + path.read_bytes())
    return h.hexdigest()[:16]


async def coordinate(args: argparse.Namespace) -> dict[str, Any]:
    t_begin = time.time()
    deadline = t_begin + args.timeout
    server: SpawnedServer | None = None
    if args.spawn:
        server = SpawnedServer(args)
        print(f"server pid {server.proc.pid} on {server.url} (dir {server.dir})", file=sys.stderr)
        await server.wait_ready()
        url = server.url
    else:
        url = args.url
    parts = urlsplit(url)
    host, port = parts.hostname or "127.0.0.1", parts.port or 80
    if host not in ("127.0.0.1", "localhost", "::1"):
        raise SystemExit("--url: loopback only (127.0.0.1, localhost)")
    ws_url = f"ws://{host}:{port}/ws/tables/{args.table}"
    try:
        t0 = time.monotonic()
        tokens, signin_ms = await sign_in(host, port, args.players, args.connect_concurrency)
        signin_s = time.monotonic() - t0
        print(f"signed in {len(tokens)} players in {signin_s:.1f}s", file=sys.stderr)
        cfg = {
            "rounds": args.rounds,
            "think": args.think,
            "p_trips": args.p_trips,
            "p_undo": args.p_undo,
            "p_double": args.p_double,
            "p_timeout": args.p_timeout,
            "compression": args.compression,
            "seed": args.seed,
            "connect_concurrency": max(1, args.connect_concurrency // args.procs),
            "ws_url": ws_url,
            "bettors": args.players if args.bettors is None else args.bettors,
            "stall": args.stall,
        }
        ctx = mp.get_context("spawn")
        ready, results, go = ctx.Queue(), ctx.Queue(), ctx.Event()
        procs = []
        for i in range(args.procs):
            share = tokens[i :: args.procs]
            wcfg = {**cfg, "indices": list(range(i, len(tokens), args.procs))}
            p = ctx.Process(
                target=worker_process,
                args=(i, wcfg, share, ready, go, results, deadline),
                daemon=True,
            )
            p.start()
            procs.append(p)
        t0 = time.monotonic()
        connected = 0
        loop = asyncio.get_running_loop()
        for _ in procs:
            remaining = max(1.0, deadline - time.time())
            _, _, n = await loop.run_in_executor(None, ready.get, True, remaining)
            connected += n
        connect_s = time.monotonic() - t0
        print(f"connected {connected} WebSockets in {connect_s:.1f}s", file=sys.stderr)
        spy = start_py_spy(args, server)
        cpu0 = server.cpu_seconds() if server else None
        health: list[float] = []
        health_stamps: list[tuple[float, float]] = []
        stop = asyncio.Event()
        probe_task = asyncio.ensure_future(probe(host, port, health, health_stamps, stop))
        t_start = time.monotonic()
        go.set()
        collected: list[dict[str, Any]] = []
        failed: list[str] = []
        for _ in procs:
            remaining = max(1.0, deadline + 30 - time.time())
            try:
                kind, idx, payload = await loop.run_in_executor(None, results.get, True, remaining)
            except Exception:
                failed.append("a worker did not report in time")
                break
            if kind == "result":
                collected.append(payload)
            else:
                failed.append(f"worker {idx}: {payload}")
        elapsed = time.monotonic() - t_start
        stop_py_spy(spy)
        stop.set()
        await probe_task
        cpu1 = server.cpu_seconds() if server else None
        for p in procs:
            p.join(5)
            if p.is_alive():
                p.terminate()
        server_alive = server.proc.poll() is None if server else None
        try:
            status, hz = await http_request(host, port, "GET", "/healthz", None, 10)
        except (TimeoutError, OSError) as exc:
            status, hz = 0, f"no answer: {exc!r}"
    finally:
        log_tail = ""
        if server:
            server.stop()  # the log is read after the shutdown: a dead table task shows there
            log_tail = server.log_tail()
            shutil.rmtree(server.dir, ignore_errors=True)
    lat: dict[str, list[float]] = defaultdict(list)
    errors: Counter[str] = Counter()
    msg_types: Counter[str] = Counter()
    type_bytes: Counter[str] = Counter()
    rounds: list[dict[str, Any]] = []
    for w in collected:
        for k, v in w["latencies"].items():
            lat[k].extend(v)
        errors.update(w["errors"])
        msg_types.update(w["msg_types"])
        type_bytes.update(w["type_bytes"])
        rounds.extend(w["rounds"])
    all_lat = [x for v in lat.values() for x in v]
    settle, games = settlement_times(rounds)
    messages = sum(w["messages"] for w in collected)
    measured = (
        max(w["t_end"] for w in collected) - min(w["t_start"] for w in collected)
        if collected
        else 0.0
    )
    finished_games = [g for g, v in games.items() if v["settled"]]
    return {
        "config": {k: v for k, v in vars(args).items()},
        "date_utc": datetime.fromtimestamp(t_begin, UTC).strftime("%Y-%m-%d %H:%M:%S"),
        "src_sha256": source_digest(),
        "players": args.players,
        "connected": sum(w["connected"] for w in collected),
        "connect_failures": sum(w["connect_failures"] for w in collected),
        "signin_s": round(signin_s, 2),
        "signin_ms": summary(signin_ms),
        "connect_s": round(connect_s, 2),
        "elapsed_s": round(elapsed, 2),
        "latency_ms": summary(all_lat),
        "latency_ms_by_command": {k: summary(v) for k, v in sorted(lat.items())},
        "errors": dict(errors.most_common()),
        "errors_total": sum(errors.values()),
        "unanswered": sum(w["unanswered"] for w in collected),
        "disconnects": sum(w["disconnects"] for w in collected),
        "settlement_ms": summary(settle),
        "games": games,
        "rounds_completed": len(finished_games),
        "player_rounds_settled": sum(1 for r in rounds if r["settled_at"] is not None),
        "player_rounds_started": len(rounds),
        "messages": messages,
        "measured_s": round(measured, 2),
        "messages_per_s": round(messages / measured, 1) if measured else None,
        "message_mb": round(sum(w["message_bytes"] for w in collected) / 1e6, 2),
        "message_types": {
            k: {"count": n, "mb": round(type_bytes[k] / 1e6, 2)} for k, n in msg_types.most_common()
        },
        "healthz_ms": summary([h for h in health if h != float("inf")]),
        "healthz_failures": sum(1 for h in health if h == float("inf")),
        "client_loop_lag_ms": summary([x for w in collected for x in w["loop_lag_ms"]]),
        "client_cpu_s": round(sum(w["cpu_seconds"] for w in collected), 1),
        "server_cpu_s": round(cpu1 - cpu0, 1) if cpu0 is not None and cpu1 is not None else None,
        "server_alive": server_alive,
        "final_healthz": hz if status == 200 else status,
        "worker_failures": failed,
        "stalled": any(w["stalled"] for w in collected),
        "timed_out": any(w["timed_out"] for w in collected),
        "server_log_tail": log_tail,
        "raw": {
            "command_samples": sorted(x for w in collected for x in w["samples"]),
            "healthz_samples": health_stamps,
            "timeline": sorted(x for w in collected for x in w["timeline"]),
        },
    }


def fmt(v: Any) -> str:
    if isinstance(v, float):
        return "nan" if v != v else f"{v:.1f}"
    return str(v)


def report(r: dict[str, Any]) -> str:
    lines = [
        f"players {r['players']} (connected {r['connected']}, connect failures "
        f"{r['connect_failures']}), bettors {r['config']['bettors'] or r['players']}, "
        f"rounds asked {r['config']['rounds']}, procs {r['config']['procs']}",
        f"sign-in {r['signin_s']}s, connect {r['connect_s']}s, measured {r['measured_s']}s "
        f"(start signal to last client done; {r['elapsed_s']}s with shutdown)",
        "command latency (ms):",
    ]
    rows = [("all", r["latency_ms"]), *r["latency_ms_by_command"].items()]
    for name, s in rows:
        lines.append(
            f"  {name:<10} n={s['n']:<6} p50={fmt(s['p50'])} p95={fmt(s['p95'])} "
            f"p99={fmt(s['p99'])} max={fmt(s['max'])}"
        )
    s = r["settlement_ms"]
    lines += [
        f"settlement (ms) n={s['n']} p50={fmt(s['p50'])} p95={fmt(s['p95'])} "
        f"p99={fmt(s['p99'])} max={fmt(s['max'])}",
        f"healthz (ms) p50={fmt(r['healthz_ms']['p50'])} p99={fmt(r['healthz_ms']['p99'])} "
        f"max={fmt(r['healthz_ms']['max'])} failures={r['healthz_failures']}",
        f"client loop lag (ms) p99={fmt(r['client_loop_lag_ms']['p99'])} "
        f"max={fmt(r['client_loop_lag_ms']['max'])}",
        f"errors {r['errors_total']} {r['errors']}; unanswered {r['unanswered']} (no reply "
        "in 30 s or the run stopped first; not in the latency figures); "
        f"disconnects {r['disconnects']}",
        f"rounds completed {r['rounds_completed']}; player-rounds settled "
        f"{r['player_rounds_settled']}/{r['player_rounds_started']}",
        f"messages {r['messages']} ({r['messages_per_s']}/s, {r['message_mb']} MB): "
        + ", ".join(f"{k} {v['count']} ({v['mb']} MB)" for k, v in r["message_types"].items()),
        f"cpu: server {r['server_cpu_s']}s over {r['elapsed_s']}s, clients {r['client_cpu_s']}s "
        f"over {r['measured_s']}s; server alive {r['server_alive']}",
        f"final /healthz: {json.dumps(r['final_healthz'])}",
    ]
    for game, g in r["games"].items():
        lines.append(f"  game {game}: {json.dumps(g)}")
    if r["timed_out"]:
        lines.append(f"TIMED OUT after --timeout {r['config']['timeout']}s")
    if r["stalled"]:
        lines.append(f"STALLED: the table sent nothing for {r['config']['stall']}s")
    if r["worker_failures"]:
        lines.append(f"worker failures: {r['worker_failures']}")
    if r["server_log_tail"].strip():
        lines.append("server log (tail):")
        lines.append(textwrap.indent(r["server_log_tail"], "  "))
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    target = ap.add_mutually_exclusive_group(required=True)
    target.add_argument("--url", help="a running server, loopback only (http://127.0.0.1:8000)")
    target.add_argument("--spawn", action="store_true", help="start a server subprocess")
    ap.add_argument("--players", type=int, default=100)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--table", default="live-1")
    ap.add_argument(
        "--bettors",
        type=int,
        help="only the first K players bet; the others watch (default: all bet)",
    )
    ap.add_argument(
        "--stall", type=float, default=20, help="stop when the table sends nothing this long (s)"
    )
    ap.add_argument("--procs", type=int, default=1, help="client processes")
    ap.add_argument("--timeout", type=float, default=300, help="overall limit (s)")
    ap.add_argument("--think", type=float, default=1.0, help="max think time per action (s)")
    ap.add_argument("--p-trips", type=float, default=0.3)
    ap.add_argument("--p-undo", type=float, default=0.1)
    ap.add_argument("--p-double", type=float, default=0.1)
    ap.add_argument("--p-timeout", type=float, default=0.05, help="let the timer decide")
    ap.add_argument("--compression", choices=("deflate", "none"), default="deflate")
    ap.add_argument("--connect-concurrency", type=int, default=50)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--betting-seconds", type=float, default=3)
    ap.add_argument("--yellow-seconds", type=float, default=1)
    ap.add_argument("--decision-seconds", type=float, default=3)
    ap.add_argument("--pause-seconds", type=float, default=1)
    ap.add_argument("--balance", type=int, default=100000)
    ap.add_argument("--json", type=Path, help="write the full result as JSON here")
    ap.add_argument(
        "--server-script",
        type=Path,
        help="with --spawn: run this Python file as the server instead of the built-in "
        "launcher (argv: database URL, tables file, port), e.g. to measure a prototype",
    )
    ap.add_argument(
        "--py-spy",
        type=Path,
        help="with --spawn: sample the server with py-spy while measuring (.svg: flame "
        "graph, otherwise collapsed stacks); py-spy takes CPU too",
    )
    args = ap.parse_args(argv)
    if args.players < 1 or args.rounds < 1 or args.procs < 1:
        ap.error("--players, --rounds and --procs must be positive")
    result = asyncio.run(coordinate(args))
    print(report(result))
    if args.json:
        args.json.write_text(json.dumps(result, indent=2, default=str))
    return 0


if __name__ == "__main__":
    sys.exit(main())
